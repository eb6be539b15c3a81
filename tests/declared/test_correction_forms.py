"""The pad opened on a past round of any declared game, to correct it, sends that round
again: for random rounds of every game file (drawn as tests/declared/test_properties.py
draws them), the round form's fields made from a stored round (``form_values``) read back
(``from_form``) into a round that scores exactly as the stored one did."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marquoir.games.declared import End
from marquoir.games.declared.engine import inputs_taken
from marquoir.tables.keepers import keeper_for

from .test_properties import GAMES, played


def without_inputs(state: Any) -> Any:
    return dataclasses.replace(state, rounds=tuple(dataclasses.replace(r, inputs={}) for r in state.rounds))


@pytest.mark.parametrize("key", sorted(GAMES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_stored_round_read_back_from_its_form_scores_the_same(key: str, data: st.DataObject) -> None:
    game = GAMES[key]
    match, accepted, _refused = data.draw(played(game))
    keeper = keeper_for(key)
    assert keeper is not None
    schemas = {model.action_type(): model for model in keeper.action_models}
    for index, action in enumerate(accepted):
        before = match.steps[index - 1].state if index else match.initial
        # The end's count is read by its own schema, over the count's inputs; a bare end has
        # no form fields to read back.
        if isinstance(action, End):
            if game.final is None:
                continue
            kind, played_by = "end", dataclasses.replace(before, game=game.final)
        else:
            kind, played_by = ("turn" if game.by_turns else "round"), before
        schema = schemas[kind]
        payload = {"type": kind, "inputs": action.inputs}
        values = keeper.correction_form(payload)
        assert values is not None
        sent = {**values, "players": str(before.player_count), "drawn": ",".join(inputs_taken(played_by))}
        read_back = schema.from_form(sent)

        assert read_back["type"] == payload["type"]
        again = type(match).rules(before, schema.engine_action(read_back))[0]
        # The same round but for the order a list's values were given in (the form sends
        # Mölkky's pins in the order of the pins): the inputs as recorded set aside.
        assert without_inputs(again) == without_inputs(match.steps[index].state)
