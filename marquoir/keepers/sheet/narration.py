"""What each action did on the sheet, in plain words, in the page's language.

Negative numbers take the true minus sign (U+2212): "Round 3: Ada 12, Ben −3, Cy 40."
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.sheet import Ended, EndReason, Outcome, RoundScored
from marquoir.tables.formatting import MINUS, join_names

# Past this many players tied in the lead, the lead says how many rather than who.
NAMED_LEADERS = 3


def score_text(value: int) -> str:
    """A score or a total as written on the sheet: ``12``, ``0``, ``−3`` (true minus sign)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def scores_text(scores: Sequence[int], players: Sequence[str]) -> str:
    """``Ada 12, Ben −3, Cy 40``: each player's score of a round, in seating order."""
    # Translators: one player's score in a round's list, "Ada 12"; the list joins them with commas.
    return ", ".join(
        _("%(name)s %(score)s") % {"name": name, "score": score_text(score)}
        for name, score in zip(players, scores, strict=False)
    )


def round_status(number: int, rounds: int | None) -> str:
    """The band's line while the game goes on: the round being played, of how many."""
    if rounds is None:
        return _("Round %(number)s") % {"number": number}
    return _("Round %(number)s of %(rounds)s") % {"number": number, "rounds": rounds}


def lead_text(leaders: Sequence[int], totals: Sequence[int], players: Sequence[str]) -> str:
    """``Ada leads with 52``; ``Ada and Ben lead with 52`` (a lone player: ``Ada: 52``)."""
    score = score_text(totals[leaders[0]])
    if len(players) == 1:
        return _("%(name)s: %(score)s") % {"name": players[0], "score": score}
    if len(leaders) > NAMED_LEADERS:
        # Twelve names in a row say less than their number (the grid shows who).
        return _("%(count)s players share the lead with %(score)s") % {"count": len(leaders), "score": score}
    return ngettext("%(names)s leads with %(score)s", "%(names)s lead with %(score)s", len(leaders)) % {
        "names": join_names([players[player] for player in leaders]),
        "score": score,
    }


def result_clause(winners: Sequence[int], totals: Sequence[int], players: Sequence[str]) -> str:
    """``Ada wins with 52``; ``Ada and Ben share the win with 52``; alone, ``Ada finishes with 52``."""
    score = score_text(totals[winners[0]])
    if len(players) == 1:
        return _("%(name)s finishes with %(score)s") % {"name": players[0], "score": score}
    if len(winners) == 1:
        return _("%(name)s wins with %(score)s") % {"name": players[winners[0]], "score": score}
    return _("%(names)s share the win with %(score)s") % {
        "names": join_names([players[player] for player in winners]),
        "score": score,
    }


def result_text(winners: Sequence[int], totals: Sequence[int], players: Sequence[str]) -> str:
    """The result as a sentence: ``Ada wins with 52.``"""
    return result_clause(winners, totals, players) + "."


def _end_text(reason: EndReason | None) -> str:
    if reason is EndReason.TARGET:
        return _("A total reached the target: the game is over.")
    if reason is EndReason.ROUNDS:
        return _("That was the last round: the game is over.")
    return _("The game is over.")


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
    return _("Game over · %(result)s") % {"result": result_clause(outcome.winners, outcome.totals, players)}


def describe_undo(undone: Outcome | None, players: Sequence[str]) -> str:
    """The log line of an undo."""
    if isinstance(undone, RoundScored):
        return _("Round %(number)s taken back (%(scores)s).") % {
            "number": undone.number,
            "scores": scores_text(undone.scores, players),
        }
    if isinstance(undone, Ended):
        return _("The end taken back: the game goes on.")
    return _("Undo.")


def describe_undo_short(undone: Outcome | None, players: Sequence[str]) -> str:
    """The few words after an undo: ``Round 3 taken back``."""
    if isinstance(undone, RoundScored):
        return _("Round %(number)s taken back") % {"number": undone.number}
    if isinstance(undone, Ended):
        return _("The end taken back: the game goes on")
    return _("Undo.")
