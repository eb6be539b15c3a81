"""The four test files of the second version (``tests/declared/games``) through the API, as
a client plays them: each made into a game of one's own, a match created and its rounds
posted, the State saying what the contract says (docs/api-v1.md, "Teams, cooperative games
and instant wins"): the teams with their seats and scores, a cooperative result and score,
the rule that ended a match at once, the winners by seat; refusals worded in both languages
with the State unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from .test_api import act, create, post, refused, state_of

pytestmark = pytest.mark.django_db

GAMES = Path(__file__).parent / "games"


def own_game(client: Client, name: str) -> str:
    response = post(client, "/api/v1/own-games", {"toml": (GAMES / f"{name}.toml").read_text(encoding="utf-8")})
    assert response.status_code == 201, response.content
    key: str = response.json()["own_game"]["game"]
    return key


def round_of(inputs: dict[str, Any]) -> dict[str, Any]:
    return {"type": "round", "inputs": inputs}


def test_a_team_game_scores_teams_and_names_the_winning_players(client: Client) -> None:
    match = create(client, own_game(client, "team_game"), ["Ada", "Ben", "Cy", "Dee"])
    message = refused(client, match, round_of({"points": [100, 50]}), "rule", 422, language="fr")
    assert message == "Les points des cartes des deux équipes font 162 en tout."
    answered = act(client, match, round_of({"points": [100, 62], "belote": [True, False]}))
    assert answered.status_code == 200, answered.content
    state = state_of(client, match)
    assert [(team["players"], team["score"]) for team in state["teams"]] == [([0, 2], 120), ([1, 3], 62)]
    # Each player's standing is their team's.
    assert {standing["player"]: standing["score"] for standing in state["standings"]} == {
        0: 120,
        1: 62,
        2: 120,
        3: 62,
    }
    # Ada and Cy take every card until their team passes 1000: both win, by seat.
    for _deal in range(6):
        assert act(client, match, round_of({"points": [162, 0]})).status_code == 200
    finished = state_of(client, match)
    assert finished["over"] is True
    assert finished["winners"] == [0, 2]
    assert finished["result"] is None


def test_a_cooperative_campaign_is_won_together_with_its_missions_as_its_score(client: Client) -> None:
    match = create(client, own_game(client, "coop_game"), ["Ada", "Ben", "Cy"], {"campaign": 2})
    assert act(client, match, round_of({"mission": 1, "success": False})).status_code == 200
    message = refused(client, match, round_of({"mission": 2, "success": True}), "rule", 422)
    assert message == "The missions are played in order: the next one is the one after the last completed."
    assert act(client, match, round_of({"mission": 1, "success": True})).status_code == 200
    assert state_of(client, match)["result"] is None
    assert act(client, match, round_of({"mission": 2, "success": True})).status_code == 200
    state = state_of(client, match)
    assert state["over"] is True
    assert state["result"] == "won"
    assert state["score"] == 2
    assert state["winners"] == [0, 1, 2]  # every player wins together
    assert state["ended_by"] == "campaign_won"


def test_an_instant_win_ends_the_match_at_once_and_names_its_rule(client: Client) -> None:
    match = create(client, own_game(client, "instant_win"), ["Ada", "Ben"])
    assert act(client, match, round_of({"points": [12, 20]})).status_code == 200
    message = refused(client, match, round_of({"points": [5, 3], "supremacy": [True, True]}), "rule", 422)
    assert message == "Only one player can win by supremacy: the game ends at the first."
    assert act(client, match, round_of({"points": [5, 3], "supremacy": [True, False]})).status_code == 200
    state = state_of(client, match)
    assert state["over"] is True
    assert state["ended_by"] == "supremacy"
    assert state["winners"] == [0]  # Ada, behind on points
    assert [standing["player"] for standing in state["standings"]] == [0, 1]
    assert act(client, match, round_of({"points": [1, 1]})).status_code == 409


def test_a_majority_game_gives_the_maki_points_by_rank_with_its_tie_rule(client: Client) -> None:
    game = own_game(client, "majority_game")
    scores = {"maki": [5, 5, 3, 0, 1], "cards": [20, 18, 25, 30, 10]}
    split = create(client, game, ["A", "B", "C", "D", "E"])
    assert act(client, split, round_of(scores)).status_code == 200
    assert [standing["score"] for standing in sorted(state_of(client, split)["standings"], key=_seat)] == [
        23,
        21,
        25,
        30,
        10,
    ]
    dense = create(client, game, ["A", "B", "C", "D", "E"], {"edition": "party"})
    assert act(client, dense, round_of(scores)).status_code == 200
    # Sushi Go Party!: the tied score in full and the next value takes the next place.
    assert [standing["score"] for standing in sorted(state_of(client, dense)["standings"], key=_seat)] == [
        26,
        24,
        28,
        30,
        10,
    ]


def _seat(standing: dict[str, Any]) -> int:
    seat: int = standing["player"]
    return seat


def test_a_team_game_s_body_of_the_wrong_shape_is_refused_in_words(client: Client) -> None:
    match = create(client, own_game(client, "team_game"), ["Ada", "Ben", "Cy", "Dee"])
    for body in (
        round_of({"points": [100, 62, 0, 0]}),  # one value per team, not per player
        round_of({"points": "162"}),
        json.dumps({"type": "round", "inputs": {"points": [81, 81], "belote": [1, 0]}}),
    ):
        response = act(client, match, body)
        assert response.status_code == 422, response.content
        assert response.json()["error"]["message"]
