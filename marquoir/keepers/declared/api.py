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

# A query past this is no round of any game: refused unread.
MAX_QUERY = 8_192


class PointsQuery(OutSchema):
    inputs: str | None = Field(None, description="the round's inputs as JSON, as in a round action")


class PointsOut(OutSchema):
    points: list[int] | None = Field(..., description="each player's points for the round, or null if refused")
    breakdown: list[dict[str, int]] | None
    code: str | None = Field(None, description="the refusal's code (invalid, rule, match_over)")
    reason: str | None = Field(
        None, description="what the refusal is about (missing_input: the round is not all filled in)"
    )
    message: str | None = Field(None, description="the refusal, in the request's language")


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
            kind = "turn" if state.game.by_turns else "round"
            inputs = keeper.form_action({**request.GET.dict(), "type": kind}).get("inputs", {})  # type: ignore[union-attr]
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
