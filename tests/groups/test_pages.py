"""A group's pages through Django's test client: making a group, its page and history, the
right to change it (the device's, granted by the key posted on the join page), starting and
attaching matches, deleting, export and import, a finished match's way to BG Stats and its
card, CSRF, and the French addresses."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from marquoir.groups import services
from marquoir.groups.models import DeviceGroup, Group, Member, Play
from marquoir.groups.selectors import plays_of
from marquoir.tables import bgstats
from marquoir.tables import services as match_services
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import Match
from marquoir.tables.services import digest, edit_token_for
from tests.groups.owned import attach_owned

from .conftest import ALL_TILES, Made, act, counts, finished_pickomino, finished_sheet, finished_yahtzee, new_match

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

DEVICE = "this-phone-" + "x" * 24
XSS = "<script>alert(1)</script>"

# What only a device that may change the group is shown: the forms that rename and add
# players, attach a match, delete the group, and the links that start a match.
EDIT_MARKERS = (
    'action="/{lang}/groups/{id}/players/',
    'action="/{lang}/groups/{id}/matches/"',
    'action="/{lang}/groups/{id}/delete/"',
    'href="/{lang}/groups/{id}/new/',
)


def page(group: Group | str) -> str:
    return reverse("groups:group", args=[group if isinstance(group, str) else group.id])


def editor(client: Client, made: Made) -> Client:
    """``client`` as a device that may change ``made``'s group."""
    client.cookies[COOKIE_NAME] = DEVICE
    services.device_group_link(device_secret=DEVICE, group=made.group, can_edit=True)
    return client


def edit_forms(html: str, group: Group, lang: str = "en") -> list[str]:
    return [marker for marker in EDIT_MARKERS if marker.format(id=group.id, lang=lang) in html]


def names(group: Group) -> list[str]:
    return list(Member.objects.filter(group=group).values_list("name", flat=True))


def refused_401(response: Response) -> str:
    assert response.status_code == 401, response.content.decode()[:300]
    html = response.content.decode()
    assert "This link lets you see the group, not change it" in html
    return html


# --- the groups page: a new group


def test_the_groups_page_offers_a_new_group_and_an_import(client: Client, db: None) -> None:
    response = client.get(reverse("groups:index"))

    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("groups:index") == "/en/groups/"
    assert 'name="name"' in html
    assert html.count('name="player_') == 8
    assert f'action="{reverse("groups:import")}"' in html
    assert 'type="file"' in html
    assert "private" in response["Cache-Control"]


def test_making_a_group_redirects_to_it_and_this_device_may_change_it(client: Client, db: None) -> None:
    form = {"name": " Thursday ", "player_0": "Ada", "player_1": "", "player_2": " Ben "}

    response = client.post(reverse("groups:index"), form)

    group = Group.objects.get()
    assert response.status_code == 303
    assert response["Location"] == page(group)
    assert group.name == "Thursday"
    assert names(group) == ["Ada", "Ben"]
    secret = client.cookies[COOKIE_NAME].value
    assert secret
    assert client.cookies[COOKIE_NAME]["httponly"]
    assert DeviceGroup.objects.get(group=group).device_digest == digest(secret)
    assert services.device_can_edit_group(device_secret=secret, group=group)
    html = client.get(page(group)).content.decode()
    assert edit_forms(html, group) == list(EDIT_MARKERS)
    listed = client.get(reverse("groups:index")).content.decode()
    assert f'href="{page(group)}"' in listed  # among "my groups"


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name": "", "player_0": "Ada"}, "The group needs a name."),
        ({"name": "Thursday"}, "A group has 1 to 30 players."),
        ({"name": "Thursday", "player_0": "Ada", "player_1": "ADA"}, "The group already has a player called"),
        ({"name": "x" * 61, "player_0": "Ada"}, "at most 60 characters"),
    ],
)
def test_a_refused_group_is_said_on_the_form_and_nothing_is_made(
    client: Client, db: None, form: dict[str, str], message: str
) -> None:
    response = client.post(reverse("groups:index"), form)

    assert response.status_code == 422
    html = response.content.decode()
    assert message in html.replace("&#x27;", "'").replace("&quot;", '"')
    assert f'value="{form["name"]}"' in html  # what was typed is kept
    assert Group.objects.count() == 0


