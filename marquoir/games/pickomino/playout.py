"""Random legal play, for property tests, benchmarks and load tests.

The engine stays free of chance: the caller passes ``choose`` (``random.Random.choice``
of a seeded generator, or hypothesis's), and this module only asks it to pick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from .engine import (
    MAX_TOTAL,
    MIN_TOTAL_WITH_WORM,
    Action,
    Bust,
    BustReason,
    Claim,
    GameState,
    Take,
    apply,
    legal_claims,
)

Chooser: TypeAlias = Callable[[Sequence[Any]], Any]

_TOTALS = tuple(range(MIN_TOTAL_WITH_WORM, MAX_TOTAL + 1))
# A turn ends with a take more often than with a bust at a real table; three in four here.
_ENDINGS = ("take", "take", "take", "bust")
_BUST_REASONS = tuple(BustReason)


def random_legal_action(state: GameState, choose: Chooser) -> Action:
    """A legal action for the current player: a bust, or a take of one of the legal claims."""
    if choose(_ENDINGS) == "take":
        total: int = choose(_TOTALS)
        claims = legal_claims(state, total, worm=True)
        if claims:
            claim: Claim = choose(claims)
            return Take(total, True, claim.source)
        return Bust(BustReason.NOTHING_TO_CLAIM)
    reason: BustReason = choose(_BUST_REASONS)
    return Bust(reason)


def random_game(state: GameState, choose: Chooser, max_actions: int = 10_000) -> list[Action]:
    """The actions of one random legal game from ``state`` to its end (or ``max_actions``)."""
    actions: list[Action] = []
    while not state.over and len(actions) < max_actions:
        action = random_legal_action(state, choose)
        state = apply(state, action)[0]
        actions.append(action)
    return actions
