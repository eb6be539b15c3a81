"""The big screen on a TV (1920×1080) and a tablet lying flat (1024×768): the scores read
from three metres (large type), no control, nothing wider than the screen, axe clean in
light and dark; live: a turn recorded on a phone shows on the screen without a reload."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .helpers import MakePage, assert_accessible, shoot

TABLE_ADDRESS = re.compile(r"/en/tables/[A-Za-z0-9_-]{22}/$")
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"


def test_a_tv_shows_every_score_in_large_type_and_follows_the_phone_live(make_page: MakePage):
    phone = make_page()
    phone.goto("/en/tables/new/pickomino/")
    for seat, name in enumerate(["Ada", "Ben", "Cy", "Dee"]):
        phone.locator(f'input[name="name_{seat}"]').fill(name)
    phone.locator('form button[type="submit"]').last.click()
    expect(phone).to_have_url(TABLE_ADDRESS)
    screen_address = phone.url + "screen/"

    tv = make_page(viewport={"width": 1920, "height": 1080}, is_mobile=False)
    tv.goto(screen_address)
    expect(tv.locator(".screen__status")).to_have_text("Ada’s turn")
    assert tv.locator("#table form, #table button, #table input").count() == 0
    size = tv.locator(".screen__score").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    print(f"\nbig screen · score type {size:.0f} px on a 1920×1080 TV")
    assert size >= 100  # px: about 3 cm on a 40-inch TV, read from three metres
    assert tv.evaluate(OVERFLOW) <= 0
    shoot(tv, "screen-01-tv-en", full_page=False)
    assert_accessible(tv, "big-screen-tv")

    phone.get_by_role("button", name=re.compile(r"^Take 27")).first.click()
    expect(phone.locator(".bar__text")).to_contain_text("Ada took 27")
    expect(tv.locator(".screen__last")).to_contain_text("Ada took 27", timeout=10_000)
    expect(tv.locator(".screen__status")).to_have_text("Ben’s turn")
    shoot(tv, "screen-02-tv-after-a-turn-en", full_page=False)


def test_a_tablet_lying_flat_in_french_in_dark_mode(make_page: MakePage):
    phone = make_page()
    phone.goto("/fr/tables/nouvelle/sheet/")
    for seat, name in enumerate(["Amélie", "Bérénice", "Clémentine", "Dominique", "Eugénie", "Françoise"]):
        phone.locator(f'input[name="name_{seat}"]').fill(name)
    phone.locator('form button[type="submit"]').last.click()
    screen_address = phone.url + "screen/"
    tablet = make_page(viewport={"width": 1024, "height": 768}, is_mobile=False, color_scheme="dark")
    tablet.goto(screen_address)
    expect(tablet.locator(".screen__status")).to_have_text("Manche 1")
    assert tablet.evaluate(OVERFLOW) <= 0
    names = tablet.locator(".screen__name").evaluate_all("els => els.map(e => e.scrollWidth <= e.clientWidth)")
    assert all(names)  # every name whole, none cut
    shoot(tablet, "screen-03-tablet-fr-dark", full_page=False)
    assert_accessible(tablet, "big-screen-tablet-dark")
