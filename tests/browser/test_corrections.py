"""Correcting a past entry on a phone, as a player would, in a real browser (390×844): round 2
of a score sheet after round 4, and a Yahtzee box after the next player's turn. The taps are
counted (the figures of the closing note), the screens shot, a second phone sees the
correction live, and the corrected entry is in the log in words; English and French."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import MakePage, assert_accessible, shoot
from .test_declared import Taps

TABLE_ADDRESS = re.compile(r"/(en|fr)/tables/[A-Za-z0-9_-]{22}/$")
WORDS = {
    "en": {"new": "/en/tables/new/sheet/", "save": "Save round 2", "corrected": "Entry 2 corrected"},
    "fr": {"new": "/fr/tables/nouvelle/sheet/", "save": "Enregistrer la manche 2", "corrected": "Entrée 2 corrigée"},
}


def start(page: Page, address: str, names: list[str]) -> None:
    page.goto(address)
    for seat, name in enumerate(names):
        page.locator(f'input[name="name_{seat}"]').fill(name)
    page.locator('form button[type="submit"]').last.click()
    expect(page).to_have_url(TABLE_ADDRESS)
    page.wait_for_load_state("load")


def grid_row(page: Page, header: str) -> list[str]:
    row = page.locator(".grid tbody tr").filter(
        has=page.locator('th[scope="row"]', has_text=re.compile(f"^{re.escape(header)}$"))
    )
    return [cell.strip() for cell in row.locator("td").all_inner_texts()]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_round_two_of_a_sheet_is_corrected_after_round_four_in_three_taps(make_page: MakePage, lang: str):
    words = WORDS[lang]
    page = make_page()
    start(page, words["new"], ["Ada", "Ben"])
    for number, (first, second) in enumerate((("10", "2"), ("3", "4"), ("5", "5"), ("1", "0")), start=1):
        page.locator("#score-0").fill(first)
        page.locator("#score-1").fill(second)
        page.locator(".round-form__record").click()
        expect(page.locator(".grid__correct")).to_have_count(number)
    watcher = make_page()
    watcher.goto(page.url)
    shoot(page, f"correct-01-sheet-before-{lang}")

    taps = Taps(page)
    taps.tap(page.locator(".grid__correct", has_text=re.compile(r"^2$")))  # round 2's number
    expect(page.locator("#correcting")).to_be_visible()
    expect(page.locator("#score-0")).to_have_value("3")
    expect(page.locator("#score-0")).to_be_in_viewport()  # the pad brought into view, under the band
    shoot(page, f"correct-02-sheet-round-2-open-{lang}", full_page=False)
    taps.type(page.locator("#score-0"), "30")
    taps.tap(page.get_by_role("button", name=words["save"]))
    expect(page.locator("#correcting")).to_have_count(0)
    assert grid_row(page, "2") == ["30", "4"]
    print(f"\ncorrections · [{lang}] round 2 of a sheet after round 4: {taps.taps} taps, {taps.keys} keys typed")
    assert taps.taps <= 3
    expect(page.locator(".log__lines")).to_contain_text(words["corrected"])
    shoot(page, f"correct-03-sheet-after-{lang}")
    assert_accessible(page, f"correct-sheet-{lang}")
    # The other phone sees it without a reload.
    expect(watcher.locator(".grid tbody tr").nth(1)).to_contain_text("30", timeout=10_000)


def test_a_yahtzee_box_is_corrected_after_the_next_player_s_turn(make_page: MakePage):
    page = make_page()
    start(page, "/en/tables/new/yahtzee/", ["Ada", "Ben"])
    for dice, box in (("22256", "Twos"), ("11111", "Yahtzee")):
        for count, face in enumerate(dice, start=1):
            page.get_by_role("link", name=f"A die showing {face}", exact=True).click()
            expect(page.locator('input[name="dice"]')).to_have_value(dice[:count])
        page.locator(".yz-boxes").get_by_role("button", name=re.compile(f"^{box}")).click()
        expect(page.locator(".bar__text")).to_contain_text(box)

    taps = Taps(page)
    taps.tap(page.get_by_role("link", name="Correct Ada’s Twos: 6"))
    expect(page.locator('input[name="dice"]')).to_have_value("22256")
    shoot(page, "correct-04-yahtzee-box-open-en", full_page=False)
    taps.tap(page.get_by_role("link", name="Remove the last die"))  # the 6 was a 2
    expect(page.locator('input[name="dice"]')).to_have_value("2225")
    taps.tap(page.get_by_role("link", name="A die showing 2", exact=True))
    expect(page.locator('input[name="dice"]')).to_have_value("22252")
    taps.tap(page.locator(".yz-boxes").get_by_role("button", name=re.compile("^Twos")))
    expect(page.locator(".bar__text")).to_contain_text("Corrected: Ada · Twos 8")
    print(f"\ncorrections · a Yahtzee box after the next turn: {taps.taps} taps (open, a die out, a die in, the box)")
    assert taps.taps <= 4
    shoot(page, "correct-05-yahtzee-after-en")
    assert_accessible(page, "correct-yahtzee")
