"""What the game file gained for the modern family shelf, held here apart from the games' own
examples: an example may end on a round after the game is over (refused as ``match_over``, as
the API refuses it) and on a set-up the rules refuse (an option out of its bounds or against an
option check: ``invalid``, as the set-up page refuses it); a player input may be given for each
player (Dixit's votes: a tap on a name per player, "No vote" its default); a groups input of
numbers of more than one digit is typed with spaces, a minus before a negative one (Terraforming
Mars' award counts)."""

from __future__ import annotations

from typing import Any

import pytest

from marquoir.games.declared import Match, Round, Setup, declared_games, resolve_options
from marquoir.games.declared.examples import mismatches, play
from marquoir.games.declared.gamefile import Example
from marquoir.keepers.declared.actions import action_models
from marquoir.keepers.declared.presenters import pad
from marquoir.rules import RuleError

GAMES = {game.key: game for game in declared_games()}
SKYJO = GAMES["skyjo"]
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


def round_form(key: str) -> Any:
    return next(model for model in action_models(GAMES[key]) if model.action_type() == "round")


def test_a_vote_is_a_tap_on_a_name_for_each_player_and_no_vote_is_its_default():
    dixit = GAMES["dixit"]
    setup = Setup(dixit, 4, 0, resolve_options(dixit, 4, {}))
    # Ada tells the story; Ben and Cy vote for her image, Dee for Ben's; Ada's vote left out.
    fields = {"players": "4", "drawn": "storyteller,vote", "in_storyteller": "0"}
    votes = {"in_vote_1": "0", "in_vote_2": "0", "in_vote_3": "1"}
    read = round_form("dixit").from_form({**fields, **votes})
    assert read["inputs"] == {"storyteller": 0, "vote": [None, 0, 0, 1]}  # null: the default
    played = Match.start(setup).apply(Round(read["inputs"]))
    assert played.state.totals == (3, 4, 3, 0)  # Ben also gets Dee's vote on his image
    # -1 (no vote) may be sent as itself; a seat past the table's may not.
    assert Match.start(setup).apply(Round({"storyteller": 0, "vote": [-1, 0, 0, 1]})).state.totals == (3, 4, 3, 0)
    with pytest.raises(RuleError) as refused:
        Match.start(setup).apply(Round({"storyteller": 0, "vote": [-1, 0, 0, 4]}))
    assert (refused.value.code, refused.value.reason) == ("invalid", "input_range")
    # On the pad, each player's row of names with "No vote".
    drawn = pad(Match.start(setup).state, ["Ada", "Ben", "Cy", "Dee"], {})
    card = next(seat for seat in drawn.players if seat.seat == 3)
    (vote,) = [field for field in card.fields if field.name == "in_vote_3"]
    assert [text for _value, text in vote.choices] == ["Ada", "Ben", "Cy", "Dee", "No vote"]


def test_an_award_s_counts_are_typed_apart_with_a_minus_before_a_negative_one():
    form = round_form("terraforming_mars")
    read = form.from_form({"players": "3", "drawn": "awards", "in_awards_0": "\u22122 5 21", "in_awards_1": "9,9,0"})
    assert read["inputs"]["awards"] == [[-2, 5, 21], [9, 9, 0]]
    with pytest.raises(RuleError):
        form.from_form({"players": "3", "drawn": "awards", "in_awards_0": "2 -"})
    # Farkle's dice, one digit each side by side, take no minus.
    farkle = next(model for model in action_models(GAMES["farkle"]) if model.action_type() == "turn")
    with pytest.raises(RuleError):
        farkle.from_form({"players": "3", "drawn": "kept", "in_kept_0": "-15"})
