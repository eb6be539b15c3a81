"""The ASGI entry point: pages in one trip to a long-lived thread, the live streams async."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core import signals
from django.core.asgi import get_asgi_application
from django.urls import URLResolver, get_resolver, resolve

from marquoir import asgi
from marquoir.bodies import BoundedBodies, Deadline
from marquoir.tables.stream import is_stream_path, match_stream
from tests.asgi_scope import http_scope
from tests.run_async import run_async

STATIC = Path(__file__).resolve().parent.parent / "marquoir" / "static"


async def call(
    app: Any, method: str, path: str, body: bytes = b"", **headers: str
) -> tuple[int, dict[str, str], bytes]:
    """One request through an ASGI application, as uvicorn would make it."""
    length = {"content_length": str(len(body))} if body else {}
    scope = http_scope(path, method, **length, **headers)
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

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        status, _headers, body = run_async(call(asgi.application, "GET", "/healthz"))
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert status == 200
    assert json.loads(body) == {"status": "ok"}
    assert set(threads) == {"request_started", "request_finished"}
    assert len(set(threads.values())) == 1, threads
    assert threads["request_started"].startswith("WSGI"), threads  # a2wsgi's pool


def test_the_entry_point_sends_exactly_the_stream_addresses_to_the_stream_app():
    for path in ["/api/v1/matches/abc/events", "/api/v1/matches/3t8dZ1VZ8ZXiazvWD4W5DA/events"]:
        assert is_stream_path(path), path
        assert resolve(path).func is match_stream  # the same address for Django
    for path in [
        "/healthz",
        "/en/",
        "/fr/jeux/pickomino/",
        "/api/v1/matches/abc",
        "/api/v1/matches",
        "/api/v1/matches/abc/events/",
        "/api/v1/matches/a/b/events",
        "/nope",
    ]:
        assert not is_stream_path(path), path


def test_every_async_view_of_the_site_is_a_stream_address():
    """The pages go to Django's WSGI handler, which runs views synchronously: an async view
    anywhere but at the stream's address would be served a thread per request."""
    found = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif iscoroutinefunction(pattern.callback):
                found.append(prefix + str(pattern.pattern))

    walk(get_resolver().url_patterns, "/")
    assert found == ["/api/v1/matches/<str:match_id>/events"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/healthz", "/en/", "/fr/jeux/pickomino/", "/nope", "/api/v1/matches/nope"])
def test_the_pages_answer_as_djangos_own_asgi_handler_does(path):
    async def both() -> tuple[Any, Any]:
        return await call(asgi.application, "GET", path), await call(get_asgi_application(), "GET", path)

    ours, django = run_async(both())
    assert ours[0] == django[0]
    assert set(ours[1]) - {"content-length"} == set(django[1]) - {"content-length"}
    assert ours[1]["content-security-policy"] == django[1]["content-security-policy"]
    if path in {"/healthz", "/api/v1/matches/nope"}:
        assert ours[2] == django[2]


@pytest.mark.django_db(transaction=True)
def test_a_post_with_a_json_body_reaches_the_api():
    body = json.dumps({"game": "pickomino", "players": ["Ada", "Ben"]}).encode()
    status, _headers, answer = run_async(
        call(asgi.application, "POST", "/api/v1/matches", body, content_type="application/json")
    )
    assert status == 201
    assert json.loads(answer)["state"]["players"][1]["name"] == "Ben"


@pytest.mark.django_db(transaction=True)  # request_finished looks at the thread's connection
def test_a_static_file_streams_out_whole():
    status, headers, body = run_async(call(asgi.application, "GET", "/static/js/live.js"))
    assert status == 200
    assert headers["content-type"].startswith("text/javascript")
    assert body == (STATIC / "js" / "live.js").read_bytes()


def test_every_page_and_api_body_is_read_by_the_bounded_reader_before_a_thread():
    assert isinstance(asgi.pages, BoundedBodies)
    assert asgi.pages.app is asgi.threaded_pages
    assert asgi.pages.limit == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert asgi.pages.deadline == Deadline(
        settings.MARQUOIR_BODY_GRACE_SECONDS, settings.MARQUOIR_BODY_MIN_BYTES_PER_SECOND
    )


def test_a_declared_length_over_the_limit_never_reaches_a_thread():
    started: list[str] = []

    def count(**_kwargs: Any) -> None:
        started.append(threading.current_thread().name)

    signals.request_started.connect(count)
    try:
        status, headers, body = run_async(
            call(asgi.application, "POST", "/api/v1/matches", content_length=str(10**9), accept_language="fr")
        )
    finally:
        signals.request_started.disconnect(count)
    assert status == 413
    assert headers["connection"] == "close"
    assert json.loads(body)["error"]["code"] == "too_large"
    assert json.loads(body)["error"]["message"].startswith("Le corps de la requête est trop gros")
    assert started == []  # Django never saw it
