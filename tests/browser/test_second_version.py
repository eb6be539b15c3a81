"""The game file's second version at the table, in a real phone browser against a real
server: the four test files (``tests/declared/games``) made into games of one's own through
the API, set up and played on the table screen, each in one language and read in the other.

- a team game (partners opposite): the pad asks each team, the band shows the teams by
  their players' names, a rule across teams refuses a deal;
- a cooperative campaign: the table wins together, its missions carried and tracked;
- an instant win: a supremacy ends the match at once, the rule named;
- a majority game: maki rolls scored by rank, the tied splitting the points.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

from .helpers import BrowserLog, MakePage, assert_accessible, shoot
from .test_declared import OVERFLOW, TABLE_ADDRESS
from .test_every_screen import CUT

pytestmark = pytest.mark.browser

GAMES = Path(__file__).parent.parent / "declared" / "games"
NEW_MATCH = {"en": "/en/tables/new/{game}/", "fr": "/fr/tables/nouvelle/{game}/"}


def own_game(page: Page, name: str) -> str:
    """The test file made into a game of one's own through the API: its key for a new match."""
    created = page.request.post("/api/v1/own-games", data={"toml": (GAMES / f"{name}.toml").read_text()})
    assert created.status == 201, created.text()
    key: str = created.json()["own_game"]["game"]
    return key


def set_up(page: Page, language: str, game: str, names: list[str], **fields: str) -> str:
    page.goto(NEW_MATCH[language].format(game=game))
    return start_match(page, names, **fields)


def start_match(page: Page, names: list[str], **fields: str) -> str:
    """The set-up page filled in and the match started: the table's address, without its language."""
    for number, name in enumerate(names):
        page.locator(f'input[name="name_{number}"]').fill(name)
    for name, value in fields.items():
        page.locator(f'[name="{name}"]').fill(value)
    page.locator('form button[type="submit"]').last.click()
    expect(page).to_have_url(TABLE_ADDRESS)
    return re.sub(r"^/(en|fr)/", "/", urlsplit(page.url).path)


