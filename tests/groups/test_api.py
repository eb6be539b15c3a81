"""Groups in API v1 (docs/api.md, "Groups") through Django's test client: every address, its
token, its refusals in the contract's shape and language, hostile bodies and files, and the
allowance of new groups. Every refusal leaves the database as it was."""

from __future__ import annotations

import csv
import io
import json
import uuid
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client, override_settings

from marquoir.groups import services
from marquoir.groups.models import Group, Member, Play
from marquoir.groups.presenters import MAX_IMPORT_BYTES
from marquoir.tables.api import MAX_BODY_BYTES
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.services import edit_token_for
from tests.groups.owned import attach_owned
from tests.tables.conftest import error_of

from .conftest import (
    GROUPS,
    Made,
    act,
    api_json,
    counts,
    finished_pickomino,
    finished_sheet,
    finished_tarot,
    finished_yahtzee,
    new_match,
    round_,
)

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

MISSING = "A" * 22  # the shape of a group id, no group's
UNAUTHORIZED = "This link lets you see the group, not change it: the edit key is missing or wrong."


def create(client: Client, body: object, language: str | None = None) -> Response:
    return api_json(client, "post", GROUPS, body, language=language)


def ok(response: Response, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def attach(
    client: Client, made: Made, match: Match | str, *, match_token: str | None = None, owned: bool = True
) -> Response:
    """Attach ``match`` with the group's key and ``match_token``, by default the match's own."""
    match_id = match if isinstance(match, str) else match.id
    body: dict[str, object] = {"match_id": match_id}
    if match_token is not None or owned:
        body["match_edit_token"] = match_token if match_token is not None else edit_token_for(match_id)
    return api_json(client, "post", f"{GROUPS}/{made.group.id}/matches", body, token=made.key)


def member_id(made: Made, name: str) -> int:
    return Member.objects.get(group=made.group, name=name).pk


# --- every address


def test_making_a_group_answers_201_with_its_id_edit_token_and_players(client: Client) -> None:
    created = ok(create(client, {"name": " Thursday ", "players": ["Ada", " Ben "]}), 201)

    group = Group.objects.get()
    assert created["id"] == group.id
    assert len(group.id) == 22
    assert created["edit_token"] == services.group_key_for(group.id)
    assert len(created["edit_token"]) == 43
    ada, ben = Member.objects.filter(group=group)
    assert created["group"] == {
        "id": group.id,
        "name": "Thursday",
        "players": [{"id": ada.pk, "name": "Ada"}, {"id": ben.pk, "name": "Ben"}],
        "matches": 0,
    }


def test_the_edit_token_is_not_the_matches_one_nor_shown_when_reading(client: Client) -> None:
    created = ok(create(client, {"name": "Thursday", "players": ["Ada"]}), 201)

    assert created["edit_token"] != edit_token_for(created["id"])
    read = client.get(f"{GROUPS}/{created['id']}")
    assert created["edit_token"] not in read.content.decode()


def test_reading_a_group_needs_only_its_id(made: Made, client: Client) -> None:
    attach_owned(group=made.group, match_id=finished_sheet().id)

    group = ok(client.get(f"{GROUPS}/{made.group.id}"))

    assert group == {
        "id": made.group.id,
        "name": "Thursday",
        "players": [{"id": member_id(made, name), "name": name} for name in ("Ada", "Ben", "Cy")],
        "matches": 1,
    }


@pytest.mark.parametrize("group_id", [MISSING, "nope", "x" * 200])
def test_a_missing_group_is_404(db: None, client: Client, group_id: str) -> None:
    message = error_of(client.get(f"{GROUPS}/{group_id}"), "not_found", 404)
    assert message == "There is no group at this address."
    for path in ("matches", "stats", "export"):
        error_of(client.get(f"{GROUPS}/{group_id}/{path}"), "not_found", 404)


def test_adding_a_player_answers_the_group_with_them_last(made: Made, client: Client) -> None:
    group = ok(api_json(client, "post", f"{GROUPS}/{made.group.id}/players", {"name": " Dee "}, token=made.key), 201)

    assert [player["name"] for player in group["players"]] == ["Ada", "Ben", "Cy", "Dee"]
    assert group["players"][-1]["id"] == member_id(made, "Dee")


def test_a_player_named_like_another_ignoring_case_is_refused(made: Made, client: Client) -> None:
    before = counts()
    response = api_json(client, "post", f"{GROUPS}/{made.group.id}/players", {"name": "BEN"}, token=made.key)

    assert error_of(response, "invalid", 422) == "The group already has a player called “BEN”."
    assert counts() == before


def test_renaming_a_player_keeps_their_matches(made: Made, client: Client) -> None:
    attach_owned(group=made.group, match_id=finished_sheet(scores=(3, 9, 1)).id)
    ben = member_id(made, "Ben")

    group = ok(api_json(client, "patch", f"{GROUPS}/{made.group.id}/players/{ben}", {"name": "Benoît"}, token=made.key))

    assert group["players"][1] == {"id": ben, "name": "Benoît"}
    [match] = ok(client.get(f"{GROUPS}/{made.group.id}/matches"))["matches"]
    assert match["players"][1] == {
        "player_id": ben,
        "name": "Benoît",
        "score": 9,
        "rank": 1,
        "winner": True,
        "starts": False,
    }
    stats = ok(client.get(f"{GROUPS}/{made.group.id}/stats"))
    assert stats["overall"]["players"][0]["name"] == "Benoît"
    assert stats["overall"]["players"][0]["player_id"] == ben


def test_renaming_a_player_of_another_group_is_404(made: Made, client: Client) -> None:
    other, _key = services.group_create(name="Other", players=["Zed"])
    zed = Member.objects.get(group=other).pk

    for player_id in (zed, 999_999):
        response = api_json(
            client, "patch", f"{GROUPS}/{made.group.id}/players/{player_id}", {"name": "Eve"}, token=made.key
        )
        assert error_of(response, "not_found", 404) == "This group has no such player."
    assert Member.objects.get(pk=zed).name == "Zed"


def test_attaching_a_match_answers_the_play(made: Made, client: Client) -> None:
    match = finished_sheet(players=("ben", "Dee"), scores=(4, 11), title="Rummy", first=1)

    play = ok(attach(client, made, match), 201)

    stored = Play.objects.get()
    assert play["id"] == stored.uuid
    assert str(uuid.UUID(play["id"])) == play["id"]
    assert play["match_id"] == match.id
    assert (play["game"], play["game_name"], play["over"]) == ("sheet", "Rummy", True)
    assert play["started_at"].endswith("Z")
    assert play["ended_at"].endswith("Z")
    assert play["duration_min"] >= 0
    assert play["players"] == [
        {"player_id": member_id(made, "Ben"), "name": "Ben", "score": 4, "rank": 2, "winner": False, "starts": False},
        {"player_id": member_id(made, "Dee"), "name": "Dee", "score": 11, "rank": 1, "winner": True, "starts": True},
    ]
    assert ok(client.get(f"{GROUPS}/{made.group.id}"))["matches"] == 1


def test_a_match_in_a_group_already_is_409_and_a_missing_one_404(made: Made, client: Client) -> None:
    match = finished_sheet()
    ok(attach(client, made, match), 201)
    other, other_key = services.group_create(name="Other", players=["Ada"])
    before = counts()

    assert error_of(attach(client, made, match), "conflict", 409) == "This match is already in a group’s history."
    body = {"match_id": match.id, "match_edit_token": edit_token_for(match.id)}
    response = api_json(client, "post", f"{GROUPS}/{other.id}/matches", body, token=other_key)
    error_of(response, "conflict", 409)
    for missing in (MISSING, "https://example.com/tables/x/", "?"):
        # The group's address is right; the body names no match (422, not 404).
        assert error_of(attach(client, made, missing), "invalid", 422) == "There is no match at this address."
    assert counts() == before


def test_the_history_is_newest_first_and_follows_the_matches(made: Made, client: Client) -> None:
    older = finished_pickomino(("Ada", "Ben"))
    going = new_match("sheet", ("Ada", "Cy"), {"title": "Skyjo", "rounds": 2})
    for match in (older, going):
        ok(attach(client, made, match), 201)

    before = ok(client.get(f"{GROUPS}/{made.group.id}/matches"))["matches"]
    act(going, round_(3, 8), round_(1, 1))
    after = ok(client.get(f"{GROUPS}/{made.group.id}/matches"))["matches"]

    assert [match["match_id"] for match in before] == [going.id, older.id]
    assert before[0]["over"] is False
    assert [seat["winner"] for seat in before[0]["players"]] == [False, False]
    assert [match["match_id"] for match in after] == [going.id, older.id]
    assert after[0]["over"] is True
    assert [(seat["score"], seat["winner"]) for seat in after[0]["players"]] == [(4, False), (9, True)]


@pytest.mark.parametrize(
    "match_token", [None, "", "not-the-token", "the group's key", "another match's token", "x" * 129]
)
def test_a_watch_id_alone_never_attaches_a_match_by_the_api(
    made: Made, client: Client, match_token: str | None
) -> None:
    match = finished_sheet()
    if match_token == "the group's key":
        match_token = made.key
    elif match_token == "another match's token":
        match_token = edit_token_for(finished_sheet().id)
    before = counts()

    response = attach(client, made, match, match_token=match_token, owned=False)

    if match_token is not None and len(match_token) > 128:
        error_of(response, "invalid", 422)
    else:
        message = error_of(response, "forbidden", 403)
        assert "match_edit_token" in message
    assert counts() == before
    ok(attach(client, made, match), 201)  # not squatted: its owners still attach it


def test_deleting_a_match_of_the_group_takes_it_out_of_the_history_and_leaves_the_match(
    made: Made, client: Client
) -> None:
    kept, gone = finished_sheet(), finished_yahtzee("Ada")
    ok(attach(client, made, kept), 201)
    play = ok(attach(client, made, gone), 201)
    before = counts()

    response = api_json(client, "delete", f"{GROUPS}/{made.group.id}/matches/{play['id']}", token=made.key)

    assert response.status_code == 204
    assert response.content == b""
    # A group's key is no right over a match: it leaves the history, not the database.
    assert counts() == before | {"plays": before["plays"] - 1}
    listed = ok(client.get(f"{GROUPS}/{made.group.id}/matches"))["matches"]
    assert [match["match_id"] for match in listed] == [kept.id]
    assert LogEntry.objects.filter(match_id=gone.id).count() == 13
    assert client.get(f"/api/v1/matches/{gone.id}").status_code == 200
    again = api_json(client, "delete", f"{GROUPS}/{made.group.id}/matches/{play['id']}", token=made.key)
    assert error_of(again, "not_found", 404) == "This group has no such match."


def test_deleting_a_match_of_another_group_is_404(made: Made, client: Client) -> None:
    other, _key = services.group_create(name="Other", players=["Ada"])
    theirs = attach_owned(group=other, match_id=finished_sheet(players=("Ada",), scores=(2,)).id)
    before = counts()

    response = api_json(client, "delete", f"{GROUPS}/{made.group.id}/matches/{theirs.uuid}", token=made.key)

    error_of(response, "not_found", 404)
    assert counts() == before


def test_the_stats_answer_every_section(made: Made, client: Client) -> None:
    for match in (finished_sheet(scores=(1, 5, 5), title="Rummy"), finished_pickomino(("Cy", "Ada"))):
        attach_owned(group=made.group, match_id=match.id)

    stats = ok(client.get(f"{GROUPS}/{made.group.id}/stats"))

    assert stats["overall"]["key"] == "all"
    assert stats["overall"]["game"] is None
    assert stats["overall"]["plays"] == 2
    # Rummy: Ben and Cy share the win; Pickomino: Ada wins by the 36.
    # One win each: Ben's of 1 play first (the best rate), then Ada and Cy by name.
    assert [(line["name"], line["plays"], line["wins"]) for line in stats["overall"]["players"]] == [
        ("Ben", 1, 1),
        ("Ada", 2, 1),
        ("Cy", 2, 1),
    ]
    assert [(section["key"], section["game"], section["name"], section["plays"]) for section in stats["games"]] == [
        ("pickomino", "pickomino", "Pickomino", 1),
        ("sheet:rummy", "sheet", "Rummy", 1),
    ]


def test_a_group_without_a_match_has_empty_stats(made: Made, client: Client) -> None:
    stats = ok(client.get(f"{GROUPS}/{made.group.id}/stats"))

    assert stats["overall"]["plays"] == 0
    assert stats["overall"]["players"] == []
    assert stats["games"] == []


def test_the_json_export_is_a_bg_stats_file_to_download(made: Made, client: Client) -> None:
    match = finished_pickomino(("Ada", "Ben"))
    attach_owned(group=made.group, match_id=match.id)

    response = client.get(f"{GROUPS}/{made.group.id}/export")

    data = ok(response)
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="marquoir-thursday.json"'
    assert [game["name"] for game in data["games"]] == ["Pickomino"]
    assert data["games"][0]["bggId"] == 15818
    assert [player["name"] for player in data["players"]] == ["Ada", "Ben", "Cy"]  # every member
    [play] = data["plays"]
    assert [(score["score"], score["winner"]) for score in play["playerScores"]] == [("20", False), ("20", True)]
    assert play["marquoir"]["matchId"] == match.id
    assert data["marquoir"] == {"format": 1, "group": "Thursday"}
    assert ok(client.get(f"{GROUPS}/{made.group.id}/export?format=json")) == data


def test_the_csv_export_is_text_csv_with_a_header_row(made: Made, client: Client) -> None:
    attach_owned(group=made.group, match_id=finished_sheet(scores=(10, 7, 3)).id)

    response = client.get(f"{GROUPS}/{made.group.id}/export", {"format": "csv"})

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="marquoir-thursday.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert rows[0] == [
        "play_id",
        "date",
        "game",
        "duration_min",
        "seat",
        "player",
        "score",
        "rank",
        "winner",
        "start_player",
    ]
    assert [(row[5], row[6], row[8]) for row in rows[1:]] == [("Ada", "10", "1"), ("Ben", "7", "0"), ("Cy", "3", "0")]


