"""Random legal play, for property tests, benchmarks and load tests.

The engine stays free of chance: the caller passes ``choose`` (``random.Random.choice``
of a seeded generator, or hypothesis's), and this module only asks it to pick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from .engine import MAX_SCORE, MIN_SCORE, Action, End, GameState, Round, apply

Chooser: TypeAlias = Callable[[Sequence[Any]], Any]

# Most rounds score like a card game's (a few points, some negative); one score in twenty
# is anywhere in the allowed range, so the extremes and a jump past the target get played.
_SIZES = ("small",) * 19 + ("any",)
_SMALL_SCORES = range(-10, 31)
_ANY_SCORE = range(MIN_SCORE, MAX_SCORE + 1)
# Players stop early now and then when the sheet has its own end, more often when it has none.
_NEXT_WITH_A_LIMIT = ("round",) * 19 + ("end",)
_NEXT_WITHOUT_LIMIT = ("round",) * 5 + ("end",)


def random_scores(player_count: int, choose: Chooser) -> tuple[int, ...]:
    """One legal round's scores for ``player_count`` players."""
    return tuple(choose(_SMALL_SCORES if choose(_SIZES) == "small" else _ANY_SCORE) for _ in range(player_count))


def random_legal_action(state: GameState, choose: Chooser) -> Action:
    """A legal action on a sheet that is not over: a round, or an ``End`` once a round is in."""
    has_limit = state.options.target is not None or state.options.rounds is not None
    if state.rounds and choose(_NEXT_WITH_A_LIMIT if has_limit else _NEXT_WITHOUT_LIMIT) == "end":
        return End()
    return Round(random_scores(state.player_count, choose))


def random_game(state: GameState, choose: Chooser, max_actions: int = 10_000) -> list[Action]:
    """The actions of one random legal game from ``state`` to its end (or ``max_actions``)."""
    actions: list[Action] = []
    while not state.over and len(actions) < max_actions:
        action = random_legal_action(state, choose)
        state = apply(state, action)[0]
        actions.append(action)
    return actions
