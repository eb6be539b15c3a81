"""Yahtzee's one action as the API and the pages send it: score a turn in a box, with the
five dice of the last roll, or with the points typed straight in.

The schema (``api.ScoreIn``) checks each field's type and bounds; what they mean together
is checked here (the dice or the points, not both), and the rules are the engine's. The
stored payload is the normalised request, so the log folds back into engine actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marquoir.games.yahtzee import DICE_COUNT, RuleError, Score, ScorePoints
from marquoir.rules import INVALID
from marquoir.tables.actions import ascii_number

SCORE = "score"


def parse_payload(body: Mapping[str, Any]) -> dict[str, Any]:
    """The stored payload of a score, or ``RuleError(invalid, reason)``.

    The body comes from ``ScoreIn`` (types and bounds checked). Reasons: ``dice_and_points``,
    ``no_dice_nor_points``, ``five_alike_with_dice``.
    """
    box, dice, points = body.get("box"), body.get("dice"), body.get("points")
    five_alike = body.get("five_alike")
    if dice is not None and points is not None:
        raise RuleError(INVALID, "dice_and_points")
    if dice is None and points is None:
        raise RuleError(INVALID, "no_dice_nor_points")
    if dice is not None:
        if five_alike is not None:
            raise RuleError(INVALID, "five_alike_with_dice")
        return {"type": SCORE, "box": box, "dice": list(dice)}
    payload: dict[str, Any] = {"type": SCORE, "box": box, "points": points}
    if five_alike is not None:
        payload["five_alike"] = five_alike
    return payload


def engine_action(payload: Mapping[str, Any]) -> Score | ScorePoints:
    """The engine's action for a stored payload."""
    if "dice" in payload:
        return Score(payload["box"], tuple(payload["dice"]))
    return ScorePoints(payload["box"], payload["points"], payload.get("five_alike"))


def decode_dice(text: object, *, reason: str = "bad_form_dice") -> tuple[int, ...]:
    """Dice written as their faces one after another, ``33555``: at most five, 1 to 6 each."""
    if not isinstance(text, str) or len(text) > DICE_COUNT:
        raise RuleError(INVALID, reason)
    if not all(char in "123456" for char in text):
        raise RuleError(INVALID, reason)
    return tuple(int(char) for char in text)


def encode_dice(dice: tuple[int, ...]) -> str:
    return "".join(str(die) for die in dice)


def form_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The API-shaped body of a turn sent by the table screen's forms.

    The box list sends ``type=score``, ``box`` (the button tapped) and ``dice`` (``33555``,
    the five dice tapped in); the points form sends ``box``, ``points`` as typed and
    ``five_alike`` when its box is ticked. ``RuleError(invalid)``: ``dice_missing``,
    ``bad_form_dice``, ``box_missing``, ``points_missing``, ``points_digits``.
    """
    kind = data.get("type")
    if kind != SCORE:
        return {"type": kind}
    box = data.get("box")
    if not box:
        raise RuleError(INVALID, "box_missing")
    if "points" in data:
        typed = str(data.get("points") or "").strip()
        if not typed:
            raise RuleError(INVALID, "points_missing")
        points = ascii_number(typed, reason="points_digits")
        body: dict[str, Any] = {"type": SCORE, "box": box, "points": points}
        if data.get("five_alike"):
            body["five_alike"] = True
        return body
    dice = decode_dice(data.get("dice", ""))
    if len(dice) != DICE_COUNT:
        raise RuleError(INVALID, "dice_missing", count=len(dice))
    return {"type": SCORE, "box": box, "dice": list(dice)}
