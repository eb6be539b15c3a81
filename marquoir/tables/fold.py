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
import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from django.conf import settings

from marquoir.rules import NOTHING_TO_UNDO, GameMatch, RuleError

from .models import LogEntry, Match

# The codes of the refusals only corrections and redos have (docs/api.md).
NOT_CORRECTABLE = "not_correctable"
NOTHING_TO_REDO = "nothing_to_redo"


@dataclass(frozen=True, slots=True)
class LoggedEntry:
    """An entry of the log: what it did (an action's or a correction's outcome), which seq it
    took back (an undo), did again (a redo) or corrected (a correction), and whether it
    still holds."""

    seq: int
    kind: str
    outcome: Any  # what the action or correction did (the game's outcome); None for an undo or a redo
    undoes: int | None
    undone: bool
    corrects: int | None = None
    redoes: int | None = None
    corrected: bool = False  # an action whose entry a correction in force replaced


@dataclass(frozen=True)
class MatchView:
    """A match row, its log, and the engine's match folded from the entries in force.

    ``redo``: the seq of the entry a redo would do again (None: nothing to redo)."""

    row: Match
    engine: GameMatch[Any, Any, Any]
    log: tuple[LoggedEntry, ...]
    redo: int | None = None
    slots: tuple[int, ...] = ()
    """The seq of the entry of each action in force, in the order of the engine's steps."""
    payloads: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    """The payload in force of each action in force, by its entry's seq (a correction's)."""

    @property
    def players(self) -> list[str]:
        return list(self.row.players)


def in_force(log: Iterable[LoggedEntry]) -> list[int]:
    """The seqs of the actions and corrections in force, oldest first: what undos take back,
    the last first (a redo puts back what the last undo took, so this order is the order in
    which they were done as well as the seqs')."""
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


@dataclass(frozen=True, slots=True)
class _Doing:
    """An action or a correction in force (or taken back and ready to redo): its entry's
    index in the log, the seq of the action it stands in (the action's own for an action),
    the engine's action it put there, and the one a correction replaced."""

    at: int
    slot: int
    action: Any
    replaced: Any = None
    payload: Mapping[str, Any] = field(default_factory=dict)  # the stored payload of ``action``
    replaced_payload: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_correction(self) -> bool:
        return self.replaced is not None


