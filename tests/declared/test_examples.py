"""Every worked example of every game file holds: inputs → points, totals, winners, refusals.

The examples are the rules files' own (../shared/docs/rules-<game>.md, "Worked examples"),
written into each game's file; a game file with no example fails here.
"""

from __future__ import annotations

import pytest

from marquoir.games.declared import declared_games
from marquoir.games.declared.examples import mismatches
from marquoir.games.sheet.engine import SHEET

# The catalog's files, and the score sheet's (a game file that is no catalog game).
EVERY_FILE = (*declared_games(), SHEET)
CASES = [
    pytest.param(game, example, id=f"{game.key}: {example.name}")
    for game in EVERY_FILE
    for example in game.file.examples
]


def test_the_four_games_declared_so_far_are_found() -> None:
    assert {game.key for game in declared_games()} >= {"skyjo", "seven_wonders", "ticket_to_ride", "skull_king"}


@pytest.mark.parametrize("game", EVERY_FILE, ids=lambda game: game.key)
def test_every_game_file_has_worked_examples_accepted_and_refused(game) -> None:
    examples = game.file.examples
    assert any(example.refused is None for example in examples)
    assert any(example.refused is not None for example in examples)


@pytest.mark.parametrize(("game", "example"), CASES)
def test_the_worked_example_gives_what_the_rules_say(game, example) -> None:
    assert mismatches(game, example) == []


@pytest.mark.parametrize(
    ("game", "example"), [case for case in CASES if getattr(case.values[1], "refused", None) == "rule"]
)
def test_a_refused_example_names_a_check_the_file_declares(game, example) -> None:
    final_checks = game.file.final.checks if game.file.final else []
    assert example.rule in {check.key for check in [*game.file.checks, *final_checks]}


def test_a_wrong_expectation_is_reported_not_passed() -> None:
    skyjo = next(game for game in declared_games() if game.key == "skyjo")
    example = skyjo.file.examples[1].model_copy(update={"points": [15, 10, 22]})  # the doubling forgotten
    assert mismatches(skyjo, example) == ["points [30, 10, 22], expected [15, 10, 22]"]
