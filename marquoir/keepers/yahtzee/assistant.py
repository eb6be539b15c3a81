"""The turn assistant: the solver's expected final scores, for the API and in words for the
table screen. Only shown where the table switched it on (off by default)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from marquoir.games.yahtzee import DICE_COUNT, RuleError, Sheet, box_choices, solver
from marquoir.rules import INVALID
from marquoir.tables.kit import ascii_number, decimal

from .messages import box_name
from .narration import dice_text

MAX_ROLLS = 3
# How many keeps and boxes the screen lists besides the best (the API gives them all).
SHOWN_CHOICES = 4


def read_advice_query(query: Mapping[str, str]) -> tuple[tuple[int, ...] | None, int]:
    """``dice`` (``1,3,3,4,6``) and ``rolls_left`` (0 to 2, default 0) of an /advice address;
    ``RuleError(invalid)``: ``bad_advice_dice``, ``bad_rolls_left``, ``rolls_left_without_dice``."""
    text = query.get("dice", "")
    # Present but empty (``rolls_left=``) is not a number: refused, not read as left out.
    raw_rolls = query.get("rolls_left")
    rolls_left = ascii_number(raw_rolls, reason="bad_rolls_left", digits=1) if raw_rolls is not None else 0
    if rolls_left > MAX_ROLLS - 1:
        raise RuleError(INVALID, "bad_rolls_left")
    if not text:
        if raw_rolls is not None:
            raise RuleError(INVALID, "rolls_left_without_dice")
        return None, 0
    parts = text.split(",")
    if len(parts) != DICE_COUNT or not all(len(part) == 1 and part in "123456" for part in parts):
        raise RuleError(INVALID, "bad_advice_dice")
    return tuple(int(part) for part in parts), rolls_left


def advice_json(sheet: Sheet, dice: tuple[int, ...] | None, rolls_left: int) -> dict[str, Any]:
    """The answer of /advice for ``sheet``: its value; the keeps with rolls left; the boxes without."""
    if dice is None:
        return {"value": solver.sheet_value(sheet)}
    if rolls_left:
        keeps = solver.best_keeps(sheet, dice, rolls_left)
        return {
            "value": keeps[0].value,
            "keep": list(keeps[0].keep),
            "keeps": [{"keep": list(keep.keep), "value": keep.value} for keep in keeps],
        }
    points = {choice.box: choice.points for choice in box_choices(sheet, dice) if choice.allowed}
    boxes = solver.best_boxes(sheet, dice)
    return {
        "value": boxes[0].value,
        "box": boxes[0].box.value,
        "boxes": [{"box": item.box.value, "points": points[item.box] or 0, "value": item.value} for item in boxes],
    }


def score_text(value: float) -> str:
    """An expected score as the screen writes it: one decimal, the language's mark.

    Rounded here: ``formatting.decimal`` cuts the decimals off (Django's number_format does)."""
    return decimal(round(value, 1), 1)


@dataclass(frozen=True)
class KeepChoice:
    """A keep the screen offers: the dice, the words, the next roll's address (None: stop)."""

    keep: tuple[int, ...]
    label: str
    value: str
    query: str | None
    best: bool


@dataclass(frozen=True)
class AssistantView:
    """What the assistant says for the turn as entered so far."""

    headline: str
    details: tuple[str, ...] = ()
    keeps: tuple[KeepChoice, ...] = ()
    best_keep: KeepChoice | None = None
    best_box: str | None = None  # the key of the box to score, to mark its button


def keep_words(keep: tuple[int, ...]) -> str:
    """“keep 3 3 and roll 3 dice”, “roll all five again”, “keep all five: roll no more”."""
    if not keep:
        return _("roll all five again")
    if len(keep) == DICE_COUNT:
        return _("keep all five: roll no more")
    rolled = DICE_COUNT - len(keep)
    if rolled == 1:
        return _("keep %(dice)s and roll 1 die") % {"dice": dice_text(keep)}
    return _("keep %(dice)s and roll %(count)s dice") % {"dice": dice_text(keep), "count": rolled}


def before_the_roll(sheet: Sheet, name: str) -> AssistantView:
    """Before any die: what the sheet is worth, played well from here."""
    return AssistantView(
        _("%(name)s’s sheet is worth %(value)s points on average at the end, played well from here.")
        % {"name": name, "value": score_text(solver.sheet_value(sheet))}
    )


def for_the_dice(sheet: Sheet, dice: tuple[int, ...], roll: int, next_roll: Any) -> AssistantView:
    """Five dice in: the keeps with rolls left (each keep's address from ``next_roll(keep)``),
    and the box to score now, each with its expected final score."""
    boxes = solver.best_boxes(sheet, dice)
    best_box = boxes[0]
    points = {choice.box: choice.points for choice in box_choices(sheet, dice) if choice.allowed}
    box_lines = tuple(
        _("Score %(box)s (%(points)s): %(value)s points at the end.")
        % {"box": box_name(item.box), "points": points[item.box], "value": score_text(item.value)}
        for item in boxes[:SHOWN_CHOICES]
    )
    rolls_left = MAX_ROLLS - roll
    if not rolls_left:
        return AssistantView(
            _("Score %(box)s: %(value)s points expected at the end.")
            % {"box": box_name(best_box.box), "value": score_text(best_box.value)},
            box_lines,
            best_box=best_box.box.value,
        )
    keeps = solver.best_keeps(sheet, dice, rolls_left)
    choices = tuple(
        KeepChoice(
            keep.keep,
            keep_words(keep.keep),
            score_text(keep.value),
            None if len(keep.keep) == DICE_COUNT else next_roll(keep.keep),
            index == 0,
        )
        for index, keep in enumerate(keeps[: SHOWN_CHOICES + 1])
    )
    best = choices[0]
    if best.query is None:
        headline = _("Roll no more: score %(box)s, %(value)s points expected at the end.") % {
            "box": box_name(best_box.box),
            "value": score_text(best_box.value),
        }
        return AssistantView(headline, box_lines, choices, None, best_box.box.value)
    headline = _("Best: %(keep)s, %(value)s points expected at the end.") % {"keep": best.label, "value": best.value}
    return AssistantView(headline, box_lines, choices, best, None)
