"""The event stream of a match: its seq at once, then every accepted action's seq."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.db import connections
from django.test import AsyncClient

from marquoir.keepers.pickomino.keeper import parse_request as parse_action
from marquoir.tables import live, services

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
