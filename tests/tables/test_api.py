"""The JSON API v1, held to docs/api-v1.md word by word, through Django's test client: the
core's part (creation, ids and tokens, reading, undo, refusals, the guards, the OpenAPI).

Pickomino stands in for "some game" here; its own rules through the API (takes, steals,
busts, its refusals, the end, /claims) are held by tests/keepers/pickomino/test_api.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from marquoir.games.pickomino import TILES
from marquoir.tables.models import LogEntry, Match

from .conftest import (
    BUST,
    ENGLISH_AND_FRENCH,
    MATCHES,
    NO_TOKEN,
    UNDO,
    Api,
    Created,
    error_of,
    grill_faces,
    play_to_the_end_in_order,
    take,
    take_dice,
    without_seq,
)

# Create a match.


def test_it_creates_a_match_answering_201_with_id_token_and_state(api):
    response = api.create(players=["Ada", "Ben", "Cy"], first=0)
    assert response.status_code == 201
    assert response["Content-Type"].startswith("application/json")
    created = response.json()
    assert set(created) == {"id", "edit_token", "state"}
    state = created["state"]
    assert state["id"] == created["id"]
    assert state["game"] == "pickomino"
    assert state["seq"] == 0
    assert state["options"] == {"shorter_game": False, "flip_without_return": False}
    assert state["players"] == [
        {"name": "Ada", "stack": [], "worms": 0, "score": 0},
        {"name": "Ben", "stack": [], "worms": 0, "score": 0},
        {"name": "Cy", "stack": [], "worms": 0, "score": 0},
    ]
    assert state["current"] == 0
    assert state["over"] is False
    assert state["winners"] == []


def test_first_defaults_to_the_first_player(api):
    response = api.create({"game": "pickomino", "players": ["Ada", "Ben", "Cy"]})
    assert response.status_code == 201
    assert response.json()["state"]["current"] == 0


def test_the_player_given_as_first_starts(api):
    created = api.new_match(["Ada", "Ben", "Cy"], first=2)
    assert created.state["current"] == 2
    assert api.play(created, take(27))["players"][2]["stack"] == [27]


def test_it_trims_names(api):
    created = api.new_match(["  Ada ", "\tBen\n"])
    assert [player["name"] for player in created.state["players"]] == ["Ada", "Ben"]


def test_it_accepts_names_in_any_script(api):
    created = api.new_match(["Zoë", "李雷", "Шура", "Ἀλέξανδρος", "نور"])
    assert [player["name"] for player in created.state["players"]] == ["Zoë", "李雷", "Шура", "Ἀλέξανδρος", "نور"]


def test_it_accepts_names_written_with_joiners(api):
    alizadeh = "علی\u200cزاده"  # Persian spelling needs the zero-width non-joiner
    cook = "\U0001f469\u200d\U0001f373 Lou"  # an emoji sequence held by the zero-width joiner
    created = api.new_match([alizadeh, cook])
    assert [player["name"] for player in created.state["players"]] == [alizadeh, cook]


def test_it_accepts_a_name_of_40_characters(api):
    created = api.new_match(["é" * 40, "Ben"])
    assert created.state["players"][0]["name"] == "é" * 40


def test_it_counts_the_length_after_trimming(api):
    created = api.new_match(["  " + "a" * 40 + "  ", "Ben"])
    assert created.state["players"][0]["name"] == "a" * 40


@ENGLISH_AND_FRENCH
@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"game": "chess", "players": ["Ada", "Ben"]}, id="unknown game"),
        pytest.param({"game": "Pickomino", "players": ["Ada", "Ben"]}, id="game in the wrong case"),
        pytest.param({"players": ["Ada", "Ben"]}, id="no game"),
        pytest.param({"game": "pickomino"}, id="no players"),
        pytest.param({"game": "pickomino", "players": "Ada, Ben"}, id="players not a list"),
        pytest.param({"game": "pickomino", "players": ["Ada", 7]}, id="a name not text"),
        pytest.param({"game": "pickomino", "players": []}, id="no player"),
        pytest.param({"game": "pickomino", "players": ["Ada"]}, id="one player"),
        pytest.param({"game": "pickomino", "players": [f"P{i}" for i in range(8)]}, id="eight players"),
        pytest.param({"game": "pickomino", "players": ["Ada", ""]}, id="empty name"),
        pytest.param({"game": "pickomino", "players": ["Ada", "   "]}, id="blank name"),
        pytest.param({"game": "pickomino", "players": ["Ada", "a" * 41]}, id="name of 41 characters"),
        pytest.param({"game": "pickomino", "players": ["Ada", "ada"]}, id="names equal ignoring case"),
        pytest.param({"game": "pickomino", "players": ["ZOË", "zoë"]}, id="names equal ignoring case beyond ascii"),
        pytest.param({"game": "pickomino", "players": ["Ada", " Ada "]}, id="names equal once trimmed"),
        pytest.param({"game": "pickomino", "players": ["Ada", "Be\u0007n"]}, id="control character in a name"),
        pytest.param({"game": "pickomino", "players": ["Ada", "\u202eneB"]}, id="bidi override in a name"),
        pytest.param({"game": "pickomino", "players": ["Ada", "Ben"], "first": 2}, id="first beyond the players"),
        pytest.param({"game": "pickomino", "players": ["Ada", "Ben"], "first": -1}, id="first negative"),
        pytest.param({"game": "pickomino", "players": ["Ada", "Ben"], "first": "1"}, id="first as text"),
        pytest.param({"game": "pickomino", "players": ["Ada", "Ben"], "first": True}, id="first as a boolean"),
        pytest.param({"game": "pickomino", "players": ["Ada", "Ben"], "first": None}, id="first null"),
        pytest.param(
            {"game": "pickomino", "players": ["Ada", "Ben"], "options": {"speedy": True}}, id="unknown option"
        ),
        pytest.param(
            {"game": "pickomino", "players": ["Ada", "Ben"], "options": {"shorter_game": "yes"}},
            id="option not a boolean",
        ),
        pytest.param({"game": "pickomino", "players": ["Ada", "Ben"], "options": ["shorter_game"]}, id="options list"),
        pytest.param({"game": "pickomino", "players": ["Ada", "Ben"], "colour": "red"}, id="unknown field"),
        pytest.param(["pickomino", ["Ada", "Ben"]], id="a JSON array"),
        pytest.param("null", id="JSON null"),
        pytest.param('"pickomino"', id="a JSON string"),
        pytest.param('{"game": "pickomino", "players": ["Ada", "Ben"]', id="malformed JSON"),
        pytest.param("", id="empty body"),
        pytest.param(b"\xff\xfe{", id="not UTF-8"),
    ],
)
def test_it_refuses_a_bad_match_as_invalid_and_creates_nothing(api, body, language):
    message = error_of(api.create(body, language=language), "invalid", 422)
    assert message
    assert Match.objects.count() == 0


def test_it_explains_a_refused_match_in_english(api):
    message = error_of(api.create(players=["Ada", "ada"], language="en"), "invalid", 422)
    assert "differ" in message


# The id and the edit token.


def test_match_ids_are_unguessable_and_distinct(api):
    created = [api.new_match() for _ in range(8)]
    ids = [match.id for match in created]
    for match_id in ids:
        # 22 characters of the URL-safe base64 alphabet carry at least 128 random bits.
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", match_id), match_id
    assert len(set(ids)) == len(ids)


def test_edit_tokens_are_long_distinct_and_not_the_id(api):
    created = [api.new_match() for _ in range(8)]
    tokens = [match.token for match in created]
    for match in created:
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", match.token), match.token
        assert match.token != match.id
        assert match.token not in match.id
        assert match.id not in match.token
    assert len(set(tokens)) == len(tokens)


def test_the_edit_token_is_not_stored(match):
    row = Match.objects.get(pk=match.id)
    stored = json.dumps([getattr(row, field.attname) for field in Match._meta.concrete_fields], default=str)
    assert match.token not in stored


def test_the_edit_token_is_not_shown_when_reading(api, match):
    assert match.token not in api.read(match).content.decode()


# Read a match.


def test_anyone_reads_a_match_without_a_token(api, match):
    response = api.read(match)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == match.state


def test_reading_shows_the_state_the_last_action_answered(api, match):
    answered = api.play(match, take(27), BUST)
    assert api.state(match) == answered


@ENGLISH_AND_FRENCH
def test_reading_an_unknown_match_is_not_found(api, language):
    error_of(api.read("no-such-match-0123456789", language=language), "not_found", 404)


# Ids that no match can have: a NUL byte (which PostgreSQL refuses in any text, so it must
# never reach a query), a slash-free dot path, spaces, an over-long id, non-ASCII.
MALFORMED_IDS = ["%00", "abc%00def", "..", "a%20b", "x" * 65, "%C3%A9t%C3%A9"]


@pytest.mark.parametrize("match_id", MALFORMED_IDS)
def test_a_malformed_match_id_is_not_found_on_every_api_address(api, client, match, match_id):
    error_of(client.get(f"{MATCHES}/{match_id}"), "not_found", 404)
    error_of(client.get(f"{MATCHES}/{match_id}/claims?total=27&worm=true"), "not_found", 404)
    error_of(client.get(f"{MATCHES}/{match_id}/advice"), "not_found", 404)
    error_of(client.get(f"{MATCHES}/{match_id}/events"), "not_found", 404)
    acted = client.post(
        f"{MATCHES}/{match_id}/actions", take(27), content_type="application/json", HTTP_AUTHORIZATION="Bearer x"
    )
    error_of(acted, "not_found", 404)
    assert api.state(match)["seq"] == 0


# Undo.


def test_undo_restores_the_exact_previous_state_with_seq_one_more(api, match):
    before = api.play(match, take(27), take(30))
    after_bust = api.play(match, BUST)
    undone = api.play(match, UNDO)
    assert undone["seq"] == after_bust["seq"] + 1 == 4
    assert without_seq(undone) == without_seq(before)


def test_undo_of_a_steal_gives_the_tile_back(api, match):
    before = api.play(match, take(27))
    api.play(match, take(27, True, 0))
    undone = api.play(match, UNDO)
    assert without_seq(undone) == without_seq(before)
    assert undone["players"][0]["stack"] == [27]


def test_undo_of_a_bust_puts_back_the_tile_turned_down(api, match):
    before = api.play(match, take(27), BUST, BUST)
    api.play(match, BUST)
    undone = api.play(match, UNDO)
    assert without_seq(undone) == without_seq(before)
    assert grill_faces(undone)[36] == "up"


def test_undo_takes_back_one_action_in_force_at_a_time(api, match):
    api.play(match, take(27), take(30))
    state = api.play(match, UNDO, UNDO)
    assert state["seq"] == 4
    assert without_seq(state) == without_seq(match.state)


def test_undo_never_makes_seq_go_down(api, match):
    seqs = [api.play(match, body)["seq"] for body in (take(27), UNDO, take(27), BUST, UNDO, UNDO)]
    assert seqs == [1, 2, 3, 4, 5, 6]


def test_the_answer_to_an_action_is_the_state_read_afterwards(api, match):
    for body in (take(27), take(27, True, 0), BUST, UNDO):
        answered = api.play(match, body)
        assert api.state(match) == answered


# Refusals: every code of the contract, its status, the state unchanged.


def setup_match_over(api: Api, match: Created) -> dict[str, Any]:
    api.play(match, *(take(tile) for tile in reversed(TILES)))
    return take(27)


def setup_conflict(api: Api, match: Created) -> dict[str, Any]:
    api.play(match, take(27))
    return {"type": "bust", "expected_seq": 0}


CODES = [
    pytest.param("invalid", 422, lambda api, match: take(41), id="invalid"),
    pytest.param("match_over", 409, setup_match_over, id="match_over"),
    pytest.param("nothing_to_undo", 409, lambda api, match: UNDO, id="nothing_to_undo"),
    pytest.param("conflict", 409, setup_conflict, id="conflict"),
]


@ENGLISH_AND_FRENCH
@pytest.mark.parametrize(("code", "status", "prepare"), CODES)
def test_every_refusal_answers_its_code_and_status_and_changes_nothing(api, code, status, prepare, language):
    match = api.new_match(["Ada", "Ben"])
    body = prepare(api, match)
    assert api.refused(match, body, code, status, language=language)


@ENGLISH_AND_FRENCH
def test_a_wrong_token_is_unauthorized_in_either_language(api, match, language):
    assert api.refused(match, take(27), "unauthorized", 401, token="wrong", language=language)


@ENGLISH_AND_FRENCH
def test_an_unknown_match_is_not_found_when_acting(api, match, language):
    response = api.act("no-such-match-0123456789", take(27), token=match.token, language=language)
    error_of(response, "not_found", 404)
    assert api.state(match)["seq"] == 0


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"type": "undo", "from": 1}, id="unknown field on an undo"),
        pytest.param({"type": "steal", "total": 27, "worm": True}, id="unknown type"),
        pytest.param({"type": "Take", "total": 27, "worm": True}, id="type in the wrong case"),
        pytest.param({"total": 27, "worm": True}, id="no type"),
        pytest.param({"type": 1}, id="type not text"),
        pytest.param({**take(27), "expected_seq": -1}, id="negative expected_seq"),
        pytest.param({**take(27), "expected_seq": "0"}, id="expected_seq as text"),
        pytest.param({**take(27), "expected_seq": False}, id="expected_seq as a boolean"),
        pytest.param({**take(27), "action_id": ""}, id="empty action_id"),
        pytest.param({**take(27), "action_id": "a" * 65}, id="action_id of 65 characters"),
        pytest.param({**take(27), "action_id": 42}, id="action_id not text"),
        pytest.param([take(27)], id="a JSON array"),
        pytest.param('"take"', id="a JSON string"),
        pytest.param("null", id="JSON null"),
        pytest.param("", id="empty body"),
        pytest.param('{"type": "take", "total": 27,', id="malformed JSON"),
        pytest.param(b"\xff\xfe", id="not UTF-8"),
    ],
)
def test_a_malformed_action_is_invalid_and_changes_nothing(api, match, body):
    api.refused(match, body, "invalid", 422)


UNPARSABLE_BODIES = [
    # Deeper than the JSON reader goes, yet within the size a body may have (16 KiB).
    pytest.param("[" * 8_000 + "]" * 8_000, id="JSON nested too deep"),
    pytest.param('{"type": "take", "total": ' + "1" * 5000 + ', "worm": true}', id="a number of 5000 digits"),
]


@pytest.mark.parametrize("body", UNPARSABLE_BODIES)
def test_a_body_json_cannot_decode_is_invalid_when_acting_not_a_server_error(api, match, body):
    api.client.raise_request_exception = False
    api.refused(match, body, "invalid", 422)


@pytest.mark.parametrize("body", UNPARSABLE_BODIES)
def test_a_body_json_cannot_decode_is_invalid_when_creating_not_a_server_error(api, body):
    api.client.raise_request_exception = False
    error_of(api.create(body), "invalid", 422)
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    ("header", "same_as"),
    [
        ("fr-CA", "fr"),
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("de-DE, fr;q=0.5", "fr"),
        ("en-GB,fr;q=0.5", "en"),
        ("de", "en"),
        ("", "en"),
    ],
)
def test_the_message_follows_the_first_supported_language_of_accept_language(api, match, header, same_as):
    expected = api.refused(match, take(27, False), "no_worm", 422, language=same_as)
    response = api.act(match, take(27, False), **({"language": header} if header else {}))
    assert error_of(response, "no_worm", 422) == expected


@ENGLISH_AND_FRENCH
def test_an_invalid_action_is_explained_in_the_requested_language(api, match, language):
    assert api.refused(match, take_dice({"worm": 9}), "invalid", 422, language=language)


def test_nothing_to_undo_on_a_new_match(api, match):
    api.refused(match, UNDO, "nothing_to_undo", 409)


def test_nothing_to_undo_once_every_action_is_taken_back(api, match):
    api.play(match, take(27), BUST, UNDO, UNDO)
    api.refused(match, UNDO, "nothing_to_undo", 409)


# The end of a match.


def test_undo_after_the_end_reopens_the_match(api):
    duel = api.new_match(["Ada", "Ben"])
    state = play_to_the_end_in_order(api, duel)
    reopened = api.play(duel, UNDO)
    assert reopened["over"] is False
    assert reopened["winners"] == []
    assert reopened["seq"] == state["seq"] + 1
    assert grill_faces(reopened) == {21: "up"}


# Who may act.


def test_it_rejects_a_missing_token(api, match):
    api.refused(match, take(27), "unauthorized", 401, token=NO_TOKEN)


def test_it_rejects_a_wrong_token(api, match):
    api.refused(match, take(27), "unauthorized", 401, token=match.token[:-1] + ("A" if match.token[-1] != "A" else "B"))


def test_it_rejects_the_token_of_another_match(api, match):
    other = api.new_match()
    api.refused(match, take(27), "unauthorized", 401, token=other.token)


def test_it_rejects_the_match_id_as_a_token(api, match):
    api.refused(match, take(27), "unauthorized", 401, token=match.id)


@pytest.mark.parametrize("header", ["Bearer", "Bearer ", "", "Basic {token}", "{token}", "Token {token}"])
def test_it_rejects_an_authorization_header_without_a_bearer_token(api, match, header):
    api.refused(match, take(27), "unauthorized", 401, authorization=header.format(token=match.token))


def test_it_checks_the_token_before_the_body(api, match):
    api.refused(match, "{not json", "unauthorized", 401, token=NO_TOKEN)


def test_the_token_of_a_match_acts_on_that_match_only(api, match):
    other = api.new_match()
    api.play(match, take(27))
    assert api.state(other)["seq"] == 0


# expected_seq and action_id.


def test_an_action_expecting_the_current_seq_is_accepted(api, match):
    api.play(match, take(27))
    state = api.play(match, {**take(27, True, 0), "expected_seq": 1})
    assert state["seq"] == 2


def test_expected_seq_zero_is_accepted_on_a_new_match(api, match):
    assert api.play(match, {"type": "bust", "expected_seq": 0})["seq"] == 1


@pytest.mark.parametrize("expected_seq", [0, 2, 99])
def test_a_stale_or_future_expected_seq_is_a_conflict(api, match, expected_seq):
    api.play(match, take(27))
    api.refused(match, {**take(27), "expected_seq": expected_seq}, "conflict", 409)


def test_an_undo_expecting_an_old_seq_is_a_conflict(api, match):
    api.play(match, take(27), BUST)
    api.refused(match, {"type": "undo", "expected_seq": 1}, "conflict", 409)


def test_after_a_conflict_the_current_seq_is_accepted(api, match):
    api.play(match, take(27))
    api.refused(match, {**BUST, "expected_seq": 0}, "conflict", 409)
    assert api.play(match, {**BUST, "expected_seq": 1})["seq"] == 2


def test_the_same_action_id_sent_again_returns_the_first_answer_and_changes_nothing(api, match):
    body = {**take(27), "action_id": "turn-1"}
    first = api.act(match, body)
    again = api.act(match, body)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert api.state(match)["seq"] == 1
    assert LogEntry.objects.filter(match_id=match.id).count() == 1


def test_the_same_action_id_with_another_body_still_returns_the_first_answer(api, match):
    first = api.act(match, {**take(27), "action_id": "turn-1"}).json()
    again = api.act(match, {**take(30), "action_id": "turn-1"})
    assert again.status_code == 200
    assert again.json() == first
    assert api.state(match)["players"][1]["stack"] == []


def test_the_same_action_id_later_returns_the_first_answer_not_the_current_state(api, match):
    first = api.act(match, {**take(27), "action_id": "turn-1"}).json()
    api.play(match, take(30), BUST)
    again = api.act(match, {**take(27), "action_id": "turn-1"})
    assert again.json() == first
    assert api.state(match)["seq"] == 3


def test_an_action_id_is_checked_before_expected_seq(api, match):
    body = {**take(27), "action_id": "turn-1", "expected_seq": 0}
    first = api.act(match, body).json()
    again = api.act(match, body)
    assert again.status_code == 200
    assert again.json() == first


def test_a_retried_undo_takes_back_only_one_action(api, match):
    api.play(match, take(27), take(30))
    first = api.act(match, {**UNDO, "action_id": "undo-1"}).json()
    again = api.act(match, {**UNDO, "action_id": "undo-1"}).json()
    assert again == first
    state = api.state(match)
    assert state["seq"] == 3
    assert state["players"][0]["stack"] == [27]


def test_a_different_action_id_applies_again(api, match):
    api.play(match, {**BUST, "action_id": "turn-1"})
    state = api.play(match, {**BUST, "action_id": "turn-2"})
    assert state["seq"] == 2
    assert state["current"] == 2


def test_an_action_id_of_64_characters_is_accepted(api, match):
    assert api.play(match, {**take(27), "action_id": "k" * 64})["seq"] == 1


def test_an_action_id_of_65_characters_is_invalid(api, match):
    api.refused(match, {**take(27), "action_id": "k" * 65}, "invalid", 422)


@pytest.mark.parametrize("action_id", ["a\u0000b", "\u0000", "tab\there", "bell\u0007", "del\u007f"])
def test_an_action_id_with_a_control_character_is_invalid_and_changes_nothing(api, match, action_id):
    message = api.refused(match, {**take(27), "action_id": action_id}, "invalid", 422)
    assert "control" in message


def test_an_action_id_may_be_any_printable_text(api, match):
    assert api.play(match, {**take(27), "action_id": "tour n° 1 — Zoé ✓"})["seq"] == 1


def test_the_same_action_id_on_another_match_is_independent(api, match):
    other = api.new_match()
    api.play(match, {**take(27), "action_id": "shared-key"})
    state = api.play(other, {**take(30), "action_id": "shared-key"})
    assert state["id"] == other.id
    assert state["seq"] == 1
    assert state["players"][0]["stack"] == [30]


def test_a_refused_action_does_not_use_up_its_action_id(api, match):
    api.refused(match, {**take(27, False), "action_id": "turn-1"}, "no_worm", 422)
    state = api.play(match, {**take(27), "action_id": "turn-1"})
    assert state["players"][0]["stack"] == [27]


# The API documents itself.


def test_the_openapi_schema_lists_the_four_paths_with_their_methods(api):
    response = api.client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    paths = {path: set(methods) for path, methods in schema["paths"].items()}
    assert paths["/api/v1/matches"] >= {"post"}
    assert paths["/api/v1/matches/{match_id}"] >= {"get"}
    assert paths["/api/v1/matches/{match_id}/actions"] >= {"post"}
    assert paths["/api/v1/matches/{match_id}/claims"] >= {"get"}


def test_the_openapi_schema_documents_the_error_statuses_of_acting(api):
    schema = api.client.get("/api/v1/openapi.json").json()
    responses = schema["paths"]["/api/v1/matches/{match_id}/actions"]["post"]["responses"]
    assert {"200", "401", "404", "409", "422"} <= set(responses)


def test_every_reference_of_the_openapi_schema_resolves_and_writing_names_the_bearer_scheme(api):
    schema = api.client.get("/api/v1/openapi.json").json()
    references: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                references.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert references
    for reference in set(references):
        assert reference.startswith("#/"), reference
        target: Any = schema
        for part in reference[2:].split("/"):
            assert part in target, f"{reference} leads nowhere"
            target = target[part]
    assert schema["components"]["securitySchemes"]["editToken"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "the match's edit_token, from its creation answer",
    }
    acting = schema["paths"]["/api/v1/matches/{match_id}/actions"]["post"]
    assert acting["security"] == [{"editToken": []}]
    created = schema["paths"]["/api/v1/matches"]["post"]["responses"]["201"]
    assert {link["parameters"]["match_id"] for link in created["links"].values()} == {"$response.body#/id"}


def test_the_api_docs_page_answers_html(api):
    response = api.client.get("/api/v1/docs")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b"<html" in response.content.lower()


# Odd requests.


def test_a_write_without_any_token_is_unauthorized_even_where_no_match_is(api):
    # Without credentials nothing is looked up: a match deleted meanwhile (with its group)
    # answers as an existing one would, 401, which is what a client without a token needs.
    response = api.post_json(f"{MATCHES}/no-such-match-0123456789/actions", take(27))
    error_of(response, "unauthorized", 401)
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_query_parameter_of_another_game_is_refused_not_ignored(api, client):
    created = api.create({"game": "yahtzee", "players": ["Ada"]}).json()
    # "roll" is Pickomino's parameter of the shared /advice address, bounded to 64 characters.
    response = client.get(f"{MATCHES}/{created['id']}/advice?roll=" + "0" * 65)
    error_of(response, "invalid", 422)
    assert client.get(f"{MATCHES}/{created['id']}/advice").status_code == 200


def test_a_query_parameter_no_game_documents_is_ignored_as_before(api, client):
    created = api.create({"game": "yahtzee", "players": ["Ada"]}).json()
    # A client's cache buster, say: the address never documented it, so it never mattered.
    assert client.get(f"{MATCHES}/{created['id']}/advice?_=1700000000").status_code == 200
