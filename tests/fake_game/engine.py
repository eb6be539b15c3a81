"""Tally, a game only a test plays: each player in turn adds points; the first to 10 wins.

Pure, as every engine: frozen state in, frozen state and an outcome out, ``RuleError`` with
a code for what the rules forbid.
"""

from __future__ import annotations

from dataclasses import dataclass

from marquoir.games.meta import GameMeta
from marquoir.rules import MATCH_OVER, RuleError
from marquoir.rules.match import GameMatch

TARGET = 10

META = GameMeta(
    slug="tally",
    names={"en": "Tally", "fr": "Tally"},
    original_name="Tally",
    category="dice",
    min_players=2,
    max_players=4,
    minutes=5,
    min_age=6,
    released=2026,
    designers=(),
    publishers=(),
)


@dataclass(frozen=True, slots=True)
class Add:
    points: int


@dataclass(frozen=True, slots=True)
class Added:
    player: int
    points: int
    total: int


@dataclass(frozen=True, slots=True)
class TallyState:
    totals: tuple[int, ...]
    current: int

    @property
    def over(self) -> bool:
        return max(self.totals) >= TARGET

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(player for player, total in enumerate(self.totals) if total >= TARGET)


def apply(state: TallyState, action: Add) -> tuple[TallyState, Added]:
    """The current player adds ``action.points``; the turn passes on."""
    if state.over:
        raise RuleError(MATCH_OVER)
    totals = list(state.totals)
    totals[state.current] += action.points
    after = TallyState(tuple(totals), (state.current + 1) % len(totals))
    return after, Added(state.current, action.points, totals[state.current])


@dataclass(frozen=True, slots=True)
class Setup:
    player_count: int
    first: int = 0

    def initial_state(self) -> TallyState:
        return TallyState((0,) * self.player_count, self.first)


class TallyMatch(GameMatch[TallyState, Add, Added]):
    rules = staticmethod(apply)
