"""The sheet's actions, one schema each: a round's scores, and the end.

A schema reads the API's body (the ``invalid`` refusals): ``scores`` a list of whole
numbers within ±100 000, at most one per player a sheet can have; how many this sheet
takes is the engine's to check (it knows the players). It gives the payload the log keeps,
the engine's action for a stored payload and the body the table screen's round form sends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from ninja import Field
from pydantic_core import ErrorDetails

from marquoir.games.sheet import MAX_PLAYERS, MAX_SCORE, MIN_SCORE, End, Round, RuleError
from marquoir.rules import INVALID
from marquoir.tables.kit import MINUS, ActionBody, shorten

ROUND, END = "round", "end"

# What a score field of the page may hold: a minus sign (ASCII or the true one), then ASCII
# digits only. ``[0-9]`` is a range of ASCII characters: ``²``, ``٣`` and ``１`` are not in it.
_FORM_SCORE = re.compile(f"([-{MINUS}]?)([0-9]+)")
# More digits than any score has: refused as out of range without reading a huge number.
_MAX_DIGITS = 9


class RoundIn(ActionBody):
    """A round: one score per player, in seating order."""

    type: Literal["round"]
    scores: list[Annotated[int, Field(ge=MIN_SCORE, le=MAX_SCORE)]] = Field(
        ...,
        max_length=MAX_PLAYERS,  # how many this sheet takes is the engine's to say: it knows the players
        description=f"one whole number per player, in seating order, {MIN_SCORE} to {MAX_SCORE}",
    )

    @classmethod
    def refusal(cls, field: str, error: ErrorDetails) -> RuleError:
        """Reasons: ``bad_scores`` (not a list, or an item that is not a whole number: a
        bool or a float is refused, ``12.0`` too), ``score_range`` (beyond ±100 000),
        ``score_count`` (more scores than a sheet has players; too few or too many for this
        match is the engine's refusal, with the same reason)."""
        location, kind, given = error["loc"], error["type"], error.get("input")
        if field != "scores":
            return super().refusal(field, error)
        if len(location) < 3:  # the list itself
            if kind == "too_long" and isinstance(given, list):
                return RuleError(INVALID, "score_count", count=len(given), expected=None)
            return RuleError(INVALID, "bad_scores", scores=shorten(given))
        player = location[2]
        if kind in {"greater_than_equal", "less_than_equal"}:
            return RuleError(INVALID, "score_range", player=player, score=shorten(given))
        return RuleError(INVALID, "bad_scores", player=player, score=shorten(given))

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Round:
        return Round(tuple(payload["scores"]))

    @classmethod
    def from_form(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """The round form sends ``score_0`` … ``score_{n-1}``, one per player in seating
        order; ``minus_<i>`` (the field's "−" switch) makes that score negative."""
        scores: list[int] = []
        while field_name(len(scores)) in data and len(scores) < MAX_PLAYERS:
            player = len(scores)
            scores.append(form_score(data.get(field_name(player)), player, negative=bool(data.get(f"minus_{player}"))))
        return {"type": ROUND, "scores": scores}

    @classmethod
    def form_values(cls, payload: Mapping[str, Any]) -> dict[str, str]:
        """Each score in its field, a negative one as its digits with the field's "−" ticked."""
        values = {"type": ROUND}
        for player, score in enumerate(payload["scores"]):
            values[field_name(player)] = str(abs(score))
            if score < 0:
                values[f"minus_{player}"] = "1"
        return values


class EndIn(ActionBody):
    """The table says the game is over: the standings as they are."""

    type: Literal["end"]

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> End:
        return End()


ACTIONS = (RoundIn, EndIn)


def form_score(raw: object, player: int, negative: bool = False) -> int:
    """One score field of the round form, as typed: an optional minus sign (``-`` or ``−``),
    then the ASCII digits; ``negative`` (the field's minus switch) makes it negative.

    ``RuleError(invalid, …)``: ``score_missing`` for an empty field (a player who scored
    nothing writes 0, as on paper), ``score_digits`` for anything else than such a number,
    ``score_range`` for a number beyond ±100 000.
    """
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        raise RuleError(INVALID, "score_missing", player=player)
    written = _FORM_SCORE.fullmatch(text)
    if written is None:
        raise RuleError(INVALID, "score_digits", player=player, given=shorten(text, 12))
    sign, digits = written.groups()
    # Judged on the text, before any conversion: Python will not read 4,300 digits or more,
    # and zeros in front of a score are no reason to try.
    if len(digits) > 2 * _MAX_DIGITS or len(digits.lstrip("0")) > _MAX_DIGITS:
        raise RuleError(INVALID, "score_range", player=player, score=shorten(text, 12))
    value = int(digits)
    return -value if sign or negative else value


def field_name(player: int) -> str:
    """The round form's field of a player's score (``score_2``): where a refusal about that
    player points."""
    return f"score_{player}"
