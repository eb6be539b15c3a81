"""A match's log in words, for every game's table screen: each entry in a sentence, newest
first, and the few words the bar shows for the last one. The game words its own actions
and their undoing (``Keeper.log_words``, a ``LogWords``); how the log is walked is the same
for all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .fold import MatchView

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


def log_in_words(view: MatchView, words: LogWords, shown: int = LOG_SHOWN) -> tuple[LogLines, str | None]:
    """The last ``shown`` entries of the log in words, newest first (with how many older
    ones are left out), and the short words for the last entry (None before any). Only
    the entries shown are worded: the page's work is bounded however long the log is.
    Whether anything can be undone is not to be read from these lines (the entries in
    force may all be older than the lines shown): see ``selectors.in_force``."""
    names = view.players
    outcomes_by_seq = {logged.seq: logged.outcome for logged in view.log}
    lines = LogLines()
    lines.hidden = max(0, len(view.log) - shown)
    for logged in view.log[lines.hidden :]:
        if logged.outcome is not None:
            text = words.describe(logged.outcome, names)
        else:
            text = words.describe_undo(outcomes_by_seq.get(logged.undoes or -1), names)
        lines.append(LogLine(logged.seq, text, logged.undone, logged.outcome is None))
    lines.reverse()
    if not view.log:
        return lines, None
    last = view.log[-1]
    if last.outcome is not None:
        return lines, words.describe_short(last.outcome, names)
    return lines, words.describe_undo_short(outcomes_by_seq.get(last.undoes or -1), names)


def last_words(view: MatchView, words: LogWords) -> str | None:
    """The short words for the last entry of the log alone (None before any), as the bar
    says them: for a sentence that names what another phone just did."""
    if not view.log:
        return None
    last = view.log[-1]
    if last.outcome is not None:
        return words.describe_short(last.outcome, view.players)
    undone = next((logged.outcome for logged in view.log if logged.seq == last.undoes), None)
    return words.describe_undo_short(undone, view.players)
