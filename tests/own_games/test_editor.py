"""The editor's form over a game file: posted back as it opens, every catalog game's copy
gives back its file whole (the form is a faithful view: what it does not show is kept);
rows are added and removed; names come from labels; faults land on their fields; a tried
round gives the formula's points."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from marquoir.games.declared import declared_games
from marquoir.own_games import editor, files
from marquoir.own_games.models import OwnGame, OwnGameVersion

from .forms import form_fields

pytestmark = pytest.mark.django_db

NEW = "/en/own-games/new/"
CATALOG = sorted(game.key for game in declared_games())


def saved_file(client: Client, fields: dict[str, str]) -> dict[str, Any]:
    response = client.post(NEW, {**fields, "do": "save"})
    assert response.status_code == 303, response.content.decode()[:3000]
    game = OwnGame.objects.get()
    version: OwnGameVersion = game.versions.get()
    kept: dict[str, Any] = version.file
    return kept


@pytest.mark.parametrize("key", CATALOG)
def test_the_copy_of_every_catalog_game_saved_as_it_opens_is_its_file(client: Client, key: str):
    page = client.get(NEW, {"from": key})
    assert page.status_code == 200
    fields = form_fields(page.content.decode())
    kept = saved_file(client, fields)
    game = next(game for game in declared_games() if game.key == key)
    expected = files.stored(files.compile_file(files.copy_of(game.file, {"en": "x", "fr": "x"})).file)
    expected["box"]["names"] = kept["box"]["names"]
    assert kept == expected
    assert kept["box"]["names"]["en"].endswith("(house rules)")
    assert kept["box"]["names"]["fr"].endswith("(règles maison)")


def test_a_game_from_nothing_is_the_score_sheet_of_any_game(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields["name_en"] = "Our game"
    kept = saved_file(client, fields)
    assert kept["inputs"][0]["key"] == "points"
    assert kept["points"][0]["formula"] == "points"
    assert kept["end"] == {"table_decides": True}
    assert kept["schema_version"] == 2
    assert [key["key"] for key in kept["ranking"]] == ["total"]
    assert kept["ranking"][0].get("order", "highest") == "highest"


def test_a_game_without_a_name_is_not_saved_and_says_so_beside_the_field(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    response = client.post(NEW, {**fields, "do": "save"})
    assert response.status_code == 422
    assert 'id="err-name_en"' in response.content.decode()
    assert "The game needs a name, in one language at least." in response.content.decode()
    assert not OwnGame.objects.exists()


def test_adding_and_removing_rows_keeps_what_was_typed(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update(name_en="Rows", do="add-input")
    added = form_fields(client.post(NEW, fields).content.decode())
    assert added["inputs"] == "2"
    added.update({"input-1-label_en": "Bonus", "do": "add-check"})
    again = form_fields(client.post(NEW, added).content.decode())
    assert again["input-1-key"] == "bonus"  # from its label, kept from then on
    assert again["checks"] == "1"
    again["do"] = "remove-input-0"
    removed = form_fields(client.post(NEW, again).content.decode())
    assert removed["inputs"] == "1"
    assert removed["input-0-label_en"] == "Bonus"
    assert removed["name_en"] == "Rows"


def test_names_come_from_labels_unique_and_not_the_formulas_own():
    taken: set[str] = set()
    assert editor.key_from("Cards left", taken, "x") == "cards_left"
    taken.add("cards_left")
    assert editor.key_from("Cards left!", taken, "x") == "cards_left_2"
    assert editor.key_from("Été", set(), "x") == "ete"
    assert editor.key_from("Round", set(), "x") == "round_2"
    assert editor.key_from("42", set(), "input_3") == "input_3"
    assert editor.key_from("雀", set(), "input_1") == "input_1"


def test_a_fault_of_the_compiler_lands_on_its_field(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update({"name_en": "X", "point-0-formula": "points * bonus"})
    response = client.post(NEW, {**fields, "do": "save"})
    page = response.content.decode()
    assert response.status_code == 422
    assert 'id="point-0-formula"' in page
    assert "“bonus” is not a name this formula knows." in page
    assert 'aria-invalid="true" aria-describedby="err-point-0-formula"' in page


def test_the_live_check_says_each_field_s_fault_in_the_page_s_language(client: Client):
    fields = form_fields(client.get("/fr/jeux-maison/nouveau/").content.decode())
    fields.update({"name_fr": "X", "point-0-formula": "points +* 2", "input-0-key": ""})
    answer = client.post("/fr/jeux-maison/verifier/", fields).json()
    assert answer["errors"]["point-0-formula"].startswith("Cette formule ne se lit pas, ligne 1, colonne")
    assert answer["keys"] == {"input-0-key": "points"}
    assert "points" in answer["names"]["points"]


def test_a_tried_round_gives_the_formula_s_points_and_kept_it_becomes_an_example(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update({"name_en": "Doubled", "point-0-formula": "points > 5 ? 2 * points : points"})
    fields.update({"try_players": "3", "try-points-0": "3", "try-points-1": "7", "try-points-2": "-2", "do": "try"})
    page = client.post(NEW, fields).content.decode()
    assert '<th scope="row">Player 2</th><td>14</td>' in page
    fields["do"] = "keep-example"
    kept = form_fields(client.post(NEW, fields).content.decode())
    saved = saved_file(client, kept)
    assert saved["examples"] == [
        {"name": "Example 1", "players": 3, "rounds": [{"points": [3, 7, -2]}], "points": [3, 14, -2]}
    ]


def test_a_tried_round_that_breaks_a_rule_says_the_rule(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update({"name_en": "Checked", "do": "add-check"})
    fields = form_fields(client.post(NEW, fields).content.decode())
    fields.update({"check-0-holds": "sum(all.points) == 0", "check-0-message_en": "The points add up to zero."})
    fields.update({"try-points-0": "3", "try-points-1": "4", "do": "try"})
    page = client.post(NEW, fields).content.decode()
    assert "The points add up to zero." in page


def test_a_forged_row_count_or_origin_is_bounded_and_harmless(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update(
        {"name_en": "Forged", "inputs": "99999999", "input-0-origin": "77", "points": "-3", "examples": "[1, {]"}
    )
    response = client.post(NEW, {**fields, "do": "check"})
    assert response.status_code == 200
    assert not OwnGame.objects.exists()


def _with_a_rule(client: Client, fields: dict[str, str]) -> dict[str, str]:
    """The form again with an end rule's row added (as the "Add a rule…" button does)."""
    return form_fields(client.post(NEW, {**fields, "do": "add-rule"}).content.decode())