@pytest.mark.parametrize("query", ["format=xml", "format=", "format=JSON", "format=csv,json"])
def test_an_export_format_other_than_json_or_csv_is_422(made: Made, client: Client, query: str) -> None:
    response = client.get(f"{GROUPS}/{made.group.id}/export?{query}")

    assert error_of(response, "invalid", 422) == "The parameters of this address are missing or not valid."


def test_an_export_imports_back_as_a_new_group(made: Made, client: Client) -> None:
    for match in (finished_sheet(), finished_pickomino(("Ada", "Ben")), finished_yahtzee("Cy")):
        attach_owned(group=made.group, match_id=match.id)
    exported = client.get(f"{GROUPS}/{made.group.id}/export").content

    created = ok(api_json(client, "post", f"{GROUPS}/import", exported), 201)

    assert created["id"] != made.group.id
    assert created["edit_token"] == services.group_key_for(created["id"])
    assert created["group"]["name"] == "Thursday"
    assert created["group"]["matches"] == 3
    old = ok(client.get(f"{GROUPS}/{made.group.id}/matches"))["matches"]
    new = ok(client.get(f"{GROUPS}/{created['id']}/matches"))["matches"]
    assert all(match["match_id"] is None for match in new)

    def seats(matches: list[dict[str, Any]]) -> list[tuple[str, list[tuple[str, float, bool]]]]:
        # By id: these plays all ended within one second, which is all a file keeps.
        return sorted(
            (match["id"], [(seat["name"], seat["score"], seat["winner"]) for seat in match["players"]])
            for match in matches
        )

    assert seats(new) == seats(old)
    again = ok(api_json(client, "post", f"{GROUPS}/import", exported), 201)
    assert again["id"] not in {made.group.id, created["id"]}
    assert Group.objects.count() == 3


