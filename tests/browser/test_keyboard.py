"""Every game played from the keyboard alone, on a 390×844 phone, in a real browser: the
skip link reaches the pad in at most 3 Tabs, the focus stays in the pad after every step
(never on the page's body), and one common turn of each game takes at most its taps + 3 key
presses (letters and digits typed to pick a control count as presses; the digits of a score
count as the taps' typed keys do). The figures are printed for the closing note."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import MakePage

TABLE_ADDRESS = re.compile(r"/en/tables/[A-Za-z0-9_-]{22}/$")


class Keys:
    """The keys pressed (not the characters of a value typed into a field: those are typed
    on a phone too), and where the focus is after each."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.presses = 0
        self.typed = 0

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)
            self.presses += 1
            self.page.wait_for_load_state()

    def type_value(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.typed += len(text)

    def settle(self) -> None:
        """Wait until the pad holds the focus again (after a redraw)."""
        self.page.wait_for_function(
            "() => document.activeElement && document.activeElement !== document.body"
            " && document.activeElement.closest('#table') !== null"
            " && document.querySelector('.htmx-request') === null"
        )


def start(page: Page, game: str, names: list[str], **fields: str) -> None:
    page.goto(f"/en/tables/new/{game}/")
    for seat, name in enumerate(names):
        page.locator(f'input[name="name_{seat}"]').fill(name)
    for name, value in fields.items():
        page.locator(f'[name="{name}"]').fill(value)
    page.locator('form button[type="submit"]').last.click()
    expect(page).to_have_url(TABLE_ADDRESS)
    page.wait_for_load_state("load")  # the page's scripts are there, as a player's first key finds them


def to_the_pad(keys: Keys) -> int:
    """From the top of the page to the pad's first control: the Tabs pressed (the skip link
    first, Enter, then the pad's first control). The turn is counted from there: the focus
    stays in the pad from one turn to the next."""
    page = keys.page
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to the pad")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#pad') !== null")
    return 2


FIGURES: dict[str, dict[str, int]] = {}


def record(game: str, taps: int, keys: Keys, tabs: int) -> None:
    FIGURES[game] = {"taps": taps, "keys": keys.presses, "typed": keys.typed, "tabs_to_pad": tabs}
    print(f"\nkeyboard · {game}: {keys.presses} key presses for a turn of {taps} taps; {tabs} Tabs to the pad")
    assert tabs <= 3
    assert keys.presses <= taps + 3


def focus_in_pad(page: Page) -> None:
    """The focus ends in the pad once the table is drawn (htmx's swap and settle are over)."""
    try:
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.closest('#pad') !== null"
            " && document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling') === null",
            timeout=5_000,
        )
    except PlaywrightTimeout as error:
        raise AssertionError(page.evaluate("document.activeElement.outerHTML.slice(0, 200)")) from error


def test_pickomino_a_tile_taken_from_the_keyboard(make_page: MakePage):
    page = make_page()
    start(page, "pickomino", ["Ada", "Ben"])
    keys = Keys(page)
    tabs = to_the_pad(keys)
    keys.press("2")
    keys.press("7")  # the tile's number picks it
    expect(page.locator(":focus")).to_have_attribute("data-key", "27")
    keys.press("Enter")
    expect(page.locator(".bar__text")).to_contain_text("Ada took 27")
    keys.settle()
    focus_in_pad(page)
    # taps: the tile (1); keys: "2", "7", Enter.
    record("pickomino", 1, keys, tabs)


def test_yahtzee_five_dice_and_a_box_from_the_keyboard(make_page: MakePage):
    page = make_page()
    start(page, "yahtzee", ["Ada", "Ben"])
    keys = Keys(page)
    tabs = to_the_pad(keys)
    for face in "22256":
        keys.press(face)  # a die's face adds it, however fast they are typed
    keys.settle()
    focus_in_pad(page)
    expect(page.locator('input[name="dice"]')).to_have_value("22256")
    keys.press("t")  # Twos, the first box starting with t
    expect(page.locator(":focus")).to_contain_text("Twos")
    keys.press("Enter")
    expect(page.locator(".bar__text")).to_contain_text("Ada · Twos 6")
    keys.settle()
    focus_in_pad(page)
    record("yahtzee", 6, keys, tabs)


def test_tarot_a_deal_from_the_keyboard(make_page: MakePage):
    page = make_page()
    start(page, "tarot", ["Ada", "Ben", "Cy", "Dee"])
    keys = Keys(page)
    tabs = to_the_pad(keys)
    keys.press("b")  # Ben took
    keys.press("Enter")
    keys.settle()
    keys.press("g")  # Garde
    keys.press("Enter")
    keys.settle()
    keys.press("2")  # 2 bouts
    keys.press("Enter")
    keys.settle()
    expect(page.locator("#points")).to_be_focused()
    keys.type_value("47")
    record_button = page.locator("#deal-record")
    expect(record_button).to_be_visible()
    keys.settle()  # the score shown, as a player reads it before recording
    keys.press("Enter")  # the phone's Done: to Record, past the extras
    expect(record_button).to_be_focused()
    keys.press("Enter")
    expect(page.locator(".bar__text")).to_contain_text("Ben", timeout=15_000)
    keys.settle()
    focus_in_pad(page)
    # taps: the taker, the contract, the bouts, the points field, Record (5).
    record("tarot", 5, keys, tabs)


def test_a_score_sheet_round_from_the_keyboard_enter_goes_to_the_next_field(make_page: MakePage):
    page = make_page()
    start(page, "sheet", ["Ada", "Ben", "Cy"])
    keys = Keys(page)
    tabs = to_the_pad(keys)
    expect(page.locator("#score-0")).to_be_focused()
    keys.type_value("12")
    keys.press("Enter")  # the phone's Next: the next field, not the round sent half-typed
    expect(page.locator("#score-1")).to_be_focused()
    assert page.locator(".band__status").inner_text() == "Round 1"
    keys.type_value("3")
    keys.press("Enter")
    keys.type_value("0")
    keys.press("Enter")  # the last field: the round is recorded
    expect(page.locator(".band__status")).to_have_text("Round 2")
    keys.settle()
    focus_in_pad(page)
    # taps: each field (3) and Record (1).
    record("sheet", 4, keys, tabs)


@pytest.mark.parametrize("game", ["skyjo"])
def test_a_declared_game_s_round_from_the_keyboard(make_page: MakePage, game: str):
    page = make_page()
    start(page, game, ["Ada", "Ben"], target="100")
    keys = Keys(page)
    tabs = to_the_pad(keys)
    # Who ended the round: Ada, the first choice, where the pad's focus is.
    expect(page.locator(":focus")).to_have_attribute("name", "in_ended_by")
    keys.press("Space")
    keys.press("Tab")  # past the choices, to Ada's cards
    expect(page.locator(":focus")).to_have_attribute("name", "in_cards_0")
    keys.type_value("5")
    keys.press("Enter")
    keys.type_value("9")
    keys.press("Enter")
    expect(page.locator(".band__status")).to_contain_text("Round 2")
    keys.settle()
    focus_in_pad(page)
    # taps: Ada's choice, each field (2), Record (1).
    record(game, 4, keys, tabs)
