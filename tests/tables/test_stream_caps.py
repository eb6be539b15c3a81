"""Open event streams are capped per client address and per process, below the process's
descriptor limit; a refused page polls instead; the stream door answers plain HTTP as the
pages do when Marquoir is behind TLS."""

from __future__ import annotations

import asyncio
import json
import resource
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import AsyncClient

from marquoir.tables import live, services
from marquoir.tables.live import stream_slots
from marquoir.tables.stream import STREAM_RETRY_AFTER_SECONDS
from tests.run_async import run_async

from ..real_server import HOST, migrated_database, raise_own_descriptor_limit, request, serving
from .test_live import AsgiStream, next_event, run

STREAMS_FROM_ONE_ADDRESS = 5_000
USUAL_DESCRIPTOR_LIMIT = 1_024  # ulimit -n on most systems, where ~2,000 streams stopped the server


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return migrated_database(tmp_path_factory.mktemp("streams"))


class RawStream:
    """One stream asked for on a socket of its own: its status, and the connection kept
    open while it streams."""

    def __init__(self, status: int, headers: dict[str, str], reader: asyncio.StreamReader, writer: Any) -> None:
        self.status, self.headers, self.reader, self.writer = status, headers, reader, writer

    @classmethod
    async def open(cls, port: int, path: str, **headers: str) -> RawStream:
        reader, writer = await asyncio.open_connection(HOST, port)
        lines = "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in headers.items())
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{lines}\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        answer = {
            name.strip().lower(): value.strip()
            for name, _colon, value in (line.partition(":") for line in header_lines if line)
        }
        return cls(int(status_line.split()[1]), answer, reader, writer)

    async def refusal(self) -> dict[str, Any]:
        """The refusal's body; the server then closes the connection by itself."""
        body = await asyncio.wait_for(self.reader.read(), 30)  # to the end: the server closed it
        error: dict[str, Any] = json.loads(body)["error"]
        return error

    async def next_seq(self) -> int:
        while True:
            line = await asyncio.wait_for(self.reader.readline(), 30)
            if line.startswith(b"data: "):
                seq: int = json.loads(line[6:])["seq"]
                return seq

    def close(self) -> None:
        self.writer.close()


async def open_many(port: int, path: str, count: int, **headers: Any) -> list[RawStream]:
    """``count`` streams, opened a few hundred at a time as a client with many sockets would."""
    opened: list[RawStream] = []
    for start in range(0, count, 250):
        batch = range(start, min(count, start + 250))
        opened += await asyncio.gather(
            *(
                RawStream.open(port, path, **{k: (v(n) if callable(v) else v) for k, v in headers.items()})
                for n in batch
            )
        )
    return opened