def test_deleting_the_group_deletes_it_and_leaves_its_matches_to_their_owners(made: Made, client: Client) -> None:
    matches = [finished_sheet(), finished_pickomino(("Ada", "Ben"))]
    for match in matches:
        attach_owned(group=made.group, match_id=match.id)

    response = api_json(client, "delete", f"{GROUPS}/{made.group.id}", token=made.key)

    assert response.status_code == 204
    assert counts() == {"groups": 0, "members": 0, "plays": 0, "devices": 0, "matches": 2, "log": 1 + 16}
    error_of(client.get(f"{GROUPS}/{made.group.id}"), "not_found", 404)


# --- the token


def owned_match_body() -> dict[str, str]:
    """An attach body with the match's own write right: only the group's key is missing."""
    match_id = finished_sheet(players=("Ada",), scores=(1,)).id
    return {"match_id": match_id, "match_edit_token": edit_token_for(match_id)}


def writes(made: Made) -> list[tuple[str, str, object]]:
    """Every write to the group: (method, path, a good body)."""
    play = attach_owned(group=made.group, match_id=finished_sheet().id)
    group = f"{GROUPS}/{made.group.id}"
    return [
        ("delete", group, None),
        ("post", f"{group}/players", {"name": "Dee"}),
        ("patch", f"{group}/players/{member_id(made, 'Ada')}", {"name": "Eve"}),
        ("post", f"{group}/matches", owned_match_body()),
        ("delete", f"{group}/matches/{play.uuid}", None),
    ]


