"""The ASGI entry point: synchronous requests in one trip to a long-lived thread, streams async."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from django.core import signals

from marquoir import asgi

STATIC = Path(__file__).resolve().parent.parent / "marquoir" / "static"


async def call(
    app: Any, method: str, path: str, body: bytes = b"", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    """One request through an ASGI application, as uvicorn would make it."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            *((name.replace("_", "-").lower().encode(), value.encode()) for name, value in headers.items()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    sent: list[dict[str, Any]] = []
    delivered = asyncio.Event()

    async def receive() -> dict[str, Any]:
        if not delivered.is_set():
            delivered.set()
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)  # the client stays connected
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await asyncio.wait_for(app(scope, receive, send), timeout=30)
    start = sent[0]
    answer_headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
    return start["status"], answer_headers, b"".join(message.get("body", b"") for message in sent[1:])


@pytest.mark.django_db(transaction=True)
def test_a_synchronous_request_runs_start_view_and_finish_in_one_long_lived_thread(monkeypatch):
    threads: dict[str, str] = {}

    def started(**_kwargs: Any) -> None:
        threads["request_started"] = threading.current_thread().name

    def finished(**_kwargs: Any) -> None:
        threads["request_finished"] = threading.current_thread().name

    real_get_response = asgi.sync_stack.get_response

    def get_response(request: Any) -> Any:
        threads["view"] = threading.current_thread().name
        return real_get_response(request)

    monkeypatch.setattr(asgi.sync_stack, "get_response", get_response)
    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        status, _headers, body = asyncio.run(call(asgi.application, "GET", "/healthz"))
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert status == 200
    assert json.loads(body) == {"status": "ok"}
    assert set(threads) == {"request_started", "view", "request_finished"}
    assert len(set(threads.values())) == 1, threads
    assert threads["view"].startswith("marquoir-sync")


def test_only_the_event_streams_go_to_djangos_async_handler():
    assert asgi.serves_async_view({"path": "/api/v1/matches/abc/events"})
    for path in ["/healthz", "/en/", "/fr/jeux/pickomino/", "/api/v1/matches/abc", "/api/v1/matches", "/nope"]:
        assert not asgi.serves_async_view({"path": path}), path


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/healthz", "/en/", "/fr/jeux/pickomino/", "/nope", "/api/v1/matches/nope"])
def test_the_synchronous_stack_answers_as_djangos_own_handler_does(path):
    async def both() -> tuple[Any, Any]:
        return await call(asgi.sync_stack, "GET", path), await call(asgi.django_handler, "GET", path)

    ours, django = asyncio.run(both())
    assert ours[0] == django[0]
    assert set(ours[1]) == set(django[1])
    assert ours[1]["content-security-policy"] == django[1]["content-security-policy"]
    if path in {"/healthz", "/api/v1/matches/nope"}:
        assert ours[2] == django[2]


@pytest.mark.django_db(transaction=True)
def test_a_post_with_a_json_body_reaches_the_api_through_the_synchronous_stack():
    body = json.dumps({"game": "pickomino", "players": ["Ada", "Ben"]}).encode()
    status, _headers, answer = asyncio.run(
        call(asgi.application, "POST", "/api/v1/matches", body, content_type="application/json")
    )
    assert status == 201
    assert json.loads(answer)["state"]["players"][1]["name"] == "Ben"


@pytest.mark.django_db(transaction=True)  # request_finished looks at the thread's connection
def test_a_static_file_streams_out_whole():
    status, headers, body = asyncio.run(call(asgi.application, "GET", "/static/js/live.js"))
    assert status == 200
    assert headers["content-type"].startswith("text/javascript")
    assert body == (STATIC / "js" / "live.js").read_bytes()
