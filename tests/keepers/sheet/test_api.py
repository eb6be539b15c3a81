"""The score sheet through the JSON API v1 (docs/api-v1.md, "Every game" and "Score sheet for
any game"): creation and its options, rounds, the end, undo and the guards, the State key by
key, refusals in both languages, and whole games (Skyjo to 100, ten rounds)."""

from __future__ import annotations

from typing import Any

import pytest

from marquoir.tables.models import LogEntry, Match

from .conftest import END, UNDO, Created, SheetApi, error_of, round_

NBSP = "\u00a0"
MINUS = "\u2212"
ENGLISH_AND_FRENCH = pytest.mark.parametrize("language", ["en", "fr"])


# --- creating a sheet


def test_a_sheet_is_created_with_its_options_and_a_blank_state(api: SheetApi):
    response = api.create_sheet(
        ["Ada", "Ben", "Cy"], {"title": "  Skyjo ", "lowest_wins": True, "target": 100, "rounds": None}, first=1
    )

    assert response.status_code == 201, response.content
    created = response.json()
    assert set(created) == {"id", "edit_token", "state"}
    state = created["state"]
    assert state["game"] == "sheet"
    assert state["options"] == {"title": "Skyjo", "lowest_wins": True, "target": 100, "rounds": None}
    assert state["seq"] == 0
    assert state["round"] == 0
    assert state["first"] == 1
    assert state["current"] is None
    assert state["players"] == [
        {"name": "Ada", "score": 0, "rounds": []},
        {"name": "Ben", "score": 0, "rounds": []},
        {"name": "Cy", "score": 0, "rounds": []},
    ]
    assert [standing["rank"] for standing in state["standings"]] == [1, 1, 1]
    assert state["over"] is False
    assert state["winners"] == []
    assert api.state(Created(created["id"], created["edit_token"], state)) == state


def test_without_options_the_highest_total_wins_and_nothing_ends_the_game_but_the_players(api: SheetApi):
    state = api.new_sheet().state

    assert state["options"] == {"title": None, "lowest_wins": False, "target": None, "rounds": None}


@pytest.mark.parametrize("title", ["", "   ", None])
def test_an_empty_title_is_no_title(api: SheetApi, title):
    assert api.new_sheet(options={"title": title}).state["options"]["title"] is None