def test_a_write_without_the_token_is_401_and_asks_for_it(made: Made, client: Client) -> None:
    for method, path, body in writes(made):
        before = counts()
        response = api_json(client, method, path, body)
        assert error_of(response, "unauthorized", 401) == UNAUTHORIZED, (method, path)
        assert response["WWW-Authenticate"] == 'Bearer realm="marquoir"'
        assert counts() == before


def test_a_wrong_token_is_401(made: Made, client: Client) -> None:
    for method, path, body in writes(made):
        before = counts()
        for token in ("x" * 43, made.key[:-1], made.key + "x", made.key.lower(), ""):
            error_of(api_json(client, method, path, body, token=token), "unauthorized", 401)
        for authorization in (made.key, f"Basic {made.key}", f"Token {made.key}"):
            headers = {"Authorization": authorization}
            data = json.dumps(body) if body is not None else ""
            response = getattr(client, method)(path, data=data, content_type="application/json", headers=headers)
            error_of(response, "unauthorized", 401)
        assert counts() == before


def test_a_matches_token_does_not_open_a_group(made: Made, client: Client) -> None:
    match = new_match("sheet", ("Ada",), {"rounds": 1})
    match_token = edit_token_for(match.id)
    under_the_matches_salt = edit_token_for(made.group.id)  # the group's id, signed as a match's
    for method, path, body in writes(made):
        before = counts()
        for token in (match_token, under_the_matches_salt):
            error_of(api_json(client, method, path, body, token=token), "unauthorized", 401)
        assert counts() == before


