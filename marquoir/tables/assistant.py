"""The turn assistant on the table screen: exact odds and advice, put into words.

Only shown where the table switched it on (off by default: some tables call it cheating).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.pickomino import Face, GameState
from marquoir.games.pickomino.engine import steal_victim
from marquoir.games.pickomino.odds import Advice, Table, advise

from .narration import worms_text
from .turn import TurnEntry


@dataclass(frozen=True)
class AdviceView:
    """Sentences for the turn in progress, best advice first."""

    headline: str
    details: tuple[str, ...]
    best_keep: str | None  # the face key to keep from the roll, to mark its button


def percent(chance: float) -> str:
    """A chance as a whole percentage, never saying 0 % or 100 % for what is merely likely."""
    value = round(chance * 100)
    if value == 0 and chance > 0:
        return "<1 %"
    if value == 100 and chance < 1:
        return ">99 %"
    return f"{value} %"


def face_name(face: Face, count: int) -> str:
    """“2 worms”, “3 dice showing 5” in the current language."""
    if face is Face.WORM:
        return worms_text(count)
    return ngettext("%(count)s die showing %(face)s", "%(count)s dice showing %(face)s", count) % {
        "count": count,
        "face": int(face),
    }


def _victim(advice: Advice, players: Sequence[str], state: GameState) -> str:
    victim = steal_victim(state, advice.stop_tile or 0)
    return players[victim] if victim is not None else ""


def _claim_words(advice: Advice, players: Sequence[str], state: GameState) -> str:
    if advice.stop_steals:
        return _("steal %(tile)s from %(name)s") % {"tile": advice.stop_tile, "name": _victim(advice, players, state)}
    return _("take %(tile)s") % {"tile": advice.stop_tile}


def advice_for(turn: TurnEntry, state: GameState, players: Sequence[str]) -> AdviceView:
    """What the assistant says for the dice kept so far and, if entered, the roll in front."""
    advice = advise(Table.of(state), turn.dice, turn.roll)
    details: list[str] = []
    best_keep: str | None = None
    if turn.roll is not None:
        if advice.roll_busts:
            return AdviceView(_("No new face in this roll: the turn is a bust."), (), None)
        best = advice.keeps[0]
        best_keep = best.face.key
        then = _("then stop") if best.stop_after else _("then roll again")
        headline = _("Keep the %(dice)s, %(then)s.") % {"dice": face_name(best.face, best.count), "then": then}
        for keep in advice.keeps:
            details.append(
                _("Keep the %(dice)s: worth %(value)s, bust %(chance)s.")
                % {
                    "dice": face_name(keep.face, keep.count),
                    "value": f"{keep.value:+.2f}",
                    "chance": percent(keep.bust_chance),
                }
            )
        return AdviceView(headline, tuple(details), best_keep)
    if not turn.dice.keeps:
        headline = _(
            "Roll all 8 dice: this turn is worth %(value)s worms on average, with a %(chance)s chance of a bust."
        ) % {
            "value": f"{advice.value:+.2f}",
            "chance": percent(advice.bust_chance),
        }
        return AdviceView(headline, (), None)
    if advice.should_stop and advice.stop_steals:
        headline = _("Stop and steal %(tile)s from %(name)s.") % {
            "tile": advice.stop_tile,
            "name": _victim(advice, players, state),
        }
    elif advice.should_stop:
        headline = _("Stop and take %(tile)s.") % {"tile": advice.stop_tile}
    else:
        headline = _("Roll again.")
    if advice.stop_tile is not None:
        details.append(
            _("Stopping now: %(claim)s, worth %(value)s.")
            % {"claim": _claim_words(advice, players, state), "value": f"{advice.stop_value:+.2f}"}
        )
    else:
        details.append(_("Stopping now would be a bust, worth %(value)s.") % {"value": f"{advice.bust_value:+.2f}"})
    if advice.roll_value is not None and advice.roll_bust_chance is not None:
        details.append(
            _("Rolling on, played well: worth %(value)s, bust %(chance)s.")
            % {"value": f"{advice.roll_value:+.2f}", "chance": percent(advice.roll_bust_chance)}
        )
    return AdviceView(headline, tuple(details), None)
