"""Standings by total, the same for every game that ranks players by a score: best first,
ties in seating order, tied players sharing the rank (competition ranking: 1, 1, 3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place: ``score`` is their total, ``rank`` 1 for the leaders (ties share it)."""

    player: int
    score: int
    rank: int


def rank_by_total(totals: Sequence[int], *, lowest_wins: bool = False) -> tuple[Standing, ...]:
    """Each player's place from their totals (in seating order): highest total first, or
    lowest with ``lowest_wins``; equal totals share the rank and the next skips past them."""
    sign = 1 if lowest_wins else -1
    order = sorted(range(len(totals)), key=lambda player: (sign * totals[player], player))
    result: list[Standing] = []
    for position, player in enumerate(order):
        score = totals[player]
        previous = result[-1] if result else None
        rank = previous.rank if previous is not None and previous.score == score else position + 1
        result.append(Standing(player, score, rank))
    return tuple(result)


def ranked_first(standings: Sequence[Standing]) -> tuple[int, ...]:
    """The players ranked first, in seating order."""
    return tuple(sorted(standing.player for standing in standings if standing.rank == 1))
