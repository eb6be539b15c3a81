"""Logs are JSON lines a machine can read, and never carry an edit token, a join key, or the id
of a match or a group (each a capability: watching, seeing)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any

import pytest
from django.test import AsyncClient, Client, RequestFactory
from django.urls import URLResolver, get_resolver
from django.utils import translation

from marquoir.logs import JsonFormatter, id_tag, loggable_path
from tests.tables.test_live import AsgiStream, run


def test_a_record_becomes_one_json_line_with_its_extra_fields():
    record = logging.LogRecord("marquoir.access", logging.INFO, __file__, 1, "GET %s", ("/en/",), None)
    record.status = 200
    line = JsonFormatter().format(record)
    entry = json.loads(line)
    assert "\n" not in line
    assert (entry["level"], entry["logger"], entry["message"], entry["status"]) == (
        "INFO",
        "marquoir.access",
        "GET /en/",
        200,
    )


@pytest.mark.django_db
def test_the_access_log_keeps_tokens_and_keys_out(client: Client, caplog: pytest.LogCaptureFixture):
    created = client.post("/api/v1/matches", {"game": "pickomino", "players": ["Ada", "Ben"]}, "application/json")
    match_id, token = created.json()["id"], created.json()["edit_token"]
    with caplog.at_level(logging.INFO, logger="marquoir.access"):
        client.post(
            f"/api/v1/matches/{match_id}/actions",
            {"type": "bust"},
            "application/json",
            headers={"authorization": f"Bearer {token}"},
        )
        client.post(f"/en/tables/{match_id}/join/", {"key": token})
        client.post(f"/en/tables/{match_id}/join/", {"key": f"wrong-{token}"})
    access = [record for record in caplog.records if record.name == "marquoir.access"]
    assert len(access) == 3
    assert all(token not in JsonFormatter().format(record) for record in access)
    assert access[0].path == f"/api/v1/matches/{id_tag(match_id)}/actions"  # type: ignore[attr-defined]


def formatted(caplog: pytest.LogCaptureFixture) -> str:
    """Every access-log line of the test, as the JSON formatter writes it."""
    return "\n".join(JsonFormatter().format(r) for r in caplog.records if r.name == "marquoir.access")


@pytest.mark.django_db
def test_the_access_log_holds_no_match_or_group_id(client: Client, caplog: pytest.LogCaptureFixture):
    created = client.post("/api/v1/matches", {"game": "pickomino", "players": ["Ada", "Ben"]}, "application/json")
    match_id = created.json()["id"]
    group = client.post("/api/v1/groups", {"name": "Club", "players": ["Ada", "Ben"]}, "application/json").json()
    group_id = group["id"]
    with caplog.at_level(logging.INFO, logger="marquoir.access"):
        for path in (
            f"/api/v1/matches/{match_id}",
            f"/api/v1/matches/{match_id}/claims?total=27",
            f"/en/tables/{match_id}/",
            f"/fr/tables/{match_id}/",
            f"/en/tables/{match_id}/card.svg",
            f"/api/v1/groups/{group_id}",
            f"/api/v1/groups/{group_id}/matches",
            f"/en/groups/{group_id}/",
            f"/fr/groups/{group_id}/stats/",
            f"/en/tables/{match_id}/no-such-page/",  # a 404: no route to say which part is the id
        ):
            client.get(path)
    lines = formatted(caplog)
    assert lines.count("\n") == 9
    assert match_id not in lines
    assert group_id not in lines
    # The same id gets the same tag on every line (in its message and its path field): a
    # match's requests can be followed.
    assert lines.count(id_tag(match_id)) == 6 * 2
    assert lines.count(id_tag(group_id)) == 4 * 2
    assert f"/en/tables/{id_tag(match_id)}/card.svg" in lines


def test_an_id_tag_is_short_and_cannot_be_checked_without_the_key(settings):
    match_id = "2x3yaSsnxk2rk-mKrljHaA"
    tag = id_tag(match_id)
    assert len(tag) == 9
    assert tag.startswith("~")
    assert tag[1:] not in hashlib.sha256(match_id.encode()).hexdigest()  # not a bare hash of the id
    settings.SECRET_KEY = "another-key-" + "0123456789" * 5
    assert id_tag(match_id) != tag
    assert id_tag("2x3yaSsnxk2rk-mKrljHaB") != id_tag(match_id)


def test_whoever_writes_the_access_log_writes_tags_the_live_streams_too(caplog: pytest.LogCaptureFixture):
    # marquoir.tables.stream logs its own line ("GET <path> 200", extra path) on this logger.
    match_id = "2x3yaSsnxk2rk-mKrljHaA"
    path = f"/api/v1/matches/{match_id}/events"
    with caplog.at_level(logging.INFO, logger="marquoir.access"):
        logging.getLogger("marquoir.access").info("%s %s %s", "GET", path, 200, extra={"path": path})
    [record] = [r for r in caplog.records if r.name == "marquoir.access"]
    assert match_id not in JsonFormatter().format(record)
    assert record.getMessage() == f"GET /api/v1/matches/{id_tag(match_id)}/events 200"


@pytest.mark.django_db(transaction=True)
def test_both_doors_of_the_stream_write_the_same_access_line(caplog: pytest.LogCaptureFixture):
    path = "/api/v1/matches/2x3yaSsnxk2rk-mKrljHaA/events"  # no such match: a 404 either way

    async def both() -> None:
        await asyncio.wait_for(AsgiStream(path).run(), 5)  # stream_app, the server's door
        await AsyncClient().get(path)  # Django's, through AccessLogMiddleware

    with caplog.at_level(logging.INFO, logger="marquoir.access"):
        run(both())
    ours, django = [r for r in caplog.records if r.name == "marquoir.access"]
    fields = ("method", "path", "status")
    assert [getattr(ours, name) for name in fields] == [getattr(django, name) for name in fields]
    assert [getattr(ours, name) for name in fields] == ["GET", loggable_path(path), 404]
    assert ours.getMessage() == django.getMessage()
    assert isinstance(ours.duration_ms, float)  # type: ignore[attr-defined]


def literal_segments(patterns: list[Any], prefix: str = "") -> set[str]:
    """The fixed parts of every route of ``patterns``, nested ones included."""
    found: set[str] = set()
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        found |= {part for part in route.split("/") if part and "<" not in part}
        if isinstance(pattern, URLResolver):
            found |= literal_segments(pattern.url_patterns, route)
    return found


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_fixed_part_of_an_address_is_taken_for_an_id(language: str):
    with translation.override(language):
        segments = literal_segments(get_resolver().url_patterns)
    assert {"tables", "api", "v1", "matches"} <= segments
    assert [part for part in segments if loggable_path(f"/{part}/") != f"/{part}/"] == []


def test_django_request_errors_name_the_path_without_its_ids(caplog: pytest.LogCaptureFixture):
    request = RequestFactory().post("/api/v1/matches/2x3yaSsnxk2rk-mKrljHaA/actions")
    with caplog.at_level(logging.ERROR, logger="django.request"):
        logging.getLogger("django.request").error("Internal Server Error: %s", request.path, extra={"request": request})
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert "2x3yaSsnxk2rk-mKrljHaA" not in JsonFormatter().format(record)


def test_the_access_log_holds_no_own_game_id_in_its_pages_nor_in_its_game_key():
    game_id = "k3gEabcdEFGH1234ijkl_-"
    for path in (
        f"/en/own-games/{game_id}/",
        f"/fr/jeux-maison/{game_id}/modifier/",
        f"/en/tables/new/own.{game_id}/",
        f"/en/groups/{'G' * 22}/new/own.{game_id}/",
        f"/api/v1/games/own.{game_id}.3",
        f"/api/v1/own-games/{game_id}/versions/2",
    ):
        logged = loggable_path(path)
        assert game_id not in logged, logged
        assert id_tag(game_id) in logged
    assert loggable_path(f"/api/v1/games/own.{game_id}.3") == f"/api/v1/games/own.{id_tag(game_id)}.3"
