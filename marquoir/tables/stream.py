"""The server-sent-event stream of a match (async: it holds no thread while it waits)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from .api_errors import error_response
from .live import match_events, read_seq
from .services import ServiceError


@require_GET
async def match_stream(request: HttpRequest, match_id: str) -> HttpResponse | StreamingHttpResponse:
    """``text/event-stream`` of ``{"seq": N}`` events: now, then after every accepted action."""
    seq = await read_seq(match_id)
    if seq is None:
        return error_response(request, ServiceError("not_found"))
    response = StreamingHttpResponse(match_events(match_id, seq), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on as it comes
    return response
