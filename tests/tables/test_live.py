"""The event stream of a match: its seq at once, then every accepted action's seq."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.db import connections
from django.http import HttpResponseBase
from django.test import AsyncClient

from marquoir.keepers.pickomino.keeper import parse_request as parse_action
from marquoir.tables import live, services
from marquoir.tables.stream import stream_app
from tests.asgi_scope import http_scope

T = TypeVar("T")


async def next_event(chunks: AsyncIterator[bytes]) -> dict[str, object]:
    """The next ``state`` event's data, skipping the retry hint and heartbeats."""
    async for chunk in chunks:
        text = chunk.decode()
        for line in text.splitlines():
            if line.startswith("data: "):
                data: dict[str, object] = json.loads(line[len("data: ") :])
                return data
    raise AssertionError("the stream ended")


@pytest.fixture(autouse=True)
def _close_the_async_threads_connections() -> Iterator[None]:
    """The async ORM works in asgiref's own thread; its connection would outlive the test
    (and keep PostgreSQL from dropping the test database)."""
    yield
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    live.close_reader_connection()


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a loop of its own thread: the browser tests' Playwright keeps a
    loop running in the main thread for the whole session."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def bust(match_id: str) -> None:
    services.match_act(match_id=match_id, request=parse_action({"type": "bust"}))


@pytest.mark.django_db(transaction=True)
def test_the_stream_sends_the_seq_now_then_after_each_action():
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])

    async def watch() -> list[dict[str, object]]:
        response = await AsyncClient().get(f"/api/v1/matches/{match.id}/events")
        assert response["Content-Type"] == "text/event-stream"
        chunks = aiter(response.streaming_content)  # type: ignore[attr-defined]
        seen = [await asyncio.wait_for(next_event(chunks), 5)]
        for _ in range(2):
            await sync_to_async(bust)(match.id)
            seen.append(await asyncio.wait_for(next_event(chunks), 5))
        await chunks.aclose()
        return seen

    assert run(watch()) == [{"seq": 0}, {"seq": 1}, {"seq": 2}]


@pytest.mark.django_db(transaction=True)
def test_the_stream_of_an_unknown_match_is_a_404():
    async def ask() -> int:
        response = await AsyncClient().get("/api/v1/matches/nope/events")
        return response.status_code

    assert run(ask()) == 404


def test_the_hub_hands_each_new_seq_to_every_subscriber_once():
    async def scenario() -> tuple[list[int], list[int]]:
        hub = live.Hub()
        hub.loop = asyncio.get_running_loop()
        with hub.subscription("m", 3) as first, hub.subscription("m", 3) as second:
            hub.publish("m", 3)  # not newer than what the pages show: nothing
            hub.publish("m", 4)
            hub.publish("m", 4)  # a repeat (LISTEN and polling may both see it): once only
            hub.publish("m", 5)
            return [first.get_nowait() for _ in range(first.qsize())], [
                second.get_nowait() for _ in range(second.qsize())
            ]

    assert run(scenario()) == ([4, 5], [4, 5])


def test_an_event_is_a_well_formed_server_sent_event():
    assert live.sse("state", {"seq": 7}, 7) == 'id: 7\nevent: state\ndata: {"seq": 7}\n\n'


@pytest.mark.django_db(transaction=True)
def test_a_stream_opened_after_a_turn_the_page_missed_starts_with_the_newer_seq():
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    bust(match.id)  # recorded after the page was drawn at seq 0, before its stream opened

    async def first_state() -> dict[str, object]:
        stream = live.match_events(match.id, 0)
        try:
            while True:
                chunk = await asyncio.wait_for(anext(stream), 5)
                if chunk.startswith("id:"):
                    data: dict[str, object] = json.loads(chunk.split("data: ", 1)[1])
                    return data
        finally:
            await stream.aclose()  # type: ignore[attr-defined]

    assert run(first_state()) == {"seq": 1}


class AsgiStream:
    """A client of ``stream_app``, as uvicorn drives it: the messages sent, and a switch to
    hang up."""

    def __init__(self, path: str, method: str = "GET", **headers: str) -> None:
        self.scope = http_scope(path, method, **headers)
        self.sent: list[dict[str, Any]] = []
        self.hung_up = asyncio.Event()
        self.news = asyncio.Event()
        self.asked = False

    async def receive(self) -> dict[str, Any]:
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.hung_up.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        self.news.set()

    async def run(self) -> None:
        await stream_app(self.scope, self.receive, self.send)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def headers(self) -> dict[str, str]:
        return {name.decode(): value.decode() for name, value in self.sent[0]["headers"]}

    @property
    def body(self) -> bytes:
        return b"".join(message.get("body", b"") for message in self.sent[1:])

    def seqs(self) -> list[int]:
        return [json.loads(line[6:])["seq"] for line in self.body.decode().splitlines() if line.startswith("data: ")]

    async def wait_for_seqs(self, count: int) -> list[int]:
        while len(self.seqs()) < count:
            self.news.clear()
            await asyncio.wait_for(self.news.wait(), 5)
        return self.seqs()