def settled(page: Page) -> None:
    """No request, swap or settle of htmx under way: a tap then lands on the pad drawn last."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)


def field(page: Page, name: str) -> Locator:
    settled(page)
    return page.locator(f"#f-{name.replace('_', '-')}")


def in_other_language(page: Page, address: str, language: str) -> None:
    page.goto(f"/{language}{address}")


def record(page: Page, button: str) -> None:
    settled(page)
    page.get_by_role("button", name=button).click()


def test_a_team_game_in_english_the_band_by_team_and_a_rule_across_teams(make_page: MakePage):
    page = make_page()
    log = BrowserLog.attach(page)
    game = own_game(page, "team_game")
    table = set_up(page, "en", game, ["Ada", "Ben", "Cy", "Dee"])
    # Partners sit opposite: Ada and Cy against Ben and Dee, a card each on the pad.
    expect(page.locator(".band__name")).to_have_text([re.compile("Ada and Cy"), "Ben and Dee"])
    expect(page.locator("#pad fieldset legend")).to_have_text(["Ada and Cy", "Ben and Dee"])
    field(page, "in_points_0").fill("100")
    field(page, "in_points_1").fill("50")
    record(page, "Record round 1")
    expect(page.locator(".bar__text")).to_have_text("The two teams' card points add up to 162.")
    expect(field(page, "in_points_0")).to_have_value("100")  # nothing typed is lost
    field(page, "in_points_1").fill("62")
    field(page, "in_belote_0").check()
    record(page, "Record round 1")
    expect(page.locator(".band__status")).to_have_text("Round 2")
    expect(page.locator(".band__score")).to_have_text(["120 points", "62 points"])
    shoot(page, "second-01-team-round-2", full_page=False)
    assert_accessible(page, "second-team-round-2")
    assert page.evaluate(OVERFLOW) <= 0
    # Read in French: the teams named the French way, the pad's words French.
    in_other_language(page, table, "fr")
    expect(page.locator(".band__name")).to_have_text([re.compile("Ada et Cy"), "Ben et Dee"])
    expect(page.locator(".band__status")).to_have_text("Manche 2")
    expect(page.locator("#pad")).to_contain_text("Points des cartes")
    assert [line for line in log.errors() if "status of 422" not in line] == []


def test_a_cooperative_campaign_in_french_the_table_wins_together(make_page: MakePage):
    page = make_page(locale="fr-FR")
    log = BrowserLog.attach(page)
    game = own_game(page, "coop_game")
    table = set_up(page, "fr", game, ["Aïcha", "Bruno", "Chloé"], campaign="2")
    field(page, "in_mission").fill("1")
    record(page, "Noter la manche 1")
    expect(page.locator(".band__status")).to_have_text("Manche 2")
    field(page, "in_mission").fill("1")
    field(page, "in_success").check()
    record(page, "Noter la manche 2")
    expect(page.locator(".band__status")).to_have_text("Manche 3")
    expect(page.locator(".declared-rules")).to_have_text(
        "Gagné ou perdu ensemble · gagné quand : La dernière mission est réussie"
        " · perdu quand : Cinq tentatives ratées sur une mission"
    )
    # A mission out of order is refused by the campaign's rule, in French.
    field(page, "in_mission").fill("3")
    record(page, "Noter la manche 3")
    expect(page.locator(".bar__text")).to_contain_text("Les missions se jouent dans l’ordre")
    field(page, "in_mission").fill("2")
    field(page, "in_success").check()
    record(page, "Noter la manche 3")
    # The last mission completed: everyone wins together, the campaign's missions as its score.
    expect(page.locator(".band__status")).to_have_text("La table gagne ensemble, avec 2.")
    expect(page.locator(".band__name")).to_have_text([re.compile("La table")])
    # The mission reached, tracked beside the missions completed.
    expect(page.locator(".band__note")).to_have_text("Mission atteinte : 2")
    expect(page.locator(".round-form")).to_have_count(0)
    # The table's result, not standings: no rank, won, its score and its campaign.
    expect(page.locator("#results-title")).to_have_text("Le résultat de la table")
    expect(page.locator(".table-result__who")).to_have_text("La table")
    expect(page.locator(".table-result dt")).to_have_text(["Résultat", "Points", "Mission atteinte"])
    expect(page.locator(".table-result dd")).to_have_text(["Gagné", "2", "2"])
    expect(page.locator(".standings")).to_have_count(0)
    shoot(page, "second-02-coop-won", full_page=False)
    assert_accessible(page, "second-coop-won-fr")
    assert page.evaluate(OVERFLOW) <= 0
    in_other_language(page, table, "en")
    expect(page.locator(".band__status")).to_have_text("The table wins together, with 2.")
    expect(page.locator(".declared-rules")).to_contain_text("Won or lost together")
    expect(page.locator("#results-title")).to_have_text("The table’s result")
    assert [line for line in log.errors() if "status of 422" not in line] == []


def test_an_instant_win_in_english_a_supremacy_ends_the_match_at_once(make_page: MakePage):
    page = make_page()
    log = BrowserLog.attach(page)
    game = own_game(page, "instant_win")
    table = set_up(page, "en", game, ["Ada", "Ben"])
    field(page, "in_points_0").fill("12")
    field(page, "in_points_1").fill("20")
    record(page, "Record round 1")
    expect(page.locator(".band__score")).to_have_text(["12 points", "20 points"])
    field(page, "in_points_0").fill("5")
    field(page, "in_points_1").fill("3")
    field(page, "in_supremacy_0").check()
    record(page, "Record round 2")
    # Ada's supremacy ends the match at once, though Ben is ahead on points: the rule is said.
    expect(page.locator(".band__status")).to_have_text("Supremacy: Ada wins at once.")
    expect(page.locator(".band__score")).to_have_text(["17 points", "23 points"])
    expect(page.locator(".standings tbody tr").first).to_contain_text("Ada")
    expect(page.locator(".round-form")).to_have_count(0)
    expect(page.locator(".bar__text")).to_have_text("Round 2 · Supremacy: Ada wins at once.")
    shoot(page, "second-03-instant-win", full_page=False)
    assert_accessible(page, "second-instant-win")
    in_other_language(page, table, "fr")
    expect(page.locator(".band__status")).to_have_text("Suprématie : Ada l’emporte aussitôt.")
    assert [line for line in log.errors() if "status of 422" not in line] == []


def test_a_majority_game_in_french_the_tied_split_the_maki_points(make_page: MakePage):
    page = make_page(locale="fr-FR")
    log = BrowserLog.attach(page)
    game = own_game(page, "majority_game")
    table = set_up(page, "fr", game, ["Aïcha", "Bruno", "Chloé", "Denis", "Élodie"])
    for seat, (maki, cards) in enumerate([(5, 20), (5, 18), (3, 25), (0, 30), (1, 10)]):
        field(page, f"in_maki_{seat}").fill(str(maki))
        field(page, f"in_cards_{seat}").fill(str(cards))
    shoot(page, "second-04-majority", full_page=False)
    record(page, "Noter le décompte final")
    # Aïcha and Bruno tie for the most maki: 6 split, 3 each, and the second place is used up
    # (Chloé's 3 icons score nothing); Élodie's 1 icon is no place.
    expect(page.locator(".band__score")).to_have_text(["23 points", "21 points", "25 points", "30 points", "10 points"])
    expect(page.locator(".band__status")).to_have_text("Denis gagne avec 30.")
    shoot(page, "second-04-majority-the-end", full_page=False)
    assert_accessible(page, "second-majority-fr")
    assert page.evaluate(OVERFLOW) <= 0
    in_other_language(page, table, "en")
    expect(page.locator(".band__status")).to_have_text("Denis wins with 30.")
    assert [line for line in log.errors() if "status of 422" not in line] == []


def test_a_team_game_with_an_instant_win_declared_in_the_editor_in_french_on_a_small_phone(make_page: MakePage):
    """The editor's second-version parts, as a household fills them in at 320 px: teams of
    two, a rule that ends the game at once for those it names; then a match of four."""
    page = make_page(locale="fr-FR", viewport={"width": 320, "height": 640})
    log = BrowserLog.attach(page)
    page.goto("/fr/jeux-maison/nouveau/")
    page.locator("#name_fr").fill("Notre belote")
    page.locator("#min_players").fill("4")
    page.locator("#max_players").fill("4")
    page.get_by_label("En équipes de deux", exact=False).check()
    page.locator("#input-0-label_fr").fill("Points du pli")
    page.get_by_role("button", name="Ajouter une règle qui termine la partie").click()
    expect(page.locator("#rule-0-label_fr")).to_be_visible()
    # The page came back from the server: what was typed before is kept, the teams chosen.
    expect(page.locator("#name_fr")).to_have_value("Notre belote")
    expect(page.locator("#input-0-per")).to_contain_text("pour chaque équipe")
    page.locator("#rule-0-label_fr").fill("Capot")
    page.locator("#rule-0-when").fill("all.points.exists(p, p >= 250)")
    page.locator("#rule-0-outcome").select_option("winners")
    page.locator("#rule-0-winners").fill("[0, 1].filter(t, all.points[t] >= 250)")
    assert page.evaluate(OVERFLOW) <= 0
    page.locator("#rule-0-outcome").scroll_into_view_if_needed()
    shoot(page, "second-05-editor-teams-320-fr", full_page=False)
    assert_accessible(page, "second-editor-teams-fr")
    page.locator("button[value=save]").click()
    expect(page.get_by_role("status")).to_contain_text("Enregistré en version 1.")
    page.get_by_role("link", name="Nouvelle partie").click()
    start_match(page, ["Aïcha", "Bruno", "Chloé", "Denis"])
    expect(page.locator(".band__name")).to_have_text([re.compile("Aïcha et Chloé"), "Bruno et Denis"])
    field(page, "in_points_0").fill("40")
    field(page, "in_points_1").fill("250")
    page.get_by_role("button", name="Noter la manche 1").click()
    expect(page.locator(".band__status")).to_have_text("Capot : Bruno et Denis l’emportent aussitôt.")
    assert page.evaluate(OVERFLOW) <= 0
    assert page.evaluate(CUT, ".band__name") == []  # each team's name whole at 320 px
    expect(page.locator(".standings thead th").nth(1)).to_have_text("Équipe")
    shoot(page, "second-06-editor-game-capot-320-fr", full_page=False)
    assert [line for line in log.errors() if "status of 422" not in line] == []
