"""Shared helpers for the Tarot tests: play a list of actions, read a refusal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from marquoir.games.tarot import Action, Contract, Deal, GameState, RuleError, apply


def deal(**fields: Any) -> Deal:
    """A played deal with the fields given, a plain garde made by 6 with 2 bouts by player 0 otherwise."""
    values: dict[str, Any] = {"taker": 0, "contract": Contract.GARDE, "bouts": 2, "points": 47}
    values.update(fields)
    return Deal(**values)


def play(state: GameState, actions: Iterable[Action]) -> GameState:
    """The state after each action in turn."""
    for action in actions:
        state, _ = apply(state, action)
    return state


def refusal(state: GameState, action: Any) -> tuple[str, str, dict[str, Any]]:
    """The code, reason and parameters ``apply`` refuses ``action`` with; the state is a value, so it stays."""
    with pytest.raises(RuleError) as refused:
        apply(state, action)
    return refused.value.code, refused.value.reason, refused.value.params
