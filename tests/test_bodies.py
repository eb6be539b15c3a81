"""Request bodies are read in the event loop, bounded in size and time, before a thread is
taken (marquoir.bodies): a slow client never holds a worker, an oversized body is refused
before it is read, and an upload never reaches the disk."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files import uploadhandler
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import resolve
from django.utils import translation

from marquoir import asgi
from marquoir.bodies import BoundedBodies, Budget, Deadline
from marquoir.groups.presenters import MAX_IMPORT_BYTES
from tests.asgi_scope import http_scope
from tests.run_async import run_async

from .real_server import ANSWER_TIMEOUT_S, HOST, migrated_database, request, serving

SLOW_CLIENTS = 32  # twice the 2 × 8 threads of `make serve`, against a server of 2 threads


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return migrated_database(tmp_path_factory.mktemp("bodies"))


@pytest.fixture(scope="module")
def server(database: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """Two threads for every page, and a short grace so that the slow clients' refusals come
    quickly."""
    log = tmp_path_factory.mktemp("bodies-server") / "server.log"
    with serving(database, log, MARQUOIR_SYNC_THREADS="2", MARQUOIR_BODY_GRACE_SECONDS="3") as port:
        yield port


class Trickle:
    """Connections that each send ``opening``, then ``drip`` once a second, as a slow
    client (or an attacker) would."""

    def __init__(self, port: int, count: int, opening: bytes, drip: bytes) -> None:
        self.sockets = [socket.create_connection((HOST, port), timeout=ANSWER_TIMEOUT_S) for _ in range(count)]
        for connection in self.sockets:
            connection.sendall(opening)
        self.drip = drip
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        while not self.stop.wait(1.0):
            for connection in self.sockets:
                with contextlib.suppress(OSError):  # answered and closed by the server
                    connection.sendall(self.drip)

    def answers(self) -> list[tuple[int, bytes]]:
        """Each connection's answer, once the server gives it."""
        found = []
        for connection in self.sockets:
            response = http.client.HTTPResponse(connection)
            response.begin()
            found.append((response.status, response.read()))
        return found

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for connection in self.sockets:
            connection.close()