def test_a_title_of_sixty_characters_in_any_script_is_kept(api: SheetApi):
    title = "Ὀδύσσεια 🎲 " + "é" * 49
    assert len(title) == 60
    assert api.new_sheet(options={"title": title}).state["options"]["title"] == title


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"title": "x" * 61}, id="title-too-long"),
        pytest.param({"title": "Sky\x07jo"}, id="title-control-character"),
        pytest.param({"title": "Sky\u202ejo"}, id="title-bidi-override"),
        pytest.param({"title": 5}, id="title-not-text"),
        pytest.param({"lowest_wins": "yes"}, id="lowest-wins-text"),
        pytest.param({"lowest_wins": 1}, id="lowest-wins-number"),
        pytest.param({"lowest_wins": None}, id="lowest-wins-null"),
        pytest.param({"target": 0}, id="target-0"),
        pytest.param({"target": -100}, id="target-negative"),
        pytest.param({"target": 100.0}, id="target-float"),
        pytest.param({"target": True}, id="target-bool"),
        pytest.param({"target": "100"}, id="target-text"),
        pytest.param({"target": 10_000_001}, id="target-too-high"),
        pytest.param({"rounds": 0}, id="rounds-0"),
        pytest.param({"rounds": 1001}, id="rounds-too-many"),
        pytest.param({"rounds": 2.5}, id="rounds-float"),
        pytest.param({"max_score": 3}, id="unknown-option"),
        pytest.param(["title", "Skyjo"], id="not-an-object"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_created(api: SheetApi, options):
    error_of(api.create_sheet(options=options), "invalid", 422)
    assert Match.objects.count() == 0


@pytest.mark.parametrize("count", [0, 21])
def test_a_sheet_takes_one_to_twenty_players(api: SheetApi, count):
    message = error_of(api.create_sheet([f"P{index}" for index in range(count)]), "invalid", 422)

    assert "1 to 20" in message
    assert Match.objects.count() == 0


@pytest.mark.parametrize("count", [1, 20])
def test_one_player_and_twenty_players_each_get_a_sheet(api: SheetApi, count):
    state = api.new_sheet([f"P{index}" for index in range(count)]).state

    assert len(state["players"]) == count


# --- rounds, the end, undo


def test_a_round_adds_each_score_to_its_player_and_ranks_them(api: SheetApi, sheet: Created):
    state = api.play(sheet, round_(12, -3, 40))

    assert state["seq"] == 1
    assert state["round"] == 1
    assert [player["rounds"] for player in state["players"]] == [[12], [-3], [40]]
    assert [player["score"] for player in state["players"]] == [12, -3, 40]
    assert state["standings"] == [
        {"player": 2, "score": 40, "rank": 1},
        {"player": 0, "score": 12, "rank": 2},
        {"player": 1, "score": -3, "rank": 3},
    ]
    assert state["over"] is False
    assert state["winners"] == []

    state = api.play(sheet, round_(8, 23, 0))
    assert [player["rounds"] for player in state["players"]] == [[12, 8], [-3, 23], [40, 0]]
    assert [player["score"] for player in state["players"]] == [20, 20, 40]
    assert [(standing["player"], standing["rank"]) for standing in state["standings"]] == [(2, 1), (0, 2), (1, 2)]


def test_the_extreme_scores_are_accepted(api: SheetApi, sheet: Created):
    state = api.play(sheet, round_(100_000, -100_000, 0))

    assert [player["score"] for player in state["players"]] == [100_000, -100_000, 0]


def test_the_end_names_the_best_total_and_ties_share_the_win(api: SheetApi, sheet: Created):
    api.play(sheet, round_(10, 30, 30))
    state = api.play(sheet, END)

    assert state["over"] is True
    assert state["winners"] == [1, 2]
    assert [(standing["player"], standing["rank"]) for standing in state["standings"]] == [(1, 1), (2, 1), (0, 3)]
    assert state["round"] == 1
    assert state["seq"] == 2


def test_undo_takes_back_the_last_round_then_the_one_before(api: SheetApi, sheet: Created):
    api.play(sheet, round_(1, 2, 3), round_(10, 20, 30))

    state = api.play(sheet, UNDO)
    assert state["seq"] == 3
    assert state["round"] == 1
    assert [player["rounds"] for player in state["players"]] == [[1], [2], [3]]
    state = api.play(sheet, UNDO)
    assert state["round"] == 0
    assert [player["score"] for player in state["players"]] == [0, 0, 0]
    api.refused(sheet, UNDO, "nothing_to_undo", 409)


def test_undoing_the_end_lets_the_game_go_on(api: SheetApi, sheet: Created):
    api.play(sheet, round_(1, 2, 3), END)

    state = api.play(sheet, UNDO)
    assert state["over"] is False
    assert state["winners"] == []
    state = api.play(sheet, round_(5, 5, 5))
    assert state["round"] == 2


def test_ending_before_any_round_is_refused_with_its_own_code(api: SheetApi, sheet: Created):
    message = api.refused(sheet, END, "no_round", 422)

    assert message == "Record at least one round before ending the game."


@pytest.mark.parametrize("body", [round_(1, 2, 3), END])
def test_nothing_is_recorded_after_the_end(api: SheetApi, sheet: Created, body):
    api.play(sheet, round_(1, 2, 3), END)

    message = api.refused(sheet, body, "match_over", 409)
    assert "game is over" in message


def test_an_action_for_an_older_sheet_is_a_conflict(api: SheetApi, sheet: Created):
    api.play(sheet, round_(1, 2, 3))

    api.refused(sheet, round_(4, 5, 6, expected_seq=0), "conflict", 409)
    state = api.play(sheet, round_(4, 5, 6, expected_seq=1))
    assert state["seq"] == 2


def test_the_same_action_id_sent_again_is_applied_once(api: SheetApi, sheet: Created):
    first = api.act(sheet, round_(1, 2, 3, action_id="tap-1"))
    again = api.act(sheet, round_(1, 2, 3, action_id="tap-1"))

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert api.state(sheet)["round"] == 1
    assert LogEntry.objects.filter(match_id=sheet.id).count() == 1


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        pytest.param(round_(1, 2), "3 players", id="too-few-scores"),
        pytest.param(round_(1, 2, 3, 4), "3 players", id="too-many-scores"),
        pytest.param(round_(*range(21)), "at most 20 players", id="more-than-any-sheet"),
        pytest.param(round_(), "3 players", id="no-score"),
        pytest.param(round_(1, 2.5, 3), "Ben", id="a-float"),
        pytest.param(round_(1, 2.0, 3), "Ben", id="a-whole-float"),
        pytest.param(round_(True, 2, 3), "Ada", id="a-bool"),
        pytest.param(round_(1, "2", 3), "Ben", id="a-string"),
        pytest.param(round_(1, None, 3), "Ben", id="a-null"),
        pytest.param(round_(1, 2, 100_001), "Cy", id="over-100000"),
        pytest.param(round_(-100_001, 2, 3), "Ada", id="under-minus-100000"),
        pytest.param(round_(10**40, 2, 3), "Ada", id="a-huge-number"),
        pytest.param({"type": "round", "scores": "1,2,3"}, "list", id="scores-as-text"),
        pytest.param({"type": "round", "scores": {"Ada": 1}}, "list", id="scores-as-object"),
        pytest.param({"type": "round"}, "list", id="no-scores"),
    ],
)
def test_a_malformed_round_is_refused_and_says_what_is_wrong(api: SheetApi, sheet: Created, body, fragment):
    message = api.refused(sheet, body, "invalid", 422)

    assert fragment in message


