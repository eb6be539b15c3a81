"""The score keeper as it feels at a table, measured on a 390×844 phone in both languages:
the taps of each kind of turn, the scroll position around every tap of the turn pad, a
network that drops, two phones at once, long names.

Each test prints its figures (``-s`` shows them) and writes them to
test-output/table-ux/<name>.json; the targets of ../shared/docs/table-ux.md are asserted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from .helpers import OUTPUT_DIR, MakePage, assert_accessible, file_name, shoot
from .test_table import TABLE_ADDRESS, keep_score_link

pytestmark = pytest.mark.browser

FIGURES_DIR = OUTPUT_DIR / "table-ux"
# Where a player's thumb leaves the page: the site's header scrolled away, the band stuck on top.
SCROLLED_Y = 64

# The words each language shows, for the checks below.
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "locale": "en-US",
        "new": "/en/tables/new/pickomino/",
        "player": "Player {n}",
        "start": "Start the match",
        "take": "Take {tile} from the grill",
        "steal": "Steal {tile} from {name}",
        "took": "{name} took {tile} (+{worms})",
        "stole": "{name} stole {tile} from {victim} (+{worms})",
        "bust_menu": "Bust…",
        "reasons": ["The roll showed no new face", "Stopped without a worm", "No tile to take with the total"],
        "logged": [
            "bust (the roll showed no new face)",
            "bust (no worm kept)",
            "bust (no tile to claim with that total)",
        ],
        "undo": "Undo",
        "dice_tab": "Dice, roll by roll",
        "die": "A die shows {face}",
        "worm_die": "A die shows a worm",
        "keep": r"^Keep ",
        "assistant_on": "Turn the assistant on (odds and advice)",
        "turn": "{name}’s turn",
        "waiting": "Waiting for the network",
        "dropped": "the turn being entered here was dropped",
        "total": "Total of the kept dice",
        "show": "Show",
    },
    "fr": {
        "locale": "fr-FR",
        "new": "/fr/tables/nouvelle/pickomino/",
        "player": "Joueur {n}",
        "start": "Commencer la partie",
        "take": "Prendre le {tile} sur la brochette",
        "steal": "Voler le {tile} à {name}",
        "took": "{name} a pris le {tile} (+{worms})",
        "stole": "{name} a volé le {tile} à {victim} (+{worms})",
        "bust_menu": "Tour raté…",
        "reasons": [
            "Le lancer n’a montré aucune face nouvelle",
            "Arrêt sans ver",
            "Aucun Pickomino à prendre avec ce total",
        ],
        "logged": [
            "tour raté (le lancer ne montre que des faces déjà gardées)",
            "tour raté (aucun ver gardé)",
            "tour raté (aucun Pickomino à prendre avec ce total)",
        ],
        "undo": "Annuler",
        "dice_tab": "Dés, lancer par lancer",
        "die": "Un dé montre {face}",
        "worm_die": "Un dé montre un ver",
        "keep": r"^Garder ",
        "assistant_on": "Activer l’assistant (probabilités et conseils)",
        "turn": "À {name} de jouer",
        "waiting": "En attente du réseau",
        "dropped": "le tour en cours de saisie ici a été abandonné",
        "total": "Total des dés gardés",
        "show": "Voir",
    },
}


@dataclass
class Thumb:
    """Taps on one phone, counted, each checked for a scroll jump once the screen has settled."""

    page: Page
    taps: int = 0
    jumps: list[float] = field(default_factory=list)

    def tap(self, target: Locator, *, redraws: bool = True) -> None:
        # A thumb scrolls to what it taps first (as Playwright would on its own): that scroll
        # is the player's, not a jump. What is measured is what the tap itself does after.
        target.evaluate(
            "el => { const r = el.getBoundingClientRect(); if (r.top < 0 || r.bottom > innerHeight * 0.75)"
            " el.scrollIntoView({block: 'center', behavior: 'instant'}); }"
        )
        before = self.page.evaluate("window.scrollY")
        table = self.page.locator("#table").element_handle()
        target.click()
        self.taps += 1
        if redraws:
            self.page.wait_for_function("table => !table.isConnected", arg=table)
            self.page.wait_for_timeout(50)  # a frame or two: let any late layout move the page if it would
        after = self.page.evaluate("window.scrollY")
        self.jumps.append(abs(after - before))

    def count(self) -> int:
        taps, self.taps = self.taps, 0
        return taps


def start(page: Page, words: dict[str, Any], *names: str) -> str:
    page.goto(words["new"])
    for seat, name in enumerate(names):
        page.get_by_label(words["player"].format(n=seat + 1), exact=True).fill(name)
    page.get_by_role("button", name=words["start"]).click()
    expect(page).to_have_url(re.compile(r"/tables/[A-Za-z0-9_-]{22}/$"))
    return page.url


def state_of(page: Page) -> dict[str, Any]:
    """The match as the API tells it, read from the page's own origin."""
    state_url = page.locator("#table").get_attribute("data-state")
    result: dict[str, Any] = page.evaluate("url => fetch(url).then(r => r.json())", state_url)
    return result


