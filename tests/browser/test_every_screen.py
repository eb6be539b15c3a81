"""Every screen, second pass: a tablet or a phone on its side puts the band beside the board;
the end's chart fits the screen; long scores and long names fit the band; no word is cut in
the middle, in either language, on the smallest phone. The figures are printed for the
closing note, and the screenshots are in test-output/screenshots/ (every-*)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .helpers import MakePage, assert_accessible, shoot
from .test_small_screens import GAMES, WIDEST, start

LANDSCAPE = {"width": 1024, "height": 768}
PHONE_ON_ITS_SIDE = {"width": 844, "height": 390}
PORTRAIT = {"width": 768, "height": 1024}
BOX = "el => el.getBoundingClientRect().toJSON()"
# Names the band cuts with an ellipsis, or scores wider than their tile.
CUT = """(sel) => Array.from(document.querySelectorAll(sel))
  .filter(e => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.trim())"""
# Words laid out on two lines or more ("Doubl|e", "Améli|e"): a range over each word of the
# text has boxes at more than one height.
BROKEN_WORDS = r"""(sel) => { const out = []; for (const el of document.querySelectorAll(sel)) {
  if (!el.getClientRects().length) continue;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT); let node;
  while ((node = walker.nextNode())) { const word = /[^\s\u00a0\u202f-]+/g; let found;
    while ((found = word.exec(node.data))) { const range = document.createRange();
      range.setStart(node, found.index); range.setEnd(node, found.index + found[0].length);
      const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(found[0]); } } } return out; }"""
LONG_NAMES = ["Amélie", "Marie-Christine", "Dominique", "Jean-Baptiste", "Éloïse"]


def box(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).first.evaluate(BOX)
    return found


def api_match(page: Page, game: str, players: list[str], **options: Any) -> tuple[str, str]:
    created = page.request.post("/api/v1/matches", data={"game": game, "players": players, **options})
    assert created.status == 201, created.text()
    match = created.json()
    return match["id"], match["edit_token"]


def act(page: Page, match: tuple[str, str], action: dict[str, Any]) -> None:
    answered = page.request.post(
        f"/api/v1/matches/{match[0]}/actions", data=action, headers={"Authorization": f"Bearer {match[1]}"}
    )
    assert answered.status == 200, answered.text()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_on_a_tablet_on_its_side_the_band_is_a_column_beside_the_board(make_page: MakePage, game: str):
    page = make_page(viewport=LANDSCAPE, is_mobile=False)
    start(page, game, GAMES[game])
    band, beside = box(page, ".band"), box(page, ".table__main")
    assert band["right"] <= beside["left"]
    assert band["top"] < box(page, "#pad")["top"] + 1  # side by side, not one above the other
    assert box(page, "#pad")["top"] < LANDSCAPE["height"] / 2
    assert page.evaluate(CUT, ".band__name, .band__score") == []  # every name whole
    widest = page.evaluate(WIDEST)
    shoot(page, f"every-01-{game}-tablet-landscape", full_page=False)
    # Down the table (the sheets, the links under them), every score is still in view beside it.
    page.locator(".table-links").first.scroll_into_view_if_needed()
    expect(page.locator("#table .band__player").last).to_be_in_viewport()
    expect(page.locator("#table .band__player").first).to_be_in_viewport()
    print(
        f"\nevery screen · {game} at 1024×768: band {band['right'] - band['left']:.0f} px wide beside the board;"
        f" widest element {widest:+.0f} px"
    )
    assert widest <= 0.5


@pytest.mark.parametrize("game", ["pickomino", "tarot", "sheet"])
def test_a_phone_on_its_side_keeps_the_band_beside_the_pad(make_page: MakePage, game: str):
    page = make_page(viewport=PHONE_ON_ITS_SIDE)
    start(page, game, 5)
    band, beside = box(page, ".band"), box(page, ".table__main")
    assert band["right"] <= beside["left"]
    bar_top = box(page, ".bar")["top"]
    tiles = page.locator(".band__player").evaluate_all("els => els.map(e => e.getBoundingClientRect().bottom)")
    print(
        f"\nevery screen · {game} at 844×390: the five scores end at {max(tiles):.0f} px, the bar at {bar_top:.0f} px"
    )
    assert max(tiles) <= bar_top  # all five scores in view at once, above the bar
    assert box(page, "#pad")["top"] < bar_top
    shoot(page, f"every-02-{game}-phone-landscape", full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_a_tablet_upright_keeps_the_band_above_the_pad(make_page: MakePage):
    page = make_page(viewport=PORTRAIT, is_mobile=False, locale="fr-FR")
    start(page, "tarot", 5)
    page.goto(page.url.replace("/en/", "/fr/"))
    assert box(page, ".band")["bottom"] <= box(page, "#pad")["top"]
    shoot(page, "every-03-tarot-tablet-portrait-fr", full_page=False)
    assert page.evaluate(WIDEST) <= 0.5


@pytest.mark.parametrize(("viewport", "name"), [(LANDSCAPE, "tablet"), ({"width": 390, "height": 844}, "phone")])
def test_the_end_opens_on_the_winner_with_a_chart_that_fits_the_screen(make_page: MakePage, viewport, name):
    page = make_page(viewport=viewport, is_mobile=name == "phone", color_scheme="dark")
    match = api_match(page, "sheet", ["Ada", "Ben", "Cy", "Dee"])
    for scores in ([5, 3, -40, 2], [2, 8, 1, 1], [-3, 1, 12, 4], [30, -2, 0, 9]):
        act(page, match, {"type": "round", "scores": scores})
    act(page, match, {"type": "end"})
    page.goto(f"/en/tables/{match[0]}/")
    expect(page.locator(".results")).to_be_visible()
    chart = box(page, ".chart svg")
    height = chart["bottom"] - chart["top"]
    print(f"\nevery screen · the end's chart on a {name}: {height:.0f} px high in a {viewport['height']} px screen")
    assert height <= 0.66 * viewport["height"]
    shoot(page, f"every-04-end-{name}-dark", full_page=False)
    assert_accessible(page, f"every-end-{name}-dark")


def test_five_digit_negative_scores_and_long_names_fit_the_band_of_eight_at_320(make_page: MakePage):
    page = make_page(viewport={"width": 320, "height": 640})
    names = ["Marie-Christine", "Jean-Baptiste", "Dominique", "Éloïse", "Amélie", "Bartholomew", "Cy", "Hal"]
    match = api_match(page, "sheet", names)
    act(page, match, {"type": "round", "scores": [-12345, 99999, -100000, 5, -999, 1250, 0, -42]})
    page.goto(f"/en/tables/{match[0]}/join/#key={match[1]}")
    expect(page.locator(".band__player")).to_have_count(8)
    scores = page.locator(".band__score").all_inner_texts()
    cut_scores = page.evaluate(CUT, ".band__score, .band__player")
    print(f"\nevery screen · the band of eight at 320 px: {scores}; scores wider than their tile: {cut_scores}")
    assert cut_scores == []
    shoot(page, "every-05-long-scores-320", full_page=False)
    assert page.evaluate(WIDEST) <= 0.5


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_word_is_cut_in_the_middle_on_a_320_phone(make_page: MakePage, lang: str):
    page = make_page(viewport={"width": 320, "height": 640}, locale="fr-FR" if lang == "fr" else "en-US")
    broken: dict[str, list[str]] = {}
    # Tarot's extras: the handfuls and the petit au bout, the widest segmented buttons.
    tarot = api_match(page, "tarot", LONG_NAMES)
    page.goto(f"/{lang}/tables/{tarot[0]}/join/#key={tarot[1]}")
    expect(page.locator(".choices")).to_be_visible()
    page.goto(f"/{lang}/tables/{tarot[0]}/?seq=0&taker=0&contract=garde&partner=4&bouts=2&points=45")
    page.locator("#deal-extras > summary").click()
    broken["tarot extras"] = page.evaluate(BROKEN_WORDS, ".segment span, .handful__name, .chip, .preview, .record-box")
    shoot(page, f"every-06-tarot-extras-320-{lang}", full_page=False)
    # The final standings of every game with long names (a watcher's page: no token needed).
    sheet = api_match(page, "sheet", LONG_NAMES)
    act(page, sheet, {"type": "round", "scores": [12, -3, 40, 7, 0]})
    act(page, sheet, {"type": "end"})
    deal = {"type": "deal", "taker": 0, "contract": "garde", "partner": 4, "bouts": 2, "points": 45, "poignees": []}
    act(page, tarot, {**deal, "petit_au_bout": None, "chelem": None})
    act(page, tarot, {"type": "end"})
    pickomino = api_match(page, "pickomino", LONG_NAMES[:4])
    for total in range(21, 37):
        act(page, pickomino, {"type": "take", "total": total, "worm": True, "from": "grill"})
    for name, match in (("sheet", sheet), ("tarot", tarot), ("pickomino", pickomino)):
        page.goto(f"/{lang}/tables/{match[0]}/")
        expect(page.locator(".results")).to_be_visible()
        broken[f"{name} standings"] = page.evaluate(
            BROKEN_WORDS, ".standings, .legend, .band__status, .grid__name-text, .round-form label"
        )
        shoot(page, f"every-07-{name}-standings-320-{lang}")
    print(f"\nevery screen · words cut at 320 px ({lang}): {broken}")
    assert all(words == [] for words in broken.values()), broken
