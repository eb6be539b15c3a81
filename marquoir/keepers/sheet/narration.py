"""What each action did on the sheet, in plain words, in the page's language.

Negative numbers take the true minus sign (U+2212): "Round 3: Ada 12, Ben −3, Cy 40."
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.sheet import Ended, EndReason, Outcome, RoundScored
from marquoir.tables.kit import (
    LogWords,
    end_taken_back,
    game_over_short,
    game_over_text,
    lead_text,
    result_clause,
    result_text,
    scores_text,
    undo_text,
)


def round_status(number: int, rounds: int | None) -> str:
    """The band's line while the game goes on: the round being played, of how many."""
    if rounds is None:
        return _("Round %(number)s") % {"number": number}
    return _("Round %(number)s of %(rounds)s") % {"number": number, "rounds": rounds}


def _end_text(reason: EndReason | None) -> str:
    if reason is EndReason.TARGET:
        return _("A total reached the target: the game is over.")
    if reason is EndReason.ROUNDS:
        return _("That was the last round: the game is over.")
    return game_over_text()


def describe(outcome: Outcome, players: Sequence[str]) -> str:
    """One or two sentences telling what an action did (the log)."""
    if isinstance(outcome, RoundScored):
        text = _("Round %(number)s: %(scores)s.") % {
            "number": outcome.number,
            "scores": scores_text(outcome.scores, players),
        }
        if outcome.game_over:
            text += " " + _end_text(outcome.end_reason) + " " + result_text(outcome.leaders, outcome.totals, players)
        return text
    stopped = ngettext(
        "The players stopped after %(count)s round.", "The players stopped after %(count)s rounds.", outcome.rounds
    ) % {"count": outcome.rounds}
    return stopped + " " + result_text(outcome.winners, outcome.totals, players)


def describe_short(outcome: Outcome, players: Sequence[str]) -> str:
    """The few words under the thumb after an action: ``Round 3 · Ada leads with 52``."""
    if isinstance(outcome, RoundScored):
        standing = (
            result_clause(outcome.leaders, outcome.totals, players)
            if outcome.game_over
            else lead_text(outcome.leaders, outcome.totals, players)
        )
        return _("Round %(number)s · %(standing)s") % {"number": outcome.number, "standing": standing}
    return game_over_short(outcome.winners, outcome.totals, players)


def describe_undo(undone: Outcome | None, players: Sequence[str]) -> str:
    """The log line of an undo."""
    if isinstance(undone, RoundScored):
        return _("Round %(number)s taken back (%(scores)s).") % {
            "number": undone.number,
            "scores": scores_text(undone.scores, players),
        }
    if isinstance(undone, Ended):
        return end_taken_back()
    return undo_text()


def describe_undo_short(undone: Outcome | None, players: Sequence[str]) -> str:
    """The few words after an undo: ``Round 3 taken back``."""
    if isinstance(undone, RoundScored):
        return _("Round %(number)s taken back") % {"number": undone.number}
    if isinstance(undone, Ended):
        return end_taken_back(short=True)
    return undo_text()


LOG_WORDS = LogWords(describe, describe_short, describe_undo, describe_undo_short)