def test_an_unknown_field_or_type_is_refused(api: SheetApi, sheet: Created):
    assert "total" in api.refused(sheet, {**round_(1, 2, 3), "total": 6}, "invalid", 422)
    assert "scores" in api.refused(sheet, {"type": "end", "scores": [1, 2, 3]}, "invalid", 422)
    message = api.refused(sheet, {"type": "take", "total": 27}, "invalid", 422)
    assert '"round", "end", "undo"' in message


def test_acting_needs_the_edit_token(api: SheetApi, sheet: Created):
    error_of(api.act(sheet, round_(1, 2, 3), token="wrong"), "unauthorized", 401)
    assert api.state(sheet)["seq"] == 0


# --- the State, exactly as the contract says


def test_the_state_has_exactly_the_contracts_keys(api: SheetApi):
    created = api.new_sheet(["Ada", "Ben"], {"title": "Rami", "rounds": 3})
    state = api.play(created, round_(5, -2))

    assert set(state) == {
        "id",
        "game",
        "options",
        "seq",
        "players",
        "current",
        "over",
        "standings",
        "winners",
        "round",
        "first",
    }
    assert state["id"] == created.id
    assert state["game"] == "sheet"
    assert state["options"] == {"title": "Rami", "lowest_wins": False, "target": None, "rounds": 3}
    assert state["seq"] == 1
    assert state["players"] == [
        {"name": "Ada", "score": 5, "rounds": [5]},
        {"name": "Ben", "score": -2, "rounds": [-2]},
    ]
    assert all(set(player) == {"name", "score", "rounds"} for player in state["players"])
    assert state["current"] is None
    assert state["over"] is False
    assert state["standings"] == [{"player": 0, "score": 5, "rank": 1}, {"player": 1, "score": -2, "rank": 2}]
    assert state["winners"] == []
    assert state["round"] == 1
    assert state["first"] == 0
    assert api.state(created) == state


def test_the_openapi_schema_documents_the_sheets_actions_and_state(api: SheetApi):
    schema = api.client.get("/api/v1/openapi.json").json()

    body = schema["paths"]["/api/v1/matches/{match_id}/actions"]["post"]["requestBody"]["content"]["application/json"]
    components = schema["components"]["schemas"]
    # Another game may have an EndIn too: pydantic then names both apart; the titles stay.
    options = [components[option["$ref"].rsplit("/", 1)[-1]] for option in body["schema"]["anyOf"]]
    assert {"RoundIn", "EndIn", "UndoIn"} <= {option["title"] for option in options}
    round_in = components["RoundIn"]
    assert round_in["additionalProperties"] is False
    assert round_in["properties"]["scores"]["items"] == {"maximum": 100000, "minimum": -100000, "type": "integer"}
    assert "SheetStateOut" in schema["components"]["schemas"]


# --- words, in the reader's language


