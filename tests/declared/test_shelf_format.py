"""What the game file gained for the shelf (docs/game-file.md, "Added for the shelf"), held
through the API on the test database: Mölkky's turns (whose turn, the misses carried, out),
a turn sent to a game scored by rounds and the other way round, Qwixx's warning recorded
with the round, UNO's "held" scoring where the lowest wins, Papayoo's points limit left
empty, Flip 7's tie on top that plays on, Kingdomino's records refused in words."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import pytest
from django.test import Client

from marquoir.games.content import GAMES_DIR
from marquoir.games.declared import GameState, Round, Turn, declared_games, resolve_options
from marquoir.games.declared.engine import apply, tie_broken
from marquoir.games.declared.game import compile_game
from marquoir.games.declared.gamefile import GameFileError, parse_game_file
from marquoir.rules import RuleError

from .test_api import act, create

pytestmark = pytest.mark.django_db
GAMES = {game.key: game for game in declared_games()}


def state_of(key: str, players: int, options: dict[str, Any] | None = None) -> GameState:
    game = GAMES[key]
    return GameState(game, resolve_options(game, players, options or {}), players, 0)


def test_a_molkky_match_says_whose_throw_it_is_and_carries_the_misses() -> None:
    client = Client()
    match = create(client, "molkky", ["Ada", "Ben", "Cy"])
    assert match["state"]["current"] == 0
    thrown = act(client, match, {"type": "turn", "inputs": {"pins": [7]}})
    assert thrown.status_code == 200, thrown.content
    missed = act(client, match, {"type": "turn", "inputs": {"pins": []}}).json()
    assert missed["current"] == 2
    assert [player["score"] for player in missed["players"]] == [7, 0, 0]
    assert missed["players"][1]["carried"] == {"misses": 1}
    assert missed["players"][1]["out"] is False


def test_a_round_sent_to_a_game_played_by_turns_is_refused_in_words_and_changes_nothing() -> None:
    client = Client()
    match = create(client, "molkky", ["Ada", "Ben"])
    refused = act(client, match, {"type": "round", "inputs": {"pins": [7]}})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid"
    again = client.get(f"/api/v1/matches/{match['id']}").json()
    assert again["seq"] == 0


def test_a_turn_sent_to_a_game_scored_by_rounds_is_refused() -> None:
    with pytest.raises(RuleError) as refusal:
        apply(state_of("papayoo", 4), Turn({"points": [52, 98, 60, 40]}))
    assert (refusal.value.code, refusal.value.reason) == ("invalid", "round_game")


def test_a_player_out_after_three_misses_no_longer_throws() -> None:
    state = state_of("molkky", 3)
    for pins in ([1], [], [2], [1], [], [2], [1], []):
        state, _ = apply(state, Turn({"pins": pins}))
    assert state.out == (False, True, False)
    assert state.current == 2
    state, _ = apply(state, Turn({"pins": [3]}))
    assert state.current == 0


def test_qwixx_sheets_entered_before_the_end_are_recorded_with_a_warning_in_the_state() -> None:
    client = Client()
    match = create(client, "qwixx", ["Ada", "Ben"])
    inputs = {
        "red": [7, 2],
        "yellow": [5, 2],
        "green": [5, 2],
        "blue": [5, 2],
        "penalties": [0, 0],
        "locked": [["red"], []],
    }
    answer = act(client, match, {"type": "round", "inputs": inputs})
    assert answer.status_code == 200, answer.content
    assert answer.json()["warnings"] == [{"rule": "not_an_end", "player": None}]


def test_uno_s_held_scoring_gives_the_win_to_the_lowest_total() -> None:
    state = state_of("uno", 3, {"scoring": "held"})
    assert state.lowest_wins
    assert not state_of("uno", 3).lowest_wins


def test_papayoo_s_points_limit_may_be_left_empty_and_the_deals_default_to_one_per_player() -> None:
    state = state_of("papayoo", 4, {"target": None})
    assert state.options["target"] is None
    assert state.target() is None
    assert state.rounds_planned() == 4


def test_flip_7_plays_on_while_the_top_is_shared() -> None:
    game = GAMES["flip_7"]
    state = GameState(game, resolve_options(game, 3, {}), 3, 0, before=(195, 195, 10))
    inputs = {
        "numbers": [8, 8, 3],
        "times_two": [False, False, False],
        "modifiers": [0, 0, 0],
        "flip_7": [False, False, False],
        "busted": [False, False, False],
    }
    state, scored = apply(state, Round(inputs))
    assert state.totals == (203, 203, 13)
    assert not scored.game_over


@pytest.mark.parametrize(
    ("properties", "reason"),
    [
        ([{"squares": 2}], "missing_part"),
        ([{"squares": 2, "crowns": 1, "colour": "red"}], "unknown_part"),
        ([{"squares": 0, "crowns": 1}], "input_range"),
        ([{"squares": 2, "crowns": 1, "terrain": "<script>"}], "input_choice"),
        (["wheat"], "input_kind"),
        ([{"squares": 1, "crowns": 0}] * 25, "input_length"),
    ],
)
def test_a_kingdomino_property_that_is_not_one_is_refused_as_invalid(properties: list[Any], reason: str) -> None:
    with pytest.raises(RuleError) as refusal:
        apply(state_of("kingdomino", 2), Round({"properties": [properties, []]}))
    assert (refusal.value.code, refusal.value.reason) == ("invalid", reason)


def test_a_refused_property_is_worded_in_french_with_the_state_unchanged() -> None:
    client = Client()
    match = create(client, "kingdomino", ["Ada", "Ben"])
    body = {"type": "round", "inputs": {"properties": [[{"squares": 3, "crowns": 4, "terrain": "wheat"}], []]}}
    refused = act(client, match, body, language="fr")
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "rule"
    assert "couronnes" in refused.json()["error"]["message"]
    assert client.get(f"/api/v1/matches/{match['id']}").json()["seq"] == 0


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_declared_game_describes_its_inputs_and_end_to_another_client(key: str) -> None:
    described = Client().get(f"/api/v1/games/{key}")
    assert described.status_code == 200, described.content
    body = described.json()
    # A game entered by turns says "turns" as the first version did.
    assert body["scored"] == ("turns" if GAMES[key].by_turns else GAMES[key].file.scored)
    assert body["entry"] == GAMES[key].file.entry
    assert [item["key"] for item in body["inputs"]] == [item.key for item in GAMES[key].file.inputs]


def test_molkky_is_described_as_played_by_turns_with_its_pins_as_a_list() -> None:
    body = Client().get("/api/v1/games/molkky").json()
    assert body["scored"] == "turns"
    assert body["end"]["last_standing"] is True
    pins = next(item for item in body["inputs"] if item["key"] == "pins")
    assert (pins["per"], pins["kind"], pins["min"], pins["max"], pins["max_length"]) == ("turn", "list", 1, 12, 12)


def test_a_molkky_rematch_seats_the_lowest_score_first() -> None:
    client = Client()
    match = create(client, "molkky", ["Ada", "Ben", "Cy"])
    for pins in ([12], [3], [7]):  # Ada 12, Ben 3, Cy 7
        assert act(client, match, {"type": "turn", "inputs": {"pins": pins}}).status_code == 200
    page = client.get(f"/en/tables/new/molkky/?from={match['id']}").content.decode()
    seated = [page.index(f'value="{name}"') for name in ("Ben", "Cy", "Ada")]
    assert seated == sorted(seated)


def test_a_rematch_of_a_game_scored_by_rounds_keeps_the_seats() -> None:
    client = Client()
    match = create(client, "papayoo", ["Ada", "Ben", "Cy"])
    body = {"type": "round", "inputs": {"points": [200, 10, 40]}}
    assert act(client, match, body).status_code == 200
    page = client.get(f"/en/tables/new/papayoo/?from={match['id']}").content.decode()
    seated = [page.index(f'value="{name}"') for name in ("Ada", "Ben", "Cy")]
    assert seated == sorted(seated)


def molkky_data() -> dict[str, Any]:
    return tomllib.loads((GAMES_DIR / "molkky" / "game.toml").read_text(encoding="utf-8"))


def refused_file(data: dict[str, Any]) -> str:
    with pytest.raises(GameFileError) as refusal:
        compile_game(parse_game_file(data, source="test.toml"), source="test.toml")
    return str(refusal.value)


def test_a_game_played_by_turns_takes_no_input_per_player() -> None:
    data = molkky_data()
    data["inputs"][1]["per"] = "player"
    assert "per = 'turn' inputs only" in refused_file(data)


def test_a_turn_input_belongs_to_a_game_played_by_turns() -> None:
    data = molkky_data()
    data["entry"] = "rounds"
    del data["turns"]
    assert "per = 'turn'" in refused_file(data)


def test_the_others_after_a_turn_belong_to_a_game_entered_by_turns() -> None:
    data = molkky_data()
    data["entry"] = "rounds"
    assert "a [turns] table is for a game entered by turns" in refused_file(data)


def test_a_round_may_only_set_the_total_and_the_carried_values() -> None:
    data = molkky_data()
    data["after"]["luck"] = "1"
    assert "after.luck" in refused_file(data)


def test_a_list_of_numbers_has_its_bounds_as_whole_numbers_few_apart() -> None:
    data = molkky_data()
    data["inputs"][0]["max"] = "players"
    assert "whole-number min and max" in refused_file(data)
    data["inputs"][0]["max"] = 500
    assert "at most 50 apart" in refused_file(data)


def test_a_turn_formula_reads_the_thrower_and_a_typo_is_refused_with_its_place() -> None:
    data = molkky_data()
    data["turns"]["others"]["total"] = "thrower.total == totl ? 0 : total"
    assert "turns.others.total" in refused_file(data)
    assert "unknown name 'totl'" in refused_file(data)


def test_a_molkky_rematch_lets_the_lowest_score_throw_first_even_when_the_seats_stay() -> None:
    client = Client()
    body = {"game": "molkky", "players": ["Ada", "Ben"], "first": 1}
    created = client.post("/api/v1/matches", data=body, content_type="application/json").json()
    for pins in ([12], [2]):  # Ben 12, then Ada 2: Ada is lowest, already in the first seat
        assert act(client, created, {"type": "turn", "inputs": {"pins": pins}}).status_code == 200
    page = client.get(f"/en/tables/new/molkky/?from={created['id']}").content.decode()
    assert page.index('value="Ada"') < page.index('value="Ben"')
    assert re.search(r'name="first" value="0"[^>]*checked', page)


def test_a_tie_with_a_player_out_is_no_shared_win() -> None:
    state = state_of("molkky", 2)
    for pins in ([12], [12], [], [1], [], [], [1], [], [], []):
        state, _ = apply(state, Turn({"pins": pins}))
    assert state.totals == (13, 13)
    assert state.out == (False, True)
    assert tie_broken(state) is None


def test_papayoo_s_taker_left_unsaid_on_the_form_is_the_input_left_out() -> None:
    from marquoir.registry import installed_games

    keeper = installed_games()["papayoo"]
    fields = {"type": "round", "players": "4", "drawn": "points,papayoo_by", "in_papayoo_by": "-1"}
    fields |= {f"in_points_{seat}": str(points) for seat, points in enumerate([52, 98, 60, 40])}
    action = keeper.form_action(fields)
    assert action == {"type": "round", "inputs": {"points": [52, 98, 60, 40]}}
    fields["in_papayoo_by"] = "3"
    assert keeper.form_action(fields)["inputs"]["papayoo_by"] == 3
