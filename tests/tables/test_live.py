"""The event stream of a match: its seq at once, then every accepted action's seq."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Coroutine, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.db import connections
from django.http import HttpResponseBase
from django.test import AsyncClient, Client

from marquoir.keepers.pickomino.keeper import KEEPER
from marquoir.tables import live, services
from marquoir.tables.actions import ActionRequest
from marquoir.tables.actions import parse_action as parse_request
from marquoir.tables.stream import stream_app
from tests.asgi_scope import http_scope


def parse_action(body: object) -> ActionRequest:
    """The core's parser, for a Pickomino match (a game of the core's tests)."""
    return parse_request(body, KEEPER)


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


@pytest.fixture
def from_another_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turns recorded as another server process records them: no nudge reaches this process's
    hub, which hears of them only by watching the database (LISTEN, or its poll)."""
    monkeypatch.setattr(live, "nudge_after_commit", lambda match_id, seq: None)


sqlite_only = pytest.mark.skipif(live.uses_postgres(), reason="on PostgreSQL the news comes by LISTEN, not by polling")


@dataclass
class Poll:
    """One of the hub's polls: the matches it would read, and whether it read them."""

    match_ids: list[str]
    read: bool


@pytest.fixture
def polls(monkeypatch: pytest.MonkeyPatch) -> list[Poll]:
    """Every poll of the hubs, as it happens."""
    seen: list[Poll] = []
    real = live._read_seqs_if_changed

    def recorded(match_ids: list[str], mark: object | None) -> live.Polled:
        answer = real(match_ids, mark)
        seen.append(Poll(sorted(match_ids), answer.seqs is not None))
        return answer

    monkeypatch.setattr(live, "_read_seqs_if_changed", recorded)
    return seen


async def polled(polls: list[Poll], count: int) -> list[Poll]:
    """The next ``count`` polls, however long the machine takes to make them."""
    start = len(polls)
    while len(polls) < start + count:
        await asyncio.sleep(live.POLL_SECONDS)
    return polls[start : start + count]


@pytest.mark.django_db(transaction=True)
def test_a_turn_recorded_by_another_server_process_reaches_the_stream(from_another_process: None):
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])

    async def watch() -> list[int]:
        client = AsgiStream(f"/api/v1/matches/{match.id}/events")
        serving = asyncio.create_task(client.run())
        await client.wait_for_seqs(1)
        await sync_to_async(bust)(match.id)
        seqs = await client.wait_for_seqs(2)
        client.hung_up.set()
        await asyncio.wait_for(serving, 5)
        return seqs

    assert run(watch()) == [0, 1]


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_one_poll_asks_for_every_watched_match_at_once_and_reads_them_only_after_a_commit(
    polls: list[Poll], from_another_process: None
):
    matches = [services.match_create(game="pickomino", players=["Ada", "Ben"])[0].id for _ in range(3)]

    async def watch() -> tuple[list[Poll], list[Poll], list[int]]:
        clients = [AsgiStream(f"/api/v1/matches/{match_id}/events") for match_id in matches for _phone in range(2)]
        serving = [asyncio.create_task(client.run()) for client in clients]
        await asyncio.gather(*(client.wait_for_seqs(1) for client in clients))
        await polled(polls, 1)  # the first poll of the hub reads: it has seen nothing yet
        quiet = await polled(polls, 5)
        await sync_to_async(bust)(matches[0])
        heard = await clients[0].wait_for_seqs(2)
        after = [poll for poll in polls if poll.read][-1:]
        for client in clients:
            client.hung_up.set()
        await asyncio.wait_for(asyncio.gather(*serving), 5)
        return quiet, after, heard

    quiet, after, heard = run(watch())
    assert [poll.match_ids for poll in quiet] == [sorted(matches)] * 5  # one question for six streams
    assert not any(poll.read for poll in quiet)  # nothing committed: no seq read
    assert [poll.match_ids for poll in after] == [sorted(matches)]
    assert heard == [0, 1]


@sqlite_only
def test_with_nobody_watching_the_hub_asks_the_database_nothing(polls: list[Poll]):
    async def idle() -> None:
        hub = live.Hub()
        hub.start()
        assert hub.task is not None
        await asyncio.sleep(live.POLL_SECONDS * 10)
        hub.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await hub.task

    run(idle())
    assert polls == []


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


