"""The JSON API v1, held to docs/api-v1.md word by word, through Django's test client."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marquoir.games.pickomino import TILES, new_game, worms_on
from marquoir.games.pickomino.playout import random_game
from marquoir.tables.models import LogEntry, Match

from ..volume import PROPERTY_VOLUME
from .conftest import (
    BUST,
    MATCHES,
    NO_TOKEN,
    UNDO,
    Api,
    Created,
    body_of,
    error_of,
    take,
    take_dice,
    tiles_in_place,
)

ENGLISH_AND_FRENCH = pytest.mark.parametrize("language", ["en", "fr"])


def without_seq(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key != "seq"}


def grill_faces(state: dict[str, Any]) -> dict[int, str]:
    return {tile["tile"]: tile["face"] for tile in state["grill"]}


def play_to_the_end_in_order(api: Api, match: Created) -> dict[str, Any]:
    """Two players take 36, 35, … 21 in turn: the first player wins 20 worms to 20 on the 36."""
    return api.play(match, *(take(tile) for tile in reversed(TILES)))


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


def test_a_new_match_has_all_16_tiles_face_up_ascending_on_the_grill(match):
    grill = match.state["grill"]
    assert [tile["tile"] for tile in grill] == list(range(21, 37))
    assert all(tile["face"] == "up" for tile in grill)
    assert [tile["worms"] for tile in grill] == [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4


def test_a_new_match_has_every_player_tied_first_with_no_worm(match):
    assert match.state["standings"] == [
        {"player": 0, "worms": 0, "score": 0, "best_tile": None, "rank": 1},
        {"player": 1, "worms": 0, "score": 0, "best_tile": None, "rank": 1},
        {"player": 2, "worms": 0, "score": 0, "best_tile": None, "rank": 1},
    ]


def test_first_defaults_to_the_first_player(api):
    response = api.create({"game": "pickomino", "players": ["Ada", "Ben", "Cy"]})
    assert response.status_code == 201
    assert response.json()["state"]["current"] == 0


def test_the_player_given_as_first_starts(api):
    created = api.new_match(["Ada", "Ben", "Cy"], first=2)
    assert created.state["current"] == 2
    assert api.play(created, take(27))["players"][2]["stack"] == [27]


def test_the_turn_passes_in_seating_order_and_wraps_around(api):
    created = api.new_match(["Ada", "Ben", "Cy"], first=1)
    currents = [api.play(created, body)["current"] for body in (BUST, take(27), BUST, take(30))]
    assert currents == [2, 0, 1, 2]


def test_options_omitted_are_all_off(api):
    response = api.create({"game": "pickomino", "players": ["Ada", "Ben"]})
    assert response.json()["state"]["options"] == {"shorter_game": False, "flip_without_return": False}


def test_options_given_are_kept_and_a_missing_one_is_off(api):
    both = api.new_match(options={"shorter_game": True, "flip_without_return": True})
    assert both.state["options"] == {"shorter_game": True, "flip_without_return": True}
    one = api.new_match(options={"flip_without_return": True})
    assert one.state["options"] == {"shorter_game": False, "flip_without_return": True}


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


@pytest.mark.parametrize("count", [2, 7])
def test_it_accepts_2_to_7_players(api, count):
    created = api.new_match([f"Player {index}" for index in range(count)])
    assert len(created.state["players"]) == count
    assert len(created.state["standings"]) == count


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


# Act: every body form of the contract.


def test_a_take_from_the_grill_puts_the_tile_on_the_stack_and_passes_the_turn(api, match):
    state = api.play(match, take(27, True, "grill"))
    assert state["seq"] == 1
    assert state["players"][0] == {"name": "Ada", "stack": [27], "worms": 2, "score": 2}
    assert 27 not in grill_faces(state)
    assert len(state["grill"]) == 15
    assert state["current"] == 1
    assert state["standings"][0] == {"player": 0, "worms": 2, "score": 2, "best_tile": 27, "rank": 1}


def test_a_take_without_from_is_a_take_from_the_grill(api, match):
    state = api.play(match, {"type": "take", "total": 24, "worm": True})
    assert state["players"][0]["stack"] == [24]


def test_a_take_from_the_grill_gives_the_highest_face_up_tile_below_a_missing_total(api, match):
    state = api.play(match, take(27), take(27))
    assert state["players"][1]["stack"] == [26]


def test_a_total_above_36_takes_the_36(api, match):
    assert api.play(match, take(40))["players"][0]["stack"] == [36]


def test_the_stack_lists_the_bottom_first_and_the_top_last(api):
    duel = api.new_match(["Ada", "Ben"])
    state = api.play(duel, take(22), BUST, take(27))
    assert state["players"][0]["stack"] == [22, 27]
    assert state["players"][0]["worms"] == 3


def test_a_steal_moves_the_top_tile_and_its_worms_between_players(api, match):
    state = api.play(match, take(27), take(27, True, 0))
    assert state["seq"] == 2
    assert state["players"][0] == {"name": "Ada", "stack": [], "worms": 0, "score": 0}
    assert state["players"][1] == {"name": "Ben", "stack": [27], "worms": 2, "score": 2}
    assert 27 not in grill_faces(state)
    assert state["current"] == 2


def test_a_steal_takes_only_the_top_tile(api):
    duel = api.new_match(["Ada", "Ben"])
    state = api.play(duel, take(22), BUST, take(27), take(27, True, 0))
    assert state["players"][0]["stack"] == [22]
    assert state["players"][1]["stack"] == [27]


def test_a_take_with_dice_works_out_the_total_and_the_worm(api, match):
    state = api.play(match, take_dice({"worm": 2, "5": 3, "3": 1}))
    assert state["seq"] == 1
    assert state["players"][0]["stack"] == [28]  # 2 × 5 + 3 × 5 + 3
    assert state["current"] == 1


def test_a_take_with_dice_may_steal(api, match):
    state = api.play(match, take(28), take_dice({"worm": 2, "5": 3, "3": 1}, 0))
    assert state["players"][1]["stack"] == [28]
    assert state["players"][0]["stack"] == []


def test_a_take_with_dice_may_leave_out_faces_and_give_zero_counts(api, match):
    state = api.play(match, take_dice({"1": 0, "2": 0, "3": 0, "4": 4, "5": 0, "worm": 2}))
    assert state["players"][0]["stack"] == [26]


def test_a_take_with_dice_without_a_worm_is_no_worm(api, match):
    api.refused(match, take_dice({"5": 4, "4": 4}), "no_worm", 422)


def test_a_bust_with_a_tile_returns_it_and_turns_the_highest_face_up_tile_down(api, match):
    state = api.play(match, take(27), BUST, BUST, BUST)
    assert state["seq"] == 4
    assert state["players"][0] == {"name": "Ada", "stack": [], "worms": 0, "score": 0}
    faces = grill_faces(state)
    assert faces[27] == "up"
    assert faces[36] == "down"
    assert len(state["grill"]) == 16
    assert [tile["tile"] for tile in state["grill"]] == list(TILES)
    assert state["current"] == 1


def test_a_bust_returns_only_the_top_tile(api):
    duel = api.new_match(["Ada", "Ben"])
    state = api.play(duel, take(22), BUST, take(27), BUST, BUST)
    assert state["players"][0] == {"name": "Ada", "stack": [22], "worms": 1, "score": 1}
    assert grill_faces(state)[27] == "up"


def test_a_bust_with_an_empty_stack_turns_nothing(api, match):
    state = api.play(match, BUST)
    assert state["seq"] == 1
    assert state["grill"] == match.state["grill"]
    assert state["current"] == 1


def test_a_bust_returning_the_highest_tile_turns_nothing(api):
    duel = api.new_match(["Ada", "Ben"])
    state = api.play(duel, take(36), BUST, BUST)
    assert all(tile["face"] == "up" for tile in state["grill"])
    assert len(state["grill"]) == 16


def test_with_the_shorter_game_a_bust_turns_down_the_very_tile_returned(api):
    duel = api.new_match(["Ada", "Ben"], options={"shorter_game": True})
    state = api.play(duel, take(36), BUST, BUST)
    assert grill_faces(state)[36] == "down"
    assert state["players"][0]["stack"] == []


def test_with_flip_without_return_a_bust_with_an_empty_stack_turns_the_highest_tile(api):
    duel = api.new_match(["Ada", "Ben"], options={"flip_without_return": True})
    state = api.play(duel, BUST)
    assert grill_faces(state)[36] == "down"
    assert sum(tile["face"] == "up" for tile in state["grill"]) == 15


def test_a_bust_may_say_why_the_turn_failed(api, match):
    state = api.play(match, {"type": "bust", "reason": "no_new_face"})
    assert state["seq"] == 1
    assert state["current"] == 1


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


def setup_not_stealable(api: Api, match: Created) -> dict[str, Any]:
    api.play(match, take(27))
    return take(26, True, 0)


def setup_match_over(api: Api, match: Created) -> dict[str, Any]:
    api.play(match, *(take(tile) for tile in reversed(TILES)))
    return take(27)


def setup_conflict(api: Api, match: Created) -> dict[str, Any]:
    api.play(match, take(27))
    return {"type": "bust", "expected_seq": 0}


CODES = [
    pytest.param("invalid", 422, lambda api, match: take(41), id="invalid"),
    pytest.param("no_worm", 422, lambda api, match: take(27, False), id="no_worm"),
    pytest.param("nothing_to_take", 422, lambda api, match: take(20), id="nothing_to_take"),
    pytest.param("not_stealable", 422, setup_not_stealable, id="not_stealable"),
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


def test_refusals_are_worded_in_english_by_default(api, match):
    message = api.refused(match, take(27, False), "no_worm", 422)
    assert "worm" in message.lower()
    assert "bust" in message.lower()


def test_french_no_worm_message_speaks_of_the_ver_once_the_catalog_is_compiled(api, match):
    """Passes once the French catalog of marquoir/tables is translated and compiled."""
    english = api.refused(match, take(27, False), "no_worm", 422, language="en")
    french = api.refused(match, take(27, False), "no_worm", 422, language="fr")
    assert french != english
    assert re.search(r"\bvers?\b", french.lower()), french


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(take_dice({"worm": 5, "5": 4}), id="more than 8 dice"),
        pytest.param(take_dice({"6": 1, "worm": 1}), id="unknown face 6"),
        pytest.param(take_dice({"0": 1, "worm": 1}), id="unknown face 0"),
        pytest.param(take_dice({"Worm": 2}), id="face in the wrong case"),
        pytest.param(take_dice({"worm": 9}), id="count 9"),
        pytest.param(take_dice({"worm": -1, "5": 3}), id="negative count"),
        pytest.param(take_dice({"worm": "2"}), id="count as text"),
        pytest.param(take_dice({"worm": 1.5}), id="fractional count"),
        pytest.param(take_dice({"worm": True}), id="count as a boolean"),
        pytest.param(take_dice({}), id="no dice"),
        pytest.param(take_dice({"worm": 0}), id="only zero counts"),
        pytest.param({"type": "take", "dice": [6, 6, 5]}, id="dice as a list"),
        pytest.param({**take_dice({"worm": 2}), "total": 10}, id="both dice and total"),
        pytest.param({**take_dice({"worm": 2}), "worm": True}, id="both dice and worm"),
        pytest.param({**take(27), "colour": "red"}, id="unknown field on a take"),
        pytest.param({"type": "bust", "total": 27}, id="unknown field on a bust"),
        pytest.param({"type": "undo", "from": 1}, id="unknown field on an undo"),
        pytest.param({"type": "steal", "total": 27, "worm": True}, id="unknown type"),
        pytest.param({"type": "Take", "total": 27, "worm": True}, id="type in the wrong case"),
        pytest.param({"total": 27, "worm": True}, id="no type"),
        pytest.param({"type": 1}, id="type not text"),
        pytest.param({"type": "bust", "reason": "tired"}, id="unknown bust reason"),
        pytest.param(take(41), id="total 41"),
        pytest.param(take(4), id="total 4 with a worm"),
        pytest.param(take(0), id="total 0"),
        pytest.param(take(-27), id="negative total"),
        pytest.param({"type": "take", "total": "27", "worm": True}, id="total as text"),
        pytest.param({"type": "take", "total": 27.5, "worm": True}, id="fractional total"),
        pytest.param({"type": "take", "total": True, "worm": True}, id="total as a boolean"),
        pytest.param({"type": "take", "worm": True}, id="no total"),
        pytest.param({"type": "take", "total": 27, "worm": "yes"}, id="worm as text"),
        pytest.param({"type": "take", "total": 27, "worm": 1}, id="worm as a number"),
        pytest.param({"type": "take", "total": 27}, id="no worm field"),
        pytest.param(take(27, True, "stack"), id="from neither grill nor a player"),
        pytest.param(take(27, True, 3), id="from a player not at the table"),
        pytest.param(take(27, True, -1), id="from a negative player"),
        pytest.param(take(27, True, True), id="from as a boolean"),
        pytest.param(take(27, True, 1.0), id="from as a fraction"),
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


def test_a_take_without_a_worm_is_no_worm(api, match):
    api.refused(match, take(27, False), "no_worm", 422)


def test_a_take_without_a_worm_is_no_worm_even_when_it_could_steal(api, match):
    api.play(match, take(27))
    api.refused(match, take(27, False, 0), "no_worm", 422)


def test_a_take_below_every_face_up_tile_is_nothing_to_take(api, match):
    api.refused(match, take(20), "nothing_to_take", 422)


def test_a_take_whose_tiles_below_are_all_gone_is_nothing_to_take(api):
    duel = api.new_match(["Ada", "Ben"])
    api.play(duel, take(21), take(22))
    api.refused(duel, take(22), "nothing_to_take", 422)


def test_a_steal_with_a_total_other_than_the_top_tile_is_not_stealable(api, match):
    api.play(match, take(27))
    api.refused(match, take(26, True, 0), "not_stealable", 422)


def test_a_higher_total_never_steals(api, match):
    api.play(match, take(27))
    api.refused(match, take(28, True, 0), "not_stealable", 422)


def test_a_tile_below_the_top_cannot_be_stolen(api):
    duel = api.new_match(["Ada", "Ben"])
    api.play(duel, take(27), BUST, take(22))
    api.refused(duel, take(27, True, 0), "not_stealable", 422)


def test_a_player_cannot_steal_from_themselves(api, match):
    api.play(match, take(27), BUST, BUST)
    api.refused(match, take(27, True, 0), "not_stealable", 422)


def test_stealing_from_an_empty_stack_is_not_stealable(api, match):
    api.refused(match, take(27, True, 1), "not_stealable", 422)


def test_nothing_to_undo_on_a_new_match(api, match):
    api.refused(match, UNDO, "nothing_to_undo", 409)


def test_nothing_to_undo_once_every_action_is_taken_back(api, match):
    api.play(match, take(27), BUST, UNDO, UNDO)
    api.refused(match, UNDO, "nothing_to_undo", 409)


# The end of a match.


def test_a_match_ends_when_no_face_up_tile_is_left_with_the_winner_by_tie_break(api):
    duel = api.new_match(["Ada", "Ben"])
    state = play_to_the_end_in_order(api, duel)
    assert state["over"] is True
    assert state["grill"] == []
    assert [player["worms"] for player in state["players"]] == [20, 20]
    assert state["winners"] == [0]
    assert state["standings"] == [
        {"player": 0, "worms": 20, "score": 20, "best_tile": 36, "rank": 1},
        {"player": 1, "worms": 20, "score": 20, "best_tile": 35, "rank": 2},
    ]


def test_players_with_no_tile_at_all_share_the_win(api):
    duel = api.new_match(["Ada", "Ben"], options={"flip_without_return": True})
    state = api.play(duel, *[BUST] * 16)
    assert state["over"] is True
    assert all(tile["face"] == "down" for tile in state["grill"])
    assert state["winners"] == [0, 1]
    assert [standing["rank"] for standing in state["standings"]] == [1, 1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_legal_game_played_through_the_api_ends_and_refuses_more_turns(api, seed):
    players = ["Ada", "Ben", "Cy"][: 2 + seed % 2]
    played = api.new_match(players)
    actions = random_game(new_game(len(players)), random.Random(seed).choice)
    state = api.play(played, *(body_of(action) for action in actions))
    assert state["over"] is True
    assert state["seq"] == len(actions)
    assert state["winners"]
    assert all(tile["face"] == "down" for tile in state["grill"])
    assert {s["player"] for s in state["standings"] if s["rank"] == 1} == set(state["winners"])
    for body in (take(27), take(40), BUST, take(27, True, 1), take(27, False), take_dice({"worm": 1})):
        api.refused(played, body, "match_over", 409)


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


# What a take or bust may do: the claims.


def test_claims_reproduce_the_contract_example(api, match):
    # Ada 21, Ben 26, Cy 27: with 27 Ada may steal Cy's 27 or take the 25 (26 is gone).
    api.play(match, take(21), take(26), take(27))
    response = api.claims(match, total=27, worm=True)
    assert response.status_code == 200
    assert response.json() == {"claims": [{"tile": 27, "from": 2}, {"tile": 25, "from": "grill"}], "bust": False}


def test_claims_need_no_token(api, match):
    response = api.claims(match, total=24, worm=True)
    assert response.status_code == 200
    assert response.json() == {"claims": [{"tile": 24, "from": "grill"}], "bust": False}


def test_claims_without_a_worm_are_none_and_a_bust(api, match):
    api.play(match, take(27))
    response = api.claims(match, total=27, worm=False)
    assert response.json() == {"claims": [], "bust": True}


def test_claims_below_every_face_up_tile_are_a_bust(api, match):
    assert api.claims(match, total=20, worm=True).json() == {"claims": [], "bust": True}


def test_claims_never_offer_the_players_own_top_tile(api):
    duel = api.new_match(["Ada", "Ben"])
    api.play(duel, take(24), BUST)
    assert api.claims(duel, total=24, worm=True).json() == {"claims": [{"tile": 23, "from": "grill"}], "bust": False}


def test_claims_on_the_own_top_tile_with_nothing_below_are_a_bust(api):
    duel = api.new_match(["Ada", "Ben"])
    api.play(duel, take(21), BUST)
    assert api.claims(duel, total=21, worm=True).json() == {"claims": [], "bust": True}


def test_claims_above_36_offer_the_36(api, match):
    assert api.claims(match, total=40, worm=True).json() == {"claims": [{"tile": 36, "from": "grill"}], "bust": False}


def test_claims_change_nothing(api, match):
    api.claims(match, total=27, worm=True)
    assert api.state(match) == match.state


def test_claims_after_the_end_are_none_and_a_bust(api):
    duel = api.new_match(["Ada", "Ben"])
    play_to_the_end_in_order(api, duel)
    response = api.claims(duel, total=27, worm=True)
    assert response.status_code == 200
    assert response.json() == {"claims": [], "bust": True}


@ENGLISH_AND_FRENCH
@pytest.mark.parametrize(
    "params",
    [
        pytest.param({}, id="no parameters"),
        pytest.param({"worm": True}, id="no total"),
        pytest.param({"total": 27}, id="no worm"),
        pytest.param({"total": "many", "worm": True}, id="total not a number"),
        pytest.param({"total": 27, "worm": "perhaps"}, id="worm not a boolean"),
        pytest.param({"total": 41, "worm": True}, id="total 41"),
        pytest.param({"total": 0, "worm": True}, id="total 0"),
    ],
)
def test_claims_with_missing_or_bad_parameters_are_invalid(api, match, params, language):
    error_of(api.claims(match, language=language, **params), "invalid", 422)


@ENGLISH_AND_FRENCH
def test_claims_on_an_unknown_match_are_not_found(api, language):
    error_of(api.claims("no-such-match-0123456789", language=language, total=27, worm=True), "not_found", 404)


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


# A whole game, with undos, keeps every invariant.


def assert_state_invariants(state: dict[str, Any], accepted: int) -> None:
    assert state["seq"] == accepted
    for player in state["players"]:
        assert player["worms"] == sum(worms_on(tile) for tile in player["stack"])
    by_player = {standing["player"]: standing["worms"] for standing in state["standings"]}
    assert by_player == {index: player["worms"] for index, player in enumerate(state["players"])}
    places = tiles_in_place(state)
    assert [tile for tile, _place in places] == list(TILES), "each tile in exactly one place"
    assert [tile["tile"] for tile in state["grill"]] == sorted(tile["tile"] for tile in state["grill"])
    assert state["over"] == all(tile["face"] == "down" for tile in state["grill"])
    standings = state["standings"]
    assert [standing["worms"] for standing in standings] == sorted(by_player.values(), reverse=True), "best first"
    assert standings[0]["rank"] == 1
    assert [standing["rank"] for standing in standings] == sorted(standing["rank"] for standing in standings)
    if state["over"]:
        assert state["winners"] == sorted(standing["player"] for standing in standings if standing["rank"] == 1)
    else:
        assert state["winners"] == []


# Each example plays a whole game over HTTP and the database (about a hundred requests), so few.
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    player_count=st.integers(min_value=2, max_value=7),
    undo_every=st.integers(min_value=4, max_value=12),
)
def test_a_random_game_with_undos_through_the_api_keeps_every_invariant(api, seed, player_count, undo_every):
    rng = random.Random(seed)
    played = api.new_match([f"Player {index}" for index in range(player_count)], first=seed % player_count)
    actions = random_game(new_game(player_count, seed % player_count), rng.choice)
    accepted = 0
    state = played.state
    for step, action in enumerate(actions, start=1):
        body = body_of(action)
        before = state
        state = api.play(played, body)
        accepted += 1
        assert_state_invariants(state, accepted)
        if step % undo_every == 0:
            undone = api.play(played, UNDO)
            accepted += 1
            assert_state_invariants(undone, accepted)
            assert without_seq(undone) == without_seq(before)
            replayed = api.play(played, body)
            accepted += 1
            assert without_seq(replayed) == without_seq(state)
            state = replayed
    assert state["over"] is True
    assert api.state(played) == state
    PROPERTY_VOLUME.record(actions=accepted)


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
