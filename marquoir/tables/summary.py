"""What a match comes to, for every game alike: scores, ranks, winners and the game's own figures.

Each game's keeper sums up a match it folded (``ScoreKeeper.summarise``); the core and the
groups read only this. Groups keep one summary per match and add them up into stats, the
table page's "Send to BG Stats" link and result card are built from one, and the export
writes them out. A summary is drawn from the entries in force, so an undone action never
counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

FigureKind = Literal["per_game", "total", "best", "rate"]
"""How a figure adds up across a player's matches: its mean per match (``per_game``: busts
per game), its sum (``total``: steals), its highest value (``best``: best tile), or the
share of matches where it is 1 (``rate``: the upper bonus, won or not)."""


@dataclass(frozen=True, slots=True)
class StatFigure:
    """One of a game's own figures, as the stats show it."""

    key: str
    """The key in each seat's ``figures`` (``"busts"``)."""
    label: str
    """What people read (a lazy translation: "Busts per game")."""
    kind: FigureKind


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match as the stats see it, one entry per seat in every tuple (seat order)."""

    scores: tuple[float, ...]
    """Each seat's final score (Pickomino: worms; Tarot: the running total; a whole number
    except where a game's rules give halves)."""
    ranks: tuple[int, ...]
    """Each seat's place, 1 first; seats that tie share a place (1, 1, 3)."""
    winners: tuple[int, ...]
    """The winning seats, once the match is over (several when the win is shared); empty before."""
    figures: tuple[Mapping[str, int], ...] = field(default=())
    """Each seat's own figures, by ``StatFigure.key`` (``{"busts": 3, "steals": 1}``)."""
    over: bool = False
    title: str | None = None
    """A score sheet's title ("Skyjo"): the game a sheet kept score for; None for the others."""
    highest_wins: bool = True
    """Whether the highest score wins (False for a sheet kept "lowest wins")."""


class Placed(Protocol):
    """A standing as each game's engine gives one: a seat and its place."""

    @property
    def player(self) -> int: ...

    @property
    def rank(self) -> int: ...


def ranks_by_seat(standings: Iterable[Placed], seats: int) -> tuple[int, ...]:
    """Each seat's place, in seat order, from a game's standings (which list them by place)."""
    by_seat = {standing.player: standing.rank for standing in standings}
    return tuple(by_seat[seat] for seat in range(seats))


def summary_to_json(summary: MatchSummary) -> dict[str, Any]:
    """A summary as stored (JSON)."""
    return {
        "scores": list(summary.scores),
        "ranks": list(summary.ranks),
        "winners": list(summary.winners),
        "figures": [dict(figures) for figures in summary.figures],
        "over": summary.over,
        "title": summary.title,
        "highest_wins": summary.highest_wins,
    }


def summary_from_json(data: Mapping[str, Any]) -> MatchSummary:
    """A stored summary read back."""
    return MatchSummary(
        scores=tuple(data["scores"]),
        ranks=tuple(data["ranks"]),
        winners=tuple(data["winners"]),
        figures=tuple(data.get("figures") or ()),
        over=bool(data.get("over")),
        title=data.get("title"),
        highest_wins=bool(data.get("highest_wins", True)),
    )
