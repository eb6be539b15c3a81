"""The turn assistant on the table screen: exact odds and advice, put into words.

Only shown where the table switched it on (off by default: some tables call it cheating).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.pickomino import Face, GameState, TurnDice
from marquoir.games.pickomino.engine import steal_victim
from marquoir.games.pickomino.odds import Advice, Table, advise
from marquoir.tables.kit import percent, signed

from .narration import worms_text
from .turn import TurnEntry


@dataclass(frozen=True)
class AdviceView:
    """Sentences for the turn in progress, best advice first."""

    headline: str
    details: tuple[str, ...]
    best_keep: str | None  # the face key to keep from the roll, to mark its button


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
    advice = advise(Table.of(state), turn.dice, turn.roll if turn.roll_complete else None)
    details: list[str] = []
    best_keep: str | None = None
    if turn.roll_complete:
        if advice.roll_busts:
            return AdviceView(_("No new face in this roll: the turn is a bust."), (), None)
        best = advice.keeps[0]
        best_keep = best.face.key
        then = _("then stop") if best.stop_after else _("then roll again")
        headline = _("Keep the %(dice)s, %(then)s.") % {"dice": face_name(best.face, best.count), "then": then}
        for keep in advice.keeps:
            details.append(
                _("Keep the %(dice)s: worth %(value)s worms, bust %(chance)s.")
                % {
                    "dice": face_name(keep.face, keep.count),
                    "value": signed(keep.value),
                    "chance": percent(keep.bust_chance),
                }
            )
        return AdviceView(headline, tuple(details), best_keep)
    if not turn.dice.keeps:
        headline = _(
            "Roll all 8 dice: this turn is worth %(value)s worms on average, with a %(chance)s chance of a bust."
        ) % {
            "value": signed(advice.value),
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
            _("Stopping now: %(claim)s, worth %(value)s worms.")
            % {"claim": _claim_words(advice, players, state), "value": signed(advice.stop_value)}
        )
    else:
        details.append(_("Stopping now would be a bust, worth %(value)s worms.") % {"value": signed(advice.bust_value)})
    if advice.roll_value is not None and advice.roll_bust_chance is not None:
        details.append(
            _("Rolling on, played well: worth %(value)s worms, bust %(chance)s.")
            % {"value": signed(advice.roll_value), "chance": percent(advice.roll_bust_chance)}
        )
    return AdviceView(headline, tuple(details), None)


def tile_pad_advice(turn: TurnEntry, state: GameState, players: Sequence[str]) -> AdviceView:
    """The assistant on the tile pad: the turn's worth before the dice, or the best claim for a total."""
    table = Table.of(state)
    if turn.total is None:
        advice = advise(table, TurnDice())
        return AdviceView(
            _("This turn is worth %(value)s worms on average, with a %(chance)s chance of a bust.")
            % {"value": signed(advice.value), "chance": percent(advice.bust_chance)},
            (),
            None,
        )
    best = table.claim(turn.total)
    if best is None:
        return AdviceView(_bust_words(), (), None)
    tile, steals, value = best
    if steals:
        victim = steal_victim(state, tile)
        words = _("steal %(tile)s from %(name)s") % {
            "tile": tile,
            "name": players[victim] if victim is not None else "",
        }
    else:
        words = _("take %(tile)s") % {"tile": tile}
    return AdviceView(
        _("Best with %(total)s: %(claim)s (worth %(value)s worms).")
        % {"total": turn.total, "claim": words, "value": signed(value)},
        (_("A steal counts twice: the worms you win and the worms the other player loses."),)
        if len(turn.claims) > 1
        else (),
        None,
    )


def _bust_words() -> str:
    return _("Nothing can be claimed with this total: the turn is a bust.")