def test_a_groups_token_does_not_open_a_match(made: Made, client: Client) -> None:
    match = new_match("sheet", ("Ada",), {"rounds": 1})
    for token in (made.key, services.group_key_for(match.id)):
        response = api_json(client, "post", f"/api/v1/matches/{match.id}/actions", round_(5), token=token)
        error_of(response, "unauthorized", 401)
    assert LogEntry.objects.count() == 0


def test_the_token_of_one_group_does_not_open_another(made: Made, client: Client) -> None:
    _other, other_key = services.group_create(name="Other", players=["Ada"])
    for method, path, body in writes(made):
        before = counts()
        error_of(api_json(client, method, path, body, token=other_key), "unauthorized", 401)
        assert counts() == before


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("delete", "", None),
        ("post", "/players", {"name": "Dee"}),
        ("patch", "/players/1", {"name": "Dee"}),
        ("post", "/matches", {"match_id": MISSING}),
        ("delete", "/matches/00000000-0000-4000-8000-000000000000", None),
        ("post", "/players", {"hostile": True}),
    ],
)
def test_a_missing_group_is_404_to_its_own_key_and_401_to_any_other(
    db: None, client: Client, method: str, path: str, body: object
) -> None:
    # The key is checked first: a wrong one learns nothing of whether a group is there.
    wrong = api_json(client, method, f"{GROUPS}/{MISSING}{path}", body, token="x" * 43)
    error_of(wrong, "unauthorized", 401)
    # The right key for that id (derived from it): no group is there to change.
    response = api_json(client, method, f"{GROUPS}/{MISSING}{path}", body, token=services.group_key_for(MISSING))
    assert error_of(response, "not_found", 404) == "There is no group at this address."
    assert counts()["groups"] == 0


def test_a_write_without_any_token_is_401_even_where_no_group_is(db: None, client: Client) -> None:
    # Nothing is looked up without credentials: a group deleted a moment ago answers as an
    # existing one would, which is all a client without its token needs to know.
    response = api_json(client, "delete", f"{GROUPS}/{MISSING}", None)
    error_of(response, "unauthorized", 401)
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_the_token_is_checked_before_the_body(made: Made, client: Client) -> None:
    response = api_json(client, "post", f"{GROUPS}/{made.group.id}/players", "[1, 2]")

    error_of(response, "unauthorized", 401)


# --- errors, in English and French


def test_a_refusal_is_worded_in_french_when_asked(made: Made, client: Client) -> None:
    english = create(client, {"name": True, "players": ["Ada"]})
    french = create(client, {"name": True, "players": ["Ada"]}, language="fr")
    french_region = create(client, {"name": True, "players": ["Ada"]}, language="fr-CA,fr;q=0.9,en;q=0.5")

    assert error_of(english, "invalid", 422) == 'The field "name" is not valid here.'
    assert error_of(french, "invalid", 422) == "Le champ «\u00a0name\u00a0» n’est pas valable ici."
    assert error_of(french_region, "invalid", 422) == "Le champ «\u00a0name\u00a0» n’est pas valable ici."
    assert Group.objects.count() == 1


def test_a_groups_own_refusals_are_worded_in_french(made: Made, client: Client) -> None:
    group = f"{GROUPS}/{made.group.id}"

    missing = client.get(f"{GROUPS}/{MISSING}", headers={"Accept-Language": "fr"})
    twice = api_json(client, "post", f"{group}/players", {"name": "ada"}, token=made.key, language="fr")
    no_key = api_json(client, "delete", group, language="fr")
    too_many = api_json(client, "post", f"{GROUPS}/import", a_file(5_001), language="fr")

    assert error_of(missing, "not_found", 404) == "Aucun groupe à cette adresse."
    assert error_of(twice, "invalid", 422) == "Un joueur du groupe s’appelle déjà «\u00a0ada\u00a0»."
    french = error_of(no_key, "unauthorized", 401)
    assert french != UNAUTHORIZED
    assert "groupe" in french
    assert error_of(too_many, "invalid", 422) == "Ce fichier contient 5001 parties\u00a0: 5000 au plus."
    assert counts()["groups"] == 1


def test_a_body_too_large_is_worded_in_french(made: Made, client: Client) -> None:
    body = json.dumps({"name": "x" * MAX_BODY_BYTES, "players": ["Ada"]})

    message = error_of(create(client, body, language="fr"), "too_large", 413)

    assert "trop" in message
    assert str(MAX_BODY_BYTES) in message.replace("\u202f", "").replace(" ", "")


# --- hostile bodies


