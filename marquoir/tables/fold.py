"""The fold: a match rebuilt from its log, and the cache of the latest folds this process made.

The table is never stored, only the log: folding it is far below a millisecond for a whole
game (see `make bench`). Each process keeps its latest fold of the matches it served lately,
keyed by the match's seq and write time (which every write changes), so a turn need not fold
the log again and nothing can go stale.

This module knows no game: the fold is handed the two things it needs of one (``Replays``),
so that the keepers' protocol can name ``MatchView`` without an import circle.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from django.conf import settings

from marquoir.rules import GameMatch

from .models import LogEntry, Match


@dataclass(frozen=True, slots=True)
class LoggedEntry:
    """An entry of the log: what it did (for takes and busts), or which seq it took back (for
    undos), and whether it still holds."""

    seq: int
    kind: str
    outcome: Any  # what the action did (the game's outcome); None for an undo
    undoes: int | None
    undone: bool


@dataclass(frozen=True)
class MatchView:
    """A match row, its log, and the engine's match folded from the entries in force."""

    row: Match
    engine: GameMatch[Any, Any, Any]
    log: tuple[LoggedEntry, ...]

    @property
    def players(self) -> list[str]:
        return list(self.row.players)


def in_force(log: Iterable[LoggedEntry]) -> list[int]:
    """The seqs of the takes and busts in force, oldest first (an undo takes the last)."""
    return [logged.seq for logged in log if logged.outcome is not None and not logged.undone]


class Replays(Protocol):
    """What the fold needs of a game's keeper: the match before any action, and the engine's
    action for each stored payload."""

    def start(self, row: Match) -> Any: ...

    def engine_action(self, payload: Mapping[str, Any]) -> Any: ...


class LogRow(NamedTuple):
    """The columns of a log entry that folding needs (read without building model objects:
    a turn folds the whole log, and model instances cost more than the rules do)."""

    seq: int
    kind: str
    payload: dict[str, Any]
    action_id: str | None


LOG_ROW_FIELDS = ("seq", "kind", "payload", "action_id")


def log_rows(row: Match) -> list[LogRow]:
    """The log up to the row's seq, in one query: later entries (committed since the row was
    read) are left out, so the fold is the match exactly as the row says it stands."""
    entries = LogEntry.objects.filter(match_id=row.pk, seq__lte=row.seq).order_by("seq")
    return [LogRow(*values) for values in entries.values_list(*LOG_ROW_FIELDS)]


def fold_log(row: Match, entries: Iterable[LogRow], keeper: Replays) -> MatchView:
    """Replay every entry in order: a take or bust applies, an undo takes back the last in force.

    Which entries an undo took back is worked out here, from the log itself, so the view
    holds at the row's seq even if a later undo has marked an earlier entry since.
    """
    engine = keeper.start(row)
    logged: list[LoggedEntry] = []
    standing: list[int] = []  # indexes into ``logged`` of the takes and busts in force
    for entry in entries:
        if entry.kind == LogEntry.Kind.UNDO:
            engine = engine.undo()
            taken_back = standing.pop()
            before = logged[taken_back]
            logged[taken_back] = LoggedEntry(before.seq, before.kind, before.outcome, None, True)
            logged.append(LoggedEntry(entry.seq, entry.kind, None, before.seq, False))
        else:
            engine = engine.apply(keeper.engine_action(entry.payload))
            standing.append(len(logged))
            logged.append(LoggedEntry(entry.seq, entry.kind, engine.steps[-1].outcome, None, False))
    return MatchView(row, engine, tuple(logged))


@dataclass(frozen=True)
class Folded:
    """A match folded at some seq: the engine's match, each log entry with what it did, and
    the action_ids the log holds (to answer a retried request with its first answer)."""

    engine: GameMatch[Any, Any, Any]
    log: tuple[LoggedEntry, ...]
    action_ids: Mapping[str, int]  # action_id -> the seq of its entry


class FoldCache:
    """The last fold of recently played matches, in this process.

    Without it every request, every turn included, reads and folds the whole log again
    (the most costly part of a turn after the database itself). A fold is keyed by the
    match's seq and ``updated_at``, which every write changes, so it is only ever reused
    for the exact log it was made from; anything else (a write by another process, a match
    not seen for a while) folds again from the database. What else a fold depends on (the
    players, who starts, the options) never changes once a match exists. Least recently
    used matches go first once ``size`` are held.

    Each fold is held with the row it was made for, so that a write may start from the
    match as this process last saw it (``latest``) and let the database say whether it
    still stands (the write's compare and swap). That row is the cache's: whoever gets it
    copies it before changing anything (as a write does, for the match after it).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._folds: OrderedDict[str, tuple[tuple[int, Any], Match, Folded]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(row: Match) -> tuple[int, Any]:
        return (row.seq, row.updated_at)

    def get(self, row: Match) -> Folded | None:
        with self._lock:
            held = self._folds.get(row.pk)
            if held is None or held[0] != self._key(row):
                return None
            self._folds.move_to_end(row.pk)
            return held[2]

    def latest(self, match_id: str) -> tuple[Match, Folded] | None:
        """The match as this process last folded it, whatever the database holds now: only a
        write's compare and swap may tell whether it still stands."""
        with self._lock:
            held = self._folds.get(match_id)
            if held is None:
                return None
            self._folds.move_to_end(match_id)
            return held[1], held[2]

    def put(self, row: Match, folded: Folded, *, own: bool = False) -> None:
        """Keep ``folded`` for ``row`` (copied, unless ``own``: a row nobody else holds)."""
        if self.size <= 0 or row.updated_at is None:
            return
        kept = row if own else copy.copy(row)
        with self._lock:
            self._folds[row.pk] = (self._key(row), kept, folded)
            self._folds.move_to_end(row.pk)
            while len(self._folds) > self.size:
                self._folds.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._folds.clear()


fold_cache = FoldCache(settings.MARQUOIR_FOLD_CACHE_SIZE)


def folded(row: Match, keeper: Replays) -> Folded:
    """The match folded at the row's seq: from this process's cache, or from the log."""
    held = fold_cache.get(row)
    if held is not None:
        return held
    rows = log_rows(row)
    view = fold_log(row, rows, keeper)
    fresh = Folded(view.engine, view.log, {entry.action_id: entry.seq for entry in rows if entry.action_id})
    fold_cache.put(row, fresh)
    return fresh