def test_a_team_game_from_the_form_is_played_by_teams_of_two_partners_facing(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update({"name_en": "Our partnership game", "play": "teams", "min_players": "4", "max_players": "6"})
    fields["try_players"] = "4"
    page = client.post(NEW, {**fields, "do": "try", "try-points-0": "30", "try-points-1": "12"}).content.decode()
    assert '<th scope="row">Team 1</th><td>30</td>' in page  # one field a team, scored a team
    kept = saved_file(client, form_fields(page))
    assert kept["play"] == "teams"
    assert kept["teams"]["formed"] == "seat % (players / 2)"  # two a team (the default size)
    assert kept["inputs"][0]["per"] == "team"
    # Opened again, the form shows it as it was made: "for each team".
    reopened = client.get(f"/en/own-games/{OwnGame.objects.get().id}/edit/").content.decode()
    assert 'value="teams" checked' in reopened
    assert "for each team" in reopened


def test_a_cooperative_game_from_the_form_is_won_by_an_end_rule_and_lost_by_another(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update({"name_en": "Our expedition", "play": "cooperative", "input-0-per": "round"})
    fields = _with_a_rule(client, _with_a_rule(client, fields))
    fields.update(
        {
            "rule-0-label_en": "The summit is reached",
            "rule-0-when": "all.total[0] >= 10",
            "rule-0-outcome": "won",
            "rule-1-label_en": "The storm",
            "rule-1-when": "round >= 8",
            "rule-1-outcome": "lost",
            "end_table": "",
        }
    )
    kept = saved_file(client, fields)
    assert kept["play"] == "cooperative"
    assert kept["inputs"][0]["per"] == "round"
    assert [(rule["key"], rule["when"], rule["result"]) for rule in kept["end"]["rules"]] == [
        ("the_summit_is_reached", "all.total[0] >= 10", "won"),
        ("the_storm", "round >= 8", "lost"),
    ]
    assert kept["cooperative"]["won"] == "false"  # the rules say the result; no other end


def test_an_instant_win_from_the_form_names_its_winners(client: Client):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update({"name_en": "Our duel", "min_players": "2", "max_players": "2"})
    fields = _with_a_rule(client, fields)
    fields.update(
        {
            "rule-0-label_en": "A perfect round",
            "rule-0-label_fr": "Une manche parfaite",
            "rule-0-when": "all.points.exists(p, p == 50)",
            "rule-0-outcome": "winners",
            "rule-0-winners": "[0, 1].filter(s, all.points[s] == 50)",
        }
    )
    kept = saved_file(client, fields)
    (rule,) = kept["end"]["rules"]
    assert rule["winners"] == "[0, 1].filter(s, all.points[s] == 50)"
    assert rule["label"] == {"en": "A perfect round", "fr": "Une manche parfaite"}
    assert "result" not in rule


@pytest.mark.parametrize(
    ("play", "outcome", "message"),
    [
        ("competitive", "won", "Only a game played together is won or lost by the table."),
        ("cooperative", "winners", "A game played together is won or lost together: choose which."),
    ],
)
def test_an_end_rule_s_outcome_must_fit_how_the_game_is_played(client: Client, play: str, outcome: str, message: str):
    fields = form_fields(client.get(NEW).content.decode())
    fields.update({"name_en": "X", "play": play, "input-0-per": "round"})
    fields = _with_a_rule(client, fields)
    fields.update({"rule-0-label_en": "Over", "rule-0-when": "round >= 3", "rule-0-outcome": outcome})
    response = client.post(NEW, {**fields, "do": "save"})
    assert response.status_code == 422
    page = response.content.decode()
    assert message in page
    assert 'aria-invalid="true" aria-describedby="err-rule-0-outcome"' in page
    assert not OwnGame.objects.exists()


def test_a_fault_in_an_end_rule_lands_on_its_field_in_french(client: Client):
    fields = form_fields(client.get("/fr/jeux-maison/nouveau/").content.decode())
    fields.update({"name_fr": "X"})
    fields = form_fields(client.post("/fr/jeux-maison/nouveau/", {**fields, "do": "add-rule"}).content.decode())
    fields.update({"rule-0-label_fr": "Fin", "rule-0-when": "all.total.exists(t, t >= 1.5)"})
    answer = client.post("/fr/jeux-maison/verifier/", fields).json()
    assert "rule-0-when" in answer["errors"]
    assert "nombre décimal" in answer["errors"]["rule-0-when"]
    assert "leaders" in answer["names"]["end_rules"]
