"""The sheet's actions as the API and the pages send them: a round's scores, and the end.

The body is checked here for shape (the API's ``invalid``): ``scores`` a list of whole
numbers within ±100 000. How many scores a round needs is the engine's to check (it
knows the players). The stored payload is the normalised request, so the log folds back
into engine actions at any time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from marquoir.games.sheet import MAX_PLAYERS, MAX_SCORE, MIN_SCORE, End, Round, RuleError
from marquoir.rules import INVALID
from marquoir.rules.values import is_whole_number
from marquoir.tables.actions import shorten
from marquoir.tables.formatting import MINUS

ROUND, END = "round", "end"

# What a score field of the page may hold: a minus sign (ASCII or the true one), then ASCII
# digits only. ``[0-9]`` is a range of ASCII characters: ``²``, ``٣`` and ``１`` are not in it.
_FORM_SCORE = re.compile(f"([-{MINUS}]?)([0-9]+)")
# More digits than any score has: refused as out of range without reading a huge number.
_MAX_DIGITS = 9


def parse_payload(body: Mapping[str, Any]) -> dict[str, Any]:
    """The stored payload of a round or the end, or ``RuleError(invalid, reason)``.

    Reasons: ``bad_scores`` (not a list, or an item that is not a whole number: a bool or
    a float is refused, ``12.0`` too), ``score_range`` (beyond ±100 000), ``score_count``
    (more scores than a sheet has players; too few or too many for this match is the
    engine's refusal, with the same reason).
    """
    if body.get("type") == END:
        return {"type": END}
    scores = body.get("scores")
    if not isinstance(scores, list):
        raise RuleError(INVALID, "bad_scores", scores=shorten(scores))
    if len(scores) > MAX_PLAYERS:
        raise RuleError(INVALID, "score_count", count=len(scores), expected=None)
    for player, score in enumerate(scores):
        if not is_whole_number(score):
            raise RuleError(INVALID, "bad_scores", player=player, score=shorten(score))
    for player, score in enumerate(scores):
        if not MIN_SCORE <= score <= MAX_SCORE:
            raise RuleError(INVALID, "score_range", player=player, score=shorten(score))
    return {"type": ROUND, "scores": list(scores)}


def engine_action(payload: Mapping[str, Any]) -> Round | End:
    """The engine's action for a stored payload."""
    if payload["type"] == ROUND:
        return Round(tuple(payload["scores"]))
    return End()


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


def form_action(data: Mapping[str, Any]) -> dict[str, Any]:
    """The API-shaped body of a round or the end sent by the table screen's forms.

    The round form sends ``type=round`` and ``score_0`` … ``score_{n-1}``, one per player in
    seating order; ``minus_<i>`` (the field's "−" switch) makes that score negative.
    """
    kind = data.get("type")
    if kind != ROUND:
        return {"type": kind}
    scores: list[int] = []
    while f"score_{len(scores)}" in data and len(scores) < MAX_PLAYERS:
        player = len(scores)
        scores.append(form_score(data.get(f"score_{player}"), player, negative=bool(data.get(f"minus_{player}"))))
    return {"type": ROUND, "scores": scores}