@pytest.mark.django_db(transaction=True)
def test_the_servers_stream_sends_each_seq_and_ends_when_the_phone_hangs_up():
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])

    async def watch() -> tuple[list[int], dict[str, str], bool]:
        client = AsgiStream(f"/api/v1/matches/{match.id}/events")
        serving = asyncio.create_task(client.run())
        await client.wait_for_seqs(1)
        for _ in range(2):
            await sync_to_async(bust)(match.id)
        seqs = await client.wait_for_seqs(3)
        client.hung_up.set()
        await asyncio.wait_for(serving, 5)  # returns once the phone has gone
        return seqs, client.headers, serving.done()

    seqs, headers, ended = run(watch())
    assert seqs == [0, 1, 2]
    assert ended
    assert headers["content-type"] == "text/event-stream"
    assert headers["cache-control"] == "no-cache, no-transform"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["content-security-policy"].startswith("default-src 'self'")


@pytest.mark.django_db(transaction=True)
def test_open_streams_hold_no_thread():
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])

    async def open_many() -> tuple[int, int]:
        await AsgiStream("/api/v1/matches/warm-up/events").run()  # the hub's thread, once
        before = threading.active_count()
        clients = [AsgiStream(f"/api/v1/matches/{match.id}/events") for _ in range(200)]
        serving = [asyncio.create_task(client.run()) for client in clients]
        await asyncio.gather(*(client.wait_for_seqs(1) for client in clients))
        during = threading.active_count()
        for client in clients:
            client.hung_up.set()
        await asyncio.wait_for(asyncio.gather(*serving), 10)
        return before, during

    before, during = run(open_many())
    assert during - before <= 1, (before, during)  # at most the hub's reading thread


@pytest.mark.django_db(transaction=True)
def test_the_servers_stream_refuses_as_the_api_does_in_the_phones_language():
    async def ask(path: str, method: str = "GET", **headers: str) -> AsgiStream:
        client = AsgiStream(path, method, **headers)
        await asyncio.wait_for(client.run(), 5)
        return client

    async def all_of_them() -> list[AsgiStream]:
        return [
            await ask("/api/v1/matches/nope/events", accept_language="fr"),
            await ask("/api/v1/matches/nope/events", "POST"),
            await ask("/api/v1/matches/nope/events", "OPTIONS"),
            await ask("/api/v1/matches/nope/events", host="evil.example"),
        ]

    unknown, posted, options, bad_host = run(all_of_them())
    assert unknown.status == 404
    assert json.loads(unknown.body)["error"] == {"code": "not_found", "message": "Aucune partie à cette adresse."}
    assert posted.status == 405
    assert posted.headers["allow"] == "GET"
    assert json.loads(posted.body)["error"]["code"] == "method_not_allowed"
    assert options.status == 204
    assert options.headers["allow"] == "GET, OPTIONS"
    assert bad_host.status == 400
    assert json.loads(bad_host.body)["error"]["code"] == "invalid"


@pytest.mark.django_db(transaction=True)
def test_both_doors_of_the_stream_answer_alike():
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])

    async def both() -> tuple[dict[str, str], list[int], HttpResponseBase, dict[str, object]]:
        client = AsgiStream(f"/api/v1/matches/{match.id}/events")
        serving = asyncio.create_task(client.run())
        seqs = await client.wait_for_seqs(1)
        client.hung_up.set()
        await serving
        response = await AsyncClient().get(f"/api/v1/matches/{match.id}/events")
        chunks = aiter(response.streaming_content)  # type: ignore[attr-defined]
        first = await asyncio.wait_for(next_event(chunks), 5)
        await chunks.aclose()
        return client.headers, seqs, response, first

    headers, seqs, response, first = run(both())
    assert [first["seq"]] == seqs
    for name in [
        "content-type",
        "cache-control",
        "x-accel-buffering",
        "content-security-policy",
        "x-content-type-options",
        "x-frame-options",
        "referrer-policy",
        "cross-origin-opener-policy",
    ]:
        assert response[name] == headers[name], name


def test_a_database_that_cannot_answer_gives_the_stream_a_500_in_the_contracts_shape(monkeypatch):
    def broken(match_ids: list[str]) -> dict[str, int]:
        raise OSError("the database is restarting")

    monkeypatch.setattr(live, "_read_seqs", broken)

    async def ask() -> AsgiStream:
        client = AsgiStream("/api/v1/matches/3t8dZ1VZ8ZXiazvWD4W5DA/events")
        await asyncio.wait_for(client.run(), 5)
        return client

    client = run(ask())
    assert client.status == 500
    assert json.loads(client.body)["error"]["code"] == "server_error"