@override_settings(MATCH_CREATION_LIMIT=1)
def test_new_groups_share_the_allowance_of_new_matches(client: Client, db: None) -> None:
    client.cookies[COOKIE_NAME] = DEVICE  # a phone that has been here before
    assert client.post(reverse("groups:index"), {"name": "One", "player_0": "Ada"}).status_code == 303

    response = client.post(reverse("groups:index"), {"name": "Two", "player_0": "Ada"})
    match = client.post(reverse("tables:new", args=["sheet"]), {"name_0": "Ada", "first": "0"})

    assert response.status_code == 422
    assert "Too many new groups" in response.content.decode()
    assert match.status_code == 429
    assert list(Group.objects.values_list("name", flat=True)) == ["One"]
    assert Match.objects.count() == 0


@override_settings(MATCH_CREATION_LIMIT=1)
def test_a_new_phones_first_group_counts_against_its_own_allowance(client: Client, db: None) -> None:
    assert client.post(reverse("groups:index"), {"name": "One", "player_0": "Ada"}).status_code == 303

    response = client.post(reverse("groups:index"), {"name": "Two", "player_0": "Ada"})

    assert response.status_code == 422
    assert Group.objects.count() == 1


# --- the group's page


def test_the_history_is_newest_first_with_the_winners(made: Made, client: Client) -> None:
    older = finished_sheet(scores=(3, 12, 5), title="Rummy")
    newer = finished_pickomino(("Cy", "Ada"))  # Ada wins by the 36
    for match in (older, newer):
        attach_owned(group=made.group, match_id=match.id)
    [newest, oldest] = plays_of(made.group)

    html = client.get(page(made.group)).content.decode()

    assert html.index(f'id="play-{newest.id}"') < html.index(f'id="play-{oldest.id}"')
    assert newest.match_id == newer.id
    winners = re.findall(r'<li class="history__winner">(.*?)</li>', html, re.S)
    assert len(winners) == 2
    assert re.search(r"Ada\s*<span[^>]*>20</span>", winners[0])  # Pickomino, newest
    assert re.search(r"Ben\s*<span[^>]*>12</span>", winners[1])  # Rummy
    assert html.index("Pickomino</strong>") < html.index("Rummy</strong>")
    assert reverse("tables:table", args=[newer.id]) in html


def known_phone(client: Client) -> Client:
    """``client`` as a phone this server knows (it keeps a match of its own), without the group's key."""
    client.cookies[COOKIE_NAME] = DEVICE
    match_services.device_link(device_secret=DEVICE, match=finished_sheet(players=("Zoe",), scores=(1,)), can_edit=True)
    return client


def test_a_device_without_the_key_sees_the_group_but_no_form_to_change_it(made: Made, client: Client) -> None:
    attach_owned(group=made.group, match_id=finished_sheet().id)
    known_phone(client)

    response = client.get(page(made.group))

    html = response.content.decode()
    assert response.status_code == 200
    assert edit_forms(html, made.group) == []
    assert "/delete/" not in html  # not even a play's
    assert made.key not in html
    assert "Skyjo</strong>" in html
    # Seen here: listed among this device's groups, to see only.
    link = DeviceGroup.objects.get(group=made.group)
    assert (link.device_digest, link.can_edit) == (digest(DEVICE), False)


def test_posts_from_a_device_without_the_key_are_401_and_change_nothing(made: Made, client: Client) -> None:
    play = attach_owned(group=made.group, match_id=finished_sheet().id)
    other = finished_sheet(scores=(1, 2, 3))
    ada = Member.objects.get(group=made.group, name="Ada")
    known_phone(client)
    gid = made.group.id
    before = counts()

    for path, form in [
        (reverse("groups:rename", args=[gid, ada.pk]), {"name": "Eve"}),
        (reverse("groups:add-player", args=[gid]), {"name": "Eve"}),
        (reverse("groups:attach", args=[gid]), {"match": other.id}),
        (reverse("groups:delete-play", args=[gid, play.uuid]), {}),
        (reverse("groups:delete", args=[gid]), {}),
    ]:
        html = refused_401(client.post(path, form))
        assert edit_forms(html, made.group) == []

    refused_401(client.get(reverse("groups:new-match", args=[gid, "sheet"])))
    assert counts() == before | {"devices": before["devices"] + 1}  # seen: a link to see only
    assert names(made.group) == ["Ada", "Ben", "Cy"]
    assert Play.objects.filter(group=made.group).count() == 1