def save_figures(name: str, figures: dict[str, Any]) -> None:
    FIGURES_DIR.mkdir(parents=True, exist_ok=True)
    (FIGURES_DIR / f"{file_name(name)}.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")
    print(f"\n{name}: " + ", ".join(f"{key} {value}" for key, value in figures.items()))


def bar(page: Page) -> Locator:
    return page.locator(".bar__text")


def scroll_to_pad(page: Page) -> None:
    page.evaluate(f"window.scrollTo({{top: {SCROLLED_Y}, behavior: 'instant'}})")
    expect(page.locator(".band")).to_be_in_viewport()


def dice_turn(thumb: Thumb, words: dict[str, Any], rolls: list[tuple[list[str], str]]) -> dict[str, int]:
    """Enter a turn roll by roll: each roll's faces, then the face kept; returns dice and keeps."""
    page = thumb.page
    shown = keeps = 0
    for faces, kept in rolls:
        for face in faces:
            name = words["worm_die"] if face == "worm" else words["die"].format(face=face)
            thumb.tap(page.get_by_role("link", name=name, exact=True))
            shown += 1
        thumb.tap(page.locator(f'.keep-buttons a[data-face="{kept}"]'))
        keeps += 1
    return {"dice shown": shown, "keeps": keeps}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_kind_of_turn_in_one_or_two_taps_and_the_page_never_jumps(make_page: MakePage, lang: str):
    words = WORDS[lang]
    page = make_page(locale=words["locale"])
    start(page, words, "Ada", "Ben", "Cy")
    thumb = Thumb(page)
    figures: dict[str, Any] = {}
    scroll_to_pad(page)
    shoot(page, f"ux-{lang}-01-tile-pad", full_page=False)

    # The common turn: the tile the total gives, tapped on the grill.
    thumb.tap(page.get_by_role("button", name=words["take"].format(tile=27), exact=True))
    expect(bar(page)).to_have_text(words["took"].format(name="Ada", tile=27, worms=2))
    expect(page.locator(".bar__undo button")).to_be_visible()
    figures["common turn"] = thumb.count()
    shoot(page, f"ux-{lang}-02-after-a-take", full_page=False)

    # A steal: the opponent's top tile is the button.
    thumb.tap(page.get_by_role("button", name=words["steal"].format(tile=27, name="Ada"), exact=True))
    expect(bar(page)).to_have_text(words["stole"].format(name="Ben", tile=27, victim="Ada", worms=2))
    figures["steal"] = thumb.count()

    # An undo, from the bar under the thumb: Ben's steal is taken back.
    thumb.tap(page.locator(".bar__undo").get_by_role("button", name=words["undo"]))
    expect(page.locator(".band__status")).to_have_text(words["turn"].format(name="Ben"))
    assert state_of(page)["players"][0]["stack"] == [27]
    figures["undo"] = thumb.count()

    # Each kind of bust: the menu, then the reason.
    recorded_reasons = []
    for reason in words["reasons"]:
        thumb.tap(page.locator(".bust-entry summary"), redraws=False)
        thumb.tap(page.get_by_role("button", name=reason, exact=True))
        recorded_reasons.append(thumb.count())
    figures["bust (each reason)"] = recorded_reasons
    lines = page.locator(".log__lines li").all_inner_texts()
    assert len(lines) == 6  # take, steal, undo, three busts
    for line, reason in zip(reversed(lines[:3]), words["logged"], strict=True):
        assert reason in line  # each bust was recorded with the reason tapped

    # A dice turn of three rolls, without then with the assistant.
    thumb.tap(page.get_by_role("link", name=words["dice_tab"]))
    thumb.count()
    scroll_to_pad(page)
    rolls = [
        (["worm", "worm", "5", "5", "5", "1", "2", "3"], "worm"),
        (["5", "4", "4", "4", "2", "1"], "4"),
        (["5", "5", "3"], "5"),
    ]
    entered = dice_turn(thumb, words, rolls)  # worm 2 (10) + 4 ×3 (12) + 5 ×2 (10) = 32
    shoot(page, f"ux-{lang}-03-dice-pad-claims", full_page=False)
    thumb.tap(page.locator("#claim-form .claim").last)
    figures["dice turn, 3 rolls"] = {**entered, "taps": thumb.count()}
    assert state_of(page)["players"][1]["stack"][-1] == 32  # Ben's, after three busts

    page.get_by_role("button", name=words["assistant_on"]).click()
    expect(page.locator(".advice")).to_be_visible()
    scroll_to_pad(page)
    entered = dice_turn(thumb, words, rolls)
    thumb.tap(page.locator("#claim-form .claim").last)
    figures["dice turn, 3 rolls, assistant on"] = {**entered, "taps": thumb.count()}
    shoot(page, f"ux-{lang}-04-after-dice-turn", full_page=False)

    figures["largest scroll jump (px)"] = max(thumb.jumps)
    figures["taps checked for a jump"] = len(thumb.jumps)
    save_figures(f"taps-{lang}", figures)

    assert figures["common turn"] == 1
    assert figures["steal"] == 1
    assert figures["undo"] == 1
    assert all(taps <= 2 for taps in recorded_reasons)
    for turn in ("dice turn, 3 rolls", "dice turn, 3 rolls, assistant on"):
        dice = figures[turn]
        # One tap per die shown, one per keep, and the tile tapped to record the turn.
        assert dice["taps"] <= dice["dice shown"] + dice["keeps"] + 1
    assert max(thumb.jumps) == 0, thumb.jumps
    assert_accessible(page, f"table-ux-{lang}")