GOOD = {"name": "Thursday", "players": ["Ada", "Ben"]}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[1]", "The request body must be a JSON object."),
        ('"Thursday"', "The request body must be a JSON object."),
        ("null", "The request body must be a JSON object."),
        ("", "The request body must be a JSON object."),
        ("{", "The request body is not valid JSON."),
        ({**GOOD, "colour": "red"}, 'Unknown field "colour".'),
        ({**GOOD, "f" * 5000: 1}, 'Unknown field "' + "f" * 40 + "…" + '".'),
        ({"players": ["Ada"]}, 'The field "name" is not valid here.'),
        ({"name": "Thursday"}, 'The field "players" is not valid here.'),
        ({**GOOD, "name": True}, 'The field "name" is not valid here.'),
        ({**GOOD, "name": 12}, 'The field "name" is not valid here.'),
        ({**GOOD, "name": None}, 'The field "name" is not valid here.'),
        ({**GOOD, "name": ["Thursday"]}, 'The field "name" is not valid here.'),
        ({**GOOD, "players": "Ada"}, 'The field "players" is not valid here.'),
        ({**GOOD, "players": ["Ada", 3]}, 'The field "players" is not valid here.'),
        ({**GOOD, "players": ["Ada", True]}, 'The field "players" is not valid here.'),
        ({**GOOD, "players": []}, 'The field "players" is not valid here.'),
        ({**GOOD, "players": [f"P{n}" for n in range(31)]}, 'The field "players" is not valid here.'),
        ({**GOOD, "players": ["Ada", "ADA"]}, "The group already has a player called “ADA”."),
        ({**GOOD, "players": ["x" * 41]}, "A name has at most 40 characters."),
        ({**GOOD, "name": "x" * 61}, "A group’s name has at most 60 characters."),
        ({**GOOD, "name": "   "}, "The group needs a name."),
        ({**GOOD, "name": ""}, 'The field "name" is not valid here.'),
        ({**GOOD, "name": "Thurs\x07day"}, 'The field "name" is not valid here.'),
        ({**GOOD, "name": "Thurs\x85day"}, 'The field "name" is not valid here.'),
        ({**GOOD, "name": "\u202eyadsruhT"}, "A group’s name needs visible letters, and no control characters."),
        ({**GOOD, "name": "\u200b"}, "A group’s name needs visible letters, and no control characters."),
        ({**GOOD, "players": ["A\x00"]}, 'The field "players" is not valid here.'),
        ({**GOOD, "players": ["\u0301"]}, None),
        ('{"name": "\\ud800", "players": ["Ada"]}', 'The field "name" is not valid here.'),
        ('{"name": "x", "players": ["\\udfff"]}', 'The field "players" is not valid here.'),
        ('{"name": "x", "players": ["Ada"], "name": "y"}', 'The field "name" is given twice.'),
    ],
    ids=lambda value: None,
)
def test_a_hostile_body_is_refused_and_creates_nothing(
    db: None, client: Client, body: object, message: str | None
) -> None:
    before = counts()

    said = error_of(create(client, body), "invalid", 422)

    if message is not None:
        assert said == message
    assert counts() == before


@pytest.mark.parametrize("name", ["A²", "Ünïcødé", "李雷", "👩‍👩‍👧", "x" * 60, "O'Brien & <Co>"])
def test_a_name_is_text_any_visible_characters_are_fine(db: None, client: Client, name: str) -> None:
    created = ok(create(client, {"name": name, "players": [name[:40], "B²"]}), 201)

    assert created["group"]["name"] == name
    assert [player["name"] for player in created["group"]["players"]] == [name[:40], "B²"]


def test_thirty_players_are_fine(db: None, client: Client) -> None:
    created = ok(create(client, {"name": "Club", "players": [f"P{n}" for n in range(30)]}), 201)

    assert len(created["group"]["players"]) == 30


def test_a_bidi_override_anywhere_in_a_group_name_is_refused(db: None, client: Client) -> None:
    response = create(client, {"name": "x" * 45 + "\u202e" + "y", "players": ["Ada"]})

    error_of(response, "invalid", 422)
    assert Group.objects.count() == 0


