"""A match played for a group, on its table screen: it names the group and links back to it
(for a device that knows the group), its rematch joins the group (for a device that may add
matches to it; any other is told that its rematch will not be in the group), and a member
renamed in the group is renamed on the group's matches, the log left as it was."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

from marquoir.groups import services
from marquoir.groups.models import Member, Play
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.services import device_link, edit_token_for

from .conftest import Made, act, new_match

pytestmark = pytest.mark.django_db

DEVICE = "this-phone-" + "x" * 24


def group_match(client: Client, made: Made) -> Match:
    """A sheet started from the group's page by a device that may change the group."""
    client.cookies[COOKIE_NAME] = DEVICE
    services.device_group_link(device_secret=DEVICE, group=made.group, can_edit=True)
    address = reverse("groups:new-match", args=[made.group.id, "sheet"])
    response = client.post(address, {"name_0": "Ada", "name_1": "Ben", "name_2": "Cy", "first": "0", "rounds": "1"})
    assert response.status_code == 303
    return Match.objects.get(pk=response["Location"].rstrip("/").rsplit("/", 1)[1])


def table(match: Match) -> str:
    return reverse("tables:table", args=[match.id])


def test_the_table_names_its_group_and_links_back(made: Made, client: Client) -> None:
    match = group_match(client, made)
    html = html_lib.unescape(client.get(table(match)).content.decode())
    assert f'<a href="{reverse("groups:group", args=[made.group.id])}">Group: Thursday</a>' in html


def test_a_phone_that_does_not_know_the_group_is_not_shown_it(made: Made, client: Client) -> None:
    match = group_match(client, made)
    stranger = Client()
    device_link(device_secret="another-phone-" + "y" * 20, match=match, can_edit=True)
    stranger.cookies[COOKIE_NAME] = "another-phone-" + "y" * 20
    for html in (stranger.get(table(match)).content.decode(), Client().get(table(match)).content.decode()):
        assert "Thursday" not in html
        assert reverse("groups:group", args=[made.group.id]) not in html


def test_the_rematch_of_a_group_s_match_joins_the_group_seated_as_before(made: Made, client: Client) -> None:
    match = group_match(client, made)
    act(match, {"type": "round", "scores": [3, 1, 2]})
    finished = client.get(table(match)).content.decode()
    rematch = re.search(r'href="([^"]+)">New match with the same players', finished)
    assert rematch
    address = html_lib.unescape(rematch.group(1))
    assert address == reverse("groups:new-match", args=[made.group.id, "sheet"]) + f"?from={match.id}"

    form = client.get(address).content.decode()
    assert re.search(r'name="rounds"[^>]*value="1"', form)
    response = client.post(address, {"name_0": "Ada", "name_1": "Ben", "name_2": "Cy", "first": "0", "rounds": "1"})
    assert response.status_code == 303
    assert Play.objects.filter(group=made.group).count() == 2


def test_a_phone_that_cannot_add_to_the_group_keeps_its_own_rematch_and_is_told(made: Made, client: Client) -> None:
    match = group_match(client, made)
    act(match, {"type": "round", "scores": [3, 1, 2]})
    seer = Client()
    seer.cookies[COOKIE_NAME] = "seer-phone-" + "z" * 24
    services.device_group_link(device_secret="seer-phone-" + "z" * 24, group=made.group, can_edit=False)
    device_link(device_secret="seer-phone-" + "z" * 24, match=match, can_edit=True)

    html = html_lib.unescape(seer.get(table(match)).content.decode())
    assert f'href="{reverse("tables:new", kwargs={"game": "sheet"})}?from={match.id}"' in html
    assert "This rematch will not be in “Thursday”: this phone cannot add matches to the group." in html


def test_a_from_naming_another_group_s_match_offers_the_group_s_players_only(made: Made, client: Client) -> None:
    other = new_match("sheet", ["Xena", "Yves"])
    client.cookies[COOKIE_NAME] = DEVICE
    services.device_group_link(device_secret=DEVICE, group=made.group, can_edit=True)
    address = reverse("groups:new-match", args=[made.group.id, "sheet"]) + f"?from={other.id}"
    html = client.get(address).content.decode()
    assert "Xena" not in html
    assert re.search(r'name="name_0"[^>]*value="Ada"', html)


def test_a_member_renamed_is_renamed_on_the_group_s_matches_and_the_log_stays(made: Made, client: Client) -> None:
    match = group_match(client, made)
    act(match, {"type": "round", "scores": [3, 1, 2]})
    log_before = list(LogEntry.objects.filter(match=match).values_list("seq", "payload"))
    ada = Member.objects.get(group=made.group, name="Ada")

    services.member_rename(group=made.group, member_id=ada.pk, name="Adèle")

    match.refresh_from_db()
    assert match.players == ["Adèle", "Ben", "Cy"]
    assert list(LogEntry.objects.filter(match=match).values_list("seq", "payload")) == log_before
    html = html_lib.unescape(client.get(table(match)).content.decode())
    assert "Adèle" in html
    state = client.get(f"/api/v1/matches/{match.id}").json()
    assert [player["name"] for player in state["players"]] == ["Adèle", "Ben", "Cy"]


def test_a_rename_keeps_the_match_s_times_and_the_next_write_answers_the_new_name(made: Made, client: Client) -> None:
    match = group_match(client, made)
    token = match_token(match)
    first = client.post(
        f"/api/v1/matches/{match.id}/actions",
        data='{"type": "round", "scores": [1, 2, 3]}',
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert first.status_code == 200  # this process now holds the match as it last saw it
    match.refresh_from_db()
    created, updated = match.created_at, match.updated_at
    ada = Member.objects.get(group=made.group, name="Ada")

    services.member_rename(group=made.group, member_id=ada.pk, name="Adèle")

    match.refresh_from_db()
    assert (match.created_at, match.updated_at) == (created, updated)  # played when it was
    undo = client.post(
        f"/api/v1/matches/{match.id}/actions",
        data='{"type": "undo"}',
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert undo.status_code == 200
    assert [player["name"] for player in undo.json()["players"]] == ["Adèle", "Ben", "Cy"]


def match_token(match: Match) -> str:
    return edit_token_for(match.id)