def test_offline_taps_wait_on_the_phone_and_are_applied_exactly_once(make_page: MakePage):
    words = WORDS["en"]
    page = make_page()
    start(page, words, "Ada", "Ben")
    page.context.set_offline(True)
    page.get_by_role("button", name="Take 25 from the grill", exact=True).click()
    waiting = page.locator(".bar__outbox")
    expect(waiting).to_contain_text(words["waiting"])
    expect(waiting).to_contain_text("Take 25 from the grill")
    shoot(page, "ux-en-05-offline-waiting", full_page=False)
    # A second tap (the same one, or another) while the first waits is refused in place.
    page.get_by_role("button", name="Take 26 from the grill", exact=True).click()
    expect(waiting).to_contain_text("One tap at a time")
    kept = page.evaluate("JSON.parse(localStorage.getItem('marquoir-outbox'))")
    assert len(kept) == 1

    page.context.set_offline(False)
    expect(bar(page)).to_have_text(words["took"].format(name="Ada", tile=25, worms=2), timeout=15_000)
    expect(waiting).to_be_hidden()
    expect(page).to_have_url(TABLE_ADDRESS)
    state = state_of(page)
    assert state["seq"] == 1
    assert state["players"][0]["stack"] == [25]
    assert page.evaluate("JSON.parse(localStorage.getItem('marquoir-outbox'))") == []

    # Offline again, a tap, and a reload before the network is back: the tap survives and goes once.
    page.context.set_offline(True)
    page.locator(".bust-entry summary").click()
    page.get_by_role("button", name=words["reasons"][0], exact=True).click()
    expect(waiting).to_contain_text(words["waiting"])
    page.context.set_offline(False)
    page.reload()
    expect(page.locator(".band__status")).to_have_text("Ada’s turn", timeout=15_000)
    state = state_of(page)
    assert state["seq"] == 2
    assert state["players"][1]["stack"] == []
    page.wait_for_timeout(500)
    assert state_of(page)["seq"] == 2  # never twice


def test_undo_while_a_tap_waits_for_the_network_cancels_it(make_page: MakePage):
    page = make_page()
    start(page, WORDS["en"], "Ada", "Ben")
    page.context.set_offline(True)
    page.get_by_role("button", name="Take 30 from the grill", exact=True).click()
    expect(page.locator(".bar__outbox")).to_contain_text("Waiting for the network")
    page.locator(".bar__undo button").click()  # it reads "Cancel" while a tap waits
    expect(page.locator(".bar__outbox")).to_contain_text("was never sent")
    page.context.set_offline(False)
    page.wait_for_timeout(1000)
    assert state_of(page)["seq"] == 0


