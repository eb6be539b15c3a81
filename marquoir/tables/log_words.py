"""A match's log in words, for every game's table screen: each entry in a sentence, newest
first, and the few words the bar shows for the last one. The game words its own actions
and their undoing; how the log is walked is the same for all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .selectors import MatchView

# (what an action did, or None for an undo with nothing known, the players) -> words
Words = Callable[[Any, Sequence[str]], str]


@dataclass(frozen=True)
class LogLine:
    seq: int
    text: str
    undone: bool
    is_undo: bool


@dataclass(frozen=True)
class LogWords:
    """A game's words for its log: an action and an undo, each in a sentence and in short."""

    describe: Words
    describe_short: Words
    describe_undo: Words
    describe_undo_short: Words


def log_in_words(view: MatchView, words: LogWords) -> tuple[list[LogLine], str | None]:
    """The log in words, newest first, and the short words for the last entry (None before any)."""
    names = view.players
    outcomes_by_seq = {logged.seq: logged.outcome for logged in view.log}
    lines = []
    for logged in view.log:
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
