"""Groups in a real phone browser (390×844) against a real server, in English and in French:
a group made in one step, two matches of two games played from its page (a one-round score
sheet, a two-player Yahtzee written as points), its history and stats moving, a player
renamed, the finished match sent to BG Stats (the push link's JSON read back), its result
card and Web Share, the history exported (JSON, CSV) and imported back as a new group, a
second phone seeing and then changing the group, a match and the group deleted. Axe in light
and dark, no sideways scroll, the taps from the group page to a started match counted;
full-page screenshots in test-output/groups/."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from .helpers import OUTPUT_DIR, BrowserLog, MakePage, assert_accessible, file_name

pytestmark = pytest.mark.browser

SHOTS = OUTPUT_DIR / "groups"
GROUP_ADDRESS = re.compile(r"/(?:en/groups|fr/groupes)/([A-Za-z0-9_-]+)/$")
TABLE_ADDRESS = re.compile(r"/(en|fr)/tables/[A-Za-z0-9_-]{22}/$")
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
# On a phone (is_mobile), a page wider than the screen widens the layout viewport with it:
# window.innerWidth grows to the page's width and OVERFLOW stays 0. The root's clientWidth
# stays the phone's 390 pixels.
OVERFLOW_OF_THE_PHONE = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
WIDER_THAN_THE_PHONE = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll("body *")]
    .filter((element) => element.getBoundingClientRect().right > width + 0.5)
    .filter((element) => !element.closest(".stats-scroll"))  // a table scrolling in its own box
    .map((element) => `${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""}`
      + `${element.className ? "." + String(element.className).split(" ").join(".") : ""}`
      + ` (right edge at ${Math.round(element.getBoundingClientRect().right)})`);
}"""
PLAY_DATE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
NBSP = "\u00a0"
NAMES = ["Ada", "Ben", "Cy", "Dee"]
SHEET_SCORES = {"Ada": 12, "Ben": 30, "Cy": 7, "Dee": 18}  # Ben wins the sheet
# A whole Yahtzee written as points, Cy then Ada each round: Cy's 314 beats Ada's 36.
YAHTZEE_BOXES = (
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
    "full_house", "small_straight", "large_straight", "yahtzee", "chance",
)  # fmt: skip
CY_POINTS = (3, 6, 9, 12, 15, 18, 23, 22, 25, 30, 40, 50, 26)  # 63 above: the bonus of 35
ADA_POINTS = (1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 15)
CY_TOTAL = sum(CY_POINTS) + 35  # 314
ADA_TOTAL = sum(ADA_POINTS)  # 36

# A fake Web Share (headless Chromium has no share sheet) that can share files, as a phone's
# does: it records what the page shares, each file with its name, type, size and first bytes.
FAKE_SHARE = """
window.__shared = [];
Object.defineProperty(Navigator.prototype, "canShare", {configurable: true, value: function (data) {
  var files = (data && data.files) || [];
  return files.every(function (file) { return file instanceof File; });
}});
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: function (data) {
  var files = data.files || [];
  return Promise.all(files.map(function (file) { return file.arrayBuffer(); })).then(function (contents) {
    window.__shared.push({
      title: data.title, text: data.text, url: data.url,
      files: files.map(function (file, index) {
        return {
          name: file.name, type: file.type, size: file.size,
          head: Array.from(new Uint8Array(contents[index].slice(0, 8))),
        };
      }),
    });
  });
}});
"""
PNG_SIGNATURE = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]


@dataclass(frozen=True)
class Words:
    """What each language calls the groups' pages and controls."""

    locale: str
    index: str
    group_name: str
    player: str
    make: str
    sheet: str
    start: str
    title: str
    rounds: str
    record: str
    points: str
    write: str
    yahtzee_status: str
    counts: str
    finished: str
    all_games: str
    rename: str
    rename_button: str
    export_json: str
    export_csv: str
    import_button: str
    delete: str
    delete_match_question: str
    delete_match: str
    delete_group: str
    deleted: str
    view_only: str
    share_summary: str
    see: str
    change: str
    bgstats: str
    share: str
    card: str
    winner: str
    winner_seat: str
    started: str
    imported: str
    renamed: str
    sheet_title: str
    group_intro: str