def test_a_stale_entry_on_a_second_phone_can_no_longer_record_anything(make_page: MakePage):
    words = WORDS["en"]
    ada = make_page()
    start(ada, words, "Ada", "Ben", "Cid")
    for tile in (21, 22, 26, 23):  # Ada 21, Ben 22, Cid 26, Ada 23: Ben's turn, Cid shows 26
        ada.get_by_role("button", name=words["take"].format(tile=tile), exact=True).click()
        expect(ada.locator(".log__lines li").first).to_contain_text(f"took {tile}")
    ben = make_page()
    ben.goto(keep_score_link(ada))
    expect(ben).to_have_url(TABLE_ADDRESS)

    # Ben's phone enters "26" for Ben: steal Cid's 26 or take 25 from the grill.
    ben.locator(".total-entry summary").click()
    ben.get_by_label(words["total"]).fill("26")
    ben.get_by_role("button", name=words["show"], exact=True).click()
    expect(ben.get_by_role("button", name="Steal 26 from Cid")).to_be_visible()
    expect(ben).to_have_url(re.compile(r"seq=4&total=26"))
    entry_address = ben.url

    # Ada's phone records that steal; Ben's phone follows live and drops its entry.
    ada.get_by_role("button", name="Steal 26 from Cid", exact=True).click()
    expect(ada.locator(".band__status")).to_have_text("Cid’s turn")
    expect(ben.locator(".bar__text")).to_contain_text(words["dropped"])
    expect(ben).to_have_url(TABLE_ADDRESS)
    expect(ben.locator(".total-entry")).not_to_have_attribute("open", "")
    shoot(ben, "ux-en-06-stale-entry-dropped", full_page=False)
    # The entry's address, reloaded or come back to, never brings the finished entry back.
    ben.goto(entry_address)
    expect(ben.locator(".bar__text")).to_contain_text(words["dropped"])
    expect(ben).to_have_url(TABLE_ADDRESS)
    expect(ben.get_by_label(words["total"])).to_have_value("")
    assert state_of(ada)["seq"] == 5

    # A phone whose live updates never arrive still cannot record its stale entry.
    cid = make_page()
    cid.route("**/events", lambda route: route.abort())
    cid.route(re.compile(r".*/api/v1/matches/[^/]+$"), lambda route: route.abort())
    cid.goto(keep_score_link(ada))
    cid.goto(cid.url + "?seq=5&total=26&worm=1")  # Cid's own entry: steal 26 back from Ben
    expect(cid.get_by_role("button", name="Steal 26 from Ben")).to_be_visible()
    ada.locator(".bust-entry summary").click()
    ada.get_by_role("button", name=words["reasons"][0], exact=True).click()  # Cid busts from Ada's phone
    expect(ada.locator(".band__status")).to_have_text("Ada’s turn")
    cid.get_by_role("button", name="Steal 26 from Ben").click()
    expect(cid.locator(".bar__text")).to_contain_text("already recorded from another device")
    assert state_of(ada)["seq"] == 6


@pytest.mark.parametrize("width", [320, 390])
def test_long_names_never_widen_the_page(make_page: MakePage, width: int):
    words = WORDS["en"]
    page = make_page(viewport={"width": width, "height": 844})
    long_word = "Bartholomew" * 3 + "Zz"  # 35 characters, no break
    names = ["Maximiliana Wolkenstein-Hoch", long_word, "Ada Lovelace of the Round Table!"]
    start(page, words, *names)
    overflow = "document.documentElement.scrollWidth - window.innerWidth"
    assert page.evaluate(overflow) <= 0
    for tile in (36, 35, 34):
        page.get_by_role("button", name=words["take"].format(tile=tile), exact=True).click()
        expect(page.locator(".log__lines li").first).to_contain_text(f"took {tile}")
    assert page.evaluate(overflow) <= 0
    holder = page.locator(".slot__holder").last  # 36, the first player's
    assert holder.inner_text().strip()[:3] == names[0][:3]
    shoot(page, f"ux-en-07-long-names-{width}")


def test_the_end_screen_in_french_and_dark_mode(make_page: MakePage):
    words = WORDS["fr"]
    page = make_page(locale=words["locale"], color_scheme="dark")
    start(page, words, "Ada", "Ben")
    tiles = list(range(21, 37))
    for index, tile in enumerate(tiles):
        page.get_by_role("button", name=words["take"].format(tile=tile), exact=True).click()
        expect(page.locator(".log__lines li")).to_have_count(index + 1)
    expect(page.locator(".standings tbody tr")).to_have_count(2)
    expect(page.locator(".band__status")).to_contain_text("gagne")
    shoot(page, "ux-fr-08-end-dark")
    assert_accessible(page, "table-end-fr-dark")


