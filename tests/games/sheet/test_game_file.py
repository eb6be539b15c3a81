"""The score sheet is a game file (``marquoir/games/sheet/sheet.toml``) played by the declared
games' engine: its options, bounds, end and ranking are read from the file, and the
sheet's API (its refusals, its rows and totals) stays what it was."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from marquoir.games.declared import declared_games, game_files, resolve_options
from marquoir.games.declared.game import compile_game, option_type
from marquoir.games.declared.gamefile import GameFileError, parse_game_file
from marquoir.games.declared.types import FormulaTypeError, Record, check_formula
from marquoir.games.sheet import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_SCORE,
    MAX_TARGET,
    MAX_TITLE_LENGTH,
    MIN_PLAYERS,
    MIN_SCORE,
    End,
    EndReason,
    Options,
    Round,
    apply,
    new_game,
    standings,
    valid_title,
    winners,
)
from marquoir.games.sheet.engine import SHEET, SHEET_FILE
from marquoir.rules.errors import RuleError


def sheet_data() -> dict[str, Any]:
    return tomllib.loads(SHEET_FILE.read_text(encoding="utf-8"))


def test_the_sheet_is_a_game_file_but_no_catalog_game() -> None:
    assert SHEET.key == "sheet"
    assert SHEET_FILE not in game_files()
    assert "sheet" not in {game.key for game in declared_games()}


def test_the_sheets_bounds_are_the_files() -> None:
    data = sheet_data()
    options = {option["key"]: option for option in data["options"]}
    (scores,) = data["inputs"]
    assert (MIN_PLAYERS, MAX_PLAYERS) == tuple(data["box"]["players"]) == (1, 20)
    assert (MIN_SCORE, MAX_SCORE) == (scores["min"], scores["max"]) == (-100_000, 100_000)
    assert MAX_TITLE_LENGTH == options["title"]["max_length"] == 60
    assert MAX_TARGET == options["target"]["max"] == 10_000_000
    assert MAX_ROUNDS == options["rounds"]["max"] == 200


def test_a_round_is_played_by_the_files_engine_and_kept_as_the_sheets_rows() -> None:
    state = new_game(3, first=1, options=Options(title="Skyjo", lowest_wins=True, target=100))
    state, scored = apply(state, Round((12, -3, 40)))
    state, scored = apply(state, Round((90, 4, 1)))
    assert state.rounds == ((12, -3, 40), (90, 4, 1))
    assert state.totals == (102, 1, 41) == scored.totals
    assert state.played.rounds[-1].inputs == {"scores": [90, 4, 1]}
    assert state.first == 1
    assert scored.end_reason is EndReason.TARGET
    assert state.over
    assert winners(state) == (1,)  # the lowest total, as the file's ranking order says
    assert [standing.player for standing in standings(state)] == [1, 2, 0]


def test_the_table_ends_it_and_a_sheet_with_no_round_cannot_be_ended() -> None:
    state = new_game(2)
    with pytest.raises(RuleError) as refused:
        apply(state, End())
    assert refused.value.code == "no_round"
    state, _ = apply(state, Round((5, 5)))
    state, ended = apply(state, End())
    assert state.end_reason is EndReason.DECLARED
    assert ended.winners == (0, 1)


@pytest.mark.parametrize(
    ("options", "reason", "params"),
    [
        ({"title": " Skyjo"}, "bad_title", {"title": " Skyjo"}),
        ({"title": ""}, "bad_title", {"title": ""}),
        ({"title": "a" * 61}, "bad_title", {"title": "a" * 61}),
        ({"title": "Sky\x1bjo"}, "bad_title", {"title": "Sky\x1bjo"}),
        ({"lowest_wins": 1}, "bad_lowest_wins", {"lowest_wins": 1}),
        ({"target": 0}, "bad_target", {"target": 0, "min": 1, "max": 10_000_000}),
        ({"target": True}, "bad_target", {"target": True, "min": 1, "max": 10_000_000}),
        ({"rounds": 201}, "bad_rounds", {"rounds": 201, "min": 1, "max": 200}),
    ],
)
def test_an_option_the_file_refuses_keeps_the_sheets_reason(
    options: dict[str, Any], reason: str, params: dict[str, Any]
) -> None:
    with pytest.raises(RuleError) as refused:
        Options(**options)
    assert (refused.value.code, refused.value.reason, refused.value.params) == ("invalid", reason, params)


@pytest.mark.parametrize(
    ("title", "valid"),
    [("Skyjo", True), ("Les Aventuriers du Rail — Europe", True), ("a" * 60, True), ("a" * 61, False)]
    + [("", False), (" ", False), ("Skyjo ", False), ("Sky\njo", False), (None, False), (7, False)],
)
def test_a_title_is_a_text_option_of_one_trimmed_line(title: object, valid: bool) -> None:
    assert valid_title(title) is valid


# --- the text option kind, for any game file


def test_a_text_option_is_a_string_to_the_type_check() -> None:
    options = {option.key: option for option in SHEET.file.options}
    names = {"options": Record({"title": option_type(options["title"])})}
    check_formula("options.title == null ? 0 : size(options.title)", names)
    with pytest.raises(FormulaTypeError):
        check_formula("options.title + 1", names)


def test_a_text_option_is_given_trimmed_or_left_empty() -> None:
    assert resolve_options(SHEET, 2, {"title": "Tarot à cinq"})["title"] == "Tarot à cinq"
    assert resolve_options(SHEET, 2, {})["title"] is None
    with pytest.raises(RuleError) as refused:
        resolve_options(SHEET, 2, {"title": "x\x00"})
    assert refused.value.reason == "option_value"


def test_a_text_options_default_must_be_a_text() -> None:
    data = sheet_data()
    data["options"][0]["default"] = 3
    with pytest.raises(GameFileError, match="default"):
        compile_game(parse_game_file(data, source="test.toml"), source="test.toml")


def test_the_sheet_module_keeps_no_rule_of_its_own() -> None:
    """The sheet's scoring is its file's: no bound or end rule is written in its Python."""
    source = (Path(__file__).parents[3] / "marquoir/games/sheet/engine.py").read_text(encoding="utf-8")
    for number in ("100_000", "100000", "10_000_000", "= 200", "= 60"):
        assert number not in source
