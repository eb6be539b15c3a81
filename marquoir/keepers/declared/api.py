"""A declared game's own endpoint: what a round would score, before it is recorded.

``GET /api/v1/matches/{id}/points?inputs=<the round's inputs, as JSON>`` (or the round
form's own fields, as the table screen sends them while the keeper types) answers each
player's points for that round, or the refusal the round would get. Nothing is written;
no token is needed (it reads the match as a watch link does).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Field

from marquoir.games.declared.engine import score_round
from marquoir.rules import INVALID, RuleError
from marquoir.tables.kit import (
    GameEndpoint,
    Match,
    OutSchema,
    ServiceError,
    answer,
    error_response,
    keeper_for,
    match_view,
    message_for,
)

from .actions import field_name, form_seats

# A query past this is no round of any game: refused unread.
MAX_QUERY = 8_192


class PointsQuery(OutSchema):
    inputs: str | None = Field(None, description="the round's inputs as JSON, as in a round action")
    partial: bool = Field(
        False,
        description="extension: with the round form's fields, a number left empty counts as 0 (its least, if more) "
        "while the others are typed: each player's points so far (`partial` true in the answer); a round that "
        "would be refused so is answered as not all filled in",
    )


class PointsOut(OutSchema):
    points: list[int] | None = Field(..., description="each player's points for the round, or null if refused")
    breakdown: list[dict[str, int]] | None
    code: str | None = Field(None, description="the refusal's code (invalid, rule, match_over)")
    reason: str | None = Field(
        None, description="what the refusal is about (missing_input: the round is not all filled in)"
    )
    message: str | None = Field(None, description="the refusal, in the request's language")
    partial: bool = Field(False, description="extension: the points count numbers left empty as 0 (asked with partial)")


def match_points(request: HttpRequest, match: Match) -> HttpResponse:
    keeper = keeper_for(match.game)
    game = getattr(keeper, "game", None)
    try:
        if game is None or len(request.META.get("QUERY_STRING", "")) > MAX_QUERY:
            raise ServiceError(INVALID, "bad_query")
        view = match_view(match)
        state = view.engine.state
        raw = request.GET.get("inputs")
        inputs = _json(raw) if raw is not None else None
    except ServiceError as error:
        return error_response(request, error, None, keeper)
    try:
        if state.over:
            raise RuleError("match_over")
        if inputs is None:  # the round form's own fields, as the table screen sends them
            fields = {**request.GET.dict(), "type": "turn" if state.game.by_turns else "round"}
            try:
                inputs = keeper.form_action(fields).get("inputs", {})  # type: ignore[union-attr]
            except RuleError as refusal:
                if not (refusal.reason == "missing_input" and request.GET.get("partial") in ("1", "true")):
                    raise
                return _points_so_far(keeper, state, fields, refusal)
        scored = score_round(state, inputs)
    except RuleError as refusal:
        message = message_for(
            refusal.code, refusal.reason, refusal.params, view.players, keeper.wordings if keeper else None
        )
        return answer(
            PointsOut,
            {"points": None, "breakdown": None, "code": refusal.code, "reason": refusal.reason, "message": message},
        )
    return answer(PointsOut, {"points": list(scored.points), "breakdown": [dict(part) for part in scored.breakdown]})


def _points_so_far(keeper: Any, state: Any, fields: dict[str, str], missing: RuleError) -> HttpResponse:
    """The round form's points with each number left empty read as 0 (or its least, when a
    number): the running totals a table sees while it fills a score booklet in, category by
    category. A number typed out of bounds is refused as it would be; any other refusal (a
    rule that holds only once all is typed) answers the round as it is: not all filled in."""
    drawn = set(fields.get("drawn", "").split(","))
    seats = range(form_seats(fields))
    filled: set[str] = set()
    for spec in keeper.game.file.inputs:
        if spec.key not in drawn or not spec.per_side or spec.kind not in ("count", "points", "counts"):
            continue
        numbers = [(field_name(spec.key, seat, part.key), part.min) for part in spec.parts for seat in seats]
        numbers += [(field_name(spec.key, seat), spec.min) for seat in seats if spec.kind != "counts"]
        for name, least in numbers:
            if fields.get(name, "") == "":
                fields[name] = str(least if isinstance(least, int) and least > 0 else 0)
                filled.add(name)
    try:
        scored = score_round(state, keeper.form_action(fields).get("inputs", {}))
    except RuleError as refusal:
        about = refusal.params.get("input")
        seat = refusal.params.get("player")
        typed = isinstance(about, str) and isinstance(seat, int) and field_name(about, seat) not in filled
        raise refusal if refusal.code == INVALID and typed else missing from None
    points = {"points": list(scored.points), "breakdown": [dict(part) for part in scored.breakdown]}
    return answer(PointsOut, {**points, "partial": True})


def _json(raw: str) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise ServiceError(INVALID, "bad_json") from None


POINTS_ENDPOINT = GameEndpoint(
    path="/matches/{match_id}/points",
    view=match_points,
    response=PointsOut,
    query=PointsQuery,
    summary="What a round would score",
    description="Games declared as data: each player's points for these inputs, or the refusal the round "
    "would get; nothing is recorded.",
)