def test_without_javascript_every_tap_still_records_and_the_address_goes_bare(make_page: MakePage):
    words = WORDS["en"]
    page = make_page(java_script_enabled=False)
    start(page, words, "Ada", "Ben")
    page.get_by_role("button", name=words["take"].format(tile=27), exact=True).click()
    expect(page.locator(".bar__text")).to_have_text(words["took"].format(name="Ada", tile=27, worms=2))
    expect(page).to_have_url(TABLE_ADDRESS)
    page.get_by_role("link", name=words["dice_tab"]).click()
    for face in ["worm"] * 3 + ["5"] * 5:
        name = words["worm_die"] if face == "worm" else words["die"].format(face=face)
        page.get_by_role("link", name=name, exact=True).click()
    page.locator('.keep-buttons a[data-face="5"]').click()
    expect(page.locator(".dice-kept")).to_contain_text("Kept: 25 · 3 dice left")
    for _ in range(3):
        page.get_by_role("link", name=words["worm_die"], exact=True).click()
    page.locator('.keep-buttons a[data-face="worm"]').click()
    page.get_by_role("button", name=words["take"].format(tile=36), exact=True).click()  # 40: the highest tile
    expect(page.locator(".bar__text")).to_have_text(words["took"].format(name="Ben", tile=36, worms=4))
    expect(page).to_have_url(TABLE_ADDRESS)
    page.locator(".bust-entry summary").click()
    page.get_by_role("button", name=words["reasons"][1], exact=True).click()
    expect(page.locator(".bar__text")).to_contain_text("Ada: bust, 27 back to the grill (−2)")
    page.locator(".bar__undo button").click()
    expect(page.locator(".band__status")).to_have_text("Ada’s turn")
    state = page.request.get(page.locator("#table").get_attribute("data-state") or "").json()
    assert [player["stack"] for player in state["players"]] == [[27], [36]]


def test_a_tap_from_the_keyboard_keeps_the_focus_in_the_pad_and_the_result_is_said_once(make_page: MakePage):
    words = WORDS["en"]
    page = make_page()
    start(page, words, "Ada", "Ben")
    page.get_by_role("button", name=words["take"].format(tile=27), exact=True).focus()
    page.keyboard.press("Enter")
    expect(bar(page)).to_have_text(words["took"].format(name="Ada", tile=27, worms=2))
    # 27 is no longer a button: the focus goes to the pad's first control, for the next turn
    # (the script moves it once the table is drawn again); the result is said by the bar, a
    # live region, and not read a second time as the focus lands on it.
    page.wait_for_function("document.activeElement && document.activeElement.closest('#pad') !== null")
    assert page.evaluate("document.activeElement.className") != "bar__text"
    assert page.locator(".bar__text").get_attribute("role") == "status"


def test_a_tablet_on_its_side_shows_every_score_large_enough_to_read_across_the_table(make_page: MakePage):
    words = WORDS["en"]
    page = make_page(viewport={"width": 1024, "height": 768}, is_mobile=False)
    start(page, words, "Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
    page.get_by_role("button", name=words["take"].format(tile=33), exact=True).click()
    expect(bar(page)).to_have_text(words["took"].format(name="Ada", tile=33, worms=4))
    sizes = page.locator(".band__score").evaluate_all("els => els.map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert len(sizes) == 7
    assert min(sizes) >= 40  # px: about 1 cm tall on a tablet, legible from two metres
    # The band is a column beside the board (test_every_screen): all seven in view at once.
    bottoms = page.locator(".band__player").evaluate_all("els => els.map(e => e.getBoundingClientRect().bottom)")
    assert max(bottoms) <= 768
    band_right = page.locator(".band").evaluate("el => el.getBoundingClientRect().right")
    assert band_right <= page.locator("#pad").evaluate("el => el.getBoundingClientRect().left")
    shoot(page, "ux-en-09-tablet-landscape", full_page=False)


def test_a_proxy_s_gateway_error_keeps_the_tap_and_it_goes_through_once(make_page: MakePage):
    words = WORDS["en"]
    # Without the service worker: once it controls the page (a race with the first taps),
    # Playwright's page.route no longer sees the page's requests, and the 502 is never made.
    page = make_page(service_workers="block")
    start(page, words, "Ada", "Ben")
    refused: list[str] = []

    def gateway_down_once(route: Route) -> None:
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=502, body="<html><body>Bad Gateway</body></html>", content_type="text/html")
        else:
            route.continue_()

    page.route(re.compile(r".*/act/$"), gateway_down_once)
    page.get_by_role("button", name=words["take"].format(tile=25), exact=True).click()
    # Not the app's verdict: kept, said, and sent again by itself (every few seconds).
    expect(bar(page)).to_have_text(words["took"].format(name="Ada", tile=25, worms=2), timeout=15_000)
    assert len(refused) == 1
    assert state_of(page)["seq"] == 1
