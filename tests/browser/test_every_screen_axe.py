"""Axe on every screen of the table, light and dark, in both languages: each game's pad in the
states a turn goes through (a roll to keep, the assistant's advice, Tarot's extras and a
refusal, a past round opened to correct it), the end with its standings and chart, the set-up
and the list of matches. Nothing serious or critical, or the test fails with axe's words;
each answer is kept in test-output/axe/every-screen-*.json, a screenshot of each in
test-output/screenshots/axe-*."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .helpers import MakePage, assert_accessible, shoot
from .test_every_screen import act, api_match

NAMES = ["Amélie", "Marie-Christine", "Dominique", "Jean-Baptiste", "Éloïse"]


def keep(page: Page, match: tuple[str, str], lang: str) -> None:
    """This phone keeps the score of the match (its edit link)."""
    page.goto(f"/{lang}/tables/{match[0]}/join/#key={match[1]}")
    expect(page.locator("#pad")).to_be_visible()


def assistant_on(page: Page) -> None:
    page.locator(".assistant-toggle button").click()
    expect(page.locator(".advice").first).to_be_visible()


def pickomino_roll_to_keep(page: Page, lang: str) -> None:
    match = api_match(page, "pickomino", NAMES[:3])
    keep(page, match, lang)
    assistant_on(page)
    page.goto(f"/{lang}/tables/{match[0]}/?seq=0&pad=dice&dice=&roll=1:1,2:1,3:1,5:3,worm:2")
    expect(page.locator(".keep-buttons")).to_be_visible()


def pickomino_tiles_and_steals(page: Page, lang: str) -> None:
    match = api_match(page, "pickomino", NAMES[:3])
    act(page, match, {"type": "take", "total": 25, "worm": True, "from": "grill"})
    keep(page, match, lang)
    page.goto(f"/{lang}/tables/{match[0]}/?seq=1&total=25&worm=1")
    expect(page.locator(".steals")).to_be_visible()
    page.locator(".bust-entry > summary").click()


def yahtzee_dice_with_advice(page: Page, lang: str) -> None:
    match = api_match(page, "yahtzee", NAMES[:2])
    keep(page, match, lang)
    assistant_on(page)
    dice = ""
    for face in "33456":
        page.locator(f'.yz-faces a[data-key="{face}"]').click()
        dice += face
        expect(page).to_have_url(re.compile(rf"dice={dice}(&|$)"))  # this die drawn before the next tap
    expect(page.locator(".yz-box__button").first).to_be_visible()


def tarot_extras_refused(page: Page, lang: str) -> None:
    match = api_match(page, "tarot", NAMES)
    keep(page, match, lang)
    page.goto(f"/{lang}/tables/{match[0]}/?seq=0&taker=0&contract=garde&partner=4&bouts=2&points=45")
    page.locator("#deal-extras > summary").click()
    for seat in range(len(NAMES)):
        page.locator(".handful").nth(seat).locator(".segment").nth(2).click()
        page.wait_for_load_state()
    expect(page.locator(".record-box .preview__refusal")).to_be_visible()


def sheet_round_corrected(page: Page, lang: str) -> None:
    match = api_match(page, "sheet", NAMES)
    for scores in ([12, -3, 40, 7, 0], [1, 2, 3, 4, 5], [-20, 0, 10, 99, 3]):
        act(page, match, {"type": "round", "scores": scores})
    keep(page, match, lang)
    page.goto(f"/{lang}/tables/{match[0]}/?correct=2")
    expect(page.locator("#correcting")).to_be_visible()


def skyjo_mid_game(page: Page, lang: str) -> None:
    match = api_match(page, "skyjo", NAMES[:4])
    keep(page, match, lang)


def the_end(page: Page, lang: str) -> None:
    match = api_match(page, "sheet", NAMES)
    for scores in ([12, -3, 40, 7, 0], [-30, 8, 1, 1, 2]):
        act(page, match, {"type": "round", "scores": scores})
    act(page, match, {"type": "end"})
    page.goto(f"/{lang}/tables/{match[0]}/")
    expect(page.locator(".results")).to_be_visible()


def set_up(page: Page, lang: str) -> None:
    page.goto(f"/{lang}/tables/new/tarot/" if lang == "en" else "/fr/tables/nouvelle/tarot/")


def my_matches(page: Page, lang: str) -> None:
    api_match(page, "sheet", NAMES[:2])
    page.goto(f"/{lang}/tables/")


SCREENS: dict[str, Callable[[Page, str], None]] = {
    "pickomino-roll-to-keep": pickomino_roll_to_keep,
    "pickomino-tiles-and-steals": pickomino_tiles_and_steals,
    "yahtzee-dice-with-advice": yahtzee_dice_with_advice,
    "tarot-extras-refused": tarot_extras_refused,
    "sheet-round-corrected": sheet_round_corrected,
    "skyjo-mid-game": skyjo_mid_game,
    "the-end": the_end,
    "set-up": set_up,
    "my-matches": my_matches,
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_screen_of_the_table_has_no_serious_accessibility_finding(make_page: MakePage, lang: str, scheme):
    page = make_page(locale="fr-FR" if lang == "fr" else "en-US", color_scheme=scheme)
    checked = []
    for name, reach in SCREENS.items():
        reach(page, lang)
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == lang
        shoot(page, f"axe-{name}-{lang}-{scheme}", full_page=False)
        results = assert_accessible(page, f"every-screen-{name}-{lang}-{scheme}")
        checked.append(f"{name} ({len(results['passes'])} rules passed)")
    print(f"\naxe · {lang}, {scheme}: nothing serious or critical on {len(checked)} screens: {', '.join(checked)}")
    assert len(checked) == len(SCREENS)