def test_a_body_over_16_kib_is_413_unread(db: None, client: Client) -> None:
    body = json.dumps({"name": "Thursday", "players": ["Ada"], "pad": "x" * MAX_BODY_BYTES})

    message = error_of(create(client, body), "too_large", 413)

    assert message == f"The request body is too large: {MAX_BODY_BYTES} bytes at most."
    assert Group.objects.count() == 0


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_a_body_that_does_not_say_json_is_415(db: None, client: Client, content_type: str) -> None:
    response = api_json(client, "post", GROUPS, GOOD, content_type=content_type)

    error_of(response, "unsupported_media_type", 415)
    assert Group.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": True}, 422),
        ({"name": 7}, 422),
        ({"name": "Eve", "extra": 1}, 422),
        ({}, 422),
        ("[]", 422),
        ('{"name": "\\ud800"}', 422),
        ('{"name": "Eve", "name": "Zoe"}', 422),
        ({"name": "Eve\x1b"}, 422),
        ({"name": "x" * 41}, 422),
        ({"name": "Eve", "pad": "x" * MAX_BODY_BYTES}, 413),
    ],
    ids=lambda value: None,
)
def test_a_hostile_player_body_changes_nothing(made: Made, client: Client, body: object, status: int) -> None:
    ada = member_id(made, "Ada")
    group = f"{GROUPS}/{made.group.id}"
    before = counts()

    for method, path in (("post", f"{group}/players"), ("patch", f"{group}/players/{ada}")):
        response = api_json(client, method, path, body, token=made.key)
        assert response.status_code == status, (method, response.content)
        error_of(response, "too_large" if status == 413 else "invalid", status)
    assert counts() == before
    assert [m.name for m in Member.objects.filter(group=made.group)] == ["Ada", "Ben", "Cy"]


@pytest.mark.parametrize("body", [{"match_id": 12}, {"match_id": ""}, {"match_id": "x" * 65}, {}, {"match": "x"}])
def test_a_hostile_attach_body_changes_nothing(made: Made, client: Client, body: object) -> None:
    before = counts()

    error_of(api_json(client, "post", f"{GROUPS}/{made.group.id}/matches", body, token=made.key), "invalid", 422)
    assert counts() == before


# --- hostile files


def a_file(plays: int, *, players: int = 1) -> dict[str, Any]:
    """A BG Stats-shaped file of ``plays`` one-seat plays of one game (cheap to build)."""
    return {
        "games": [{"id": 1, "name": "Skyjo"}],
        "players": [{"id": number, "name": f"P{number}"} for number in range(1, players + 1)],
        "plays": [
            {
                "uuid": str(uuid.UUID(int=number, version=4)),
                "gameRefId": 1,
                "playDate": "2026-01-02 20:00:00",
                "playerScores": [{"playerRefId": 1, "score": "3"}],
            }
            for number in range(plays)
        ],
    }


def test_a_bg_stats_file_is_imported(db: None, client: Client) -> None:
    created = ok(api_json(client, "post", f"{GROUPS}/import", a_file(3)), 201)

    assert created["group"]["name"] == "Imported from BG Stats"
    assert created["group"]["matches"] == 3
    assert [player["name"] for player in created["group"]["players"]] == ["P1"]


def test_an_import_over_4_mib_is_413(db: None, client: Client) -> None:
    body = '{"plays": [], "pad": "' + "x" * MAX_IMPORT_BYTES + '"}'

    message = error_of(api_json(client, "post", f"{GROUPS}/import", body), "too_large", 413)

    assert str(MAX_IMPORT_BYTES) in message
    assert counts()["groups"] == 0


def test_an_import_may_be_larger_than_a_plain_body(db: None, client: Client) -> None:
    data = a_file(200)
    data["pad"] = "x" * (2 * MAX_BODY_BYTES)  # unread fields are let through

    created = ok(api_json(client, "post", f"{GROUPS}/import", data), 201)

    assert created["group"]["matches"] == 200


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda data: a_file(5_001), "This file holds 5001 matches: 5000 at most."),
        (
            lambda data: data["plays"][1]["playerScores"].append({"playerRefId": 99}),
            "Match 2 of this file names a player the file does not list.",
        ),
        (lambda data: [], "This file is not an export of a group: it holds no JSON object."),
        (
            lambda data: data.pop("plays") and None,
            "This file is not an export of a group: “plays” is missing or wrong.",
        ),
        (
            lambda data: data["plays"][0].update(playDate="yesterday"),
            "Match 1 of this file has a date that cannot be read: “yesterday”.",
        ),
        (
            lambda data: data["plays"][2]["playerScores"][0].update(score="1e999"),
            "Match 3 of this file has a score that is no number: “1e999”.",
        ),
        (lambda data: data["plays"][1].update(uuid=data["plays"][0]["uuid"]), "Match 2 of this file is there twice."),
        (
            lambda data: data.update(marquoir={"format": 2, "group": "x"}),
            "This file was written by a newer Marquoir (format 2).",
        ),
        (lambda data: data["players"][0].update(name="\u202e"), None),
        (lambda data: data.update(players=[{"id": n, "name": f"P{n}"} for n in range(1, 201)] * 2), None),
    ],
    ids=[
        "5001-plays",
        "missing-player",
        "not-an-object",
        "no-plays",
        "bad-date",
        "bad-score",
        "play-twice",
        "newer-format",
        "bad-name",
        "too-many-players",
    ],
)
def test_a_hostile_file_is_422_naming_the_problem_and_creates_nothing(
    made: Made, client: Client, change: Any, message: str | None
) -> None:
    data = a_file(3)
    changed = change(data)
    if changed is not None:
        data = changed
    before = counts()

    said = error_of(api_json(client, "post", f"{GROUPS}/import", data), "invalid", 422)

    if message is not None:
        assert said == message
    assert counts() == before