@dataclass
class Ledger:
    """A log folded so far: the engine's match of the actions in force, each entry with what
    it did, and what undo and redo would take back or do again. One piece of code for the
    fold of a stored log and for a new entry checked before it is written (``then``), so
    the two can never disagree.

    An undo takes back the last action or correction in force; a redo does again what the
    last undo took back, as long as nothing new was done since (a new action or
    correction forgets what could be redone). A correction replaces the action of an
    earlier entry in force and plays every later action again (``GameMatch.correct``).
    Kept in the fold cache: ``copy`` it before ``then``.
    """

    engine: GameMatch[Any, Any, Any]
    log: list[LoggedEntry] = field(default_factory=list)
    slots: list[int] = field(default_factory=list)
    """The seq of each action in force, in the order of the engine's steps."""
    doings: list[_Doing] = field(default_factory=list)
    redoable: list[_Doing] = field(default_factory=list)
    payloads: dict[int, Mapping[str, Any]] = field(default_factory=dict)
    """The stored payload in force of each action in force, by its seq (to correct it)."""

    def copy(self) -> Ledger:
        return Ledger(
            self.engine, list(self.log), list(self.slots), list(self.doings), list(self.redoable), dict(self.payloads)
        )

    @property
    def redo(self) -> int | None:
        """The seq of the entry a redo would do again."""
        return self.log[self.redoable[-1].at].seq if self.redoable else None

    def view(self, row: Match) -> MatchView:
        """The match as this ledger folds it (which it lends the view: change it no more)."""
        return MatchView(
            row, self.engine, tuple(self.log), self.redo, tuple(self.slots), MappingProxyType(self.payloads)
        )

    def then(self, seq: int, kind: str, payload: Mapping[str, Any], keeper: Replays) -> None:
        """Fold one more entry; ``RuleError`` if it cannot be (nothing to undo or redo, a
        correction of no action in force, or one the rules refuse: its params ``at_seq``,
        the entry the corrected history breaks at, and ``corrects``), the ledger then as it was."""
        if kind == LogEntry.Kind.UNDO:
            self._undo(seq)
        elif kind == LogEntry.Kind.REDO:
            self._redo(seq)
        elif kind == LogEntry.Kind.CORRECT:
            self._correct(seq, payload, keeper)
        else:
            engine = self.engine.apply(keeper.engine_action(payload))
            self.engine = engine
            self.slots.append(seq)
            self.payloads[seq] = payload
            self._done(_Doing(len(self.log), seq, engine.steps[-1].action, payload=payload))
            self.log.append(LoggedEntry(seq, kind, engine.steps[-1].outcome, None, False))

    def _done(self, doing: _Doing) -> None:
        self.doings.append(doing)
        self.redoable.clear()

    def _correct(self, seq: int, payload: Mapping[str, Any], keeper: Replays) -> None:
        target = payload.get("seq")
        if target not in self.slots:
            raise RuleError(NOT_CORRECTABLE, seq=target)
        index = self.slots.index(target)
        action = keeper.engine_action(payload["action"])
        replaced = self.engine.steps[index].action
        try:
            self.engine = self.engine.correct(index, action)
        except RuleError as error:
            step = error.correction_step if error.correction_step is not None else index
            error.params.update(at_seq=self.slots[step], corrects=target)
            raise
        self._done(_Doing(len(self.log), target, action, replaced, payload["action"], self.payloads[target]))
        self.payloads[target] = payload["action"]
        self._mark(target, corrected=True)
        outcome = self.engine.steps[index].outcome
        self.log.append(LoggedEntry(seq, LogEntry.Kind.CORRECT, outcome, None, False, corrects=target))

    def _undo(self, seq: int) -> None:
        if not self.doings:
            raise RuleError(NOTHING_TO_UNDO)
        doing = self.doings[-1]
        if doing.is_correction:
            self.engine = self.engine.correct(self.slots.index(doing.slot), doing.replaced)
            self.payloads[doing.slot] = doing.replaced_payload
            self._mark(doing.slot, corrected=self._still_corrected(doing))
        else:
            self.engine = self.engine.undo()
            del self.payloads[self.slots.pop()]
        self.doings.pop()
        self.redoable.append(doing)
        self._set_undone(doing.at, undone=True)
        self.log.append(LoggedEntry(seq, LogEntry.Kind.UNDO, None, self.log[doing.at].seq, False))

    def _redo(self, seq: int) -> None:
        if not self.redoable:
            raise RuleError(NOTHING_TO_REDO)
        doing = self.redoable[-1]
        if doing.is_correction:
            self.engine = self.engine.correct(self.slots.index(doing.slot), doing.action)
            self._mark(doing.slot, corrected=True)
        else:
            self.engine = self.engine.apply(doing.action)
            self.slots.append(doing.slot)
        self.payloads[doing.slot] = doing.payload
        self.redoable.pop()
        self.doings.append(doing)
        self._set_undone(doing.at, undone=False)
        self.log.append(LoggedEntry(seq, LogEntry.Kind.REDO, None, None, False, redoes=self.log[doing.at].seq))

    def _still_corrected(self, leaving: _Doing) -> bool:
        return any(doing.is_correction and doing.slot == leaving.slot and doing is not leaving for doing in self.doings)

    def _set_undone(self, at: int, *, undone: bool) -> None:
        self.log[at] = dataclasses.replace(self.log[at], undone=undone)

    def _mark(self, slot: int, *, corrected: bool) -> None:
        at = next(at for at in range(len(self.log) - 1, -1, -1) if self.log[at].seq == slot)
        self.log[at] = dataclasses.replace(self.log[at], corrected=corrected)


def fold_log(row: Match, entries: Iterable[LogRow], keeper: Replays) -> MatchView:
    """Replay every entry in order (see ``Ledger``).

    Which entries an undo took back is worked out here, from the log itself, so the view
    holds at the row's seq even if a later undo has marked an earlier entry since.
    """
    return ledger_of(row, entries, keeper).view(row)


def ledger_of(row: Match, entries: Iterable[LogRow], keeper: Replays) -> Ledger:
    ledger = Ledger(keeper.start(row))
    for entry in entries:
        ledger.then(entry.seq, entry.kind, entry.payload, keeper)
    return ledger


@dataclass(frozen=True)
class Folded:
    """A match folded at some seq (its ``Ledger``: the engine's match, each log entry with
    what it did, what undo and redo would do), and the action_ids the log holds (to answer
    a retried request with its first answer). Never changed once made: a write folds its
    entry into a copy of the ledger."""

    ledger: Ledger
    action_ids: Mapping[str, int]  # action_id -> the seq of its entry

    @property
    def engine(self) -> GameMatch[Any, Any, Any]:
        return self.ledger.engine

    @cached_property
    def log(self) -> tuple[LoggedEntry, ...]:
        return tuple(self.ledger.log)

    @cached_property
    def _slots(self) -> tuple[int, ...]:
        return tuple(self.ledger.slots)

    def view(self, row: Match) -> MatchView:
        ledger = self.ledger
        return MatchView(row, ledger.engine, self.log, ledger.redo, self._slots, MappingProxyType(ledger.payloads))


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
    fresh = Folded(ledger_of(row, rows, keeper), {entry.action_id: entry.seq for entry in rows if entry.action_id})
    fold_cache.put(row, fresh)
    return fresh
