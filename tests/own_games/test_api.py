"""Own games in API v1: make, read, change (a new version), a version, export, import,
check; a match of one as of any declared game, keeping its version while the game changes;
the rights (a game's key, no other's), hostile bodies, and the words of every refusal."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from marquoir.own_games import files
from marquoir.own_games.models import OwnGame, OwnGameVersion
from marquoir.tables.models import Match
from marquoir.tables.services import edit_token_for

from .conftest import DOUBLED, MATCHES, OWN_GAMES, api, create, doubled, refusal

pytestmark = pytest.mark.django_db


def new_match(client: Client, game: str, players: list[str] | None = None) -> dict[str, Any]:
    response = api(client, "post", MATCHES, {"game": game, "players": players or ["Ada", "Ben"]})
    assert response.status_code == 201, response.content
    answer: dict[str, Any] = response.json()
    return answer


def play_round(client: Client, match: dict[str, Any], cards: list[int], ended_by: int) -> dict[str, Any]:
    body = {"type": "round", "inputs": {"cards": cards, "ended_by": ended_by}}
    response = api(client, "post", f"{MATCHES}/{match['id']}/actions", body, token=match["edit_token"])
    assert response.status_code == 200, response.content
    answer: dict[str, Any] = response.json()
    return answer


def test_a_game_is_made_from_its_file_and_read_by_its_id(client: Client):
    made = create(client)
    own = made["own_game"]
    assert own["game"] == f"own.{made['id']}.1"
    assert own["names"] == {"en": "Skyjo doubled", "fr": "Skyjo doublé"}
    assert (own["min_players"], own["max_players"]) == (2, 6)
    read = api(client, "get", f"{OWN_GAMES}/{made['id']}").json()
    assert read == own
    assert "edit_token" not in read


def test_a_match_of_an_own_game_keeps_score_by_its_formulas(client: Client):
    made = create(client)
    match = new_match(client, f"own.{made['id']}")
    assert match["state"]["game"] == f"own.{made['id']}.1"
    state = play_round(client, match, [10, 4], 0)
    assert [player["score"] for player in state["players"]] == [20, 4]
    state = play_round(client, match, [90, 3], 1)
    assert [player["rounds"] for player in state["players"]] == [[20, 90], [4, 6]]  # Ben ended: doubled
    assert state["over"] is True
    assert state["winners"] == [1]


def test_a_round_that_breaks_the_game_s_check_is_refused_with_its_message(client: Client):
    made = create(client)
    match = new_match(client, f"own.{made['id']}")
    body = {"type": "round", "inputs": {"cards": [120, 130], "ended_by": 0}}
    response = api(client, "post", f"{MATCHES}/{match['id']}/actions", body, token=match["edit_token"], language="fr")
    assert refusal(response, "rule", 422)["message"] == "Quelqu’un a moins de 100."


def test_changing_the_game_makes_a_version_and_the_match_under_way_keeps_its_own(client: Client):
    made = create(client)
    match = new_match(client, f"own.{made['id']}")
    tripled = doubled(
        points=[{**DOUBLED["points"][0], "formula": "seat == ended_by && cards > 0 ? 3 * cards : cards"}], examples=[]
    )
    response = api(client, "put", f"{OWN_GAMES}/{made['id']}", {"file": tripled}, token=made["edit_token"])
    assert response.status_code == 200, response.content
    assert response.json()["version"] == 2
    assert [version["number"] for version in response.json()["versions"]] == [2, 1]
    old = play_round(client, match, [10, 4], 0)
    assert old["game"] == f"own.{made['id']}.1"
    assert old["players"][0]["score"] == 20  # still doubled
    fresh = new_match(client, f"own.{made['id']}")
    assert fresh["state"]["game"] == f"own.{made['id']}.2"
    assert play_round(client, fresh, [10, 4], 0)["players"][0]["score"] == 30
    again = new_match(client, f"own.{made['id']}.1")  # a version by its number
    assert play_round(client, again, [10, 4], 0)["players"][0]["score"] == 20


def test_the_same_file_again_makes_no_version(client: Client):
    made = create(client)
    response = api(client, "put", f"{OWN_GAMES}/{made['id']}", {"file": DOUBLED}, token=made["edit_token"])
    assert response.json()["version"] == 1
    assert OwnGameVersion.objects.count() == 1


def test_a_change_needs_the_game_s_own_key(client: Client):
    made = create(client)
    other = create(client, doubled(box={"names": {"en": "Other"}, "players": [2, 3]}))
    match = new_match(client, f"own.{made['id']}")
    path = f"{OWN_GAMES}/{made['id']}"
    for token in (None, "", "x" * 43, other["edit_token"], match["edit_token"], edit_token_for(made["id"])):
        response = api(client, "put", path, {"file": doubled(winner="highest")}, token=token)
        refusal(response, "unauthorized", 401)
    assert OwnGameVersion.objects.filter(game_id=made["id"]).count() == 1


def test_an_unknown_game_or_version_is_not_found(client: Client):
    made = create(client)
    refusal(api(client, "get", f"{OWN_GAMES}/{'A' * 22}"), "not_found", 404)
    refusal(api(client, "get", f"{OWN_GAMES}/{made['id']}/versions/2"), "not_found", 404)
    refusal(api(client, "get", f"{OWN_GAMES}/{made['id']}/versions/0"), "not_found", 404)
    assert api(client, "get", f"{OWN_GAMES}/{made['id']}/versions/1").json()["game"] == f"own.{made['id']}.1"
    response = api(client, "post", MATCHES, {"game": f"own.{'A' * 22}", "players": ["Ada", "Ben"]})
    assert refusal(response, "invalid", 422)
    response = api(client, "post", MATCHES, {"game": f"own.{made['id']}.9", "players": ["Ada", "Ben"]})
    assert refusal(response, "invalid", 422)
    assert not Match.objects.exists()


def test_the_export_is_the_file_as_toml_and_imports_back(client: Client):
    made = create(client)
    exported = client.get(f"{OWN_GAMES}/{made['id']}/export")
    assert exported["Content-Type"].startswith("application/toml")
    text = exported.content.decode()
    assert 'formula = "seat == ended_by && cards > 0 ? 2 * cards : cards"' in text
    imported = api(client, "post", OWN_GAMES, {"toml": text})
    assert imported.status_code == 201
    assert imported.json()["own_game"]["file"] == made["own_game"]["file"]
    assert imported.json()["id"] != made["id"]


def test_a_file_is_checked_without_being_kept(client: Client):
    answer = api(client, "post", f"{OWN_GAMES}/check", {"file": DOUBLED}).json()
    assert answer == {"valid": True, "examples": 1}
    assert not OwnGame.objects.exists()


def test_a_refused_file_says_where_and_why_in_the_reader_s_language(client: Client):
    bad = doubled(points=[{"key": "cards", "label": {"en": "C", "fr": "C"}, "formula": "card * 2"}])
    error = refusal(api(client, "post", OWN_GAMES, {"file": bad}, language="fr"), "invalid", 422)
    assert error["field"] == "points.cards.formula"
    assert (
        error["message"] == "points.cards.formula\u00a0: «\u00a0card\u00a0» n’est pas un nom que cette formule connaît."
    )
    assert not OwnGame.objects.exists()


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ("{", "invalid", 422),
        ("[]", "invalid", 422),
        ({}, "invalid", 422),
        ({"file": DOUBLED, "toml": "x"}, "invalid", 422),
        ({"file": [1, 2]}, "invalid", 422),
        ({"toml": 'key = "\ud800"'}, "invalid", 422),
        ({"file": DOUBLED, "extra": 1}, "invalid", 422),
        ({"toml": "x" * (files.MAX_FILE_CHARACTERS + 1)}, "invalid", 422),
        ({"file": {"box": {"names": {"en": "<script>"}, "players": [2, 2]}}}, "invalid", 422),
    ],
)
def test_a_hostile_body_is_refused_in_the_contract_s_shape_and_keeps_nothing(
    client: Client, body: object, code: str, status: int
):
    refusal(api(client, "post", OWN_GAMES, body), code, status)
    assert not OwnGame.objects.exists()


def test_a_body_past_its_limit_is_refused_unread(client: Client):
    huge = '{"toml": "' + "x" * (files.MAX_FILE_CHARACTERS * 4 + 10) + '"}'
    refusal(api(client, "post", OWN_GAMES, huge), "too_large", 413)


@override_settings(MATCH_CREATION_LIMIT=2)
def test_new_games_are_counted_as_new_matches_are(client: Client):
    create(client)
    create(client)
    response = api(client, "post", OWN_GAMES, {"file": DOUBLED}, language="fr")
    error = refusal(response, "rate_limited", 429)
    assert error["message"].startswith("Trop de nouveaux jeux depuis ici")
    assert response["Retry-After"]
    assert OwnGame.objects.count() == 2


def test_the_game_s_description_is_served_as_any_declared_game_s(client: Client):
    made = create(client)
    described = client.get(f"/api/v1/games/own.{made['id']}").json()
    assert described["key"] == f"own.{made['id']}.1"
    assert described["declared"] is True
    assert [item["key"] for item in described["inputs"]] == ["cards", "ended_by"]
    listed = client.get("/api/v1/games").json()["games"]
    assert all(not game["key"].startswith("own.") for game in listed)  # no public gallery


def test_a_flood_of_checks_is_refused_in_memory_before_any_is_compiled(client: Client, monkeypatch: pytest.MonkeyPatch):
    from marquoir.own_games import services

    monkeypatch.setattr(services, "CHECKS_PER_WINDOW", 3)
    for _check in range(3):
        assert api(client, "post", f"{OWN_GAMES}/check", {"file": DOUBLED}).status_code == 200
    response = api(client, "post", f"{OWN_GAMES}/check", {"file": DOUBLED}, language="fr")
    assert refusal(response, "rate_limited", 429)["message"].startswith("Trop de vérifications depuis ici")
    assert client.post("/en/own-games/check/", {"name_en": "x"}).status_code == 429
    refusal(api(client, "post", OWN_GAMES, {"file": DOUBLED}), "rate_limited", 429)
    assert not OwnGame.objects.exists()
