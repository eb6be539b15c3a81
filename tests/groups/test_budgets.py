"""Costly reads and refused work are counted: a group's history is paged in the API as on
its page, its history, stats and exports are kept by the process until the group changes,
each client address has a budget of costly reads, and imports count before the file is
read (a refused 4 MiB file costs as much to read as a good one)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from marquoir.groups.models import Group, Play
from marquoir.tables.device import COOKIE_NAME
from tests.groups.owned import attach_owned

from .conftest import GROUPS, Made, api_json, finished_sheet
from .conftest import act as play

ELSEWHERE = "203.0.113.9"


def imported_plays(made: Made, count: int) -> None:
    """``count`` one-seat plays in ``made``'s group, written directly (quick to build)."""
    member = made.group.members.first()
    assert member is not None
    finished = finished_sheet()
    base = Play.objects.get(match=attach_owned(group=made.group, match_id=finished.id).match)
    Play.objects.bulk_create(
        Play(
            group=made.group,
            uuid=str(uuid.UUID(int=number, version=4)),
            game="sheet",
            game_name="Skyjo",
            seats=[member.pk],
            first=0,
            started_at=base.started_at,
            ended_at=base.ended_at,
            summary={**base.summary, "scores": [number], "ranks": [1], "winners": [0]},
            over=True,
        )
        for number in range(count)
    )


# --- the API's history, a page at a time


def test_the_apis_history_is_paged_like_the_page(made: Made, client: Client) -> None:
    imported_plays(made, 64)  # 65 with the attached match

    first = api_json(client, "get", f"{GROUPS}/{made.group.id}/matches").json()
    third = api_json(client, "get", f"{GROUPS}/{made.group.id}/matches?page=3").json()
    past = api_json(client, "get", f"{GROUPS}/{made.group.id}/matches?page=4").json()

    assert (len(first["matches"]), first["page"], first["pages"], first["total"]) == (30, 1, 3, 65)
    assert (len(third["matches"]), third["page"]) == (5, 3)
    assert (past["matches"], past["pages"]) == ([], 3)
    pages = [api_json(client, "get", f"{GROUPS}/{made.group.id}/matches?page={n}").json() for n in (1, 2, 3)]
    ids = [match["id"] for page in pages for match in page["matches"]]
    assert len(set(ids)) == 65  # every match once, newest first across pages


def test_a_bad_history_page_is_refused_with_the_contracts_error(made: Made, client: Client) -> None:
    for query in ("page=0", "page=-1", "page=x", "page=1e9", "page=99999999999"):
        response = api_json(client, "get", f"{GROUPS}/{made.group.id}/matches?{query}")
        assert response.status_code == 422, query
        assert response.json()["error"]["code"] == "invalid"


# --- kept by the process until the group changes


def test_a_second_export_costs_one_query_and_follows_a_change(made: Made, client: Client) -> None:
    match = finished_sheet(scores=(1, 2, 3))
    attach_owned(group=made.group, match_id=match.id)
    first = client.get(f"{GROUPS}/{made.group.id}/export").content

    with CaptureQueriesContext(connection) as queries:
        again = client.get(f"{GROUPS}/{made.group.id}/export").content
    assert again == first
    # The group's row (404 or not) and the fingerprint of everything the export depends on.
    assert len(queries) <= 2

    play(match, {"type": "undo"})  # the match moved on: the export must follow
    after = json.loads(client.get(f"{GROUPS}/{made.group.id}/export").content)
    assert after != json.loads(first)
    assert after["plays"][0]["marquoir"]["over"] is False


def test_the_history_page_is_kept_and_follows_a_rename(made: Made, client: Client) -> None:
    attach_owned(group=made.group, match_id=finished_sheet().id)
    page = reverse("groups:group", args=[made.group.id])
    assert "Ada" in client.get(page).content.decode()

    api_json(
        client,
        "patch",
        f"{GROUPS}/{made.group.id}/players/{made.group.members.get(name='Ada').pk}",
        {"name": "Adèle"},
        token=made.key,
    )

    html = client.get(page).content.decode()
    assert "Adèle" in html
    assert ">Ada<" not in html


# --- a budget of costly reads per address


@override_settings(GROUP_READ_LIMIT=3)
def test_costly_reads_beyond_the_budget_are_429_in_the_readers_language(made: Made, client: Client) -> None:
    history, stats = f"{GROUPS}/{made.group.id}/matches", f"{GROUPS}/{made.group.id}/stats"
    stats_page = reverse("groups:stats", args=[made.group.id])  # in English
    assert [client.get(path).status_code for path in (history, stats, history)] == [200, 200, 200]

    refused = client.get(history, headers={"Accept-Language": "fr"})
    page = client.get(stats_page)

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused.json()["error"]["message"].startswith("Trop de lectures de groupes depuis ici")
    assert page.status_code == 429
    assert "Too many reads of groups from here" in page.content.decode()
    # Another address has its own budget; reading the group itself is not a costly read.
    assert client.get(stats, REMOTE_ADDR=ELSEWHERE).status_code == 200
    assert client.get(f"{GROUPS}/{made.group.id}").status_code == 200


