"""The pad never moves while a turn is entered, and what the next tap needs is in view.

For one turn of each game, on a 390×844 phone with the page scrolled as a player leaves it
(the header gone, the band stuck on top), the top of each of the pad's parts is measured
before and after every tap: the largest movement is printed for the closing note, and must
be 0 px. Then: Tarot's Record button, or its refusal, stays in view while the handfuls are
chosen further down; after "Record round" the next round's first field is in view, clear of
the band, even from the bottom of a round of eight."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Locator, Page, expect

from .helpers import MakePage, shoot
from .test_every_screen import CUT
from .test_small_screens import start
from .test_tarot_keeper import WORDS as TAROT_WORDS
from .test_tarot_keeper import choice, set_up

SCROLLED_Y = 64
TOPS = """(selectors) => Object.fromEntries(selectors.map(s => { const e = document.querySelector(s);
  return [s, e && e.getClientRects().length ? e.getBoundingClientRect().top : null]; }))"""
FIGURES: dict[str, float] = {}


@dataclass
class PadWatch:
    """Taps on the pad, each measured: how far each part of the pad moved on the screen."""

    page: Page
    parts: list[str]
    moves: list[float] = field(default_factory=list)
    worst: str = ""

    def tops(self) -> dict[str, float | None]:
        found: dict[str, float | None] = self.page.evaluate(TOPS, self.parts)
        return found

    def tap(self, target: Locator) -> None:
        # A target under the fold is scrolled to first, as a thumb does: what is measured is
        # how the pad moves under the tap, not the scroll before it.
        target.scroll_into_view_if_needed()
        before = self.tops()
        table = self.page.locator("#table").element_handle()
        target.click()
        self.page.wait_for_function("table => !table.isConnected", arg=table)
        self.page.wait_for_timeout(50)  # a frame or two: any late layout would show
        after = self.tops()
        for part, top in before.items():
            moved = after[part]
            if top is None or moved is None:
                continue
            if abs(moved - top) > max(self.moves, default=0):
                self.worst = f"{part} after {target}"
            self.moves.append(abs(moved - top))

    def report(self, game: str) -> float:
        largest = max(self.moves)
        FIGURES[game] = largest
        print(
            f"\npad stays · {game}: largest movement of the pad over {len(self.moves)} measures: {largest:.1f} px"
            + (f" ({self.worst})" if largest else "")
        )
        # Less than half a pixel is the layout's rounding of fractional sizes, not a movement.
        return round(largest)


def scrolled(page: Page) -> None:
    page.evaluate(f"window.scrollTo({{top: {SCROLLED_Y}, behavior: 'instant'}})")
    expect(page.locator(".band")).to_be_in_viewport()


@pytest.mark.parametrize(("width", "lang"), [(390, "en"), (320, "fr")])
def test_pickomino_a_dice_turn_and_the_turns_after_it(make_page: MakePage, width: int, lang: str):
    page = make_page(viewport={"width": width, "height": 844 if width == 390 else 640})
    start(page, "pickomino", 3)
    page.goto(page.url.replace("/en/", f"/{lang}/") + "?pad=dice")
    expect(page.locator(".face-pad")).to_be_visible()
    scrolled(page)
    watch = PadWatch(page, [".tabs", ".pad__prompt", ".dice-pad", ".roll", ":is(.face-pad, .keep-buttons)"])
    for faces, kept in (
        (["worm", "worm", "5", "5", "5", "1", "2", "3"], "worm"),
        (["5", "4", "4", "4", "2", "1"], "4"),
    ):
        for face in faces:
            place = 6 if face == "worm" else int(face)  # the faces in their order, the worm last
            watch.tap(page.locator(f".face-pad li:nth-child({place}) a"))
            cut = page.evaluate(CUT, ".dice-kept__sum, .roll__title, .pad__prompt")
            assert cut == [], f"cut at {width} px: {cut}"
        watch.tap(page.locator(f'.keep-buttons a[data-face="{kept}"]'))
    shoot(page, f"pad-01-pickomino-dice-{width}-{lang}", full_page=False)
    assert page.evaluate(
        "document.querySelector('.dice-pad').scrollWidth <= document.querySelector('.dice-pad').clientWidth"
    )
    # The tiles pad, turn after turn: "Bust…" keeps its place as tiles are taken and stolen.
    page.locator(".tabs a").first.click()
    expect(page.locator(".grill")).to_be_visible()
    scrolled(page)
    turns = PadWatch(page, [".tabs", ".grill", ".bust-entry"])
    for tile in (25, 26, 27, 28):
        turns.tap(page.locator(f'.grill button[data-key="{tile}"]'))
    largest = max(
        watch.report(f"pickomino at {width} px ({lang}), a dice turn"),
        turns.report(f"pickomino at {width} px ({lang}), turns of the tiles pad"),
    )
    assert largest == 0


@pytest.mark.parametrize("assistant", [False, True])
def test_yahtzee_two_turns_of_dice(make_page: MakePage, assistant: bool):
    page = make_page()
    start(page, "yahtzee", 2)
    if assistant:
        page.get_by_role("button", name="Turn the assistant on (which dice to keep, which box)").click()
        expect(page.locator(".advice")).to_be_visible()
    scrolled(page)
    watch = PadWatch(page, [".pad__prompt", ".yz-entry", ":is(.yz-faces, .yz-keep)", ".yz-boxes"])
    for _ in range(2):
        for face in (3, 3, 4, 5, 6):
            watch.tap(page.locator(f'.yz-faces a[data-key="{face}"]'))
        watch.tap(page.locator(".yz-box__button").first)
    shoot(page, f"pad-02-yahtzee{'-assistant' if assistant else ''}", full_page=False)
    assert watch.report(f"yahtzee{', the assistant on' if assistant else ''}") == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_tarot_the_choices_of_each_step_start_where_the_last_ones_did(make_page: MakePage, lang: str):
    words = TAROT_WORDS[lang]
    page = make_page(locale="fr-FR" if lang == "fr" else "en-US")
    set_up(page, words, ["Amélie", "Marie-Christine", "Dominique", "Jean-Baptiste", "Éloïse"])
    scrolled(page)
    watch = PadWatch(page, ["#deal-title", ".choices"])
    for label in ("Amélie", "Garde", "Éloïse", "2"):
        watch.tap(choice(page, label))
    expect(page.get_by_label(words.points, exact=True)).to_be_focused()
    assert watch.report(f"tarot ({lang})") == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_tarot_record_and_its_refusal_stay_in_view_while_the_handfuls_are_chosen(make_page: MakePage, lang: str):
    words = TAROT_WORDS[lang]
    page = make_page(viewport={"width": 320, "height": 640}, locale="fr-FR" if lang == "fr" else "en-US")
    names = ["Amélie", "Marie-Christine", "Dominique", "Jean-Baptiste", "Éloïse"]
    set_up(page, words, names)
    for label in ("Amélie", "Garde", "Éloïse", "2"):
        choice(page, label).click()
    points = page.get_by_label(words.points, exact=True)
    expect(points).to_be_focused()  # the last step drawn: the field its script listens to is in place
    page.wait_for_function("() => document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling') === null")
    points.fill("45")
    expect(page.locator("#deal-record")).to_be_visible()
    page.locator("#deal-extras > summary").click()
    bar_top = page.locator(".bar").evaluate("el => el.getBoundingClientRect().top")
    shown: list[str] = []
    for seat in range(len(names)):
        double = page.locator(".handful").nth(seat).locator(".segment").nth(2)
        double.evaluate("el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
        double.click()
        answer = page.locator("#deal-record, .record-box .preview__refusal").first
        expect(answer).to_be_in_viewport()
        expect(page.locator(".record-box")).not_to_be_disabled()
        answer_box = answer.evaluate("el => el.getBoundingClientRect().toJSON()")
        assert answer_box["bottom"] <= bar_top + 1  # above the bar, not under it
        shown.append(answer.inner_text()[:40])
    shoot(page, f"pad-03-tarot-refusal-in-view-{lang}", full_page=False)
    print(f"\npad stays · tarot at 320×640 ({lang}): after each handful, in view: {shown}")
    assert shown[0].startswith(words.record.format(n=1))
    expect(page.locator(".record-box .preview__refusal")).to_be_in_viewport()  # five doubles: too many trumps


@pytest.mark.parametrize("game", ["sheet", "skyjo"])
def test_after_record_round_the_next_first_field_is_in_view_clear_of_the_band(make_page: MakePage, game: str):
    page = make_page(viewport={"width": 320, "height": 640})
    start(page, game, 8)
    fields = page.locator("#pad .round-form input[type=text]")
    for round_ in range(2):
        for index in range(fields.count()):
            fields.nth(index).fill(str(round_ + index))
        ended_by = page.locator('#pad input[name="in_ended_by"]')
        if ended_by.count():
            ended_by.first.check()
        record = page.locator("#pad .round-form button[type=submit]").first
        record.evaluate("el => el.scrollIntoView({block: 'end', behavior: 'instant'})")  # the thumb at the bottom
        table = page.locator("#table").element_handle()
        record.click()
        page.wait_for_function("table => !table.isConnected", arg=table)
        page.wait_for_timeout(50)
        first = page.locator(":focus")
        expect(first).to_have_count(1)
        assert first.evaluate("el => el.closest('.round-form') !== null")  # the new round's first control
        band_bottom = page.locator(".band").evaluate("el => el.getBoundingClientRect().bottom")
        top = first.evaluate("el => el.getBoundingClientRect().top")
        print(
            f"\npad stays · {game} of eight at 320×640, round {round_ + 2}: first field at {top:.0f} px,"
            f" the band ends at {band_bottom:.0f} px"
        )
        assert top >= band_bottom
        expect(first).to_be_in_viewport()
    shoot(page, f"pad-04-{game}-next-round-320", full_page=False)
