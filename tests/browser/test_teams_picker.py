"""A team game's set-up page, in a real phone browser against a real server: each player's
row picks a team (by default the one the rules form, partners opposite), a wrong choice comes
back refused on the page with everything typed kept, and the partners chosen are the table's."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from .helpers import BrowserLog, MakePage, assert_accessible, shoot
from .test_declared import OVERFLOW, TABLE_ADDRESS
from .test_second_version import NEW_MATCH, own_game

pytestmark = pytest.mark.browser

NAMES = ["Aïcha", "Bruno", "Chloé", "David"]


def team_of(page: Page, player: int) -> Locator:
    """The select of a row's team, found by its label as a screen reader says it."""
    return page.get_by_label(f"Joueur {player}: Équipe", exact=True)


def test_a_team_game_set_up_in_french_with_partners_other_than_the_rules(make_page: MakePage):
    page = make_page(locale="fr-FR")  # 390×844
    log = BrowserLog.attach(page)
    game = own_game(page, "team_game")
    page.goto(NEW_MATCH["fr"].format(game=game))
    # Each row offers the teams, the rules' partners (opposite) chosen already.
    expect(page.locator("select[name^=teams_]")).to_have_count(4)
    for player, team in zip(range(1, 5), ["0", "1", "0", "1"], strict=True):
        expect(team_of(page, player)).to_have_value(team)
    expect(team_of(page, 1).locator("option")).to_have_text(["Équipe 1", "Équipe 2"])
    for number, name in enumerate(NAMES):
        page.locator(f'input[name="name_{number}"]').fill(name)
    shoot(page, "teams-picker-01-set-up-390-fr")
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate(OVERFLOW) <= 0
    team_of(page, 3).scroll_into_view_if_needed()
    shoot(page, "teams-picker-02-set-up-320-fr", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})

    # Bruno joins Aïcha while Chloé stays: three in one team, refused on the page.
    team_of(page, 2).select_option(label="Équipe 1")
    page.locator("input[name=first][value='2']").check()
    page.get_by_role("button", name="Commencer la partie").click()
    refusal = page.locator(".seats__error")
    expect(refusal).to_have_text("L’équipe 1 a 3 joueurs\u00a0: il en faut 2 par équipe.")
    expect(team_of(page, 1)).to_have_attribute("aria-invalid", "true")
    expect(team_of(page, 1)).to_have_accessible_description(re.compile("L’équipe 1 a 3 joueurs"))
    for number, name in enumerate(NAMES):  # nothing typed is lost
        expect(page.locator(f'input[name="name_{number}"]')).to_have_value(name)
    for player, team in zip(range(1, 5), ["0", "0", "0", "1"], strict=True):
        expect(team_of(page, player)).to_have_value(team)
    expect(page.locator("input[name=first][value='2']")).to_be_checked()
    assert page.evaluate(OVERFLOW) <= 0
    shoot(page, "teams-picker-03-refused-390-fr")
    assert_accessible(page, "teams-picker-refused-fr")

    # Chloé, by the keyboard, goes over to David: Aïcha and Bruno against Chloé and David.
    team_of(page, 3).focus()
    page.keyboard.press("ArrowDown")
    expect(team_of(page, 3)).to_have_value("1")
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page).to_have_url(TABLE_ADDRESS)
    # Chloé starts: her team plays first.
    expect(page.locator(".band__name")).to_have_text(["Aïcha et Bruno", re.compile("Chloé et David, a commencé")])
    expect(page.locator("#pad fieldset legend")).to_have_text(["Aïcha et Bruno", "Chloé et David"])
    assert page.evaluate(OVERFLOW) <= 0
    shoot(page, "teams-picker-04-table-390-fr", full_page=False)
    assert [line for line in log.errors() if "status of 422" not in line] == []