WORDS = {
    "en": Words(
        locale="en-US",
        index="/en/groups/",
        group_name="Thursday players",
        player="Player {n}",
        make="Make the group",
        sheet="Score sheet",
        start="Start the match",
        title="Name of the game",
        rounds="Number of rounds",
        record="Record round {n}",
        points="Write points instead of dice…",
        write="Write the points",
        yahtzee_status="{name}’s turn · round {round} of 13",
        counts="4 players · {n} match{es}",
        finished="{n} finished match{es}",
        all_games="All games",
        rename="Rename {name}",
        rename_button="Rename",
        export_json="Export (JSON, BG Stats)",
        export_csv="Export (CSV)",
        import_button="Import",
        delete="Delete",
        delete_match_question="Delete this match for good? Its log goes too.",
        delete_match="Delete the match",
        delete_group="Delete the group",
        deleted="The group is deleted, with its history.",
        view_only="view only",
        share_summary="Other phones: see the group, or change it too",
        see="See the group",
        change="Change the group too",
        bgstats="Send to BG Stats",
        share="Share the result",
        card="Result card (image)",
        winner="Winner: {name}",
        winner_seat="Winner: {name} {score}",
        started="started",
        imported="Imported",
        renamed="Benedict",
        sheet_title="Skyjo",
        group_intro="For the group “{group}”: clear the rows of those not playing.",
    ),
    "fr": Words(
        locale="fr-FR",
        index="/fr/groupes/",
        group_name="Les joueurs du jeudi",
        player="Joueur {n}",
        make="Créer le groupe",
        sheet="Feuille de scores",
        start="Commencer la partie",
        title="Nom du jeu",
        rounds="Nombre de manches",
        record="Noter la manche {n}",
        points="Écrire des points plutôt que les dés…",
        write="Écrire les points",
        yahtzee_status="À {name} · manche {round} sur 13",
        counts="4 joueurs · {n} partie{es}",
        finished="{n} partie{es} terminée{es}",
        all_games="Tous les jeux",
        rename="Renommer {name}",
        rename_button="Renommer",
        export_json="Exporter (JSON, BG Stats)",
        export_csv="Exporter (CSV)",
        import_button="Importer",
        delete="Supprimer",
        delete_match_question=f"Supprimer définitivement cette partie{NBSP}? Son journal disparaît avec elle.",
        delete_match="Supprimer la partie",
        delete_group="Supprimer le groupe",
        deleted="Le groupe est supprimé, avec son historique.",
        view_only="en lecture seule",
        share_summary=f"Autres téléphones{NBSP}: voir le groupe, ou le modifier aussi",
        see="Voir le groupe",
        change="Modifier le groupe aussi",
        bgstats="Envoyer à BG Stats",
        share="Partager le résultat",
        card="Carte du résultat (image)",
        winner=f"Vainqueur{NBSP}: {{name}}",
        winner_seat=f"Vainqueur{NBSP}: {{name}} {{score}}",
        started="a commencé",
        imported="Importée",
        renamed="Benoît",
        sheet_title="Rami des familles",
        group_intro=f"Pour le groupe «{NBSP}{{group}}{NBSP}»{NBSP}: videz les lignes de ceux qui ne jouent pas.",
    ),
}


def plural(template: str, count: int, language: str) -> str:
    """``template`` with ``{n}`` and its plural ending ``{es}`` for ``count``."""
    many = count > 1 if language == "fr" else count != 1
    return template.format(n=count, es=("s" if language == "fr" else "es") if many else "")


@dataclass
class Taps:
    """Every tap and key press on the phone, counted."""

    page: Page
    count: int = 0
    log: list[str] = field(default_factory=list)

    def tap(self, target: Locator, what: str) -> None:
        target.click()
        self.count += 1
        self.log.append(what)

    def type(self, text: str) -> None:
        for key in text:
            self.page.keyboard.press(key)
            self.count += 1
        self.log.append(f"type {text!r}")

    def erase(self, target: Locator, what: str) -> None:
        """Tap a field at its end and backspace its text away."""
        self.tap(target, what)
        target.press("End")
        for _ in target.input_value():
            self.page.keyboard.press("Backspace")
            self.count += 1
        self.log.append("backspaces")


def shoot(page: Page, language: str, name: str) -> Path:
    """A full-page PNG as test-output/groups/<language>-<name>.png, taken from the top of the
    page (scrolled, a table's sticky band would be drawn halfway down the picture)."""
    path = SHOTS / f"{file_name(f'{language}-{name}')}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo({top: 0, left: 0, behavior: 'instant'})")
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


def accessible_in_light_and_dark(page: Page, name: str, *, shot: tuple[str, str]) -> None:
    """Axe on the page as it stands, light then dark (the phone's setting); the dark page
    photographed as ``shot`` (language, name)."""
    assert_accessible(page, name)
    page.emulate_media(color_scheme="dark")
    try:
        assert_accessible(page, f"{name}-dark")
        shoot(page, *shot)
    finally:
        page.emulate_media(color_scheme="light")


def no_sideways_scroll(page: Page) -> None:
    """The page is no wider than the phone: nothing in it sticks out, but a table in its own
    scrolling box. Measured against the root's clientWidth too: on a phone a page wider than
    the screen widens window.innerWidth with it."""
    assert page.evaluate(OVERFLOW) <= 0, page.url
    wider = page.evaluate(WIDER_THAN_THE_PHONE)
    assert wider == [], f"wider than the phone at {page.url}: {wider}"
    assert page.evaluate(OVERFLOW_OF_THE_PHONE) <= 0, page.url


