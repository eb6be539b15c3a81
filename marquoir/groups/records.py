"""A group's plays as the stats, the history and the export read them (pure data, no Django).

A play is a match the group played: one kept on Marquoir (``match_id`` set, its summary
refreshed from the match's log whenever the match moved) or one imported from a file
(``match_id`` None). Seats name the group's members by id, never by name: renaming a
member keeps their history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from marquoir.tables.summary import MatchSummary

GROUP_NAME_MAX_LENGTH = 60
MAX_MEMBERS = 30
"""Everyone who ever sat down with the group: a game takes at most 20 (a score sheet), a
group rarely more than a few."""


@dataclass(frozen=True, slots=True)
class Member:
    """One person of the group."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """One play of the group, in seat order."""

    id: str
    """The play's own id (a UUID, kept across export and import)."""
    game: str
    """The keeper's key (``"pickomino"``, ``"sheet"``…)."""
    game_name: str
    """The game as people name it: the game's name, or a score sheet's title."""
    started_at: datetime
    ended_at: datetime
    """When the last action in force was recorded (the start, before any)."""
    members: tuple[int, ...]
    """The member at each seat."""
    first: int
    """The seat that started (or dealt first)."""
    summary: MatchSummary
    match_id: str | None = None
    title: str = ""
    """The game's name as kept: a score sheet's title, "" for a game's own name or an
    untitled sheet (``game_name`` then names it in the reader's language)."""

    @property
    def duration_minutes(self) -> int:
        """Minutes from the set-up to the last action, rounded, at least 1 once anything was recorded."""
        seconds = (self.ended_at - self.started_at).total_seconds()
        return max(1, round(seconds / 60)) if seconds > 0 else 0

    @property
    def stats_key(self) -> str:
        """What the stats group plays by: the game, and for a score sheet its title as well
        (a Skyjo sheet and a Rummy sheet are two games)."""
        if self.game == "sheet":
            return f"sheet:{self.game_name.casefold()}"
        return self.game