@override_settings(GROUP_READ_LIMIT=1)
def test_the_group_page_counts_as_a_costly_read(made: Made, client: Client) -> None:
    page = reverse("groups:group", args=[made.group.id])

    assert [client.get(page).status_code, client.get(page).status_code] == [200, 429]


@override_settings(GROUP_EXPORT_LIMIT=2, GROUP_READ_LIMIT=1)
def test_exports_have_a_budget_of_their_own(made: Made, client: Client) -> None:
    page_export = reverse("groups:export", args=[made.group.id])
    api_export = f"{GROUPS}/{made.group.id}/export"

    statuses = [client.get(page_export).status_code, client.get(api_export).status_code]
    refused = client.get(api_export, headers={"Accept-Language": "fr"})
    refused_page = client.get(page_export)

    assert statuses == [200, 200]
    assert refused.status_code == 429
    assert refused.json()["error"]["message"].startswith("Trop d’exports depuis ici")
    assert refused_page.status_code == 429
    assert "Too many exports from here" in refused_page.content.decode()
    # The reads' budget is untouched by exports.
    assert client.get(f"{GROUPS}/{made.group.id}/stats").status_code == 200


# --- imports count before the file is read


def bad_file() -> bytes:
    return b'{"games": [], "players": [], "plays": "' + b"x" * 1024 + b'"}'


def good_file() -> dict[str, Any]:
    return {
        "games": [{"id": 1, "name": "Skyjo"}],
        "players": [{"id": 1, "name": "Ada"}],
        "plays": [
            {
                "uuid": str(uuid.UUID(int=1, version=4)),
                "gameRefId": 1,
                "playDate": "2026-01-02 20:00:00",
                "playerScores": [{"playerRefId": 1, "score": "3"}],
            }
        ],
    }


@override_settings(GROUP_IMPORT_LIMIT=2)
def test_refused_imports_count_toward_the_addresss_budget(db: None, client: Client) -> None:
    for _attempt in range(2):
        assert api_json(client, "post", f"{GROUPS}/import", bad_file()).status_code == 422

    response = api_json(client, "post", f"{GROUPS}/import", good_file(), language="fr")

    assert response.status_code == 429
    assert response.json()["error"]["message"].startswith("Trop d’imports depuis ici")
    assert Group.objects.count() == 0
    assert api_json(client, "post", f"{GROUPS}/import", good_file()).status_code == 429
    elsewhere = client.post(f"{GROUPS}/import", json.dumps(good_file()), "application/json", REMOTE_ADDR=ELSEWHERE)
    assert elsewhere.status_code == 201


@override_settings(GROUP_IMPORT_LIMIT=1)
def test_the_import_page_counts_refused_files_too(db: None, client: Client) -> None:
    client.cookies[COOKIE_NAME] = "a-phone-that-imports-" + "i" * 12
    refused = client.post(reverse("groups:import"), {"file": SimpleUploadedFile("x.json", bad_file())})
    spent = client.post(
        reverse("groups:import"), {"file": SimpleUploadedFile("g.json", json.dumps(good_file()).encode())}
    )

    assert refused.status_code == 422
    assert spent.status_code == 429
    assert "Too many imports from here" in spent.content.decode()
    assert int(spent["Retry-After"]) >= 1
    assert Group.objects.count() == 0


def test_a_second_import_while_one_is_read_is_refused_at_once_and_the_next_goes_through(
    db: None, client: Client
) -> None:
    from marquoir.groups import services

    import_page = reverse("groups:import")  # in English
    with services.one_import_at_a_time():  # another request is reading its file
        busy = api_json(client, "post", f"{GROUPS}/import", good_file(), language="fr")
        busy_page = client.post(
            import_page,
            {"file": SimpleUploadedFile("g.json", json.dumps(good_file()).encode())},
        )

    assert busy.status_code == 503
    assert busy["Retry-After"] == "5"
    assert busy.json()["error"]["code"] == "unavailable"
    assert busy.json()["error"]["message"].startswith("Le serveur lit déjà un autre import")
    assert busy_page.status_code == 503
    assert "Another import is being read on the server" in busy_page.content.decode()
    assert Group.objects.count() == 0
    assert api_json(client, "post", f"{GROUPS}/import", good_file()).status_code == 201