# A winner's name alone: the text of the seat's line outside its score, star and marks.
WINNER_NAMES = """(seats) => seats.map((seat) => [...seat.childNodes]
  .filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join("").trim())"""


def squeeze(text: str) -> str:
    """A line of the history as read aloud: the star dropped, spaces and line breaks made one
    space (a no-break space stays)."""
    return re.sub(r"[ \n]+", " ", text.replace("★", "")).strip()


def history(page: Page) -> list[dict[str, Any]]:
    """The history as the group page lists it: each match's head, its winners, its seats."""
    plays = []
    for item in page.locator(".history__play").all():
        plays.append(
            {
                "head": item.locator(".history__head").inner_text(),
                "winners": [squeeze(text) for text in item.locator(".history__winner").all_inner_texts()],
                "seats": [squeeze(text) for text in item.locator(".history__seats > li").all_inner_texts()],
                "winner_names": item.locator(".history__winner").evaluate_all(WINNER_NAMES),
            }
        )
    return plays


def stats_lines(page: Page) -> dict[str, tuple[str, str]]:
    """The "per player" table of the stats page: each player's (played, wins)."""
    lines = {}
    for row in page.locator(".stats-table").first.locator("tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        lines[row.locator("th").inner_text().strip()] = (cells[0].strip(), cells[1].strip())
    return lines


def bgstats_play(page: Page) -> dict[str, Any]:
    """The play the table's "Send to BG Stats" link carries, decoded."""
    href = page.locator("a[data-bgstats]").get_attribute("href")
    assert href
    address = urlsplit(href)
    assert (address.scheme, address.netloc, address.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    data: dict[str, Any] = json.loads(parse_qs(address.query, strict_parsing=True)["data"][0])
    return data


def write_points(page: Page, words: Words, box: str, points: int, seq: int) -> None:
    """One Yahtzee turn written as points in a box (the table keeps only the sheet)."""
    details = page.locator("details.yz-points")
    if not details.evaluate("element => element.open"):
        details.locator("summary").click()
    form = page.locator(".yz-points__form")
    form.locator('select[name="box"]').select_option(box)
    form.locator('input[name="points"]').fill(str(points))
    form.get_by_role("button", name=words.write, exact=True).click()
    expect(page.locator("#table")).to_have_attribute("data-seq", str(seq))


def block_outside(route: Route) -> None:
    route.abort()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_group_from_its_making_to_its_deletion(make_page: MakePage, language: str):
    words = WORDS[language]
    page = make_page(locale=words.locale)
    # Nothing leaves the test server: BG Stats and any other outside address are refused.
    page.context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), block_outside)
    log = BrowserLog.attach(page)

    def won(name: str, score: int) -> str:
        return words.winner_seat.format(name=name, score=score)

    # 1. The groups page: a group of four made in one step; its page opens.
    page.goto(words.index)
    expect(page.locator("h1")).to_have_text("Groups" if language == "en" else "Groupes")
    shoot(page, language, "01-index-empty")
    accessible_in_light_and_dark(page, f"groups-{language}-index", shot=(language, "01-index-empty-dark"))
    no_sideways_scroll(page)
    page.get_by_label("Name of the group" if language == "en" else "Nom du groupe", exact=True).fill(words.group_name)
    for seat, name in enumerate(NAMES):
        page.get_by_label(words.player.format(n=seat + 1), exact=True).fill(name)
    page.get_by_role("button", name=words.make, exact=True).click()
    expect(page).to_have_url(GROUP_ADDRESS)
    group_url = page.url
    group_path = urlsplit(group_url).path
    group_id = GROUP_ADDRESS.search(group_url)[1]  # type: ignore[index]
    expect(page.locator("h1")).to_have_text(words.group_name)
    expect(page.locator("main .hint").first).to_have_text(plural(words.counts, 0, language))
    expect(page.locator(".members input[name=name]")).to_have_count(4)
    shoot(page, language, "02-group-new")

    # 2a. A score sheet from the group's page: the set-up holds the group's four names.
    taps = Taps(page)
    taps.tap(page.locator(".game-buttons").get_by_role("link", name=words.sheet, exact=True), "the sheet's button")
    expect(page).to_have_url(re.compile(rf"/(groups|groupes)/{group_id}/new/sheet/$"))
    expect(page.locator(".lead")).to_have_text(words.group_intro.format(group=words.group_name))
    for seat, name in enumerate(NAMES):
        expect(page.get_by_label(words.player.format(n=seat + 1), exact=True)).to_have_value(name)
    expect(page.get_by_label(words.player.format(n=5), exact=True)).to_have_value("")
    shoot(page, language, "03-sheet-set-up")
    taps.tap(page.get_by_label(words.title, exact=True), "the title field")
    taps.type(words.sheet_title)
    taps.tap(page.get_by_label(words.rounds, exact=True), "the rounds field")
    taps.type("1")
    taps.tap(page.get_by_role("button", name=words.start, exact=True), "start")
    expect(page).to_have_url(TABLE_ADDRESS)
    sheet_url = page.url
    # The game's button and Start (the names are there), and the two options typed.
    assert taps.count == 2 + 1 + len(words.sheet_title) + 1 + 1, taps.log
    print(f"\n[{language}] taps from the group page to a started sheet (title, 1 round): {taps.count} ({taps.log})")
    for name in NAMES:
        page.get_by_label(name, exact=True).fill(str(SHEET_SCORES[name]))
    page.get_by_role("button", name=words.record.format(n=1), exact=True).click()
    expect(page.locator("a[data-bgstats]")).to_be_visible()
    shoot(page, language, "04-sheet-the-end")

    # The history and the stats move after the first match.
    page.goto(group_url)
    expect(page.locator("main .hint").first).to_have_text(plural(words.counts, 1, language))
    assert [play["winners"] for play in history(page)] == [[won("Ben", SHEET_SCORES["Ben"])]]
    page.goto(group_path + "stats/")
    expect(page.locator("main > .hint")).to_contain_text(plural(words.finished, 1, language))
    assert stats_lines(page) == {"Ben": ("1", "1"), "Ada": ("1", "0"), "Cy": ("1", "0"), "Dee": ("1", "0")}

    # 2b. A Yahtzee of two from the group's page: Ben's and Dee's rows cleared, Cy starts.
    page.goto(group_url)
    yahtzee_taps = Taps(page)
    yahtzee_taps.tap(page.locator(".game-buttons").get_by_role("link", name="Yahtzee", exact=True), "Yahtzee")
    for seat, name in enumerate(NAMES):
        expect(page.get_by_label(words.player.format(n=seat + 1), exact=True)).to_have_value(name)
    yahtzee_taps.erase(page.get_by_label(words.player.format(n=2), exact=True), "Ben's row")
    yahtzee_taps.erase(page.get_by_label(words.player.format(n=4), exact=True), "Dee's row")
    yahtzee_taps.tap(page.locator('input[name="first"][value="2"]'), "Cy starts")
    yahtzee_taps.tap(page.get_by_role("button", name=words.start, exact=True), "start")
    expect(page).to_have_url(TABLE_ADDRESS)
    yahtzee_url = page.url
    expect(page.locator("#band-status")).to_have_text(words.yahtzee_status.format(name="Cy", round=1))
    assert yahtzee_taps.count == 2 + (1 + len("Ben")) + (1 + len("Dee")) + 1, yahtzee_taps.log
    print(f"[{language}] taps from the group page to a started Yahtzee (2 of 4, Cy starts): {yahtzee_taps.count}")
    seq = 0
    for box, cy, ada in zip(YAHTZEE_BOXES, CY_POINTS, ADA_POINTS, strict=True):
        seq += 1
        write_points(page, words, box, cy, seq)
        seq += 1
        write_points(page, words, box, ada, seq)
    expect(page.locator("a[data-bgstats]")).to_be_visible()
    shoot(page, language, "05-yahtzee-the-end")

    # 3. The history, newest first, with the winners; the stats counted by hand.
    page.goto(group_url)
    expect(page.locator("main .hint").first).to_have_text(plural(words.counts, 2, language))
    played = history(page)
    assert len(played) == 2
    assert played[0]["head"].startswith("Yahtzee ·")
    assert played[1]["head"].startswith(f"{words.sheet_title} ·")
    assert played[0]["seats"] == [f"{won('Cy', CY_TOTAL)} ({words.started})", f"Ada {ADA_TOTAL}"]
    # The sheet's seats by rank, the starter marked.
    assert played[1]["seats"] == [won("Ben", 30), "Dee 18", f"Ada 12 ({words.started})", "Cy 7"]
    # The history's own tabs: one game at a time.
    tabs = page.locator("#history-title ~ nav.tabs")
    expect(tabs.locator("a")).to_have_text([words.all_games, words.sheet_title, "Yahtzee"])
    tabs.get_by_role("link", name="Yahtzee", exact=True).click()
    expect(page.locator(".history__play")).to_have_count(1)
    expect(tabs.get_by_role("link", name="Yahtzee", exact=True)).to_have_attribute("aria-current", "page")
    tabs.get_by_role("link", name=words.all_games, exact=True).click()
    expect(page.locator(".history__play")).to_have_count(2)
    shoot(page, language, "06-group-two-matches")
    accessible_in_light_and_dark(page, f"groups-{language}-group", shot=(language, "06-group-two-matches-dark"))
    no_sideways_scroll(page)

    page.locator(f'a[href="{group_path}stats/"]').click()
    expect(page).to_have_url(re.compile(rf"{group_path}stats/$"))
    expect(page.locator("main > .hint")).to_contain_text(plural(words.finished, 2, language))
    assert stats_lines(page) == {"Ada": ("2", "0"), "Ben": ("1", "1"), "Cy": ("2", "1"), "Dee": ("1", "0")}
    expect(page.locator("figure.chart-figure svg[role=img]")).to_have_count(2)  # wins, win rate
    for chart in page.locator("figure.chart-figure svg[role=img]").all():
        labelled_by = chart.get_attribute("aria-labelledby")
        assert labelled_by
        expect(page.locator(f"#{labelled_by}")).not_to_be_empty()
    stats_tabs = page.locator("nav.tabs")
    expect(stats_tabs.locator("a")).to_have_text([words.all_games, words.sheet_title, "Yahtzee"])
    expect(stats_tabs.get_by_role("link", name=words.all_games)).to_have_attribute("aria-current", "page")
    shoot(page, language, "07-stats-all-games")
    # The per-player table scrolls sideways in a box the keyboard can reach (axe says so).
    expect(page.locator(".stats-scroll").first).to_have_attribute("tabindex", "0")
    accessible_in_light_and_dark(page, f"groups-{language}-stats", shot=(language, "07-stats-all-games-dark"))
    no_sideways_scroll(page)
    stats_tabs.get_by_role("link", name="Yahtzee", exact=True).click()
    expect(page).to_have_url(re.compile(r"stats/\?game=yahtzee$"))
    expect(stats_tabs.get_by_role("link", name="Yahtzee", exact=True)).to_have_attribute("aria-current", "page")
    expect(page.locator("main > .hint")).to_contain_text(plural(words.finished, 1, language))
    assert stats_lines(page) == {"Cy": ("1", "1"), "Ada": ("1", "0")}
    expect(page.locator("figure.chart-figure svg[role=img]")).to_have_count(3)  # and the average score
    expect(page.locator(".stats-table").first.locator("tbody tr").filter(has_text="Cy")).to_contain_text(str(CY_TOTAL))
    shoot(page, language, "08-stats-yahtzee")
    no_sideways_scroll(page)
    stats_tabs.get_by_role("link", name=words.sheet_title, exact=True).click()
    expect(page.locator("main > .hint")).to_contain_text(plural(words.finished, 1, language))
    assert stats_lines(page) == {"Ben": ("1", "1"), "Ada": ("1", "0"), "Cy": ("1", "0"), "Dee": ("1", "0")}
    shoot(page, language, "09-stats-sheet")

    # 4. Ben renamed on the group page: the history and the stats say the new name.
    page.goto(group_url)
    rename = page.get_by_label(words.rename.format(name="Ben"), exact=True)
    rename.fill(words.renamed)
    rename_button = page.locator(".member-form").filter(has=rename).get_by_role("button")
    expect(rename_button).to_have_text(words.rename_button)
    rename_button.click()
    expect(page).to_have_url(group_url)
    expect(page.get_by_label(words.rename.format(name=words.renamed), exact=True)).to_have_value(words.renamed)
    no_sideways_scroll(page)
    members = page.locator(".members input[name=name]").evaluate_all("(inputs) => inputs.map((input) => input.value)")
    assert members == ["Ada", words.renamed, "Cy", "Dee"]
    renamed_history = history(page)
    assert history(page)[1]["winners"] == [won(words.renamed, SHEET_SCORES["Ben"])]
    assert "Ben" not in page.locator(".history").inner_text().split()
    page.goto(group_path + "stats/")
    lines = stats_lines(page)
    assert lines[words.renamed] == ("1", "1")
    assert "Ben" not in lines

    # 5. The finished Yahtzee's ways out: BG Stats (its link read back), the card, Web Share.
    page.goto(yahtzee_url)
    bgstats = page.get_by_role("link", name=words.bgstats, exact=True)
    expect(bgstats).to_be_visible()
    play = bgstats_play(page)
    assert play["sourceName"] == "Marquoir"
    assert play["game"]["name"] == "Yahtzee"
    assert play["game"]["bggId"] == 2243
    assert play["game"]["highestWins"] is True
    assert PLAY_DATE.match(play["playDate"]), play["playDate"]
    assert [(p["name"], p["score"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        ("Ada", ADA_TOTAL, False, False),
        ("Cy", CY_TOTAL, True, True),
    ]
    card_link = page.get_by_role("link", name=words.card, exact=True)
    card_href = card_link.get_attribute("href")
    assert card_href
    card = page.request.get(card_href)
    assert card.status == 200
    assert card.headers["content-type"].startswith("image/svg+xml")
    assert card.text().startswith("<svg")
    assert "Cy" in card.text()
    share_button = page.locator("[data-share-card]")
    expect(share_button).to_have_count(1)
    expect(share_button).to_be_hidden()  # no navigator.share in headless Chromium: the image link stands in
    # The image link saves a PNG, which galleries and chat apps take (the SVG without JavaScript).
    with page.expect_download() as card_download:
        card_link.click()
    assert card_download.value.suggested_filename == "yahtzee.png"
    assert list(card_download.value.path().read_bytes()[:8]) == PNG_SIGNATURE
    shoot(page, language, "10-yahtzee-result")
    no_sideways_scroll(page)

    page.add_init_script(FAKE_SHARE)
    page.reload()
    share = page.get_by_role("button", name=words.share, exact=True)
    expect(share).to_be_visible()
    share.click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["title"] == "Yahtzee"
    assert shared["text"] == f"Yahtzee: {words.winner.format(name='Cy')}"
    assert shared["url"] == yahtzee_url
    # The card goes too, drawn as a PNG named after the game.
    assert [(file["name"], file["type"]) for file in shared["files"]] == [("yahtzee.png", "image/png")]
    assert shared["files"][0]["size"] > 0
    assert shared["files"][0]["head"] == PNG_SIGNATURE
    shoot(page, language, "11-yahtzee-result-web-share")

    # The sheet's link: named by its title, no bggId, Ben the winner under the name the group
    # gave him since (a member renamed is renamed on the group's matches).
    page.goto(sheet_url)
    sheet_play = bgstats_play(page)
    assert sheet_play["sourceName"] == "Marquoir"
    assert sheet_play["game"]["name"] == words.sheet_title
    assert "bggId" not in sheet_play["game"]
    assert PLAY_DATE.match(sheet_play["playDate"])
    assert [(p["name"], p["score"], p["winner"], p["startPlayer"]) for p in sheet_play["players"]] == [
        (words.renamed if name == "Ben" else name, SHEET_SCORES[name], name == "Ben", name == "Ada") for name in NAMES
    ]

    # 6. Export (JSON, CSV), then the JSON imported back as a new group.
    page.goto(group_url)
    with page.expect_download() as json_download:
        page.get_by_role("link", name=words.export_json, exact=True).click()
    export_path = json_download.value.path()
    assert json_download.value.suggested_filename.endswith(".json")
    exported = json.loads(export_path.read_text(encoding="utf-8"))
    assert exported["marquoir"]["group"] == words.group_name
    assert len(exported["plays"]) == 2
    assert [player["name"] for player in exported["players"]] == members  # every member, in the group's order
    assert {game["name"]: game["bggId"] for game in exported["games"]} == {"Yahtzee": 2243, words.sheet_title: 0}
    player_names = {player["id"]: player["name"] for player in exported["players"]}
    assert [
        sorted(player_names[score["playerRefId"]] for score in play["playerScores"] if score["winner"])
        for play in exported["plays"]
    ] == [["Cy"], [words.renamed]]
    with page.expect_download() as csv_download:
        page.get_by_role("link", name=words.export_csv, exact=True).click()
    assert csv_download.value.suggested_filename.endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(csv_download.value.path().read_text(encoding="utf-8"))))
    assert len(rows) == 2 + 4  # a row per player per match
    assert {row["player"] for row in rows if row["winner"] == "1"} == {"Cy", words.renamed}

    page.goto(words.index)
    expect(page.locator(".group-list a")).to_have_text([words.group_name])
    page.locator("#import-file").set_input_files(export_path)
    page.get_by_role("button", name=words.import_button, exact=True).click()
    expect(page).to_have_url(GROUP_ADDRESS)
    assert page.url != group_url
    imported_url = page.url
    expect(page.locator("h1")).to_have_text(words.group_name)
    # The same players in the same order, the same matches, seats, scores and winners.
    imported_members = page.locator(".members input[name=name]").evaluate_all(
        "(inputs) => inputs.map((input) => input.value)"
    )
    assert imported_members == members
    imported = history(page)
    assert [play["winner_names"] for play in imported] == [["Cy"], [words.renamed]]
    assert [play["head"].split(" · ")[0] for play in imported] == ["Yahtzee", words.sheet_title]
    assert [play["seats"] for play in imported] == [play["seats"] for play in renamed_history]
    assert imported[0]["winners"] == [f"{won('Cy', CY_TOTAL)} ({words.started})"]  # 314, not 314.0
    expect(page.locator(".history__actions .hint")).to_have_text([words.imported, words.imported])
    shoot(page, language, "12-imported-group")

    # 8. A second phone with the "see" link: history and stats, no forms; the "change" link grants editing.
    page.goto(group_url)
    page.locator("details.share > summary").click()
    expect(page.locator("details.share > summary")).to_have_text(words.share_summary)
    see_link = page.get_by_role("link", name=words.see, exact=True).get_attribute("href")
    change_link = page.get_by_role("link", name=words.change, exact=True).get_attribute("href")
    assert see_link
    assert change_link
    assert see_link.endswith(group_path)
    assert "#key=" in change_link
    shoot(page, language, "13-group-share-links")
    other = make_page(locale=words.locale)
    other.goto(see_link)
    expect(other.locator("h1")).to_have_text(words.group_name)
    expect(other.locator("main .hint").first).to_contain_text(words.view_only)
    expect(other.locator(".history__play")).to_have_count(2)
    expect(other.locator("form")).to_have_count(0)
    expect(other.locator("details.confirm")).to_have_count(0)
    expect(other.locator(".game-buttons a[href*='/new/']")).to_have_count(0)
    expect(other.locator(".match-list li")).to_have_text(["Ada", words.renamed, "Cy", "Dee"])
    shoot(other, language, "14-second-phone-view-only")
    no_sideways_scroll(other)
    other.locator(f'a[href="{group_path}stats/"]').click()
    assert stats_lines(other)[words.renamed] == ("1", "1")
    other.goto(change_link)
    expect(other).to_have_url(group_url)  # the key posted, then out of the address
    expect(other.locator(".members input[name=name]")).to_have_count(4)
    expect(other.locator(".game-buttons a[href*='/new/']")).not_to_have_count(0)
    expect(other.locator("main .hint").first).not_to_contain_text(words.view_only)
    shoot(other, language, "15-second-phone-can-change")

    # 7. A match deleted from the history (asked once), then the group; its address is gone.
    newest = page.locator(".history__play").first
    newest.get_by_text(words.delete, exact=True).click()
    expect(newest.locator("details.confirm p")).to_have_text(words.delete_match_question)
    shoot(page, language, "16-delete-match-asked")
    newest.get_by_role("button", name=words.delete_match, exact=True).click()
    expect(page).to_have_url(group_url)
    remaining = history(page)
    assert [play["winners"] for play in remaining] == [[won(words.renamed, SHEET_SCORES["Ben"])]]
    expect(page.locator("main .hint").first).to_have_text(plural(words.counts, 1, language))
    page.locator("details.group-delete > summary").click()
    page.locator("details.group-delete").get_by_role("button", name=words.delete_group, exact=True).click()
    expect(page).to_have_url(re.compile(rf"{words.index}\?deleted=1$"))
    expect(page.get_by_role("status")).to_have_text(words.deleted)
    expect(page.locator(".group-list a")).to_have_count(1)  # the imported group is left
    expect(page.locator(".group-list a")).to_have_attribute("href", urlsplit(imported_url).path)
    shoot(page, language, "17-index-group-deleted")
    assert page.request.get(group_url).status == 404
    assert page.request.get(group_path + "stats/").status == 404
    assert page.request.get(yahtzee_url).status == 404  # the deleted match went with it
    assert page.request.get(sheet_url).status == 404  # and the group's matches with the group

    assert log.mentioning("Content Security Policy") == []
    assert log.errors() == [], "\n".join(log.errors())


