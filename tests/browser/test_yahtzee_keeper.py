"""Yahtzee's keeper in a real phone browser (390×844) against a real server, in English and in
French: a whole two-player game to the end, a refused entry, undo from the bar, the joker and
the Yahtzee bonus, the assistant followed for a turn, a second phone following live; the
taps of a turn counted, the pad checked never to move, screenshots in test-output/yahtzee/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.keepers.yahtzee.game import FINAL_TOTAL, TURNS

from .helpers import OUTPUT_DIR, BrowserLog, MakePage, assert_accessible

pytestmark = pytest.mark.browser

SHOTS = OUTPUT_DIR / "yahtzee"
TABLE_ADDRESS = re.compile(r"/(en|fr)/tables/[A-Za-z0-9_-]{22}/$")
NBSP = "\u00a0"
TAPS_PER_TURN = 6  # five dice, one box


@dataclass(frozen=True)
class Words:
    new: str
    player: str
    start: str
    die: str
    undo: str
    assistant_on: str
    assistant_off: str
    points: str
    write: str
    status: str
    refused: str
    joker: str
    joker_note: str
    joker_prompt: str
    advised: str
    result: str


WORDS = {
    "en": Words(
        new="/en/tables/new/yahtzee/",
        player="Player {n}",
        start="Start the match",
        die="A die showing {face}",
        undo="Undo",
        assistant_on="Turn the assistant on (which dice to keep, which box)",
        assistant_off="Assistant on: turn it off",
        points="Write points instead of dice…",
        write="Write the points",
        status="{name}’s turn · round {round} of 13",
        refused="No five dice give 7 in Full house: check the points.",
        joker="joker: Fours first",
        joker_note="Joker rule: with the Yahtzee box filled, five 4s must go in Fours while it is open.",
        joker_prompt="Ada: 4 4 4 4 4. Joker rule: Fours only.",
        advised="Advised: keep 3 3 and roll 3 dice",
        result=f"Ada wins with {FINAL_TOTAL}.",
    ),
    "fr": Words(
        new="/fr/tables/nouvelle/yahtzee/",
        player="Joueur {n}",
        start="Commencer la partie",
        die="Un dé qui montre {face}",
        undo="Annuler",
        assistant_on="Activer l’assistant (quels dés garder, quelle case)",
        assistant_off=f"Assistant activé{NBSP}: le désactiver",
        points="Écrire des points plutôt que les dés…",
        write="Écrire les points",
        status="À {name} · manche {round} sur 13",
        refused=f"Aucun lancer de cinq dés ne donne 7 en Full{NBSP}: vérifiez les points.",
        joker=f"joker{NBSP}: Quatre d’abord",
        joker_note=(
            f"Règle du joker{NBSP}: la case Yahtzee remplie, cinq 4 doivent aller en Quatre tant qu’elle est libre."
        ),
        joker_prompt=f"Ada{NBSP}: 4 4 4 4 4. Règle du joker{NBSP}: Quatre seulement.",
        advised=f"Conseil{NBSP}: garder 3 3 et relancer 3 dés",
        result=f"Ada gagne avec {FINAL_TOTAL}.",
    ),
}


class Phone:
    """The scorekeeper's phone: every tap goes through ``tap`` and is counted."""

    def __init__(self, page: Page, words: Words, language: str) -> None:
        self.page, self.words, self.language = page, words, language
        self.taps = 0

    def tap(self, target: Locator) -> None:
        self.taps += 1
        target.click()

    def shoot(self, name: str, *, full_page: bool = False) -> Path:
        path = SHOTS / f"{self.language}-{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    def seq(self, value: int) -> None:
        expect(self.page.locator("#table")).to_have_attribute("data-seq", str(value))

    def die(self, face: int) -> Locator:
        return self.page.get_by_role("link", name=self.words.die.format(face=face), exact=True)

    def box(self, key: str) -> Locator:
        return self.page.locator(f'button[name="box"][value="{key}"]')

    def slots_filled(self, count: int) -> None:
        expect(self.page.locator(".yz-slot--filled")).to_have_count(count)

    def dice(self, *faces: int, already: int = 0) -> None:
        for index, face in enumerate(faces):
            self.tap(self.die(face))
            self.slots_filled(already + index + 1)

    def turn(self, box: str, dice: tuple[int, ...], seq: int) -> int:
        """Enter a turn by taps (the dice, then the box); the taps it took."""
        before = self.taps
        self.dice(*dice)
        self.tap(self.box(box))
        self.seq(seq)
        return self.taps - before


