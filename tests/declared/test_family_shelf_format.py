"""What the game file's worked examples gained for the modern family shelf, held here apart from
the games' own examples: an example may end on a round after the game is over (refused as
``match_over``, as the API refuses it) and on a set-up the rules refuse (an option out of its
bounds or against an option check: ``invalid``, as the set-up page refuses it)."""

from __future__ import annotations

from typing import Any

import pytest

from marquoir.games.declared import declared_games
from marquoir.games.declared.examples import mismatches, play
from marquoir.games.declared.gamefile import Example

SKYJO = next(game for game in declared_games() if game.key == "skyjo")
OVER_THE_TARGET = {"cards": [101, 10, 20], "ended_by": 1}


def example(**fields: Any) -> Example:
    return Example.model_validate({"name": "an example", "players": 3, **fields})


def test_a_round_after_the_end_is_refused_as_match_over_and_an_example_may_say_so():
    after = example(rounds=[OVER_THE_TARGET, {"cards": [1, 2, 3], "ended_by": 0}], refused="match_over")
    assert mismatches(SKYJO, after) == []
    refusal = play(SKYJO, after).refusal
    assert refusal is not None
    assert refusal.code == "match_over"


def test_an_example_that_says_match_over_of_a_game_still_going_fails():
    going = example(rounds=[{"cards": [10, 10, 20], "ended_by": 1}, {"cards": [1, 2, 3], "ended_by": 0}])
    said_over = going.model_copy(update={"refused": "match_over"})
    assert mismatches(SKYJO, said_over) == ["expected a refusal (match_over), the round was accepted"]


@pytest.mark.parametrize("target", [0, 1001])
def test_a_set_up_the_rules_refuse_is_an_example_refused_as_invalid(target: int):
    refused = example(options={"target": target}, rounds=[OVER_THE_TARGET], refused="invalid")
    assert mismatches(SKYJO, refused) == []
    accepted = refused.model_copy(update={"refused": None})
    assert mismatches(SKYJO, accepted)[0].startswith("refused: invalid")