def test_the_stats_tables_that_scroll_sideways_can_be_reached_by_keyboard(make_page: MakePage):
    words = WORDS["en"]
    page = make_page()
    page.goto(words.index)
    page.get_by_label("Name of the group", exact=True).fill("Axe")
    for seat, name in enumerate(["Ada", "Ben"]):
        page.get_by_label(words.player.format(n=seat + 1), exact=True).fill(name)
    page.get_by_role("button", name=words.make, exact=True).click()
    expect(page).to_have_url(GROUP_ADDRESS)
    group_path = urlsplit(page.url).path
    page.locator(".game-buttons").get_by_role("link", name=words.sheet, exact=True).click()
    page.get_by_label(words.rounds, exact=True).fill("1")
    page.get_by_role("button", name=words.start, exact=True).click()
    expect(page).to_have_url(TABLE_ADDRESS)
    page.get_by_label("Ada", exact=True).fill("3")
    page.get_by_label("Ben", exact=True).fill("5")
    page.get_by_role("button", name=words.record.format(n=1), exact=True).click()
    expect(page.locator("a[data-bgstats]")).to_be_visible()
    page.goto(group_path + "stats/")
    expect(page.locator(".stats-scroll")).to_have_count(2)
    # Whichever box scrolls sideways (at 390 px the per-player table hides its last columns)
    # takes the keyboard's focus, named by its heading: axe says so.
    for box in page.locator(".stats-scroll").all():
        expect(box).to_have_attribute("tabindex", "0")
        expect(box).to_have_attribute("role", "region")
        labelled_by = box.get_attribute("aria-labelledby")
        assert labelled_by
        expect(page.locator(f"#{labelled_by}")).not_to_be_empty()
    assert_accessible(page, "groups-stats-scroll")
    # The keyboard way: Tab through the page's links to the per-player box, then scroll it.
    box = page.locator(".stats-scroll").first
    assert box.evaluate("element => element.scrollWidth > element.clientWidth")  # it does scroll
    for _ in range(40):
        page.keyboard.press("Tab")
        if box.evaluate("element => element === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reaches the per-player table's box")
    assert box.evaluate("element => element.scrollLeft") == 0
    page.keyboard.press("ArrowRight")
    page.wait_for_function("(element) => element.scrollLeft > 0", arg=box.element_handle())