def test_reading_a_group_with_a_made_up_device_cookie_writes_nothing(made: Made, client: Client) -> None:
    client.cookies[COOKIE_NAME] = DEVICE  # well formed, but this server never gave it out
    before = counts()

    for _read in range(3):
        assert client.get(page(made.group)).status_code == 200

    assert counts() == before
    assert not DeviceGroup.objects.filter(device_digest=digest(DEVICE)).exists()


def test_a_device_without_any_cookie_is_refused_too(made: Made, client: Client) -> None:
    before = counts()

    refused_401(client.post(reverse("groups:delete", args=[made.group.id])))

    assert counts() == before


def test_a_missing_group_is_404(db: None, client: Client) -> None:
    assert client.get(page("A" * 22)).status_code == 404
    assert client.post(reverse("groups:delete", args=["A" * 22])).status_code == 404


# --- the join page


def test_the_join_page_asks_for_the_key(made: Made, client: Client) -> None:
    response = client.get(reverse("groups:join", args=[made.group.id]))

    assert response.status_code == 200
    assert 'name="key"' in response.content.decode()


def test_a_wrong_key_is_401_and_grants_nothing(made: Made, client: Client) -> None:
    client.cookies[COOKIE_NAME] = DEVICE
    join = reverse("groups:join", args=[made.group.id])

    for key in ("wrong", made.key[:-1], edit_token_for(made.group.id), ""):
        response = client.post(join, {"key": key})
        assert response.status_code == 401
        assert "edit key is missing or wrong" in response.content.decode()
    assert not services.device_can_edit_group(device_secret=DEVICE, group=made.group)


def test_the_right_key_posted_grants_this_device_the_right_to_change(made: Made, client: Client) -> None:
    response = client.post(reverse("groups:join", args=[made.group.id]), {"key": f"  {made.key} "})

    assert response.status_code == 303
    assert response["Location"] == page(made.group)
    secret = client.cookies[COOKIE_NAME].value
    assert services.device_can_edit_group(device_secret=secret, group=made.group)
    assert len(edit_forms(client.get(page(made.group)).content.decode(), made.group)) == len(EDIT_MARKERS)


def test_the_key_in_an_address_grants_nothing(made: Made, client: Client) -> None:
    client.cookies[COOKIE_NAME] = DEVICE

    response = client.get(reverse("groups:join", args=[made.group.id]), {"key": made.key})

    assert response.status_code == 200
    assert not services.device_can_edit_group(device_secret=DEVICE, group=made.group)
    assert edit_forms(client.get(page(made.group)).content.decode(), made.group) == []


def test_the_change_link_carries_the_key_in_its_fragment_for_an_editor_only(made: Made, client: Client) -> None:
    editor(client, made)
    html = client.get(page(made.group)).content.decode()
    seeing = Client().get(page(made.group)).content.decode()

    join = reverse("groups:join", args=[made.group.id])
    assert f"{join}#key={made.key}" in html
    assert made.key not in seeing


# --- matches from the group


def test_a_new_match_from_the_group_offers_its_players_and_joins_its_history(made: Made, client: Client) -> None:
    editor(client, made)
    address = reverse("groups:new-match", args=[made.group.id, "sheet"])

    html = client.get(address).content.decode()

    for seat, name in enumerate(("Ada", "Ben", "Cy")):
        assert re.search(rf'<input[^>]*name="name_{seat}"[^>]*value="{name}"', html), name
    assert "For the group “Thursday”" in html or "For the group &ldquo;Thursday&rdquo;" in html

    response = client.post(address, {"name_0": "Ada", "name_1": "", "name_2": "Cy", "first": "2", "title": "Skyjo"})

    assert response.status_code == 303
    match = Match.objects.get()
    assert response["Location"] == reverse("tables:table", args=[match.id])
    assert match.players == ["Ada", "Cy"]
    assert match.first == 1
    play = Play.objects.get()
    assert (play.group_id, play.match_id) == (made.group.id, match.id)
    assert play.seats == [Member.objects.get(group=made.group, name=name).pk for name in ("Ada", "Cy")]