# Headers that say what an answer holds, not the site's policy: a page and the stream differ
# in these by right. Every other header of either must be on the other, with the same value.
ANSWERS_OWN_HEADERS = {
    "content-type",  # a page is HTML or JSON, the stream text/event-stream
    "content-length",  # a page's length is known; the stream runs until the phone hangs up
    "cache-control",  # the stream's "no-cache, no-transform": no proxy holds or rewrites events
    "x-accel-buffering",  # the stream's own: a proxy (nginx) passes each event on as it comes
    "content-language",  # LocaleMiddleware's language of a page's words; an event holds numbers only
    "vary",  # what a page's words depend on (Accept-Language, Cookie); a seq depends on neither
    "set-cookie",  # the CSRF cookie of a page's forms; the stream has no form
}


def policy_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` (any case) without those an answer has by its content."""
    return {name.lower(): value for name, value in headers.items() if name.lower() not in ANSWERS_OWN_HEADERS}


async def stream_headers(path: str, **headers: str) -> dict[str, str]:
    """The headers ``stream_app`` starts a match's stream with (it is closed once they came)."""
    client = AsgiStream(path, **headers)
    serving = asyncio.create_task(client.run())
    await client.wait_for_seqs(1)
    client.hung_up.set()
    await asyncio.wait_for(serving, 5)
    assert client.status == 200
    return client.headers


@pytest.mark.parametrize("secure", [False, True], ids=["http", "https-behind-the-proxy"])
@pytest.mark.parametrize("page", ["table", "api"])
@pytest.mark.django_db(transaction=True)
def test_the_stream_carries_every_header_of_the_sites_policy_that_a_page_carries(
    settings: Any, page: str, secure: bool
) -> None:
    """Before: the stream app listed five security headers of its own, and had lost
    Permissions-Policy when the pages gained it."""
    if secure:
        settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        settings.SECURE_HSTS_SECONDS = 31536000
    forwarded = {"x_forwarded_proto": "https"} if secure else {}
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    address = {"table": f"/en/tables/{match.id}/", "api": f"/api/v1/matches/{match.id}"}[page]

    answer = Client().get(address, headers={name.replace("_", "-"): value for name, value in forwarded.items()})
    stream = run(stream_headers(f"/api/v1/matches/{match.id}/events", **forwarded))

    assert answer.status_code == 200
    assert policy_headers(stream) == policy_headers(answer.headers)
    assert "permissions-policy" in policy_headers(stream)
    assert ("strict-transport-security" in policy_headers(stream)) is secure


# Django's door goes through LocaleMiddleware, which says the language of the answer's words
# (the events have none) and that it varies with Accept-Language; the rest must be the same.
LOCALE_HEADERS = {"content-language", "vary"}


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
    django = {name.lower(): value for name, value in response.items() if name.lower() not in LOCALE_HEADERS}
    assert headers == django


@pytest.mark.parametrize("method", ["POST", "OPTIONS", "DELETE"])
@pytest.mark.django_db(transaction=True)
def test_both_doors_of_the_stream_refuse_a_method_alike(method: str):
    path = "/api/v1/matches/3t8dZ1VZ8ZXiazvWD4W5DA/events"

    async def both() -> tuple[AsgiStream, HttpResponseBase]:
        client = AsgiStream(path, method, accept_language="fr")
        await asyncio.wait_for(client.run(), 5)
        response = await AsyncClient().generic(method, path, headers={"accept-language": "fr"})
        return client, response

    ours, django = run(both())
    assert ours.status == django.status_code
    assert ours.body == django.content  # type: ignore[attr-defined]
    assert ours.headers["content-type"] == django["Content-Type"]
    assert policy_headers(ours.headers) == policy_headers(django.headers)  # Allow included


@pytest.mark.django_db(transaction=True)
def test_a_stream_refused_for_its_match_carries_the_policy_headers_of_the_apis_refusals():
    async def ask() -> AsgiStream:
        client = AsgiStream("/api/v1/matches/3t8dZ1VZ8ZXiazvWD4W5DA/events")
        await asyncio.wait_for(client.run(), 5)
        return client

    ours = run(ask())
    api = Client().get("/api/v1/matches/3t8dZ1VZ8ZXiazvWD4W5DA")
    assert ours.status == api.status_code == 404
    assert ours.headers["content-type"] == api["Content-Type"]
    assert int(ours.headers["content-length"]) == len(ours.body)
    assert policy_headers(ours.headers) == policy_headers(api.headers)


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
