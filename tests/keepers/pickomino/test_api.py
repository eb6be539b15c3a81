"""Pickomino's rules through the JSON API v1, held to docs/api-v1.md: a new match, takes, steals
and busts in every body form, the table options, its refusals and their words, the end of a
match, ``GET /claims``, and the invariants of a whole random game with undos.

The core's part of the API (creation, tokens, reading, undo, the guards) is held by
tests/tables/test_api.py.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marquoir.games.pickomino import TILES, new_game, worms_on
from marquoir.games.pickomino.playout import random_game

from ...volume import PROPERTY_VOLUME
from .conftest import (
    BUST,
    ENGLISH_AND_FRENCH,
    UNDO,
    Api,
    Created,
    body_of,
    error_of,
    grill_faces,
    play_to_the_end_in_order,
    take,
    take_dice,
    tiles_in_place,
    without_seq,
)

# A new match.


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


@pytest.mark.parametrize("count", [2, 7])
def test_it_accepts_2_to_7_players(api, count):
    created = api.new_match([f"Player {index}" for index in range(count)])
    assert len(created.state["players"]) == count
    assert len(created.state["standings"]) == count


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


def setup_not_stealable(api: Api, match: Created) -> dict[str, Any]:
    api.play(match, take(27))
    return take(26, True, 0)


# Refusals of the rules: each code of the contract, its status, the state unchanged.


RULE_CODES = [
    pytest.param("no_worm", 422, lambda api, match: take(27, False), id="no_worm"),
    pytest.param("nothing_to_take", 422, lambda api, match: take(20), id="nothing_to_take"),
    pytest.param("not_stealable", 422, setup_not_stealable, id="not_stealable"),
]


@ENGLISH_AND_FRENCH
@pytest.mark.parametrize(("code", "status", "prepare"), RULE_CODES)
def test_every_refusal_of_the_rules_answers_its_code_and_status_and_changes_nothing(
    api, code, status, prepare, language
):
    match = api.new_match(["Ada", "Ben"])
    body = prepare(api, match)
    assert api.refused(match, body, code, status, language=language)


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
    ],
)
def test_a_malformed_take_or_bust_is_invalid_and_changes_nothing(api, match, body):
    api.refused(match, body, "invalid", 422)


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