@pytest.mark.parametrize(
    ("body", "code", "status", "english", "french"),
    [
        (round_(1, 2), "invalid", 422, "This sheet has 3 players", f"Cette feuille compte 3 joueurs{NBSP}:"),
        (round_(1, 2, 100_001), "invalid", 422, "The score of Cy is out of range", "Le score de Cy est hors limites"),
        (round_(1, 2.5, 3), "invalid", 422, "The score of Ben must be a whole number", "Le score de Ben doit être"),
        (END, "no_round", 422, "Record at least one round", "Notez au moins une manche"),
    ],
)
def test_refusals_are_worded_in_the_language_asked(api: SheetApi, sheet: Created, body, code, status, english, french):
    assert english in error_of(api.act(sheet, body), code, status)
    assert french in error_of(api.act(sheet, body, language="fr"), code, status)


def test_after_the_end_a_round_is_refused_in_french(api: SheetApi, sheet: Created):
    api.play(sheet, round_(1, 2, 3), END)

    message = error_of(api.act(sheet, round_(1, 2, 3), language="fr-FR,fr;q=0.9"), "match_over", 409)
    assert message.startswith(f"La partie est finie{NBSP}:")


def test_a_refused_player_count_is_worded_in_french(api: SheetApi):
    message = error_of(api.create_sheet([f"P{index}" for index in range(21)], language="fr"), "invalid", 422)

    assert "de 1 à 20 joueurs" in message


def test_a_refused_option_is_worded_by_the_sheet(api: SheetApi):
    message = error_of(api.create_sheet(options={"target": 0}), "invalid", 422)

    assert message == "The target is a whole number from 1 to 10,000,000, or null for none."


# --- whole games


def totals(state: dict[str, Any]) -> list[int]:
    return [player["score"] for player in state["players"]]


def test_skyjo_to_100_lowest_wins_ends_on_the_round_that_passes_it_with_a_tie(api: SheetApi):
    skyjo = api.new_sheet(["Ada", "Ben", "Cy"], {"title": "Skyjo", "lowest_wins": True, "target": 100})

    state = api.play(skyjo, round_(20, 25, 30), round_(25, 20, 35))
    assert state["over"] is False
    assert state["standings"][0] == {"player": 0, "score": 45, "rank": 1}
    assert state["standings"][1] == {"player": 1, "score": 45, "rank": 1}
    state = api.play(skyjo, round_(-5, -5, 34))  # Cy reaches 99: not yet
    assert state["over"] is False
    assert totals(state) == [40, 40, 99]
    state = api.play(skyjo, round_(15, 15, 1))  # Cy reaches 100 exactly: the game is over

    assert state["over"] is True
    assert totals(state) == [55, 55, 100]
    assert state["winners"] == [0, 1]
    assert state["standings"] == [
        {"player": 0, "score": 55, "rank": 1},
        {"player": 1, "score": 55, "rank": 1},
        {"player": 2, "score": 100, "rank": 3},
    ]
    assert state["round"] == 4
    api.refused(skyjo, round_(1, 1, 1), "match_over", 409)
    # A mistake in the last round: undone, the game goes on.
    state = api.play(skyjo, UNDO)
    assert state["over"] is False
    assert state["round"] == 3


def test_a_ten_round_game_highest_wins_ends_after_the_tenth_round(api: SheetApi):
    game = api.new_sheet(["Ada", "Ben", "Cy", "Dee"], {"rounds": 10})

    for number in range(1, 10):
        state = api.play(game, round_(number, 2 * number, 10, -number))
        assert state["over"] is False
        assert state["round"] == number
    state = api.play(game, round_(10, 20, 10, -10))

    assert state["over"] is True
    assert state["round"] == 10
    assert totals(state) == [55, 110, 100, -55]
    assert state["winners"] == [1]
    assert [standing["player"] for standing in state["standings"]] == [1, 2, 0, 3]
    assert [standing["rank"] for standing in state["standings"]] == [1, 2, 3, 4]
    api.refused(game, round_(1, 1, 1, 1), "match_over", 409)
    api.refused(game, END, "match_over", 409)


def test_a_target_and_a_round_count_whichever_comes_first(api: SheetApi):
    game = api.new_sheet(["Ada", "Ben"], {"target": 50, "rounds": 5})

    state = api.play(game, round_(30, 10), round_(25, 10))
    assert state["over"] is True
    assert state["winners"] == [0]
    assert state["round"] == 2


def test_a_lone_player_keeps_a_sheet_and_wins_it(api: SheetApi):
    solo = api.new_sheet(["Ada"])

    state = api.play(solo, round_(7), round_(-2), END)
    assert state["winners"] == [0]
    assert totals(state) == [5]
    assert state["players"][0]["rounds"] == [7, -2]
