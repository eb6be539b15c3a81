"""What each action did, in plain words, in the page's language (the turn log)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.pickomino import Busted, BustReason, Outcome, Took
from marquoir.tables.kit import LogWords, undo_text


def worms_text(count: int) -> str:
    """“1 worm”, “3 worms” in the current language."""
    return ngettext("%(count)s worm", "%(count)s worms", count) % {"count": count}


def bust_reason_text(reason: BustReason) -> str:
    """Why a turn failed, as a short clause."""
    return {
        BustReason.DECLARED: _("bust"),
        BustReason.NO_NEW_FACE: _("bust (the roll showed no new face)"),
        BustReason.NO_WORM: _("bust (no worm kept)"),
        BustReason.NOTHING_TO_CLAIM: _("bust (no tile to claim with that total)"),
    }[reason]


def describe(outcome: Outcome, players: Sequence[str]) -> str:
    """One or two sentences telling what an action did."""
    name = players[outcome.player]
    if isinstance(outcome, Took):
        if isinstance(outcome.source, int):
            text = ngettext(
                "%(player)s stole %(tile)s from %(victim)s: %(count)s worm changes hands.",
                "%(player)s stole %(tile)s from %(victim)s: %(count)s worms change hands.",
                outcome.worms,
            ) % {"player": name, "tile": outcome.tile, "victim": players[outcome.source], "count": outcome.worms}
        elif outcome.tile == outcome.total:
            text = _("%(player)s took %(tile)s from the grill (+%(worms)s).") % {
                "player": name,
                "tile": outcome.tile,
                "worms": worms_text(outcome.worms),
            }
        else:
            text = _(
                "%(player)s scored %(total)s and took %(tile)s, the highest tile below, from the grill (+%(worms)s)."
            ) % {
                "player": name,
                "total": outcome.total,
                "tile": outcome.tile,
                "worms": worms_text(outcome.worms),
            }
    else:
        text = _describe_bust(outcome, name)
    if outcome.game_over:
        text += " " + _("No face-up tile is left: the game is over.")
    return text


def _describe_bust(outcome: Busted, name: str) -> str:
    parts = [_("%(player)s: %(reason)s.") % {"player": name, "reason": bust_reason_text(outcome.reason)}]
    if outcome.returned is None:
        parts.append(_("No tile to give back."))
    else:
        parts.append(
            _("%(tile)s goes back to the grill (−%(worms)s).")
            % {"tile": outcome.returned, "worms": worms_text(outcome.worms_lost)}
        )
    if outcome.turned_down is not None:
        parts.append(_("%(tile)s is turned face down.") % {"tile": outcome.turned_down})
    elif outcome.returned is not None:
        parts.append(
            _("No tile is turned face down: %(tile)s is the highest face-up tile on the grill.")
            % {"tile": outcome.returned}
        )
    return " ".join(parts)


def describe_undo(undone: Outcome | None, players: Sequence[str]) -> str:
    """The log line of an undo."""
    if undone is None:
        return undo_text()
    return _("Undone: %(what)s") % {"what": describe(undone, players)}


def describe_short(outcome: Outcome, players: Sequence[str]) -> str:
    """The few words shown under the thumb after an action: “Ada took 27 (+2)”."""
    name = players[outcome.player]
    if isinstance(outcome, Took):
        if isinstance(outcome.source, int):
            return _("%(player)s stole %(tile)s from %(victim)s (+%(count)s)") % {
                "player": name,
                "tile": outcome.tile,
                "victim": players[outcome.source],
                "count": outcome.worms,
            }
        return _("%(player)s took %(tile)s (+%(count)s)") % {
            "player": name,
            "tile": outcome.tile,
            "count": outcome.worms,
        }
    if outcome.returned is None:
        text = _("%(player)s: bust, no tile to give back") % {"player": name}
    else:
        text = _("%(player)s: bust, %(tile)s back to the grill (−%(count)s)") % {
            "player": name,
            "tile": outcome.returned,
            "count": outcome.worms_lost,
        }
    if outcome.turned_down is not None:
        text = _("%(what)s, %(tile)s face down") % {"what": text, "tile": outcome.turned_down}
    return text


def describe_undo_short(undone: Outcome | None, players: Sequence[str]) -> str:
    """The few words shown after an undo: “Undone: Ada took 27 (+2)”."""
    if undone is None:
        return undo_text()
    return _("Undone: %(what)s") % {"what": describe_short(undone, players)}


LOG_WORDS = LogWords(describe, describe_short, describe_undo, describe_undo_short)
