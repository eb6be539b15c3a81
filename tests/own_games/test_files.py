"""A user's own file, read, bounded, completed, compiled and written back: every catalog
file goes through it unchanged, and every hostile file is refused with a code the pages
word in the reader's language, never an exception of another kind."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

from marquoir.games.declared import GameFileError, declared_games
from marquoir.games.declared.cost import MAX_ROUND_STEPS, game_cost
from marquoir.games.declared.game import compile_game
from marquoir.own_games import files
from marquoir.own_games.messages import problem_text

from .conftest import DOUBLED, doubled

CATALOG = {game.key: game for game in declared_games()}


def points_of(formula: str, key: str = "cards") -> dict[str, Any]:
    return {"key": key, "label": {"en": "C", "fr": "C"}, "formula": formula}


def read(data: str | dict[str, Any]) -> dict[str, Any]:
    return files.read_text(data) if isinstance(data, str) else data


def refused(data: str | dict[str, Any], code: str) -> GameFileError:
    with pytest.raises(GameFileError) as caught:
        files.compile_file(read(data))
    assert caught.value.code == code, (caught.value.code, caught.value)
    return caught.value


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_catalog_file_goes_out_as_toml_and_back_the_same(key: str):
    kept = files.stored(CATALOG[key].file)
    again = files.compile_file(files.read_text(files.as_toml(kept)))
    assert files.stored(again.file) == kept
    assert len(again.file.examples) == len(CATALOG[key].file.examples)


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_a_copy_of_every_catalog_game_is_a_valid_own_game_without_the_catalog_s_examples(key: str):
    copy = files.copy_of(CATALOG[key].file, {"en": "House", "fr": "Maison"})
    game = files.compile_file(copy)
    assert game.file.examples == []
    assert game.file.box.names.en == "House"
    assert game_cost(game).total <= MAX_ROUND_STEPS


def test_an_own_game_needs_only_its_names_and_players_in_its_box():
    game = files.compile_file(DOUBLED)
    assert game.file.box.category == "party"
    assert game.file.box.original_name == "Skyjo doubled"
    assert game.key == files.OWN_KEY


def test_a_name_in_one_language_serves_the_other():
    data = doubled(box={"names": {"fr": "Seulement en français"}, "players": [2, 4]})
    assert files.compile_file(data).file.box.names.en == "Seulement en français"


def test_the_file_s_own_key_is_replaced():
    assert files.compile_file(doubled(key="pickomino")).key == files.OWN_KEY


def test_json_and_toml_both_read():
    as_json = files.read_text(json.dumps(DOUBLED))
    as_toml = files.read_text(files.as_toml(DOUBLED))
    assert files.stored(files.compile_file(as_json).file) == files.stored(files.compile_file(as_toml).file)


def test_a_file_too_long_is_refused_before_it_is_read():
    error = refused("x" * (files.MAX_FILE_CHARACTERS + 1), "file_too_long")
    assert error.params["limit"] == files.MAX_FILE_CHARACTERS


def test_a_toml_error_names_its_line():
    error = refused('scored = "rounds"\nwinner = = "x"\n', "toml")
    assert error.params["line"] == 2


def test_a_json_error_names_its_line():
    assert refused('{\n"a": 1,\n}', "json").params["line"] == 3


def test_a_list_is_no_game_file():
    with pytest.raises(GameFileError) as caught:
        files.read_text("[1, 2]")
    assert caught.value.code == "toml"


def test_nesting_too_deep_is_refused_without_a_recursion_error():
    deep = "[" * 5000 + "]" * 5000
    with pytest.raises(GameFileError) as caught:
        files.read_text('{"tables": {"t": ' + deep + "}}")
    assert caught.value.code == "too_deep"
    error = refused(doubled(tables={"t": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}), "too_deep")
    assert error.params["limit"] == files.MAX_NESTING


def test_lookup_tables_are_bounded():
    refused(doubled(tables={"t": list(range(files.MAX_TABLE_VALUES + 1))}), "tables_too_big")


def test_examples_are_bounded_in_number_and_rounds():
    example = DOUBLED["examples"][0]
    refused(doubled(examples=[example] * (files.MAX_EXAMPLES + 1)), "too_many_examples")
    long = {**example, "rounds": example["rounds"] * (files.MAX_EXAMPLE_ROUNDS + 1)}
    refused(doubled(examples=[long]), "too_many_rounds")


def test_an_example_that_does_not_hold_refuses_the_file_and_names_it():
    wrong = {**DOUBLED["examples"][0], "name": "Wrong", "points": [10, 4]}
    error = refused(doubled(examples=[wrong]), "example_fails")
    assert error.params["name"] == "Wrong"
    assert error.field == "examples[0]"


def test_examples_that_take_too_long_are_refused():
    game = compile_game(files.read_file(DOUBLED), source=files.SOURCE)
    with pytest.raises(GameFileError) as caught:
        files.check_examples(game, budget=-1)
    assert caught.value.code == "examples_too_slow"


def test_a_formula_with_an_unknown_name_is_refused_where_it_is():
    data = doubled(points=[{"key": "cards", "label": {"en": "C", "fr": "C"}, "formula": "card * 2"}])
    error = refused(data, "unknown_name")
    assert error.field == "points.cards.formula"
    assert error.params["name"] == "card"
    with translation.override("fr"):
        assert (
            problem_text(error)
            == "points.cards.formula\u00a0: «\u00a0card\u00a0» n’est pas un nom que cette formule connaît."
        )


def test_a_syntax_error_says_its_line_and_column_in_both_languages():
    data = doubled(points=[{"key": "cards", "label": {"en": "C", "fr": "C"}, "formula": "cards +* 2"}])
    error = refused(data, "syntax")
    assert error.params["line"] == 1
    with translation.override("en"):
        assert "line 1, column" in problem_text(error, where=False)
    with translation.override("fr"):
        assert "ligne 1, colonne" in problem_text(error, where=False)


def test_parentheses_nested_deep_are_refused_as_unreadable_not_a_crash():
    formula = "(" * 150 + "cards" + ")" * 150
    refused(doubled(points=[{"key": "cards", "label": {"en": "C", "fr": "C"}, "formula": formula}]), "syntax")


def test_a_formula_too_long_is_refused_by_the_schema():
    formula = "cards" + " + cards" * 100
    error = refused(
        doubled(points=[{"key": "cards", "label": {"en": "C", "fr": "C"}, "formula": formula}]),
        "schema.string_too_long",
    )
    with translation.override("fr"):
        assert problem_text(error) == "points[0].formula : Ce texte est trop long : 600 caractères au plus."


def test_a_function_formulas_do_not_know_is_refused():
    refused(
        doubled(points=[{"key": "c", "label": {"en": "C", "fr": "C"}, "formula": "matches(cards)"}]), "unknown_function"
    )


def test_a_key_formulas_use_is_refused_as_an_input_s_name():
    inputs = [{**DOUBLED["inputs"][0], "key": "round"}, DOUBLED["inputs"][1]]
    refused(doubled(inputs=inputs, examples=[], checks=[], tiebreaks=[]), "name_taken")


def test_a_formula_that_would_run_for_minutes_is_refused_before_it_runs():
    """Two comprehensions over a table of 2,000 numbers took 266 s here before the bound."""
    formula = "tables.t.map(a, tables.t.filter(b, b < a).size()).size() + cards"
    data = doubled(
        tables={"t": list(range(1000))}, points=[{"key": "c", "label": {"en": "C", "fr": "C"}, "formula": formula}]
    )
    error = refused(data, "too_costly")  # from its source: it never runs
    assert error.params["steps"] > MAX_ROUND_STEPS
    assert error.field == "points.c.formula"


def test_lists_joined_to_themselves_from_value_to_value_are_refused():
    derived = [
        {"key": "a", "per": "round", "formula": " + ".join(["tables.t"] * 10)},
        {"key": "b", "per": "round", "formula": " + ".join(["a"] * 10)},
    ]
    error = refused(doubled(tables={"t": list(range(50))}, derived=derived), "value_too_big")
    assert error.field == "derived.b"


def test_lists_nested_in_a_value_count_every_entry():
    """A list of 60 lists of 60 is 3,660 entries to copy and convert, not 60 (the review's 135 s)."""
    derived = [
        {"key": "d", "per": "round", "formula": "tables.t.map(x, tables.t)"},
        {"key": "e", "per": "round", "formula": "[d, d, d, d, d, d, d, d, d, d]"},
    ]
    error = refused(doubled(tables={"t": list(range(60))}, derived=derived), "value_too_big")
    assert error.field == "derived.e"


def test_a_comprehension_that_builds_a_list_counts_its_copies():
    """cel-rust's map and filter copy the list at each entry: 12 of them over 2,000 took 48 s."""
    formula = "tables.t.map(x, x).size() + tables.t.filter(x, true).size() + cards"
    refused(doubled(tables={"t": list(range(2000))}, points=[points_of(formula, key="c")]), "too_costly")


def test_a_share_named_as_an_input_is_refused():
    best = {"units": "1", "over": {"cards": "0"}, "formula": "cards"}
    points = [{"key": "c", "label": {"en": "C", "fr": "C"}, "best": best}]
    error = refused(doubled(points=points, examples=[], tiebreaks=[]), "name_taken")
    assert error.field == "points.c.best.over.cards"


def test_an_example_for_more_players_than_the_game_takes_is_refused():
    example = {**DOUBLED["examples"][0], "players": 20, "rounds": [{"cards": [1] * 20, "ended_by": 0}]}
    error = refused(doubled(examples=[example]), "example_players")
    assert error.params == {"least": 2, "most": 6}


def test_a_null_in_a_list_and_a_number_not_finite_are_refused():
    assert refused(doubled(tables={"t": [1, None, 3]}), "null_in_list").field == "tables.t[1]"
    assert refused(doubled(tables={"t": [float("nan")]}), "not_finite").field == "tables.t[0]"


def test_a_file_sent_as_json_is_bounded_as_its_text_is():
    refused(doubled(tables={"t": "x" * files.MAX_FILE_CHARACTERS}), "file_too_long")


def test_a_text_in_one_language_serves_the_other_everywhere():
    inputs = [{**DOUBLED["inputs"][0], "label": {"fr": "Cartes"}}, {**DOUBLED["inputs"][1], "label": {"en": "Who"}}]
    game = files.compile_file(doubled(inputs=inputs))
    assert [(item.label.en, item.label.fr) for item in game.file.inputs] == [("Cartes", "Cartes"), ("Who", "Who")]


def test_the_same_file_sent_again_is_stored_the_same():
    assert files.stored(files.compile_file(DOUBLED).file) == files.stored(files.compile_file(DOUBLED).file)
    assert files.compile_file(DOUBLED).file.box.released == files.BOX_DEFAULTS["released"]


def test_markup_in_labels_is_kept_as_text():
    data = doubled(box={"names": {"en": "<script>alert(1)</script>", "fr": "<b>x</b>"}, "players": [2, 4]})
    assert files.compile_file(data).file.box.names.en == "<script>alert(1)</script>"


def test_toml_has_no_null_so_a_null_value_is_left_out():
    text = files.as_toml({"a": None, "b": [1, None, 2], "c": {"d": None, "e": 1}})
    assert files.read_text(text) == {"b": [1, 2], "c": {"e": 1}}
