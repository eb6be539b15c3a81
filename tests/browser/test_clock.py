"""The game clock and the turn timer, switched on from the table: the clock counts the match's
time, the timer counts down from the last recorded turn and, at zero, vibrates (and sounds)
once; a recorded turn starts it again; the pad does not move when the table is redrawn with
the line shown; in English and French."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .helpers import MakePage, assert_accessible

TABLE_ADDRESS = re.compile(r"/(en|fr)/tables/[A-Za-z0-9_-]{22}/$")
VIBRATIONS = (
    "window.__vibrations = []; navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };"
)


def test_the_turn_timer_rings_once_at_zero_and_a_turn_starts_it_again(make_page: MakePage):
    page = make_page()
    page.add_init_script(VIBRATIONS)
    page.clock.install()
    page.goto("/en/tables/new/pickomino/")
    for seat, name in enumerate(["Ada", "Ben"]):
        page.locator(f'input[name="name_{seat}"]').fill(name)
    page.locator('form button[type="submit"]').last.click()
    expect(page).to_have_url(TABLE_ADDRESS)
    clock = page.locator("#clock")
    expect(clock).to_be_hidden()  # off until switched on

    page.get_by_label("Game clock").check()
    page.get_by_label("Turn timer").select_option("30")
    expect(clock).to_be_visible()
    expect(clock).to_contain_text(re.compile(r"Played \d+:\d\d · Turn 0:\d\d"))
    page.clock.fast_forward(40_000)
    expect(clock).to_have_class(re.compile("clock--late"))
    page.clock.fast_forward(5_000)
    assert page.evaluate("window.__vibrations.length") == 1  # once, however long it stays at zero

    where = "() => document.getElementById('pad').getBoundingClientRect().top + window.scrollY"
    pad_before = page.evaluate(where)
    page.get_by_role("button", name=re.compile(r"^Take 27")).first.click()
    expect(page.locator(".bar__text")).to_contain_text("Ada took 27")
    expect(clock).not_to_have_class(re.compile("clock--late"))
    assert abs(page.evaluate(where) - pad_before) < 1  # the line's room is kept across redraws
    assert_accessible(page, "clock-on")


def test_the_clock_options_in_french(make_page: MakePage):
    page = make_page()
    page.goto("/fr/tables/nouvelle/sheet/")
    page.locator('input[name="name_0"]').fill("Amélie")
    page.locator('form button[type="submit"]').last.click()
    page.get_by_label("Chronomètre de la partie").check()
    expect(page.locator("#clock")).to_contain_text(re.compile(r"^Partie \d+:\d\d$"))
