"""Reads: a match found, rebuilt from its log (``fold``), and what the pages list of matches.

The fold and its cache are ``fold``'s; the names below that come from there (``MatchView``,
``in_force``, ``fold_cache``…) are the ones games and benchmarks read through here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .fold import LoggedEntry, MatchView, fold_cache, folded, in_force
from .keepers import ScoreKeeper, keeper_for
from .models import Match, is_match_id

__all__ = [
    "LoggedEntry",
    "MatchView",
    "find_match",
    "fold_cache",
    "in_force",
    "keeper_of",
    "match_view",
    "names_offered",
    "names_used_on",
]


def keeper_of(row: Match) -> ScoreKeeper:
    """The keeper of a stored match's game (a match of a game no longer registered cannot be
    folded: that is a deployment error, not a request's)."""
    keeper = keeper_for(row.game)
    if keeper is None:
        raise LookupError(f"no score keeper for the game {row.game!r} of match {row.pk}")
    return keeper


def find_match(match_id: object) -> Match | None:
    """The match with this id, or None; an id no match can have is never looked up."""
    return Match.objects.filter(pk=match_id).first() if is_match_id(match_id) else None


def match_view(row: Match) -> MatchView:
    """The match with its log up to the row's seq (one query, or none if folded lately)."""
    return folded(row, keeper_of(row)).view(row)


def names_used_on(rows: Sequence[Match]) -> list[str]:
    """Player names from these matches, most recent first, each once (ignoring case)."""
    seen: set[str] = set()
    names: list[str] = []
    for row in rows:
        for name in row.players:
            if name.casefold() not in seen:
                seen.add(name.casefold())
                names.append(name)
    return names


def names_offered(mine: Sequence[tuple[Match, bool]], first: Sequence[str] = ()) -> list[str]:
    """The names a set-up page offers as people type: ``first`` (a group's players), then
    those of this device's matches (``mine``, most recent first), each once."""
    return list(dict.fromkeys([*first, *names_used_on([match for match, _edit in mine])]))
