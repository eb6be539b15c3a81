"""The API of the games declared as data (docs/api-v1.md, "Games declared as data"), through
the real URLconf on the test database: create with options, round actions with inputs, the
State's rounds and breakdown, the ``invalid`` and ``rule`` errors worded in the reader's
language with the state unchanged, ``match_over``, the games' descriptions, and a round's
points before it is recorded. Bodies an attacker would send are refused, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from marquoir.games.declared import declared_games

from .test_correction_pages import start

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches"


def post(client: Client, path: str, body: object, token: str | None = None, language: str = "en") -> Any:
    headers = {"Accept-Language": language}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = body if isinstance(body, str) else json.dumps(body)
    return client.post(path, data=data, content_type="application/json", headers=headers)


def create(client: Client, game: str, players: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players}
    if options is not None:
        body["options"] = options
    response = post(client, MATCHES, body)
    assert response.status_code == 201, response.content
    created: dict[str, Any] = response.json()
    return created


def act(client: Client, match: dict[str, Any], body: object, language: str = "en") -> Any:
    return post(client, f"{MATCHES}/{match['id']}/actions", body, match["edit_token"], language)


def state_of(client: Client, match: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"{MATCHES}/{match['id']}")
    assert response.status_code == 200
    state: dict[str, Any] = response.json()
    return state


def refused(client: Client, match: dict[str, Any], body: object, code: str, status: int, language: str = "en") -> str:
    """Post ``body``, which must be refused with ``code``; the State is unchanged; the message."""
    before = state_of(client, match)
    response = act(client, match, body, language)
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code
    assert state_of(client, match) == before
    message: str = error["message"]
    return message


def test_a_skyjo_round_is_scored_and_the_state_has_rounds_and_breakdown(client: Client) -> None:
    match = create(client, "skyjo", ["Ada", "Ben", "Cy"])
    assert match["state"]["options"] == {"target": 100}
    answered = act(client, match, {"type": "round", "inputs": {"cards": [15, 10, 22], "ended_by": 0}}).json()
    assert [player["rounds"] for player in answered["players"]] == [[30], [10], [22]]
    assert [player["breakdown"] for player in answered["players"]] == [{"cards": 30}, {"cards": 10}, {"cards": 22}]
    assert [player["score"] for player in answered["players"]] == [30, 10, 22]
    assert answered["round"] == 1
    assert answered["current"] is None
    assert answered["standings"][0] == {"player": 1, "score": 10, "rank": 1}
    assert answered["winners"] == []


def test_7_wonders_is_one_round_then_over_with_the_coins_tie_break(client: Client) -> None:
    game = next(game for game in declared_games() if game.key == "seven_wonders")
    example = next(example for example in game.file.examples if example.name == "A tie broken by coins")
    match = create(client, "seven_wonders", ["Ada", "Ben", "Cy"])
    answered = act(client, match, {"type": "round", "inputs": example.rounds[0]}).json()
    assert answered["over"] is True
    assert answered["winners"] == [1]
    assert [(row["player"], row["rank"]) for row in answered["standings"]] == [(1, 1), (0, 2), (2, 3)]
    assert answered["players"][2]["breakdown"]["science"] == 26
    message = refused(client, match, {"type": "round", "inputs": example.rounds[0]}, "match_over", 409)
    assert message


def test_skull_king_tricks_that_do_not_add_up_are_a_rule_error_worded_in_each_language(client: Client) -> None:
    match = create(client, "skull_king", ["Ada", "Ben", "Cy"], {"deal": [5]})
    body = {"type": "round", "inputs": {"bid": [2, 2, 1], "tricks": [2, 2, 2]}}
    english = refused(client, match, body, "rule", 422)
    french = refused(client, match, body, "rule", 422, language="fr")
    assert english.startswith("The tricks must add up to the cards dealt")
    assert french.startswith("Les plis doivent faire le nombre de cartes distribuées")


def test_a_player_s_rule_names_the_player(client: Client) -> None:
    match = create(client, "skull_king", ["Ada", "Ben", "Cy"], {"deal": [5]})
    body = {"type": "round", "inputs": {"bid": [0, 2, 3], "tricks": [0, 2, 3], "bonus": [20, 0, 0]}}
    assert refused(client, match, body, "rule", 422).startswith("Ada won no trick")


@pytest.mark.parametrize(
    ("inputs", "english"),
    [
        ({"cards": [141, 0, 0], "ended_by": 0}, "“Cards left (Ada)” must be from −17 to 140 (not 141)."),
        ({"cards": [1, 2, 3], "ended_by": 3}, "“Who ended the round?” must be from 0 to 2 (not 3)."),
        ({"cards": [5, 6], "ended_by": 0}, "“Cards left” needs one value per player (3)."),
        ({"cards": [1, 2, 3]}, "Fill in “Who ended the round?”."),
        ({"cards": [1, 2, 3], "ended_by": 0, "colour": 1}, "This game has no input “colour”."),
        ({"cards": [1.5, 2, 3], "ended_by": 0}, "“Cards left (Ada)” must be a whole number."),
        ({"cards": [True, 2, 3], "ended_by": 0}, "“Cards left (Ada)” must be a whole number."),
        ({"cards": ["1", 2, 3], "ended_by": 0}, "“Cards left (Ada)” must be a whole number."),
        (
            {"cards": [10**30, 2, 3], "ended_by": 0},
            "“Cards left (Ada)” must be from −1000000000 to 1000000000 (not 1000000000000000000000000000000).",
        ),
        ({"cards": {"a": 1}, "ended_by": 0}, "“Cards left” needs one value per player (3)."),
    ],
)
def test_inputs_out_of_kind_or_bounds_are_invalid_with_a_precise_message(client: Client, inputs, english) -> None:
    match = create(client, "skyjo", ["Ada", "Ben", "Cy"])
    assert refused(client, match, {"type": "round", "inputs": inputs}, "invalid", 422) == english


def test_an_input_only_taken_with_an_option_is_refused_without_it(client: Client) -> None:
    match = create(client, "skull_king", ["Ada", "Ben", "Cy"], {"deal": [5]})
    body = {"type": "round", "inputs": {"bid": [2, 2, 1], "tricks": [2, 2, 1], "wager": [10, 0, 0]}}
    assert refused(client, match, body, "invalid", 422, language="fr") == (
        "«\u00a0Pari de Rascal\u00a0» ne sert pas avec ces options de table."
    )


def test_hostile_bodies_are_refused_and_never_a_server_error(client: Client) -> None:
    match = create(client, "ticket_to_ride", ["Ada", "Ben"])
    for body in (
        {"type": "round", "inputs": {f"k{index}": 1 for index in range(61)}},
        {"type": "round", "inputs": {"routes": [{"7": 1}, {}]}},
        {"type": "round", "inputs": "routes"},
        {"type": "round"},
        {"type": "round", "inputs": {"\ud800": 1}},
        {"type": "end"},
        '{"type": "round", "inputs": ' + "[" * 5000 + "]" * 5000 + "}",
    ):
        response = act(client, match, body)
        assert response.status_code == 422, (body, response.content)
        assert response.json()["error"]["code"] == "invalid"
    assert state_of(client, match)["round"] == 0


def test_options_are_checked_for_the_players_at_the_table(client: Client) -> None:
    eight = create(client, "skull_king", [f"P{seat}" for seat in range(8)])
    assert eight["state"]["options"]["deal"] == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8]
    response = post(
        client,
        MATCHES,
        {"game": "skull_king", "players": ["A", "B", "C", "D", "E", "F", "G", "H"], "options": {"deal": [9]}},
    )
    assert response.status_code == 422
    assert response.json()["error"]["message"] == "The deck does not hold enough cards for that deal."
    response = post(client, MATCHES, {"game": "skyjo", "players": ["A", "B"], "options": {"target": 0}})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid"
    response = post(client, MATCHES, {"game": "skyjo", "players": ["A", "B"], "options": {"speed": 1}})
    assert response.json()["error"]["message"] == "This game has no option “speed”."


def test_the_games_are_listed_and_a_declared_one_publishes_its_inputs(client: Client) -> None:
    listed = client.get("/api/v1/games").json()["games"]
    keys = {game["key"]: game for game in listed}
    assert {"pickomino", "sheet", "skyjo", "seven_wonders", "ticket_to_ride", "skull_king"} <= set(keys)
    assert keys["ticket_to_ride"]["names"] == {"en": "Ticket to Ride", "fr": "Les Aventuriers du Rail"}
    assert (keys["skyjo"]["min_players"], keys["skyjo"]["max_players"], keys["skyjo"]["declared"]) == (2, 8, True)
    assert keys["pickomino"]["declared"] is False
    skull_king = client.get("/api/v1/games/skull_king").json()
    bid = next(item for item in skull_king["inputs"] if item["key"] == "bid")
    assert (bid["per"], bid["kind"], bid["min"], bid["max"]) == ("player", "count", 0, "dealt")
    assert {option["key"] for option in skull_king["options"]} >= {"scoring", "kraken", "deal"}
    assert skull_king["end"] == {
        "rounds": "size(options.deal)",
        "target": None,
        "table_decides": False,
        "untied": False,
        "last_standing": False,
        "rules": [],
        "unless": None,
    }
    # The second version's fields, beside the first's (docs/api-v1.md: extended, never changed).
    assert (skull_king["schema_version"], skull_king["entry"], skull_king["play"]) == (2, "rounds", "competitive")
    assert skull_king["ranking"][0] == {"key": "total", "value": "total", "order": "highest", "label": None}
    assert client.get("/api/v1/games/chess").status_code == 404


def test_the_points_of_a_round_are_given_before_it_is_recorded_and_nothing_is_written(client: Client) -> None:
    match = create(client, "skyjo", ["Ada", "Ben", "Cy"])
    inputs = json.dumps({"cards": [15, 10, 22], "ended_by": 0})
    answer = client.get(f"{MATCHES}/{match['id']}/points", {"inputs": inputs}).json()
    assert answer["points"] == [30, 10, 22]
    assert state_of(client, match)["seq"] == 0
    refusal = client.get(f"{MATCHES}/{match['id']}/points", {"inputs": json.dumps({"cards": [1, 2, 3]})}).json()
    assert (refusal["points"], refusal["code"], refusal["reason"]) == (None, "invalid", "missing_input")
    form = client.get(
        f"{MATCHES}/{match['id']}/points",
        {
            "players": "3",
            "drawn": "cards,ended_by",
            "in_ended_by": "0",
            "in_cards_0": "15",
            "in_cards_1": "10",
            "in_cards_2": "22",
        },
    ).json()
    assert form["points"] == [30, 10, 22]
    assert client.get(f"{MATCHES}/{match['id']}/points", {"inputs": "{"}).status_code == 422


def test_partial_points_count_the_numbers_left_empty_as_zero_for_a_booklet_filled_category_by_category(
    client: Client,
) -> None:
    match = create(client, "seven_wonders", ["Ada", "Ben", "Cy"])
    drawn = "military,coins,wonder,civilian,science,commercial,guilds"
    # Ada's military and Ben's coins typed, nothing else yet: 6 and 9 // 3 = 3 so far; Cy's
    # compasses, 2 of them: 4.
    fields = {"players": "3", "drawn": drawn, "in_military_0": "6", "in_coins_1": "9", "in_science_compass_2": "2"}
    address = f"{MATCHES}/{match['id']}/points"
    assert client.get(address, fields).json()["reason"] == "missing_input"  # as before, unasked
    so_far = client.get(address, {**fields, "partial": "1"}).json()
    assert (so_far["points"], so_far["partial"]) == ([6, 3, 4], True)
    assert (so_far["breakdown"][0]["military"], so_far["breakdown"][1]["treasury"]) == (6, 3)
    # A number typed out of bounds is still refused as it would be, in words.
    wrong = client.get(address, {**fields, "in_coins_1": "9999", "partial": "1"}).json()
    assert (wrong["points"], wrong["code"], wrong["partial"]) == (None, "invalid", False)
    assert wrong["reason"] != "missing_input"
    assert wrong["message"]
    assert state_of(client, match)["seq"] == 0


def test_partial_points_refused_only_because_of_what_is_not_typed_yet_say_the_round_is_not_filled_in(
    client: Client,
) -> None:
    # Skull King's tricks must add up to the cards dealt: zeros for the tricks not typed break
    # that rule, which is no refusal to show while the table is still typing.
    match = create(client, "skull_king", ["Ada", "Ben", "Cy"])
    fields = {"players": "3", "drawn": "bid,tricks,bonus", "in_bid_0": "1", "in_bid_1": "0", "in_bid_2": "0"}
    answer = client.get(f"{MATCHES}/{match['id']}/points", {**fields, "partial": "1"}).json()
    assert (answer["points"], answer["reason"], answer["partial"]) == (None, "missing_input", False)


@pytest.mark.parametrize(
    ("game", "shown"), [("seven_wonders", True), ("skyjo", True), ("molkky", False), ("azul", False)]
)
def test_the_band_shows_totals_to_come_only_where_a_round_s_points_add_to_them(
    client: Client, game: str, shown: bool
) -> None:
    # Mölkky is played by turns and drops a total over 50 to 25; Azul's file works its totals
    # out under a floor: a preview of the round's points would show a total it will not give.
    table = start(client, game, "Ada", "Ben", "Cy", **({"target": "100"} if game == "skyjo" else {}))
    page = client.get(table).content.decode()
    assert 'class="round-form declared-form"' in page
    assert ("data-band-pending" in page) is shown