def test_a_new_match_with_a_newcomer_in_a_full_group_is_refused_not_a_server_error(db: None) -> None:
    client = Client(raise_request_exception=False)
    full, _key = services.group_create(name="Club", players=[f"P{number}" for number in range(30)])
    client.cookies[COOKIE_NAME] = DEVICE
    services.device_group_link(device_secret=DEVICE, group=full, can_edit=True)

    response = client.post(
        reverse("groups:new-match", args=[full.id, "sheet"]), {"name_0": "P1", "name_1": "Newcomer", "first": "0"}
    )

    assert response.status_code == 422
    assert Match.objects.count() == Play.objects.count() == 0


def test_a_new_match_of_a_game_marquoir_does_not_keep_is_404(made: Made, client: Client) -> None:
    editor(client, made)

    assert client.get(reverse("groups:new-match", args=[made.group.id, "chess"])).status_code == 404


@pytest.mark.parametrize(
    "shape",
    [
        "{id}",
        "  {id}  ",
        "http://testserver/en/tables/{id}/",
        "https://marquoir.example/fr/tables/{id}",
        "http://testserver/en/tables/{id}/?x=1#top",
    ],
)
def test_a_match_is_attached_by_its_link_or_its_id_from_a_phone_that_keeps_its_score(
    made: Made, client: Client, shape: str
) -> None:
    editor(client, made)
    match = finished_sheet(players=("Ada", "Dee"), scores=(4, 2))
    match_services.device_link(device_secret=DEVICE, match=match, can_edit=True)

    response = client.post(reverse("groups:attach", args=[made.group.id]), {"match": shape.format(id=match.id)})

    assert response.status_code == 303
    assert response["Location"] == page(made.group)
    assert Play.objects.get().match_id == match.id
    assert names(made.group) == ["Ada", "Ben", "Cy", "Dee"]


@pytest.mark.parametrize(
    "shape", ["{id}", "http://testserver/en/tables/{id}/", "http://testserver/en/tables/{id}/join/"]
)
@pytest.mark.parametrize("watching", [False, True])
def test_a_watch_link_alone_never_attaches_a_match_from_the_page(
    made: Made, client: Client, shape: str, watching: bool
) -> None:
    editor(client, made)
    match = finished_sheet()
    if watching:  # the phone has the match among its own, to watch it
        match_services.device_link(device_secret=DEVICE, match=match, can_edit=False)
    before = counts()

    response = client.post(reverse("groups:attach", args=[made.group.id]), {"match": shape.format(id=match.id)})

    assert response.status_code == 403
    assert "Keep score too" in response.content.decode()
    assert counts() == before


def test_a_match_is_attached_by_its_keep_score_link(made: Made, client: Client) -> None:
    editor(client, made)
    match = finished_sheet()
    link = f"http://testserver/en/tables/{match.id}/join/#key={edit_token_for(match.id)}"

    response = client.post(reverse("groups:attach", args=[made.group.id]), {"match": link})

    assert response.status_code == 303
    assert Play.objects.get().match_id == match.id


@pytest.mark.parametrize(("match", "status"), [("nonsense", 422), ("", 422), ("{id}", 409)])
def test_a_match_that_cannot_be_attached_is_said_on_the_page(
    made: Made, client: Client, match: str, status: int
) -> None:
    editor(client, made)
    attached = finished_sheet()
    attach_owned(group=made.group, match_id=attached.id)
    match_services.device_link(device_secret=DEVICE, match=attached, can_edit=True)
    before = counts()

    response = client.post(reverse("groups:attach", args=[made.group.id]), {"match": match.format(id=attached.id)})

    assert response.status_code == status
    assert 'role="alert"' in response.content.decode()
    assert counts() == before