def test_healthz_and_turns_answer_with_5000_streams_open_from_one_address(database: Path, tmp_path: Path) -> None:
    """Before: one client opened 4,000 streams, and past ~2,000 (1,024 descriptors a process)
    the server refused every connection, /healthz included."""
    # This process holds every one of them: a machine whose hard limit is lower gets as many
    # as it allows, still well past the server's own limit, where the server used to stop.
    streams = min(STREAMS_FROM_ONE_ADDRESS, raise_own_descriptor_limit(STREAMS_FROM_ONE_ADDRESS + 500) - 500)
    if streams < 2 * USUAL_DESCRIPTOR_LIMIT:
        pytest.skip(f"this machine allows {streams + 500} open files to a process: too few to show it")
    cap = 50  # the default is 200: lower, so that the test stays quick
    with serving(
        database, tmp_path / "server.log", descriptors=USUAL_DESCRIPTOR_LIMIT, MARQUOIR_STREAMS_PER_ADDRESS=str(cap)
    ) as port:
        status, _headers, body = request(
            port, "POST", "/api/v1/matches", {"game": "pickomino", "players": ["Ada", "Ben"]}
        )
        assert status == 201
        created = json.loads(body)
        path = f"/api/v1/matches/{created['state']['id']}/events"

        async def scenario() -> tuple[list[RawStream], list[dict[str, Any]], list[int]]:
            opened = await open_many(port, path, streams, accept_language="fr")
            refused = [stream for stream in opened if stream.status != 200]
            errors = await asyncio.gather(*(stream.refusal() for stream in refused))
            open_ = [stream for stream in opened if stream.status == 200]
            await asyncio.gather(*(stream.next_seq() for stream in open_))  # each got its seq now
            # The server still answers, a turn is recorded and every open stream hears of it.
            assert (await asyncio.to_thread(request, port, "GET", "/healthz"))[0] == 200
            turn = await asyncio.to_thread(
                request,
                port,
                "POST",
                f"/api/v1/matches/{created['state']['id']}/actions",
                {"type": "bust"},
                {"Authorization": f"Bearer {created['edit_token']}"},
            )
            assert turn[0] == 200, turn
            seqs = await asyncio.gather(*(stream.next_seq() for stream in open_))
            for stream in opened:
                stream.close()
            return opened, errors, seqs

        opened, errors, seqs = run_async(scenario())
    statuses = [stream.status for stream in opened]
    assert statuses.count(200) == cap
    assert statuses.count(429) == streams - cap
    assert seqs == [1] * cap
    refused = next(stream for stream in opened if stream.status == 429)
    assert refused.headers["retry-after"] == str(STREAM_RETRY_AFTER_SECONDS)
    assert refused.headers["connection"] == "close"
    assert {error["code"] for error in errors} == {"rate_limited"}
    assert errors[0]["message"].startswith("Trop de pages")


def test_the_process_cap_stays_below_the_descriptor_limit(database: Path, tmp_path: Path) -> None:
    """Streams from many addresses (behind our proxy) stop at the descriptor limit less the
    reserve, and the server keeps what it needs to answer everything else."""
    descriptors, reserved = 400, 256
    with serving(
        database,
        tmp_path / "server.log",
        descriptors=descriptors,
        MARQUOIR_BEHIND_PROXY="1",
        MARQUOIR_RESERVED_DESCRIPTORS=str(reserved),
    ) as port:
        status, _headers, body = request(port, "POST", "/api/v1/matches", {"game": "sheet", "players": ["Ada", "Ben"]})
        assert status == 201
        path = f"/api/v1/matches/{json.loads(body)['state']['id']}/events"

        async def scenario() -> list[RawStream]:
            streams = await open_many(port, path, 200, x_forwarded_for=lambda n: f"10.0.{n // 200}.{n % 200 + 1}")
            await asyncio.gather(*(stream.refusal() for stream in streams if stream.status != 200))
            assert (await asyncio.to_thread(request, port, "GET", "/healthz"))[0] == 200
            for stream in streams:
                stream.close()
            return streams

        statuses = [stream.status for stream in run_async(scenario())]
    assert statuses.count(200) == descriptors - reserved
    assert statuses.count(503) == 200 - (descriptors - reserved)


# --- in the process -----------------------------------------------------------------------


@pytest.fixture
def no_stream_left_open() -> Iterator[None]:
    yield
    assert stream_slots.total == 0
    assert not stream_slots.by_address


@pytest.mark.django_db(transaction=True)
def test_both_doors_refuse_a_stream_past_the_addresss_cap_alike(settings: Any, no_stream_left_open: None) -> None:
    settings.MARQUOIR_STREAMS_PER_ADDRESS = 0
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    path = f"/api/v1/matches/{match.id}/events"

    async def both() -> tuple[AsgiStream, Any]:
        client = AsgiStream(path, accept_language="fr")
        await asyncio.wait_for(client.run(), 5)
        django = await AsyncClient().get(path, headers={"accept-language": "fr"})
        return client, django

    ours, django = run(both())
    assert ours.status == django.status_code == 429
    assert ours.headers["retry-after"] == django["Retry-After"] == str(STREAM_RETRY_AFTER_SECONDS)
    assert json.loads(ours.body) == json.loads(django.content)
    assert json.loads(ours.body)["error"]["code"] == "rate_limited"