def finish_a_sheet(page: Page) -> None:
    """A one-round sheet, Ada 3 and Ben 5, started and finished on this phone (the last round
    recorded through the outbox, which redraws the table in place)."""
    page.goto("/en/tables/new/sheet/")
    page.get_by_label("Player 1", exact=True).fill("Ada")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.get_by_label("Name of the game", exact=True).fill("Skyjo")
    page.get_by_label("Number of rounds", exact=True).fill("1")
    page.get_by_role("button", name="Start the match", exact=True).click()
    expect(page).to_have_url(TABLE_ADDRESS)
    page.get_by_label("Ada", exact=True).fill("3")
    page.get_by_label("Ben", exact=True).fill("5")
    page.get_by_role("button", name="Record round 1", exact=True).click()
    expect(page.locator("a[data-bgstats]")).to_be_visible()


def test_web_share_sends_the_result_card_as_a_png(make_page: MakePage):
    page = make_page()
    log = BrowserLog.attach(page)
    page.add_init_script(FAKE_SHARE)
    finish_a_sheet(page)
    page.goto(page.url)  # the finished match opened again (the button right after the last round: below)
    share = page.get_by_role("button", name="Share the result", exact=True)
    expect(share).to_be_visible()
    share.click()
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert (shared["title"], shared["text"]) == ("Skyjo", "Skyjo: Winner: Ben")
    assert [(file["name"], file["type"]) for file in shared["files"]] == [("skyjo.png", "image/png")]
    assert shared["files"][0]["size"] > 0
    assert shared["files"][0]["head"] == PNG_SIGNATURE
    assert log.mentioning("Content Security Policy") == []
    assert log.errors() == []