def test_renaming_and_adding_players_from_the_page(made: Made, client: Client) -> None:
    editor(client, made)
    ada = Member.objects.get(group=made.group, name="Ada")

    renamed = client.post(reverse("groups:rename", args=[made.group.id, ada.pk]), {"name": "Adèle"})
    added = client.post(reverse("groups:add-player", args=[made.group.id]), {"name": "Dee"})
    twice = client.post(reverse("groups:add-player", args=[made.group.id]), {"name": "dee"})

    assert (renamed.status_code, added.status_code, twice.status_code) == (303, 303, 422)
    assert names(made.group) == ["Adèle", "Ben", "Cy", "Dee"]


# --- deleting


def test_deleting_a_play_from_the_phone_that_keeps_its_score_removes_it_and_its_match(
    made: Made, client: Client
) -> None:
    editor(client, made)
    match = finished_yahtzee("Ada")
    play = attach_owned(group=made.group, match_id=match.id)
    match_services.device_link(device_secret=DEVICE, match=match, can_edit=True)
    assert "Delete this match for good?" in client.get(page(made.group)).content.decode()
    before = counts()

    response = client.post(reverse("groups:delete-play", args=[made.group.id, play.uuid]))

    assert response.status_code == 303
    assert counts() == before | {"plays": 0, "matches": 0, "log": 0}
    assert f'id="play-{play.uuid}"' not in client.get(page(made.group)).content.decode()


def test_deleting_a_play_from_a_phone_that_does_not_keep_its_score_leaves_the_match(made: Made, client: Client) -> None:
    editor(client, made)
    match = finished_yahtzee("Ada")
    play = attach_owned(group=made.group, match_id=match.id)
    assert "Take this match out of the group’s history?" in client.get(page(made.group)).content.decode()
    before = counts()

    response = client.post(reverse("groups:delete-play", args=[made.group.id, play.uuid]))

    assert response.status_code == 303
    assert counts() == before | {"plays": 0}
    assert client.get(reverse("tables:table", args=[match.id])).status_code == 200


def test_deleting_the_group_from_a_phone_that_keeps_no_score_leaves_the_matches(made: Made, client: Client) -> None:
    editor(client, made)
    mine, theirs = finished_sheet(), finished_pickomino(("Ada", "Ben"))
    for match in (mine, theirs):
        attach_owned(group=made.group, match_id=match.id)
    match_services.device_link(device_secret=DEVICE, match=mine, can_edit=True)

    response = client.post(reverse("groups:delete", args=[made.group.id]))

    assert response.status_code == 303
    assert list(Match.objects.values_list("id", flat=True)) == [theirs.id]
    assert counts() == {"groups": 0, "members": 0, "plays": 0, "devices": 0, "matches": 1, "log": 16}


def test_deleting_the_group_from_the_page_removes_everything_of_it(made: Made, client: Client) -> None:
    editor(client, made)
    for match in (finished_sheet(), finished_pickomino(("Ada", "Ben"))):
        attach_owned(group=made.group, match_id=match.id)
        match_services.device_link(device_secret=DEVICE, match=match, can_edit=True)

    response = client.post(reverse("groups:delete", args=[made.group.id]))

    assert response.status_code == 303
    assert response["Location"] == reverse("groups:index") + "?deleted=1"
    assert counts() == {"groups": 0, "members": 0, "plays": 0, "devices": 0, "matches": 0, "log": 0}
    assert client.get(page(made.group)).status_code == 404
    assert client.get(response["Location"]).status_code == 200


# --- export and import


def test_the_export_links_download_json_and_csv(made: Made, client: Client) -> None:
    attach_owned(group=made.group, match_id=finished_sheet(scores=(10, 7, 3)).id)
    html = client.get(page(made.group)).content.decode()
    export = reverse("groups:export", args=[made.group.id])
    assert f'href="{export}"' in html
    assert f'href="{export}?format=csv"' in html

    as_json = client.get(export)
    as_csv = client.get(export, {"format": "csv"})

    assert as_json.status_code == 200
    assert as_json["Content-Type"].startswith("application/json")
    assert as_json["Content-Disposition"] == 'attachment; filename="marquoir-thursday.json"'
    assert [player["name"] for player in json.loads(as_json.content)["players"]] == ["Ada", "Ben", "Cy"]
    assert as_csv.status_code == 200
    assert as_csv["Content-Type"].startswith("text/csv")
    assert as_csv["Content-Disposition"] == 'attachment; filename="marquoir-thursday.csv"'
    assert as_csv.content.decode().splitlines()[0].startswith("play_id,date,game,")