def pad_top(page: Page) -> float:
    box = page.locator(".yz-boxes").bounding_box()
    assert box is not None
    return float(box["y"])


def assert_every_box_above_the_bar(page: Page) -> None:
    """The thirteen boxes of the pad are on screen, none under the bar, without scrolling."""
    bar = page.locator("#bar").bounding_box()
    last = page.locator(".yz-box").last.bounding_box()
    assert bar is not None
    assert last is not None
    assert page.evaluate("window.scrollY") == 0
    assert last["y"] + last["height"] <= bar["y"], (last, bar)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_whole_game_on_a_phone(make_page: MakePage, language: str):
    words = WORDS[language]
    page = make_page(locale="fr-FR" if language == "fr" else "en-US")
    log = BrowserLog.attach(page)
    phone = Phone(page, words, language)

    # Set up: two players, the assistant off (the default).
    page.goto(words.new)
    page.get_by_label(words.player.format(n=1), exact=True).fill("Ada")
    page.get_by_label(words.player.format(n=2), exact=True).fill("Ben")
    expect(page.locator('input[name="assistant"]')).not_to_be_checked()
    page.get_by_role("button", name=words.start).click()
    expect(page).to_have_url(TABLE_ADDRESS)
    table_url = page.url
    expect(page.locator("#band-status")).to_have_text(words.status.format(round=1, name="Ada"))
    phone.shoot("01-new-table")
    assert_accessible(page, f"yahtzee-{language}-new-table")

    # A second phone follows the sheets live, without keeping score.
    watcher = make_page(locale="fr-FR" if language == "fr" else "en-US")
    watcher.goto(table_url)
    expect(watcher.locator(".watching")).to_be_visible()

    # A refused entry: points no five dice can give, said in the bar; nothing recorded.
    page.get_by_text(words.points).click()
    page.locator('.yz-points__form select[name="box"]').select_option("full_house")
    page.locator('.yz-points__form input[name="points"]').fill("7")
    page.get_by_role("button", name=words.write).click()
    expect(page.locator(".bar__text")).to_have_text(words.refused)
    phone.seq(0)
    phone.shoot("02-refused-points")

    # Round 1, Ada, with the assistant: it values the sheet, then is followed for the turn.
    phone.tap(page.get_by_role("button", name=words.assistant_on))
    expect(page.locator(".advice__headline")).to_contain_text("254")
    page.evaluate("window.scrollTo(0, 0)")  # back up to the pad, as the player would
    phone.taps = 0
    top = pad_top(page)
    assert_every_box_above_the_bar(page)
    phone.dice(1, 3, 3, 4, 6)
    assert pad_top(page) == top, "the box list moved while dice were tapped"
    advised = page.locator(".yz-keep__button")
    expect(advised).to_contain_text(words.advised)
    phone.shoot("03-assistant-keep")
    phone.tap(advised)
    phone.slots_filled(2)
    phone.dice(3, 3, 3, already=2)  # the three dice rolled again: five 3s
    expect(page.locator(".yz-box--advised .yz-box__button")).to_have_attribute("value", "yahtzee")
    phone.shoot("04-assistant-box")
    phone.tap(phone.box("yahtzee"))
    phone.seq(1)
    assistant_taps = phone.taps
    assert assistant_taps == 5 + 1 + 3 + 1  # roll 1, the advised keep, roll 2, the box
    phone.tap(page.get_by_role("button", name=words.assistant_off))
    expect(page.locator(".advice")).to_have_count(0)
    page.evaluate("window.scrollTo(0, 0)")

    # Ben's first turn, taken back from the bar, then entered again.
    assert phone.turn("chance", (1, 1, 2, 3, 4), seq=2) == TAPS_PER_TURN
    expect(watcher.locator("#band-status")).to_have_text(words.status.format(round=2, name="Ada"))
    phone.tap(page.locator(".bar__undo button"))
    phone.seq(3)
    expect(page.locator("#band-status")).to_have_text(words.status.format(round=1, name="Ben"))
    phone.shoot("05-undone")
    seq = 3
    box, dice = TURNS[0]
    seq += 1
    phone.turn(box, dice, seq)

    # The rest of the game, turn by turn: Ada then Ben each round.
    turn_taps: list[int] = []
    for round_index in range(1, len(TURNS)):
        box, dice = TURNS[round_index]
        for player in ("Ada", "Ben"):
            expect(page.locator("#band-status")).to_have_text(words.status.format(round=round_index + 1, name=player))
            if round_index == 1 and player == "Ada":
                # Five 4s with the Yahtzee box holding 50: the joker refuses every box but Fours.
                phone.dice(*dice)
                expect(page.locator(".yz-joker")).to_contain_text(words.joker_note)
                expect(page.locator(".pad__prompt")).to_have_text(words.joker_prompt)
                expect(page.locator(".yz-box--refused").first).to_contain_text(words.joker)
                expect(page.locator('button[name="box"]')).to_have_count(1)
                phone.shoot("06-joker-refused-boxes")
                assert_accessible(page, f"yahtzee-{language}-joker")
                phone.tap(phone.box(box))
                seq += 1
                phone.seq(seq)
                expect(page.locator(".bar__text")).to_contain_text("+100")
                continue
            if round_index == 12 and player == "Ben":
                # Ben's last turn: a lower total, so Ada wins alone.
                dice = (1, 1, 1, 2, 2)
            seq += 1
            turn_taps.append(phone.turn(box, dice, seq))
            if round_index == 6 and player == "Ada":
                phone.shoot("07-mid-game", full_page=True)

    assert set(turn_taps) == {TAPS_PER_TURN}
    # The end: the standings, the chart, no pad.
    expect(page.locator("#band-status")).to_have_text(words.result)
    expect(page.locator(".standings tbody tr")).to_have_count(2)
    expect(page.locator(".chart polyline")).to_have_count(2)
    expect(page.locator(".face-button")).to_have_count(0)
    expect(watcher.locator("#band-status")).to_have_text(words.result)
    phone.shoot("08-end")
    phone.shoot("09-end-full", full_page=True)
    assert_accessible(page, f"yahtzee-{language}-end")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") == 0
    # The one error the browser logs is the refused points' answer (422), shown in the bar.
    assert [line for line in log.errors() if "status of 422" not in line] == [], log.console