def test_the_share_button_shows_as_soon_as_the_match_is_over(make_page: MakePage):
    page = make_page()
    page.add_init_script(FAKE_SHARE)
    finish_a_sheet(page)
    expect(page.get_by_role("button", name="Share the result", exact=True)).to_be_visible(timeout=2000)


@pytest.mark.parametrize("where", ["index", "group"])
def test_the_group_pages_fit_the_phone(make_page: MakePage, where: str):
    words = WORDS["en"]
    page = make_page()
    page.goto(words.index)
    if where == "group":
        page.get_by_label("Name of the group", exact=True).fill("Width")
        for seat, name in enumerate(["Ada", "Ben"]):
            page.get_by_label(words.player.format(n=seat + 1), exact=True).fill(name)
        page.get_by_role("button", name=words.make, exact=True).click()
        expect(page).to_have_url(GROUP_ADDRESS)
    no_sideways_scroll(page)
    # What stuck out: the import's file input; a player's rename row and its Rename button.
    for control in (
        [page.locator("#import-file")]
        if where == "index"
        else [page.locator(".members").last, page.locator(".members .member-form").last.get_by_role("button")]
    ):
        box = control.bounding_box()
        assert box
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= page.evaluate("document.documentElement.clientWidth") + 0.5


def test_an_imported_match_shows_its_scores_as_the_match_did(make_page: MakePage, tmp_path: Path):
    words = WORDS["en"]
    page = make_page()
    page.goto(words.index)
    page.get_by_label("Name of the group", exact=True).fill("Scores")
    for seat, name in enumerate(["Ada", "Ben"]):
        page.get_by_label(words.player.format(n=seat + 1), exact=True).fill(name)
    page.get_by_role("button", name=words.make, exact=True).click()
    expect(page).to_have_url(GROUP_ADDRESS)
    group_url = page.url
    page.locator(".game-buttons").get_by_role("link", name=words.sheet, exact=True).click()
    page.get_by_label(words.rounds, exact=True).fill("1")
    page.get_by_role("button", name=words.start, exact=True).click()
    page.get_by_label("Ada", exact=True).fill("3")
    page.get_by_label("Ben", exact=True).fill("5")
    page.get_by_role("button", name=words.record.format(n=1), exact=True).click()
    expect(page.locator("a[data-bgstats]")).to_be_visible()
    page.goto(group_url)
    played = history(page)[0]["seats"]
    assert played == ["Winner: Ben 5", "Ada 3 (started)"]
    with page.expect_download() as download:
        page.get_by_role("link", name=words.export_json, exact=True).click()
    export = tmp_path / "scores.json"
    download.value.save_as(export)
    page.goto(words.index)
    page.locator("#import-file").set_input_files(export)
    page.get_by_role("button", name=words.import_button, exact=True).click()
    expect(page).to_have_url(GROUP_ADDRESS)
    assert page.url != group_url
    assert history(page)[0]["seats"] == played  # "Winner: Ben 5", not 5.0