def upload(content: bytes, name: str = "group.json") -> dict[str, Any]:
    return {"file": SimpleUploadedFile(name, content, content_type="application/json")}


def test_an_exported_file_uploaded_makes_a_new_group(made: Made, client: Client) -> None:
    for match in (finished_sheet(), finished_pickomino(("Ada", "Ben")), finished_yahtzee("Cy")):
        attach_owned(group=made.group, match_id=match.id)
    exported = client.get(reverse("groups:export", args=[made.group.id])).content

    response = client.post(reverse("groups:import"), upload(exported))

    assert response.status_code == 303
    imported = Group.objects.exclude(pk=made.group.id).get()
    assert response["Location"] == page(imported)
    assert imported.name == "Thursday"
    assert sorted(play.id for play in plays_of(imported)) == sorted(play.id for play in plays_of(made.group))
    secret = client.cookies[COOKIE_NAME].value
    assert services.device_can_edit_group(device_secret=secret, group=imported)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"name,score\nAda,3\n", "This file is not JSON"),
        (b"\xff\xfe\x00", "This file is not JSON"),
        (b"[1, 2]", "it holds no JSON object"),
        (b'{"plays": 3}', "is missing or wrong"),
    ],
)
def test_a_file_that_is_no_export_is_422_with_a_message(
    made: Made, client: Client, content: bytes, message: str
) -> None:
    before = counts()

    response = client.post(reverse("groups:import"), upload(content, "scores.csv"))

    assert response.status_code == 422
    html = response.content.decode()
    assert 'role="alert"' in html
    assert message in html.replace("&#x27;", "'")
    assert counts() == before


def test_an_import_without_a_file_is_422(db: None, client: Client) -> None:
    response = client.post(reverse("groups:import"), {})

    assert response.status_code == 422
    assert "Choose a file" in response.content.decode()
    assert Group.objects.count() == 0


# --- a finished match's ways out


def decoded_push(html: str) -> dict[str, Any]:
    [link] = re.findall(r'<a class="[^"]*" href="([^"]+)"[^>]*data-bgstats>Send to BG Stats</a>', html)
    parts = urlsplit(link.replace("&amp;", "&"))
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://app.bgstatsapp.com/createPlay.html"
    [data] = parse_qs(parts.query, strict_parsing=True)["data"]
    play: dict[str, Any] = json.loads(data)
    return play


def test_a_finished_matchs_page_sends_it_to_bg_stats(db: None, client: Client) -> None:
    match = new_match("pickomino", ("Ada", "Ben"), first=1)
    act(match, *ALL_TILES)  # Ben first: he takes the odd tiles, Ada the even ones and the 36
    start = datetime(2026, 8, 6, 18, 52, 0, 250_000, tzinfo=UTC)
    Match.objects.filter(pk=match.id).update(created_at=start, updated_at=start + timedelta(minutes=24, seconds=58))

    html = client.get(reverse("tables:table", args=[match.id])).content.decode()

    play = decoded_push(html)
    assert play["sourcePlayId"] == bgstats.play_id(match.id)
    assert match.id not in html.split("app.bgstatsapp.com", 1)[1].split('"', 1)[0]  # never sent
    assert play["game"]["name"] == "Pickomino"
    assert play["game"]["bggId"] == 15818
    assert play["playDate"] == "2026-08-06 19:16:58"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert play["durationMin"] == 25
    # Ben starts and takes 21, 23… 35 (20 worms); Ada 22, 24… 36 (20 worms): Ada wins by the 36.
    assert [
        (player["name"], player["score"], player["winner"], player["startPlayer"], player["rank"])
        for player in play["players"]
    ] == [("Ada", 20, True, False, 1), ("Ben", 20, False, True, 2)]


