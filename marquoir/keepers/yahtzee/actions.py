"""Yahtzee's one action, as one schema: score a turn in a box, with the five dice of the
last roll, or with the points typed straight in.

The schema reads the API's body (each field's type and bounds, then the dice or the points,
not both), gives the payload the log keeps (the fields given, nulls left out), the engine's
action for a stored payload and the body the table screen's forms send; the rules are the
engine's to check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, Self

from ninja import Field
from pydantic import model_validator
from pydantic_core import ErrorDetails

from marquoir.games.yahtzee import DICE_COUNT, RuleError, Score, ScorePoints
from marquoir.rules import INVALID
from marquoir.tables.kit import ActionBody, ascii_number, shorten

SCORE = "score"

BoxKey = Literal[
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
]
Die = Annotated[int, Field(ge=1, le=6)]
# The most a box can take: 50 in ``yahtzee`` (a sum of five dice is 30 at most, a straight 40).
MAX_BOX_POINTS = 50


class ScoreIn(ActionBody):
    """The current player's turn, scored in a box: with the five dice of the last roll
    (Marquoir works out the points, the bonuses and the joker), or, for a table that keeps
    only the sheet, with the points (extension: refused when no five dice give them there)."""

    type: Literal["score"]
    box: BoxKey = Field(..., description="the box to fill")
    dice: Annotated[list[Die], Field(min_length=DICE_COUNT, max_length=DICE_COUNT)] | None = Field(
        None, description="the five dice of the last roll, 1 to 6 each, in any order; or give points"
    )
    points: int | None = Field(
        None,
        ge=0,
        le=MAX_BOX_POINTS,
        description="extension, instead of dice: the points written in the box, 0 to 50",
    )
    five_alike: bool | None = Field(
        None,
        description="extension, with points only: whether the dice were five alike (the joker and the "
        "Yahtzee bonus depend on it); left out, it is worked out from the points when only five alike "
        "give them (50 in yahtzee, 20 in fours…), else taken as not",
    )

    reasons: ClassVar[Mapping[str, str]] = {
        "box": "unknown_box",
        "points": "bad_points",
        "five_alike": "bad_five_alike",
    }

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        if field == "box":
            return RuleError(INVALID, "unknown_box", box=shorten(error.get("input")))
        if field != "dice":
            return super().refusal(field, error)
        location, kind, given = error["loc"], error["type"], error.get("input")
        if len(location) < 3:  # the list itself
            if kind in {"too_short", "too_long"} and isinstance(given, list):
                return RuleError(INVALID, "dice_count", count=len(given), expected=DICE_COUNT)
            return RuleError(INVALID, "bad_dice", dice=shorten(given))
        return RuleError(INVALID, "bad_die", position=location[2], die=shorten(given))

    @model_validator(mode="after")
    def _dice_or_points(self) -> Self:
        """Reasons: ``dice_and_points``, ``no_dice_nor_points``, ``five_alike_with_dice``."""
        if self.dice is not None and self.points is not None:
            raise RuleError(INVALID, "dice_and_points")
        if self.dice is None and self.points is None:
            raise RuleError(INVALID, "no_dice_nor_points")
        if self.dice is not None and self.five_alike is not None:
            raise RuleError(INVALID, "five_alike_with_dice")
        return self

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Score | ScorePoints:
        if "dice" in payload:
            return Score(payload["box"], tuple(payload["dice"]))
        return ScorePoints(payload["box"], payload["points"], payload.get("five_alike"))

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """The box list sends ``box`` (the button tapped) and ``dice`` (``33555``, the five
        dice tapped in); the points form sends ``box``, ``points`` as typed and
        ``five_alike`` when its box is ticked. ``RuleError(invalid)``: ``dice_missing``,
        ``bad_form_dice``, ``box_missing``, ``points_missing``, ``points_digits``."""
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

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str]:
        """The pad's entry for a stored turn: its five dice (and its box, for the screen to
        say), or the points form's box, points and five-alike box."""
        values = {"type": SCORE, "box": str(payload["box"])}
        if "dice" in payload:
            values["dice"] = encode_dice(tuple(payload["dice"]))
        else:
            values["points"] = str(payload["points"])
            if payload.get("five_alike"):
                values["five_alike"] = "1"
        return values


ACTIONS = (ScoreIn,)


def decode_dice(text: object, *, reason: str = "bad_form_dice") -> tuple[int, ...]:
    """Dice written as their faces one after another, ``33555``: at most five, 1 to 6 each."""
    if not isinstance(text, str) or len(text) > DICE_COUNT:
        raise RuleError(INVALID, reason)
    if not all(char in "123456" for char in text):
        raise RuleError(INVALID, reason)
    return tuple(int(char) for char in text)


def encode_dice(dice: tuple[int, ...]) -> str:
    return "".join(str(die) for die in dice)
