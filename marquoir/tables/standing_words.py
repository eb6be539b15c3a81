"""Who leads and who won, in words, for a game scored in totals (the score sheet, Tarot, and
every game declared as data): "Ada leads with 52", "Ada and Ben share the win with 120",
the end of the game and its undoing. One place for these sentences, so that each game's
catalog does not say them again.

Totals take the true minus sign (U+2212): "Cy leads with −3".
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .formatting import MINUS, join_names

NAMED_LEADERS = 3
"""Past this many players tied in the lead, the lead says how many rather than who: twelve
names in a row say less than their number (the grid shows who)."""


def total_text(value: int) -> str:
    """A total as the band writes it: ``186``, ``0``, ``−62`` (true minus sign)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def lead_text(leaders: Sequence[int], totals: Sequence[int], players: Sequence[str]) -> str:
    """``Ada leads with 52``; ``Ada and Ben lead with 52`` (a lone player: ``Ada: 52``)."""
    score = total_text(totals[leaders[0]])
    if len(players) == 1:
        return _("%(name)s: %(score)s") % {"name": players[0], "score": score}
    if len(leaders) > NAMED_LEADERS:
        return _("%(count)s players share the lead with %(score)s") % {"count": len(leaders), "score": score}
    return ngettext("%(names)s leads with %(score)s", "%(names)s lead with %(score)s", len(leaders)) % {
        "names": join_names([players[player] for player in leaders]),
        "score": score,
    }


def result_clause(winners: Sequence[int], totals: Sequence[int], players: Sequence[str]) -> str:
    """``Ada wins with 52``; ``Ada and Ben share the win with 52``; alone, ``Ada finishes with 52``."""
    score = total_text(totals[winners[0]])
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


def game_over_short(winners: Sequence[int], totals: Sequence[int], players: Sequence[str]) -> str:
    """The bar's words after the table ends the game: ``Game over · Ada wins with 52``."""
    return _("Game over · %(result)s") % {"result": result_clause(winners, totals, players)}


def game_over_text() -> str:
    """The log's words when the game ends without a reason to give."""
    return _("The game is over.")


def end_taken_back(*, short: bool = False) -> str:
    """An undone end: the log's sentence, or the bar's few words."""
    if short:
        return _("The end taken back: the game goes on")
    return _("The end taken back: the game goes on.")


def undo_text() -> str:
    """An undo of nothing the game can name (the log's line and the bar's words alike)."""
    return _("Undo.")


def scores_text(scores: Sequence[int], players: Sequence[str]) -> str:
    """``Ada 12, Ben −3, Cy 40``: each player's points of a round, in seating order."""
    # Translators: one player's score in a round's list, "Ada 12"; the list joins them with commas.
    return ", ".join(
        _("%(name)s %(score)s") % {"name": name, "score": total_text(score)}
        for name, score in zip(players, scores, strict=False)
    )
