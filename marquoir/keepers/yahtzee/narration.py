"""What each turn did on the sheets, in plain words, in the page's language.

"Round 3: Ada scores 25 in Full house with 3 3 5 5 5." The log says it whole; the bar under
the thumb says it short: "Ada · Full house 25 · total 140".
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from marquoir.games.yahtzee import Scored
from marquoir.tables.kit import LogWords, undo_text

from .messages import box_name


def dice_text(dice: Sequence[int]) -> str:
    """Five dice as written in a sentence: ``3 3 5 5 5``."""
    return " ".join(str(die) for die in dice)


def _bonuses(outcome: Scored) -> list[str]:
    extra = []
    if outcome.joker:
        extra.append(_("Joker."))
    if outcome.yahtzee_bonus:
        extra.append(_("Yahtzee bonus: +%(points)s.") % {"points": outcome.yahtzee_bonus})
    if outcome.upper_bonus:
        extra.append(_("Upper bonus: +%(points)s.") % {"points": outcome.upper_bonus})
    return extra


def describe(outcome: Scored, players: Sequence[str]) -> str:
    """One or a few sentences telling what a turn did (the log)."""
    words = {
        "number": outcome.round,
        "name": players[outcome.player],
        "points": outcome.points,
        "box": box_name(outcome.box),
    }
    if outcome.dice is not None:
        text = _("Round %(number)s: %(name)s scores %(points)s in %(box)s with %(dice)s.") % {
            **words,
            "dice": dice_text(outcome.dice),
        }
    else:
        text = _("Round %(number)s: %(name)s writes %(points)s in %(box)s.") % words
    parts = [text, *_bonuses(outcome)]
    parts.append(_("Total: %(total)s.") % {"total": outcome.total})
    if outcome.game_over:
        parts.append(_("That was the last turn: the game is over."))
    return " ".join(parts)


def describe_short(outcome: Scored, players: Sequence[str]) -> str:
    """The few words under the thumb after a turn: ``Ada · Full house 25 · total 140``."""
    text = _("%(name)s · %(box)s %(points)s") % {
        "name": players[outcome.player],
        "box": box_name(outcome.box),
        "points": outcome.points,
    }
    if outcome.yahtzee_bonus:
        text += " · " + _("Yahtzee bonus +%(points)s") % {"points": outcome.yahtzee_bonus}
    if outcome.upper_bonus:
        text += " · " + _("upper bonus +%(points)s") % {"points": outcome.upper_bonus}
    return text + " · " + _("total %(total)s") % {"total": outcome.total}


def describe_undo(undone: Scored | None, players: Sequence[str]) -> str:
    """The log line of an undo."""
    if undone is None:
        return undo_text()
    return _("%(name)s’s %(box)s (%(points)s) taken back: round %(number)s, %(name)s to play again.") % {
        "name": players[undone.player],
        "box": box_name(undone.box),
        "points": undone.points,
        "number": undone.round,
    }


def describe_undo_short(undone: Scored | None, players: Sequence[str]) -> str:
    """The few words after an undo: ``Ada’s Full house taken back``."""
    if undone is None:
        return undo_text()
    return _("%(name)s’s %(box)s taken back") % {"name": players[undone.player], "box": box_name(undone.box)}


LOG_WORDS = LogWords(describe, describe_short, describe_undo, describe_undo_short)
