"""Every game on the smallest phone, 320×640, at its most players (twelve for Dixit): the band
keeps at most a quarter of the screen, every control of the pad is a touch target of 44×44 px
at least, and nothing is wider than the screen; the same on 390×844 and on a tablet
(1024×768). The figures are printed for the closing note."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import MakePage, shoot

TABLE_ADDRESS = re.compile(r"/en/tables/[A-Za-z0-9_-]{22}/$")
NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
GAMES = {
    "pickomino": 7,
    "yahtzee": 8,
    "tarot": 5,
    "sheet": 8,
    "skyjo": 8,
    # The French card games at their most players (Rummikub's classic box: 4).
    "belote": 4,
    "coinche": 4,
    "canasta": 4,
    "rami": 6,
    "rummikub": 4,
    "scrabble": 4,
    "phase_10": 6,
    "farkle": 7,
    "oh_hell": 8,
    "mille_bornes": 6,
    # The modern family shelf at its most players (Sushi Go Party's eight, Dixit Odyssey's twelve).
    "azul": 4,
    "cascadia": 4,
    "terraforming_mars": 5,
    "sushi_go": 8,
    "everdell": 4,
    "catan": 4,
    "carcassonne": 5,
    "splendor": 4,
    "akropolis": 4,
    "seven_wonders_duel": 2,
    "codenames": 8,
    "dixit": 12,
    "just_one": 7,
    "the_crew": 5,
    "love_letter": 6,
}
FIELDS = {"skyjo": {"target": "100"}, "sushi_go": {"edition": "party"}}
# A label for a text field is not what is tapped (the field is); a label around a box is.
SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
    '#pad a[href], #pad button, #pad summary, #pad label:not([for]), #pad input[type=text]'))
  .filter(e => e.getClientRects().length && !e.closest('.visually-hidden'))
  .map(e => { const r = e.getBoundingClientRect();
    return {w: r.width, h: r.height, text: (e.textContent || '').trim().slice(0, 30)}; })
  .filter(r => r.w < 43.5 || r.h < 43.5)"""
WIDEST = """() => Math.max(...Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getClientRects().length && !e.closest('.grid-box, .yz-grid-box, .entry-box, .visually-hidden'))
  .map(e => e.getBoundingClientRect().right)) - window.innerWidth"""


def start(page: Page, game: str, count: int) -> None:
    page.goto(f"/en/tables/new/{game}/")
    if page.locator(".more-seats").count() and count > page.locator(".seats").first.locator(".seat").count():
        page.locator(".more-seats summary").click()  # "More players (up to 12)"
    for seat, name in enumerate(NAMES[:count]):
        page.locator(f'input[name="name_{seat}"]').fill(name)
    for name, value in FIELDS.get(game, {}).items():
        field = page.locator(f'[name="{name}"]')
        if field.first.get_attribute("type") == "radio":
            page.locator(f'[name="{name}"][value="{value}"]').check()
        else:
            field.fill(value)
    page.locator('form button[type="submit"]').last.click()
    expect(page).to_have_url(TABLE_ADDRESS)
    page.wait_for_load_state("load")  # measured as drawn, with its stylesheets


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_band_keeps_a_quarter_of_a_320_by_640_phone_at_the_most_players(make_page: MakePage, game: str):
    page = make_page(viewport={"width": 320, "height": 640})
    start(page, game, GAMES[game])
    band = page.locator(".band").bounding_box()
    assert band
    share = band["height"] / 640
    print(f"\nsmall screens · {game}, {GAMES[game]} players at 320×640: band {band['height']:.0f} px, {share:.0%}")
    shoot(page, f"small-01-{game}-320", full_page=False)
    assert share <= 0.25
    widest = page.evaluate(WIDEST)
    print(f"small screens · {game} at 320: widest element {widest:+.0f} px past the screen")
    assert widest <= 0.5


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("width", [320, 390, 1024])
def test_nothing_is_wider_than_the_screen(make_page: MakePage, game: str, width: int):
    height = {320: 640, 390: 844, 1024: 768}[width]
    page = make_page(viewport={"width": width, "height": height}, is_mobile=width < 1000)
    start(page, game, GAMES[game])
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    widest = page.evaluate(WIDEST)
    print(f"\nsmall screens · {game} at {width}: widest element {widest:+.0f} px past the screen")
    assert widest <= 0.5


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_control_of_the_pad_is_a_44_px_target_at_320(make_page: MakePage, game: str):
    page = make_page(viewport={"width": 320, "height": 640})
    start(page, game, GAMES[game])
    small = page.evaluate(SMALL_TARGETS)
    print(f"\nsmall screens · {game}: {len(small)} pad controls under 44×44 px: {small[:6]}")
    assert small == []