@pytest.mark.django_db(transaction=True)
def test_a_stream_gives_its_slot_back_when_it_ends_through_either_door(no_stream_left_open: None) -> None:
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    path = f"/api/v1/matches/{match.id}/events"

    async def open_then_close() -> tuple[int, int]:
        client = AsgiStream(path)
        serving = asyncio.create_task(client.run())
        await client.wait_for_seqs(1)
        response = await AsyncClient().get(path)
        chunks = aiter(response.streaming_content)  # type: ignore[attr-defined]
        await asyncio.wait_for(next_event(chunks), 5)
        both_open = stream_slots.total
        client.hung_up.set()
        await serving
        await chunks.aclose()
        unknown = AsgiStream("/api/v1/matches/nope/events")  # refused after its slot was taken
        await unknown.run()
        return both_open, unknown.status

    assert run(open_then_close()) == (2, 404)


def test_the_stream_counts_the_client_address_as_the_rate_limit_does(settings: Any) -> None:
    """Behind our proxies (two here), the address the outermost one saw, not what the client
    wrote before it in X-Forwarded-For."""
    settings.MARQUOIR_BEHIND_PROXY = True
    settings.MARQUOIR_PROXY_HOPS = 2
    seen: list[str] = []
    real_take = stream_slots.take

    def take(address: str) -> str | None:
        seen.append(address)
        return "address"  # refused: nothing else to set up

    stream_slots.take = take  # type: ignore[method-assign]
    try:
        client = AsgiStream("/api/v1/matches/x/events", x_forwarded_for="6.6.6.6, 203.0.113.7, 10.0.0.2")
        run(client.run())
    finally:
        stream_slots.take = real_take  # type: ignore[method-assign]
    assert seen == ["203.0.113.7"]
    assert client.status == 429


def test_the_process_cap_is_below_the_descriptor_limit_less_the_reserve(settings: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (1024, 4096))
    settings.MARQUOIR_RESERVED_DESCRIPTORS = 256
    settings.MARQUOIR_STREAMS_PER_PROCESS = 10_000
    assert live.StreamSlots.process_cap() == 768
    settings.MARQUOIR_STREAMS_PER_PROCESS = 100
    assert live.StreamSlots.process_cap() == 100


# --- MARQUOIR_HTTPS=1: the stream door answers plain HTTP as the pages do ------------------


@pytest.mark.django_db(transaction=True)
def test_with_https_a_plain_http_stream_is_redirected_as_the_pages_are(settings: Any) -> None:
    """Before: the stream app bypassed SecurityMiddleware and streamed over plain HTTP."""
    settings.SECURE_SSL_REDIRECT = True
    path = "/api/v1/matches/3t8dZ1VZ8ZXiazvWD4W5DA/events"

    async def both() -> tuple[AsgiStream, Any]:
        client = AsgiStream(path)
        await asyncio.wait_for(client.run(), 5)
        return client, await AsyncClient().get(path)

    ours, django = run(both())
    assert ours.status == django.status_code == 301
    assert ours.headers["location"] == django["Location"] == f"https://testserver{path}"
    assert ours.headers["x-content-type-options"] == "nosniff"


@pytest.mark.django_db(transaction=True)
def test_behind_the_proxy_an_https_stream_is_served_with_hsts_as_the_pages_are(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    path = f"/api/v1/matches/{match.id}/events"

    async def both() -> tuple[AsgiStream, Any]:
        client = AsgiStream(path, x_forwarded_proto="https")
        serving = asyncio.create_task(client.run())
        await client.wait_for_seqs(1)
        client.hung_up.set()
        await serving
        response = await AsyncClient().get(path, headers={"x-forwarded-proto": "https"})
        chunks = aiter(response.streaming_content)  # type: ignore[attr-defined]
        await asyncio.wait_for(next_event(chunks), 5)
        await chunks.aclose()
        return client, response

    ours, django = run(both())
    assert ours.status == django.status_code == 200
    assert ours.headers["strict-transport-security"] == django["Strict-Transport-Security"]
    assert ours.headers["strict-transport-security"].startswith("max-age=31536000")