def test_slow_body_connections_do_not_hold_the_thread_pool(server: int) -> None:
    """Before: 16 such connections against 8 threads, and /healthz timed out (10 s)."""
    opening = (
        b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\nAccept-Language: fr\r\n\r\n{"
    )
    slow = Trickle(server, SLOW_CLIENTS, opening, b" ")
    try:
        status, _headers, body = request(server, "GET", "/healthz")
        assert (status, json.loads(body)) == (200, {"status": "ok"})
        created = request(server, "POST", "/api/v1/matches", {"game": "pickomino", "players": ["Ada", "Ben"]})
        assert created[0] == 201
        # And the slow ones are told, in their language, once the grace is over.
        answers = slow.answers()
    finally:
        slow.close()
    assert {status for status, _body in answers} == {408}
    error = json.loads(answers[0][1])["error"]
    assert error["code"] == "request_timeout"
    assert "trop lentement" in error["message"]


def test_slow_header_connections_do_not_stop_healthz(server: int) -> None:
    """The server parses headers in its event loop: a client sending them a line a second
    holds a connection, never a thread."""
    slow = Trickle(server, SLOW_CLIENTS, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: 1\r\n")
    try:
        for _ in range(3):
            assert request(server, "GET", "/healthz")[0] == 200
        assert request(server, "POST", "/api/v1/matches", {"game": "pickomino", "players": ["Ada", "Ben"]})[0] == 201
    finally:
        slow.close()


def test_a_huge_request_head_is_refused_by_the_production_server(database: Path, tmp_path: Path) -> None:
    """uvicorn's default parser (httptools) took a 20 MB header into memory; the workers of
    `make serve` parse with h11, which stops at 16 KiB."""
    with serving(database, tmp_path / "server.log", production=True) as port:
        with socket.create_connection((HOST, port), timeout=ANSWER_TIMEOUT_S) as connection:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
            sent = 0
            with contextlib.suppress(OSError):  # the server stops listening and closes
                while sent < 20_000_000:
                    connection.sendall(b"a" * 65_536)
                    sent += 65_536
        assert sent < 20_000_000
        assert request(port, "GET", "/healthz")[0] == 200


def _answer_to_headers_alone(port: int, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send a request's headers and no body: what comes back comes before any body."""
    with socket.create_connection((HOST, port), timeout=ANSWER_TIMEOUT_S) as connection:
        connection.sendall(head)
        response = http.client.HTTPResponse(connection)
        response.begin()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_sent(server: int) -> None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    status, headers, body = _answer_to_headers_alone(
        server,
        b"POST /api/v1/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % (limit + 1),
    )
    assert status == 413
    assert headers["connection"] == "close"
    assert json.loads(body)["error"]["code"] == "too_large"
    assert str(limit) in json.loads(body)["error"]["message"]


def test_an_import_over_its_limit_is_refused_before_anything_is_read_in_the_pages_language(server: int) -> None:
    status, headers, body = _answer_to_headers_alone(
        server,
        b"POST /fr/groupes/importer/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 300000000\r\n\r\n",
    )
    assert status == 413
    assert headers["content-type"].startswith("text/html")
    page = body.decode()
    assert '<html lang="fr">' in page
    assert "Revenez en arrière" in page


# --- in the process: the reader's rules, one by one --------------------------------------


def scope(path: str, method: str = "POST", **headers: str) -> dict[str, Any]:
    return http_scope(path, method, **headers)


class BodyFeed:
    """Drives an ASGI application as a server would: hands out the body in the chunks
    given (waiting ``pause`` seconds before each), and keeps what is sent back."""

    def __init__(self, chunks: list[bytes], pause: float = 0.0) -> None:
        self.chunks = chunks
        self.pause = pause
        self.handed = 0
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        if self.handed < len(self.chunks):
            await asyncio.sleep(self.pause)
            self.handed += 1
            return {
                "type": "http.request",
                "body": self.chunks[self.handed - 1],
                "more_body": self.handed < len(self.chunks),
            }
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])

    @property
    def headers(self) -> dict[str, str]:
        return {name.decode(): value.decode() for name, value in self.sent[0]["headers"]}

    @property
    def body(self) -> bytes:
        return b"".join(message.get("body", b"") for message in self.sent[1:])


async def _never_called(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("a refused body must not reach the pages")


def test_a_chunked_body_past_the_limit_is_refused_as_soon_as_it_passes() -> None:
    reader = BoundedBodies(_never_called, limit=100_000, deadline=Deadline(10, 16_384), budget=Budget(10**9))
    client = BodyFeed([b"x" * 16_384] * 1000)  # 16 MB announced by no length
    run_async(reader(scope("/api/v1/matches", transfer_encoding="chunked"), client.receive, client.send))
    assert client.status == 413
    assert client.handed == 7  # 7 × 16 KiB is the first past 100,000 bytes: nothing read after
    assert json.loads(client.body)["error"]["code"] == "too_large"


@pytest.mark.parametrize(
    ("path", "headers", "expected"),
    [
        ("/fr/tables/new/sheet/", {}, "Revenez en arrière"),
        ("/en/tables/new/sheet/", {"accept_language": "fr"}, "Go back"),  # the address's own language
        ("/", {"accept_language": "fr-CA,fr;q=0.9"}, "Revenez en arrière"),
    ],
)
def test_a_trickling_body_gets_a_408_page_in_the_readers_language(
    path: str, headers: dict[str, str], expected: str
) -> None:
    reader = BoundedBodies(_never_called, limit=100_000, deadline=Deadline(0.3, 16_384), budget=Budget(10**9))
    client = BodyFeed([b"a", b"b", b"c", b"d"], pause=0.2)
    run_async(reader(scope(path, content_length="4", **headers), client.receive, client.send))
    assert client.status == 408
    assert client.headers["content-type"].startswith("text/html")
    assert expected in client.body.decode()


def test_a_trickling_api_body_gets_the_contracts_json_in_the_callers_language() -> None:
    reader = BoundedBodies(_never_called, limit=100_000, deadline=Deadline(0.3, 16_384), budget=Budget(10**9))
    client = BodyFeed([b"{", b"}"], pause=0.5)
    run_async(reader(scope("/api/v1/matches", content_length="2", accept_language="fr"), client.receive, client.send))
    assert client.status == 408
    error = json.loads(client.body)["error"]
    assert error["code"] == "request_timeout"
    assert error["message"].startswith("Le corps de la requête")


def test_a_body_at_a_real_networks_pace_is_never_cut() -> None:
    """32 KiB/s for 3 s after a 0.5 s grace: the minimum rate (16 KiB/s) is an average."""
    received: list[bytes] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        received.append((await receive())["body"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    reader = BoundedBodies(app, limit=200_000, deadline=Deadline(0.5, 16_384), budget=Budget(10**9))
    client = BodyFeed([b"x" * 3277] * 30, pause=0.1)
    run_async(reader(scope("/api/v1/matches", content_length=str(3277 * 30)), client.receive, client.send))
    assert client.status == 204
    assert received == [b"x" * 3277 * 30]


def test_the_bodies_held_at_once_stay_within_the_processs_budget() -> None:
    """Each body is bounded, and so are all of them together: the loop takes any number of
    connections at once, where the threads' pool used to be the bound."""
    budget = Budget(100_000)
    answered = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await answered.wait()  # the first request is still being served
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    reader = BoundedBodies(app, limit=100_000, deadline=Deadline(10, 16_384), budget=budget)

    async def scenario() -> tuple[BodyFeed, BodyFeed, BodyFeed, BodyFeed, int]:
        first = BodyFeed([b"x" * 60_000])
        serving = asyncio.create_task(
            reader(scope("/api/v1/matches", content_length="60000"), first.receive, first.send)
        )
        while budget.held < 60_000:
            await asyncio.sleep(0.01)
        declared = BodyFeed([b"x" * 60_000])  # refused on its declared length, nothing read
        await reader(
            scope("/api/v1/matches", content_length="60000", accept_language="fr"), declared.receive, declared.send
        )
        chunked = BodyFeed([b"x" * 20_000] * 3)  # refused once its bytes pass the budget
        await reader(scope("/en/tables/new/sheet/", transfer_encoding="chunked"), chunked.receive, chunked.send)
        answered.set()
        await serving
        after = BodyFeed([b"x" * 60_000])  # the first is done: room again
        await reader(scope("/api/v1/matches", content_length="60000"), after.receive, after.send)
        return first, declared, chunked, after, budget.held

    first, declared, chunked, after, held = run_async(scenario())
    assert (first.status, declared.status, chunked.status, after.status) == (204, 503, 503, 204)
    assert declared.handed == 0
    assert chunked.handed == 3  # 60,000 held + 3 × 20,000 is the first past 100,000
    assert declared.headers["retry-after"] == "5"
    error = json.loads(declared.body)["error"]
    assert error["code"] == "unavailable"
    assert error["message"].startswith("Le serveur reçoit déjà")
    assert "The server is busy" in chunked.body.decode()
    assert held == 0


@pytest.mark.django_db(transaction=True)
def test_a_chunked_json_body_reaches_the_api_whole() -> None:
    """A body sent without a length reaches Django with one (WSGI reads only that far)."""
    body = json.dumps({"game": "pickomino", "players": ["Ada", "Ben"]}).encode()
    client = BodyFeed([body[:10], body[10:30], body[30:]])
    request_scope = scope("/api/v1/matches", transfer_encoding="chunked", content_type="application/json")
    run_async(asyncio.wait_for(asgi.application(request_scope, client.receive, client.send), 30))
    assert client.status == 201, client.body
    assert json.loads(client.body)["state"]["players"][0]["name"] == "Ada"


def test_the_import_addresses_take_the_import_file_and_every_other_djangos_limit() -> None:
    imports = [path for path, limit in asgi.pages.larger_limits.items() if limit == settings.MARQUOIR_IMPORT_BODY_BYTES]
    assert sorted(imports) == ["/api/v1/groups/import", "/en/groups/import/", "/fr/groupes/importer/"]
    for path in imports:
        with translation.override("fr" if path.startswith("/fr/") else "en"):  # addresses are translated
            assert resolve(path).view_name in {"api-v1:import_group", "groups:import"}, path
    assert settings.MARQUOIR_IMPORT_BODY_BYTES > MAX_IMPORT_BYTES  # the file and its form
    assert asgi.pages.limit_for("/en/tables/new/sheet/") == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert asgi.pages.limit_for("/api/v1/matches") == settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert asgi.pages.budget.limit == settings.MARQUOIR_BODY_BUFFER_BYTES >= settings.MARQUOIR_IMPORT_BODY_BYTES


@pytest.mark.django_db
def test_the_import_page_keeps_an_upload_in_memory_and_never_writes_it_to_disk(monkeypatch: Any) -> None:
    """Before: a 300 MB upload reached /tmp before the page's 4 MiB check."""

    def no_disk(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("an upload was about to be written to disk")

    monkeypatch.setattr(uploadhandler, "TemporaryUploadedFile", no_disk)
    monkeypatch.setattr(uploadhandler.TemporaryFileUploadHandler, "new_file", no_disk)
    assert settings.FILE_UPLOAD_HANDLERS == ["django.core.files.uploadhandler.MemoryFileUploadHandler"]
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE == settings.MARQUOIR_IMPORT_BODY_BYTES
    too_large = b"[" + b" " * MAX_IMPORT_BYTES + b"]"  # past the page's limit, within the body's
    response = Client().post("/fr/groupes/importer/", {"file": SimpleUploadedFile("export.json", too_large)})
    # The page's own refusal, in its words (the file reached the view, from memory).
    assert response.status_code in (200, 422)
    assert "Ce fichier est trop gros" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "words"), [("/api/v1/groups/import", "Trop d’imports"), ("/fr/groupes/importer/", "Trop d’imports")]
)
def test_an_address_whose_import_budget_is_spent_is_refused_before_its_file_is_read(
    settings: Any, path: str, words: str
) -> None:
    from marquoir.groups.services import spend_import

    settings.GROUP_IMPORT_LIMIT = 1
    spend_import("127.0.0.1")  # its one import of the window, refused or not
    megabytes = BodyFeed([b"x" * 16_384] * 256)  # 4 MiB that must not be read

    run_async(
        asgi.application(
            scope(path, content_length=str(16_384 * 256), accept_language="fr"), megabytes.receive, megabytes.send
        )
    )

    assert megabytes.status == 429
    assert megabytes.handed == 0  # not one byte of the file was read
    assert int(megabytes.headers["retry-after"]) >= 1
    assert megabytes.headers["connection"] == "close"
    text = megabytes.body.decode()
    assert words in (json.loads(text)["error"]["message"] if path.startswith("/api/") else text)
    other = BodyFeed([b"{}"])
    run_async(
        asgi.application(scope(path, content_length="2") | {"client": ("203.0.113.7", 1)}, other.receive, other.send)
    )
    assert other.status != 429  # another address still has its budget: its file is read