def test_a_file_whose_matches_seat_31_players_is_refused_saying_so(db: None, client: Client) -> None:
    data = a_file(0, players=31)
    data["plays"] = [
        {
            "uuid": str(uuid.UUID(int=number, version=4)),
            "gameRefId": 1,
            "playDate": "2026-01-02 20:00:00",
            "playerScores": [{"playerRefId": number + 1}],
        }
        for number in range(31)
    ]

    message = error_of(api_json(client, "post", f"{GROUPS}/import", data), "invalid", 422)

    assert message == "The matches of this file seat 31 players: a group has 30 at most."
    assert counts()["groups"] == 0


def test_a_bg_stats_backup_listing_200_players_imports_those_who_played(db: None, client: Client) -> None:
    data = a_file(2, players=200)  # a backup lists everyone its owner ever played with
    data["plays"][1]["playerScores"] = [{"playerRefId": 1, "score": "3"}, {"playerRefId": 150, "score": "5"}]

    created = ok(api_json(client, "post", f"{GROUPS}/import", data), 201)

    assert [player["name"] for player in created["group"]["players"]] == ["P1", "P150"]


# --- the allowance of new groups


@override_settings(MATCH_CREATION_LIMIT=2)
def test_new_groups_past_the_allowance_are_429_with_retry_after(db: None, client: Client) -> None:
    statuses = [create(client, GOOD).status_code for _ in range(2)]
    refused = create(client, GOOD, language="fr")

    assert statuses == [201, 201]
    message = error_of(refused, "rate_limited", 429)
    assert refused["Retry-After"] == "600"
    assert "10" in message
    assert Group.objects.count() == 2
    imported = api_json(client, "post", f"{GROUPS}/import", a_file(1))
    error_of(imported, "rate_limited", 429)  # an import is a new group too
    assert imported["Retry-After"] == "600"
    assert Group.objects.count() == 2
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert create(other, GOOD).status_code == 201  # another client has its own


@override_settings(MATCH_CREATION_LIMIT=1)
def test_a_refused_body_or_file_costs_nothing(db: None, client: Client) -> None:
    error_of(create(client, {"name": "", "players": ["Ada"]}), "invalid", 422)
    error_of(api_json(client, "post", f"{GROUPS}/import", {"plays": []}), "invalid", 422)

    assert create(client, GOOD).status_code == 201


@override_settings(MATCH_CREATION_LIMIT=1)
def test_groups_and_matches_share_the_allowance(db: None, client: Client) -> None:
    assert create(client, GOOD).status_code == 201

    response = client.post("/api/v1/matches", {"game": "sheet", "players": ["Ada"]}, content_type="application/json")

    assert response.status_code == 429
    assert Match.objects.count() == 0


def test_an_untitled_sheet_and_a_game_come_back_named_in_the_readers_language(made: Made, client: Client) -> None:
    for match in (finished_sheet(title=None), finished_tarot(("Ada", "Ben", "Cy", "Dee"))):
        attach_owned(group=made.group, match_id=match.id)
    exported = client.get(f"{GROUPS}/{made.group.id}/export").content

    created = ok(api_json(client, "post", f"{GROUPS}/import", exported), 201)

    english = ok(client.get(f"{GROUPS}/{created['id']}/matches"))["matches"]
    french = ok(client.get(f"{GROUPS}/{created['id']}/matches", headers={"Accept-Language": "fr"}))["matches"]
    assert sorted(match["game_name"] for match in english) == ["French Tarot", "Score sheet"]
    assert sorted(match["game_name"] for match in french) == ["Feuille de scores", "Tarot"]
    assert set(Play.objects.filter(group_id=created["id"]).values_list("game_name", flat=True)) == {""}


def test_a_group_that_played_a_sheet_of_twenty_exports_and_imports_back(made: Made, client: Client) -> None:
    players = [f"Player {number}" for number in range(20)]
    attach_owned(group=made.group, match_id=finished_sheet(players=players, scores=tuple(range(20))).id)
    exported = client.get(f"{GROUPS}/{made.group.id}/export").content

    created = ok(api_json(client, "post", f"{GROUPS}/import", exported), 201)

    [match] = ok(client.get(f"{GROUPS}/{created['id']}/matches"))["matches"]
    assert [seat["name"] for seat in match["players"]] == players