def test_a_match_still_going_has_no_bg_stats_link(db: None, client: Client) -> None:
    match = new_match("pickomino", ("Ada", "Ben"))

    html = client.get(reverse("tables:table", args=[match.id])).content.decode()

    assert "Send to BG Stats" not in html


def test_a_sheets_link_names_the_sheets_title_and_has_no_bgg_id(db: None, client: Client) -> None:
    match = finished_sheet(players=("Ada", "Ben"), scores=(3, 3), title="Skyjo")

    play = decoded_push(client.get(reverse("tables:table", args=[match.id])).content.decode())

    assert play["game"]["name"] == "Skyjo"
    assert "bggId" not in play["game"]
    assert [(player["name"], player["winner"]) for player in play["players"]] == [("Ada", True), ("Ben", True)]


def test_the_result_card_is_an_svg_that_escapes_names(db: None, client: Client) -> None:
    match = finished_sheet(players=(XSS, "Ben"), scores=(9, 4), title='Rummy" onload="x')

    response = client.get(reverse("tables:card", args=[match.id]))

    svg = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert svg.startswith("<svg")
    assert "<script" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    assert 'onload="x' not in svg
    assert "style=" not in svg
    assert "Ben" in svg


# --- CSRF


def test_a_post_without_the_csrf_token_is_refused(made: Made) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.cookies[COOKIE_NAME] = DEVICE
    services.device_group_link(device_secret=DEVICE, group=made.group, can_edit=True)
    before = counts()

    for path, form in [
        (reverse("groups:index"), {"name": "Friday", "player_0": "Ada"}),
        (reverse("groups:delete", args=[made.group.id]), {}),
        (reverse("groups:join", args=[made.group.id]), {"key": made.key}),
        (reverse("groups:add-player", args=[made.group.id]), {"name": "Eve"}),
    ]:
        assert strict.post(path, form).status_code == 403
    assert counts() == before


def test_a_post_with_the_csrf_token_from_the_page_goes_through(made: Made) -> None:
    strict = Client(enforce_csrf_checks=True)
    html = strict.get(reverse("groups:index")).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token is not None

    response = strict.post(
        reverse("groups:index"), {"csrfmiddlewaretoken": token.group(1), "name": "Friday", "player_0": "Ada"}
    )

    assert response.status_code == 303
    assert Group.objects.filter(name="Friday").exists()


# --- in French


def test_the_pages_are_served_in_french(made: Made, client: Client) -> None:
    attach_owned(group=made.group, match_id=finished_sheet().id)
    editor(client, made)
    with translation.override("fr"):
        index = reverse("groups:index")
        group = reverse("groups:group", args=[made.group.id])
        stats = reverse("groups:stats", args=[made.group.id])
        join = reverse("groups:join", args=[made.group.id])

    assert index == "/fr/groupes/"
    for address in (index, group, stats, join):
        response = client.get(address)
        assert response.status_code == 200, address
        assert '<html lang="fr"' in response.content.decode(), address
    assert "Groupes" in client.get(index).content.decode()


def test_a_group_is_made_from_the_french_page(client: Client, db: None) -> None:
    with translation.override("fr"):
        index = reverse("groups:index")

    response = client.post(index, {"name": "Jeudi", "player_0": "Ada"})

    group = Group.objects.get()
    assert response.status_code == 303
    assert response["Location"] == f"/fr/groupes/{group.id}/"
    # Its pages are under "groupes/" as its list is; the addresses handed out before still answer.
    assert client.get(f"/fr/groupes/{group.id}/stats/").status_code == 200
    assert client.get(f"/fr/groups/{group.id}/").status_code == 200


@override_settings(MATCH_CREATION_LIMIT=2)
def test_new_groups_from_clients_without_a_cookie_share_their_addresss_allowance(db: None) -> None:
    statuses = []
    for _attempt in range(3):
        fresh = Client()  # no cookie: a script, or a browser that drops them
        statuses.append(fresh.post(reverse("groups:index"), {"name": "One", "player_0": "Ada"}).status_code)

    assert statuses == [303, 303, 422]
    assert Group.objects.count() == 2
