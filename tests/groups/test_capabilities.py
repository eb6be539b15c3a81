"""What each capability lets a client do to every resource, API and pages alike.

Four rights exist: a match's id (to watch it) and its edit token (to keep its score), a
group's id (to see it) and its key (to change it). A device holds the page equivalents
(a cookie that keeps score on a match, or may change a group). Each right opens exactly its
own writes: a watch id never changes nor removes anything, a group's key is no right over
a match, and no right over one match or group opens another. Every pair is tried against
every write address, and the database must come out unchanged where a write is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from marquoir.groups import services
from marquoir.groups.models import DeviceGroup, Group, Member, Play
from marquoir.tables import services as match_services
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import DeviceMatch, LogEntry, Match
from marquoir.tables.services import edit_token_for
from tests.groups.owned import attach_owned

from .conftest import GROUPS, api_json, finished_sheet, new_match, round_

PHONE = "the-phone-at-the-table-" + "p" * 16


@dataclass(frozen=True)
class World:
    """Two groups and three matches: ``match`` (in no group), ``kept`` (in ``group``), and
    the other group's and other match's rights to try across."""

    group: Group
    group_key: str
    other_group: Group
    other_group_key: str
    match: Match
    match_token: str
    other_match: Match
    other_match_token: str
    kept: Match
    play: Play


@pytest.fixture
def world(db: None) -> World:
    group, key = services.group_create(name="Thursday", players=["Ada", "Ben"])
    other_group, other_key = services.group_create(name="Friday", players=["Ada", "Ben"])
    match = new_match("sheet", ("Ada", "Ben"))
    match_services.match_act(match_id=match.id, body=round_(3, 4)).or_raise()
    other = new_match("sheet", ("Ada", "Ben"))
    kept = finished_sheet(players=("Ada", "Ben"), scores=(5, 6))
    play = attach_owned(group=group, match_id=kept.id)
    return World(
        group,
        key,
        other_group,
        other_key,
        Match.objects.get(pk=match.id),
        edit_token_for(match.id),
        other,
        edit_token_for(other.id),
        kept,
        play,
    )


def snapshot() -> dict[str, Any]:
    """Everything a write could change or remove; links that only watch are left out (reading
    a page may list it on the device, which grants nothing)."""
    return {
        "matches": sorted(Match.objects.values_list("id", "seq", "over")),
        "log": sorted(LogEntry.objects.values_list("match_id", "seq", "undone_by")),
        "groups": sorted(Group.objects.values_list("id", "name")),
        "members": sorted(Member.objects.values_list("group_id", "name")),
        "plays": sorted(Play.objects.values_list("group_id", "match_id")),
        "match_rights": sorted(DeviceMatch.objects.filter(can_edit=True).values_list("device_digest", "match_id")),
        "group_rights": sorted(DeviceGroup.objects.filter(can_edit=True).values_list("device_digest", "group_id")),
    }


# --- the API: (method, path, body) for every write, each needing one right


def api_writes(world: World) -> dict[str, tuple[str, str, object]]:
    group = f"{GROUPS}/{world.group.id}"
    ada = Member.objects.get(group=world.group, name="Ada").pk
    return {
        "act on the match": ("post", f"/api/v1/matches/{world.match.id}/actions", round_(1, 2)),
        "undo on the match": ("post", f"/api/v1/matches/{world.match.id}/actions", {"type": "undo"}),
        "delete the group": ("delete", group, None),
        "add a player": ("post", f"{group}/players", {"name": "Cy"}),
        "rename a player": ("patch", f"{group}/players/{ada}", {"name": "Eve"}),
        "attach the match": ("post", f"{group}/matches", {"match_id": world.match.id}),
        "delete a play": ("delete", f"{group}/matches/{world.play.uuid}", None),
    }


MATCH_WRITES = {"act on the match", "undo on the match"}


def bearers(world: World) -> dict[str, str | None]:
    return {
        "nothing": None,
        "the match's id": world.match.id,
        "the group's id": world.group.id,
        "another match's token": world.other_match_token,
        "another group's key": world.other_group_key,
        "the match's token": world.match_token,
        "the group's key": world.group_key,
    }


ADDRESSES = ["act on the match", "undo on the match", "delete the group", "add a player", "rename a player"]
ADDRESSES += ["attach the match", "delete a play"]
RIGHTS = ["nothing", "the match's id", "the group's id", "another match's token", "another group's key"]
RIGHTS += ["the match's token", "the group's key"]


def opens(address: str, right: str) -> bool:
    """The one right each API write needs (attaching needs the match's too: tried below)."""
    return right == ("the match's token" if address in MATCH_WRITES else "the group's key")


@pytest.mark.parametrize("right", RIGHTS)
@pytest.mark.parametrize("address", ADDRESSES)
def test_every_api_write_opens_to_its_own_right_only(world: World, client: Client, address: str, right: str) -> None:
    method, path, body = api_writes(world)[address]
    token = bearers(world)[right]
    before = snapshot()

    response = api_json(client, method, path, body, token=token)

    if opens(address, right) and address != "attach the match":
        assert response.status_code in {200, 201, 204}, response.content
        assert Match.objects.filter(pk=world.match.id).exists()
        assert Match.objects.filter(pk=world.kept.id).exists()  # a group's key never removes a match
    else:
        assert response.status_code in {401, 403}, response.content
        assert response.json()["error"]["code"] in {"unauthorized", "forbidden"}
        assert snapshot() == before


@pytest.mark.parametrize("match_right", ["nothing", "the match's id", "another match's token", "the group's key"])
def test_attaching_by_the_api_needs_the_matchs_own_token_besides_the_groups_key(
    world: World, client: Client, match_right: str
) -> None:
    given = bearers(world)[match_right]
    body = {"match_id": world.match.id} | ({"match_edit_token": given} if given else {})
    before = snapshot()

    response = api_json(client, "post", f"{GROUPS}/{world.group.id}/matches", body, token=world.group_key)

    assert (response.status_code, response.json()["error"]["code"]) == (403, "forbidden")
    assert snapshot() == before
    owned = body | {"match_edit_token": world.match_token}
    assert (
        api_json(client, "post", f"{GROUPS}/{world.group.id}/matches", owned, token=world.group_key).status_code == 201
    )


def test_no_api_write_of_a_group_removes_a_match(world: World, client: Client) -> None:
    log = LogEntry.objects.filter(match_id=world.kept.id).count()
    delete_play = api_json(
        client, "delete", f"{GROUPS}/{world.group.id}/matches/{world.play.uuid}", token=world.group_key
    )
    delete_group = api_json(client, "delete", f"{GROUPS}/{world.group.id}", token=world.group_key)

    assert (delete_play.status_code, delete_group.status_code) == (204, 204)
    assert LogEntry.objects.filter(match_id=world.kept.id).count() == log
    # Its owners still keep its score, and their own group can take it in.
    undo = api_json(
        client,
        "post",
        f"/api/v1/matches/{world.kept.id}/actions",
        {"type": "undo"},
        token=edit_token_for(world.kept.id),
    )
    assert undo.status_code == 200
    body = {"match_id": world.kept.id, "match_edit_token": edit_token_for(world.kept.id)}
    again = api_json(client, "post", f"{GROUPS}/{world.other_group.id}/matches", body, token=world.other_group_key)
    assert again.status_code == 201


# --- the pages: a phone's rights are its device links (and the keys it is given to post)


def phone(client: Client, world: World, holds: str) -> Client:
    """``client`` as a phone holding one right through its device links."""
    client.cookies[COOKIE_NAME] = PHONE
    links: dict[str, Callable[[], None]] = {
        "nothing": lambda: None,
        "watches the match": lambda: match_services.device_link(device_secret=PHONE, match=world.match, can_edit=False),
        "keeps another match": lambda: match_services.device_link(
            device_secret=PHONE, match=world.other_match, can_edit=True
        ),
        "sees the group": lambda: services.device_group_link(device_secret=PHONE, group=world.group, can_edit=False),
        "changes another group": lambda: services.device_group_link(
            device_secret=PHONE, group=world.other_group, can_edit=True
        ),
        "keeps the match": lambda: match_services.device_link(device_secret=PHONE, match=world.match, can_edit=True),
        "changes the group": lambda: services.device_group_link(device_secret=PHONE, group=world.group, can_edit=True),
    }
    links[holds]()
    return client


def page_writes(world: World) -> dict[str, tuple[str, dict[str, str]]]:
    """Every write a page posts: (address, form)."""
    gid = world.group.id
    ada = Member.objects.get(group=world.group, name="Ada").pk
    watch_link = "http://testserver" + reverse("tables:table", args=[world.match.id])
    return {
        "act on the match": (
            reverse("tables:act", args=[world.match.id]),
            {"type": "round", "score_0": "1", "score_1": "2"},
        ),
        "undo on the match": (reverse("tables:act", args=[world.match.id]), {"type": "undo"}),
        "switch the assistant": (reverse("tables:assistant", args=[world.match.id]), {"on": "1"}),
        "join the match with the group's key": (
            reverse("tables:join", args=[world.match.id]),
            {"key": world.group_key},
        ),
        "join the match with another's token": (
            reverse("tables:join", args=[world.match.id]),
            {"key": world.other_match_token},
        ),
        "rename a player": (reverse("groups:rename", args=[gid, ada]), {"name": "Eve"}),
        "add a player": (reverse("groups:add-player", args=[gid]), {"name": "Cy"}),
        "attach by the watch link": (reverse("groups:attach", args=[gid]), {"match": watch_link}),
        "delete a play": (reverse("groups:delete-play", args=[gid, world.play.uuid]), {}),
        "delete the group": (reverse("groups:delete", args=[gid]), {}),
        "start a match for the group": (
            reverse("groups:new-match", args=[gid, "sheet"]),
            {"name_0": "Ada", "first": "0"},
        ),
        "join the group with the match's token": (reverse("groups:join", args=[gid]), {"key": world.match_token}),
    }


PAGE_ADDRESSES = ["act on the match", "undo on the match", "switch the assistant"]
PAGE_ADDRESSES += ["join the match with the group's key", "join the match with another's token"]
PAGE_ADDRESSES += ["rename a player", "add a player", "attach by the watch link", "delete a play"]
PAGE_ADDRESSES += ["delete the group", "start a match for the group", "join the group with the match's token"]
HOLDINGS = ["nothing", "watches the match", "keeps another match", "sees the group", "changes another group"]
MATCH_PAGES = {"act on the match", "undo on the match", "switch the assistant"}
GROUP_PAGES = {"rename a player", "add a player", "delete a play", "delete the group", "start a match for the group"}


@pytest.mark.parametrize("holds", [*HOLDINGS, "keeps the match", "changes the group"])
@pytest.mark.parametrize("address", PAGE_ADDRESSES)
def test_every_page_write_opens_to_its_own_right_only(world: World, client: Client, address: str, holds: str) -> None:
    path, form = page_writes(world)[address]
    phone(client, world, holds)
    before = snapshot()

    response = client.post(path, form)

    allowed = (address in MATCH_PAGES and holds == "keeps the match") or (
        address in GROUP_PAGES and holds == "changes the group"
    )
    if allowed:
        assert response.status_code in {200, 303}, response.content.decode()[:400]
        assert Match.objects.filter(pk=world.kept.id).exists() or address in {"delete a play", "delete the group"}
        # A group's rights remove only the matches this phone keeps score on: none here.
        assert Match.objects.filter(pk=world.kept.id).exists()
    else:
        assert response.status_code in {401, 403}, (response.status_code, response.content.decode()[:400])
        assert snapshot() == before


def test_a_phone_that_changes_the_group_and_watches_the_match_cannot_attach_it(world: World, client: Client) -> None:
    phone(client, world, "changes the group")
    phone(client, world, "watches the match")
    path, form = page_writes(world)["attach by the watch link"]
    before = snapshot()

    response = client.post(path, form)

    assert response.status_code == 403
    assert snapshot() == before
    phone(client, world, "keeps the match")
    assert client.post(path, form).status_code == 303
    assert Play.objects.filter(group=world.group, match=world.match).exists()
