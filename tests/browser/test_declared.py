"""The four games declared as data, each played whole in a real phone browser against a real
server: from the home page's card, through the set-up page and its options, every round on
the pad drawn from the game file (the points shown before recording), a refusal naming the
rule where the thumb is, undo, to the end with its standings and the tie-break in words.

Skyjo and 7 Wonders in English, Skull King and Ticket to Ride in French. Every tap and key
is counted (``Taps``), and the counts are printed: they are the figures of docs/game-file.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Locator, Page, expect

from .helpers import BrowserLog, MakePage, assert_accessible, shoot

pytestmark = pytest.mark.browser

MINUS = "\u2212"
TABLE_ADDRESS = re.compile(r"/(en|fr)/tables/[A-Za-z0-9_-]{22}/$")
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"


@dataclass
class Taps:
    """What a player does on the screen: taps (a click, a tick, a focus before typing) and
    keys typed."""

    page: Page
    taps: int = 0
    keys: int = 0
    marks: dict[str, tuple[int, int]] = field(default_factory=dict)

    def tap(self, target: Locator) -> None:
        target.click()
        self.taps += 1

    def type(self, target: Locator, text: str) -> None:
        target.click()
        target.fill(text)
        self.taps += 1
        self.keys += len(text)

    def field(self, name: str) -> Locator:
        return self.page.locator(f"#f-{name.replace('_', '-')}")

    def more(self, name: str, times: int = 1) -> None:
        for _ in range(times):
            self.tap(self.page.locator(f'.stepper--more[data-for="f-{name.replace("_", "-")}"]'))

    def mark(self, name: str) -> None:
        self.marks[name] = (self.taps, self.keys)

    def since(self, name: str) -> tuple[int, int]:
        taps, keys = self.marks[name]
        return self.taps - taps, self.keys - keys


def set_up(page: Page, taps: Taps, names: list[str], player_label: str, start: str) -> None:
    for seat, name in enumerate(names):
        taps.type(page.get_by_label(player_label.format(n=seat + 1), exact=True), name)
    taps.tap(page.get_by_role("button", name=start))
    expect(page).to_have_url(TABLE_ADDRESS)


def from_the_home_card(page: Page, taps: Taps, language: str, game: str, keep: str) -> None:
    """The home page's card, the game's rules page, its button to keep score."""
    page.goto(f"/{language}/")
    link = page.locator(".card").get_by_role("link", name=game, exact=True)
    link.scroll_into_view_if_needed()
    taps.tap(link)
    expect(page.get_by_role("heading", level=1)).to_have_text(game)
    taps.tap(page.get_by_role("link", name=keep, exact=True).first)


def points_shown(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("output.points").all_inner_texts()]


def band(page: Page) -> list[str]:
    return page.locator(".band__score").all_inner_texts()


def test_a_whole_game_of_skyjo_in_english_the_ender_doubled_then_the_lowest_wins(make_page: MakePage):
    page = make_page()
    log = BrowserLog.attach(page)
    taps = Taps(page)
    from_the_home_card(page, taps, "en", "Skyjo", "Keep score")
    expect(page.get_by_role("heading", level=1)).to_have_text("New Skyjo match")
    taps.type(page.get_by_label("The game ends at"), "40")
    set_up(page, taps, ["Ada", "Ben", "Cy", "Dee"], "Player {n}", "Start the match")
    expect(page.locator(".band__status")).to_have_text("Round 1")
    expect(page.locator(".declared-rules")).to_have_text("Lowest total wins · ends when a total reaches 40")
    assert_accessible(page, "skyjo-round-1")

    taps.mark("round")
    taps.tap(page.locator(".choices--names .choice").filter(has_text="Ada"))
    for seat, cards in enumerate(["15", "10", "22", "8"]):
        taps.type(taps.field(f"in_cards_{seat}"), cards)
    # The round's points before it is recorded: Ada ended it without the fewest, doubled.
    expect(page.locator("output.points")).to_have_text(["30 pts", "10 pts", "22 pts", "8 pts"])
    shoot(page, "skyjo-01-round-1-typed", full_page=False)
    taps.tap(page.get_by_role("button", name="Record round 1"))
    round_taps = taps.since("round")
    expect(page.locator(".band__status")).to_have_text("Round 2")
    expect(page.locator(".band__score")).to_have_text(["30 points", "10 points", "22 points", "8 points"])
    print(f"Skyjo, a round of 4 players: {round_taps[0]} taps, {round_taps[1]} keys")

    # Out of bounds: refused in words, where the thumb is, what was typed kept.
    taps.tap(page.locator(".choices--names .choice").filter(has_text="Dee"))
    for seat, cards in enumerate(["141", "3", "9", "1"]):
        taps.type(taps.field(f"in_cards_{seat}"), cards)
    taps.tap(page.get_by_role("button", name="Record round 2"))
    expect(page.locator(".bar__text")).to_have_text("“Cards left (Ada)” must be from −17 to 140 (not 141).")
    expect(taps.field("in_cards_1")).to_have_value("3")
    expect(taps.field("in_cards_0")).to_have_attribute("aria-invalid", "true")
    taps.type(taps.field("in_cards_0"), "12")
    taps.tap(page.get_by_role("button", name="Record round 2"))
    # 42 passes the target: the game is over, the lowest total wins.
    expect(page.locator(".band__status")).to_have_text("Dee wins with 9.")
    expect(page.locator(".standings tbody tr").first).to_contain_text("Dee")
    expect(page.locator(".chart__line")).to_have_count(4)
    expect(page.locator(".round-form")).to_have_count(0)
    shoot(page, "skyjo-02-the-end")
    assert_accessible(page, "skyjo-the-end")

    # Undo from the bar: the last round is taken back, the pad is back.
    taps.tap(page.locator(".bar").get_by_role("button", name="Undo"))
    expect(page.locator(".band__status")).to_have_text("Round 2")
    expect(page.locator(".band__score")).to_have_text(["30 points", "10 points", "22 points", "8 points"])
    assert page.evaluate(OVERFLOW) <= 0
    assert log.mentioning("Content Security Policy") == []
    assert [line for line in log.errors() if "status of 422" not in line] == []


def test_a_whole_game_of_skull_king_in_french_bids_then_tricks_a_refusal_by_the_rule(make_page: MakePage):
    page = make_page(locale="fr-FR")
    log = BrowserLog.attach(page)
    taps = Taps(page)
    from_the_home_card(page, taps, "fr", "Skull King", "Tenir le score")
    expect(page.get_by_role("heading", level=1)).to_have_text("Nouvelle partie de Skull King")
    taps.type(page.get_by_label("Cartes distribuées, manche par manche"), "2, 3")
    names = ["Aïcha", "Bruno", "Chloé", "Denis", "Élodie"]
    set_up(page, taps, names, "Joueur {n}", "Commencer la partie")
    expect(page.locator(".band__status")).to_have_text("Manche 1 sur 2")

    # Round 1, 2 cards: the bids first, then the tricks, as the table plays it.
    taps.mark("round")
    taps.more("in_bid_0")
    taps.more("in_bid_1")
    taps.more("in_tricks_0")
    taps.more("in_tricks_1")
    expect(page.locator("output.points")).to_have_text(["20 pts", "20 pts", "20 pts", "20 pts", "20 pts"])
    taps.tap(page.get_by_role("button", name="Noter la manche 1"))
    round_taps = taps.since("round")
    expect(page.locator(".band__status")).to_have_text("Manche 2 sur 2")
    print(f"Skull King, a round of 5 players: {round_taps[0]} taps, {round_taps[1]} keys")
    assert_accessible(page, "skull-king-round-2-fr")

    # Round 2, 3 cards: tricks adding up to 2 are refused by the rule, in French.
    taps.more("in_bid_0", 2)
    taps.more("in_tricks_0", 2)
    taps.type(taps.field("in_bonus_0"), "30")
    expect(page.locator(".declared-preview")).to_contain_text("Les plis doivent faire le nombre de cartes")
    taps.tap(page.get_by_role("button", name="Noter la manche 2"))
    expect(page.locator(".bar__text")).to_contain_text("Les plis doivent faire le nombre de cartes distribuées")
    expect(taps.field("in_bonus_0")).to_have_value("30")
    taps.more("in_tricks_2")  # Chloé, who bid 0, takes the third trick
    expect(page.locator("output.points")).to_have_text(["70 pts", "30 pts", "−30 pts", "30 pts", "30 pts"])
    taps.tap(page.get_by_role("button", name="Noter la manche 2"))
    expect(page.locator(".band__status")).to_have_text("Aïcha gagne avec 90.")
    expect(page.locator(".band__score")).to_have_text(
        ["90 points", "50 points", "−10 points", "50 points", "50 points"]
    )
    shoot(page, "skull-king-01-fr-the-end")
    assert_accessible(page, "skull-king-the-end-fr")
    assert page.evaluate(OVERFLOW) <= 0
    assert [line for line in log.errors() if "status of 422" not in line] == []


SEVEN_WONDERS = {  # the rules file's "tie broken by coins", and two more players
    "military": ["9", "3", "-3", "1", "0"],
    "coins": ["5", "7", "3", "4", "0"],
    "wonder": ["10", "15", "5", "3", "0"],
    "civilian": ["20", "18", "10", "4", "2"],
    "commercial": ["3", "7", "0", "0", "0"],
    "guilds": ["5", "5", "0", "0", "0"],
}
SCIENCE = [(1, 1, 0, 0), (0, 0, 0, 0), (2, 2, 2, 0), (0, 0, 0, 0), (4, 1, 0, 1)]


def test_7_wonders_final_scores_of_five_players_in_english_a_tie_broken_by_coins(make_page: MakePage):
    page = make_page()
    log = BrowserLog.attach(page)
    taps = Taps(page)
    from_the_home_card(page, taps, "en", "7 Wonders", "Keep score")
    set_up(page, taps, ["Ada", "Ben", "Cy", "Dee", "Eve"], "Player {n}", "Start the match")
    expect(page.locator(".band__status")).to_have_text("Final scoring")
    taps.mark("scores")
    for key, values in SEVEN_WONDERS.items():
        for seat, value in enumerate(values):
            if value.startswith("-"):
                taps.type(taps.field(f"in_{key}_{seat}"), value[1:])
                taps.tap(page.locator(f'label.sign:has(input[name="minus_{key}_{seat}"])'))
            elif value != "0":
                taps.type(taps.field(f"in_{key}_{seat}"), value)
            else:
                taps.type(taps.field(f"in_{key}_{seat}"), "0")
        if key == "military":
            # The first category typed, the others still empty: each player's running total
            # in the band, always in view above the booklet, marked as not yet recorded.
            expect(page.locator(".band__score")).to_have_text(["9", "3", "−3", "1", "0 points"], use_inner_text=True)
            expect(page.locator(".band__player--pending")).to_have_count(4)
    for seat, symbols in enumerate(SCIENCE):
        for part, count in zip(("compass", "gear", "tablet", "wild"), symbols, strict=True):
            if count:
                taps.type(taps.field(f"in_science_{part}_{seat}"), str(count))
    expect(page.locator("output.points")).to_have_text(["50 pts", "50 pts", "39 pts", "9 pts", "28 pts"])
    expect(page.locator(".band__score")).to_have_text(["50", "50", "39", "9", "28"], use_inner_text=True)
    shoot(page, "seven-wonders-01-the-entry")
    assert_accessible(page, "seven-wonders-entry")
    taps.tap(page.get_by_role("button", name="Record the final scores"))
    entry = taps.since("scores")
    print(f"7 Wonders, the final score of 5 players: {entry[0]} taps, {entry[1]} keys")
    expect(page.locator(".band__status")).to_have_text("Ben wins with 50.")
    expect(page.locator(".band__player--pending")).to_have_count(0)
    expect(page.locator(".standings__tie-break, .tie-break")).to_have_text(
        "Ben and Ada are tied on points; the tie goes to the most coins (Ben 7, Ada 5)."
    )
    expect(page.locator(".standings tbody tr").first).to_contain_text("Ben")
    grid = page.locator(".grid tbody tr").filter(has=page.locator('th:text-is("Science")'))
    expect(grid.locator("td")).to_have_text(["2", "0", "26", "0", "26"])
    shoot(page, "seven-wonders-02-the-end")
    assert_accessible(page, "seven-wonders-the-end")
    assert page.evaluate(OVERFLOW) <= 0
    assert [line for line in log.errors() if "status of 422" not in line] == []


TICKET_TO_RIDE = [  # the rules file's "tie broken by completed tickets"
    ({"3": "3", "4": "3", "6": "2"}, "24", "3", "0", False),
    ({"4": "2", "5": "2", "6": "3"}, "21", "1", "23", True),
    ({"1": "2", "2": "5"}, "9", "1", "4", False),
]


def test_ticket_to_ride_final_scores_in_french_the_path_is_needed_and_tickets_break_the_tie(make_page: MakePage):
    page = make_page(locale="fr-FR")
    log = BrowserLog.attach(page)
    taps = Taps(page)
    from_the_home_card(page, taps, "fr", "Les Aventuriers du Rail", "Tenir le score")
    set_up(page, taps, ["Aïcha", "Bruno", "Chloé"], "Joueur {n}", "Commencer la partie")
    expect(page.locator(".band__status")).to_have_text("Décompte final")
    taps.mark("scores")
    for seat, (routes, completed, count, failed, _path) in enumerate(TICKET_TO_RIDE):
        for length, number in routes.items():
            taps.type(taps.field(f"in_routes_{length}_{seat}"), number)
        taps.type(taps.field(f"in_tickets_completed_{seat}"), completed)
        taps.type(taps.field(f"in_completed_count_{seat}"), count)
        taps.type(taps.field(f"in_tickets_failed_{seat}"), failed)
    # Nobody holds the longest path yet: refused by the rule, in French.
    taps.tap(page.get_by_role("button", name="Noter le décompte final"))
    expect(page.locator(".bar__text")).to_have_text(
        "Quelqu’un a le plus long chemin\u00a0: cochez-le (tous les ex æquo)."
    )
    expect(taps.field("in_tickets_completed_0")).to_have_value("24")
    taps.tap(page.locator('label.toggle[for="f-in-longest-path-1"]'))
    expect(page.locator("output.points")).to_have_text(["87 pts", "87 pts", "17 pts"])
    taps.tap(page.get_by_role("button", name="Noter le décompte final"))
    entry = taps.since("scores")
    print(f"Ticket to Ride, the final score of 3 players: {entry[0]} taps, {entry[1]} keys")
    expect(page.locator(".band__status")).to_have_text("Aïcha gagne avec 87.")
    expect(page.locator(".standings__tie-break, .tie-break")).to_contain_text("le plus de destinations réussies")
    shoot(page, "ticket-to-ride-01-fr-the-end")
    assert_accessible(page, "ticket-to-ride-the-end-fr")
    assert page.evaluate(OVERFLOW) <= 0
    assert [line for line in log.errors() if "status of 422" not in line] == []


def keep_score_link(page: Page) -> str:
    link = page.get_by_role("link", name=re.compile("^(Keep score too|Tenir le score aussi)$")).get_attribute("href")
    assert link
    assert "#key=" in link
    return link


def record_skyjo(page: Page, ender: str, cards: list[str], button: str) -> None:
    page.locator(".choices--names .choice").filter(has_text=ender).click()
    for seat, value in enumerate(cards):
        page.locator(f"#f-in-cards-{seat}").fill(value)
    page.get_by_role("button", name=button).click()


def test_two_phones_and_a_watcher_follow_a_skyjo_match_live_and_a_half_typed_round_is_said_dropped(
    make_page: MakePage,
):
    ada = make_page()
    ada.goto("/en/tables/new/skyjo/")
    for seat, name in enumerate(["Ada", "Ben", "Cy"]):
        ada.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    ada.get_by_role("button", name="Start the match").click()
    expect(ada).to_have_url(TABLE_ADDRESS)
    table = ada.url
    ben = make_page(locale="fr-FR")
    ben.goto(keep_score_link(ada).replace("/en/", "/fr/"))
    expect(ben).to_have_url(re.compile(r"/fr/tables/[A-Za-z0-9_-]{22}/$"))
    expect(ben.get_by_role("button", name="Noter la manche 1")).to_be_visible()
    watcher = make_page()
    watcher.goto(table)
    expect(watcher.get_by_text("You are watching this match")).to_be_visible()

    record_skyjo(ada, "Ada", ["15", "10", "22"], "Record round 1")
    # Nobody reloads: the other phones redraw by themselves.
    expect(ben.locator(".band__status")).to_have_text("Manche 2")
    expect(ben.locator(".band__score")).to_have_text(["30 points", "10 points", "22 points"])
    expect(watcher.locator(".band__status")).to_have_text("Round 2")

    # Ben starts typing round 2 while Ada records it: Ben's half-typed round is dropped, and said so.
    ben.locator("#f-in-cards-0").fill("7")
    record_skyjo(ada, "Ben", ["5", "1", "9"], "Record round 2")
    expect(ben.locator(".bar__text")).to_have_text(
        "Un autre appareil a changé les scores\u00a0: ce que vous aviez saisi a été abandonné."
    )
    expect(ben.locator("#f-in-cards-0")).to_have_value("")
    expect(ben.locator(".band__status")).to_have_text("Manche 3")
    shoot(ben, "skyjo-03-second-phone-fr")

    record_skyjo(ben, "Cy", ["2", "3", "1"], "Noter la manche 3")
    expect(ada.locator(".band__status")).to_have_text("Round 4")
    expect(ada.locator(".band__score")).to_have_text(["37 points", "14 points", "32 points"])
    expect(watcher.locator(".band__score")).to_have_text(["37 points", "14 points", "32 points"])
