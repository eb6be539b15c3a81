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