def test_the_box_list_and_every_sheet_fit_a_small_phone_with_eight_players(make_page: MakePage):
    page = make_page(viewport={"width": 320, "height": 640})
    page.goto("/en/tables/new/yahtzee/")
    for seat, name in enumerate(["Ada", "Bartholomew", "Cy", "Dora", "Eve", "Fitzgerald", "Gus", "Hélène"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(TABLE_ADDRESS)
    phone = Phone(page, WORDS["en"], "en")
    phone.dice(2, 3, 4, 5, 6)
    expect(page.locator('button[name="box"]')).to_have_count(13)
    phone.shoot("10-eight-players-320px", full_page=True)
    # The page never scrolls sideways: the sheets scroll in their own box.
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") == 0
    assert_accessible(page, "yahtzee-eight-players")


def test_the_yahtzee_table_in_dark_mode_has_no_serious_accessibility_finding(make_page: MakePage):
    page = make_page(color_scheme="dark")
    log = BrowserLog.attach(page)
    words = WORDS["en"]
    page.goto(words.new)
    for seat, name in enumerate(["Ada", "Ben"]):
        page.get_by_label(words.player.format(n=seat + 1), exact=True).fill(name)
    page.get_by_role("button", name=words.start).click()
    phone = Phone(page, words, "en")
    assert_accessible(page, "yahtzee-table-dark")
    phone.dice(1, 3, 3, 4, 6)
    assert_accessible(page, "yahtzee-box-list-dark")
    phone.shoot("11-dark")
    phone.tap(phone.box("chance"))
    phone.seq(1)
    assert log.mentioning("Content Security Policy") == []
