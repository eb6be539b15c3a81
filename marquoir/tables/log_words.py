"""A match's log in words, for every game's table screen: each entry in a sentence, newest
first, and the few words the bar shows for the last one. The game words its own actions
and their undoing (``Keeper.log_words``, a ``LogWords``); how the log is walked is the same
for all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from .fold import LoggedEntry, MatchView, in_force

# How many entries a table screen shows, newest first. A log may hold up to
# services.MAX_LOG_ENTRIES (5,000) entries: worded and sent whole, a page at the bound
# weighed megabytes on every view and every tap. 200 holds a whole real game (a sheet has
# at most 200 rounds) in all but the longest Tarot matches; a line says how many older
# entries are left out.
LOG_SHOWN = 200

# (what an action did, or None for an undo with nothing known, the players) -> words
Words = Callable[[Any, Sequence[str]], str]


@dataclass(frozen=True)
class LogLine:
    seq: int
    text: str
    undone: bool
    is_undo: bool
    corrected: bool = False
    """An action a correction in force replaced: shown struck through, as an undone one."""
    correct_label: str = ""
    """For a line the pad can correct in place: its "Correct" link's words ("Correct entry 4")."""


class LogLines(list[LogLine]):
    """The lines shown, newest first, and how many older entries are not (``hidden``)."""

    hidden: int = 0

    @property
    def total(self) -> int:
        """Every entry of the log, shown or not (the number of the newest line)."""
        return len(self) + self.hidden


@dataclass(frozen=True)
class LogWords:
    """A game's words for its log (its keeper's ``log_words``): an action and an undo, each
    in a sentence and in short. Each is given what the action did (an engine outcome; for
    an undo, what it took back, or None) and the players' names."""

    describe: Words
    describe_short: Words
    describe_undo: Words
    describe_undo_short: Words


class _Narrator:
    """The words of every kind of entry: the game's for its actions and their undoing, the
    core's around them for a correction and a redo (which the game never sees)."""

    def __init__(self, view: MatchView, words: LogWords) -> None:
        self.names = view.players
        self.words = words
        self.by_seq = {logged.seq: logged for logged in view.log}

    def line(self, logged: LoggedEntry) -> str:
        if logged.corrects is not None:
            return _("Entry %(seq)s corrected: %(action)s") % {
                "seq": logged.corrects,
                "action": self.words.describe(logged.outcome, self.names),
            }
        if logged.redoes is not None:
            redone = self.by_seq.get(logged.redoes)
            return _("Redone: %(action)s") % {"action": self.line(redone) if redone else logged.redoes}
        if logged.outcome is not None:
            return self.words.describe(logged.outcome, self.names)
        undone = self.by_seq.get(logged.undoes or -1)
        if undone is not None and undone.corrects is not None:
            return _("Correction of entry %(seq)s undone.") % {"seq": undone.corrects}
        return self.words.describe_undo(undone.outcome if undone else None, self.names)

    def short(self, logged: LoggedEntry) -> str:
        if logged.corrects is not None:
            return _("Corrected: %(action)s") % {"action": self.words.describe_short(logged.outcome, self.names)}
        if logged.redoes is not None:
            redone = self.by_seq.get(logged.redoes)
            return _("Redone: %(action)s") % {"action": self.what(redone) if redone else logged.redoes}
        if logged.outcome is not None:
            return self.words.describe_short(logged.outcome, self.names)
        undone = self.by_seq.get(logged.undoes or -1)
        if undone is not None and undone.corrects is not None:
            return _("Correction of entry %(seq)s undone") % {"seq": undone.corrects}
        return self.words.describe_undo_short(undone.outcome if undone else None, self.names)

    def what(self, logged: LoggedEntry) -> str:
        """An action or a correction in a few words, as Undo and Redo name what they would do."""
        if logged.corrects is not None:
            return _("correction of entry %(seq)s: %(action)s") % {
                "seq": logged.corrects,
                "action": self.words.describe_short(logged.outcome, self.names),
            }
        return str(self.words.describe_short(logged.outcome, self.names))


def log_in_words(view: MatchView, words: LogWords, shown: int = LOG_SHOWN) -> tuple[LogLines, str | None]:
    """The last ``shown`` entries of the log in words, newest first (with how many older
    ones are left out), and the short words for the last entry (None before any). Only
    the entries shown are worded: the page's work is bounded however long the log is.
    Whether anything can be undone is not to be read from these lines (the entries in
    force may all be older than the lines shown): see ``selectors.in_force``."""
    narrator = _Narrator(view, words)
    lines = LogLines()
    lines.hidden = max(0, len(view.log) - shown)
    for logged in view.log[lines.hidden :]:
        is_undo = logged.outcome is None and logged.redoes is None
        lines.append(LogLine(logged.seq, narrator.line(logged), logged.undone, is_undo, logged.corrected))
    lines.reverse()
    if not view.log:
        return lines, None
    return lines, narrator.short(view.log[-1])


def last_words(view: MatchView, words: LogWords) -> str | None:
    """The short words for the last entry of the log alone (None before any), as the bar
    says them: for a sentence that names what another phone just did."""
    return _Narrator(view, words).short(view.log[-1]) if view.log else None


def undo_and_redo_words(view: MatchView, words: LogWords) -> tuple[str | None, str | None]:
    """What Undo and Redo would take back or do again, in a few words each (None: nothing)."""
    narrator = _Narrator(view, words)
    in_force_now = in_force(view.log)
    undo = narrator.what(narrator.by_seq[in_force_now[-1]]) if in_force_now else None
    redo = narrator.what(narrator.by_seq[view.redo]) if view.redo is not None else None
    return undo, redo


def entry_words(view: MatchView, words: LogWords, entries: Sequence[LoggedEntry]) -> list[str]:
    """Each of ``entries`` of ``view``'s log in a sentence, as the table's log says it."""
    narrator = _Narrator(view, words)
    return [narrator.line(logged) for logged in entries]
