"""Yahtzee through the JSON API v1 (docs/api-v1.md, "Yahtzee"): creation, a turn scored with
the dice or the points, the joker and both bonuses, refusals with their codes in both
languages, undo and the guards, the State key by key, and a whole game to a shared win."""

from __future__ import annotations

from typing import Any

import pytest

from marquoir.tables.models import LogEntry, Match

from .conftest import UNDO, Created, YahtzeeApi, error_of, points, score
from .game import FINAL_TOTAL, game_bodies, score_body

NBSP = "\u00a0"
BOX_KEYS = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
]


def play_turns(api: YahtzeeApi, match: Created, count: int, players: int = 2) -> dict[str, Any]:
    """The first ``count`` turns of the scripted game."""
    return api.play(match, *game_bodies(players)[:count])


# --- creating a match


def test_a_match_starts_with_blank_sheets_in_round_one(api: YahtzeeApi):
    response = api.create_yahtzee(["Ada", "Ben", "Cy"], first=1)

    assert response.status_code == 201, response.content
    state = response.json()["state"]
    assert state["game"] == "yahtzee"
    assert state["options"] == {}
    assert (state["seq"], state["round"], state["current"], state["first"]) == (0, 1, 1, 1)
    assert state["over"] is False
    assert state["winners"] == []
    for player, name in zip(state["players"], ["Ada", "Ben", "Cy"], strict=True):
        assert player == {
            "name": name,
            "score": 0,
            "boxes": dict.fromkeys(BOX_KEYS),
            "upper_total": 0,
            "upper_bonus": 0,
            "yahtzee_bonus": 0,
        }
    assert list(state["players"][0]["boxes"]) == BOX_KEYS
    assert [standing["rank"] for standing in state["standings"]] == [1, 1, 1]


@pytest.mark.parametrize("count", [1, 8])
def test_one_to_eight_players_each_get_a_sheet(api: YahtzeeApi, count: int):
    state = api.new_yahtzee([f"P{index}" for index in range(count)]).state

    assert len(state["players"]) == count


@pytest.mark.parametrize(("count", "language", "words"), [(0, "en", "1 to 8"), (9, "en", "1 to 8"), (9, "fr", "1 à 8")])
def test_more_than_eight_or_no_player_is_refused(api: YahtzeeApi, count: int, language: str, words: str):
    response = api.create_yahtzee([f"P{index}" for index in range(count)], language=language)

    assert words in error_of(response, "invalid", 422)
    assert Match.objects.count() == 0


@pytest.mark.parametrize("options", [{}, None])
def test_no_options_or_an_empty_object_are_the_box_s_rules(api: YahtzeeApi, options: Any):
    response = api.create_yahtzee(options=options)

    assert response.status_code == 201
    assert response.json()["state"]["options"] == {}


@pytest.mark.parametrize("options", [{"house_rules": True}, ["joker"], "forced"])
def test_options_yahtzee_does_not_have_are_refused(api: YahtzeeApi, options: Any):
    error_of(api.create_yahtzee(options=options), "invalid", 422)
    assert Match.objects.count() == 0


# --- a turn


def test_the_dice_in_a_box_score_its_points_and_pass_the_turn(api: YahtzeeApi, duel: Created):
    state = api.play(duel, score("full_house", 3, 3, 5, 5, 5))

    ada = state["players"][0]
    assert ada["boxes"]["full_house"] == 25
    assert ada["score"] == 25
    assert (state["seq"], state["current"], state["round"]) == (1, 1, 1)
    assert state["standings"][0] == {"player": 0, "score": 25, "rank": 1}


@pytest.mark.parametrize(
    ("box", "dice", "expected"),
    [
        ("three_of_a_kind", (3, 3, 5, 5, 5), 21),
        ("fives", (3, 3, 5, 5, 5), 15),
        ("small_straight", (1, 2, 3, 4, 6), 30),
        ("large_straight", (1, 2, 3, 4, 6), 0),
        ("yahtzee", (2, 2, 2, 2, 2), 50),
        ("full_house", (2, 2, 2, 2, 2), 0),
        ("chance", (6, 1, 6, 2, 4), 19),
    ],
)
def test_the_server_works_out_the_points_of_the_rules_examples(
    api: YahtzeeApi, duel: Created, box: str, dice: tuple[int, ...], expected: int
):
    state = api.play(duel, score(box, *dice))

    assert state["players"][0]["boxes"][box] == expected


def test_a_second_yahtzee_earns_100_and_the_joker_sends_it_to_its_upper_box(api: YahtzeeApi, duel: Created):
    play_turns(api, duel, 2)  # both score a Yahtzee
    message = api.refused(duel, score("full_house", 4, 4, 4, 4, 4), "joker_upper", 422)
    assert "Fours" in message

    state = api.play(duel, score("fours", 4, 4, 4, 4, 4))

    ada = state["players"][0]
    assert (ada["boxes"]["fours"], ada["yahtzee_bonus"], ada["score"]) == (20, 100, 170)


def test_with_its_upper_box_filled_a_joker_takes_a_lower_box_in_full(api: YahtzeeApi, duel: Created):
    play_turns(api, duel, 6)  # Yahtzee, Fours, Sixes for both
    message = api.refused(duel, score("ones", 6, 6, 6, 6, 6), "joker_lower", 422)
    assert "lower box" in message

    state = api.play(duel, score("large_straight", 6, 6, 6, 6, 6))

    ada = state["players"][0]
    assert (ada["boxes"]["large_straight"], ada["yahtzee_bonus"]) == (40, 200)


def test_a_scratched_yahtzee_box_gives_the_joker_and_no_bonus(api: YahtzeeApi, duel: Created):
    api.play(duel, score("yahtzee", 1, 2, 3, 4, 6), score("chance", 1, 1, 1, 1, 2))
    api.play(duel, score("fives", 5, 5, 5, 5, 5), score("ones", 1, 1, 1, 1, 2))

    state = api.play(duel, score("full_house", 5, 5, 5, 5, 5))

    ada = state["players"][0]
    assert (ada["boxes"]["yahtzee"], ada["boxes"]["full_house"], ada["yahtzee_bonus"]) == (0, 25, 0)


def test_the_upper_bonus_counts_from_the_turn_the_upper_boxes_reach_63(api: YahtzeeApi, duel: Created):
    state = play_turns(api, duel, 14)  # up to the Threes: 3+6+9+20+24 = 62

    assert (state["players"][0]["upper_total"], state["players"][0]["upper_bonus"]) == (62, 0)
    state = api.play(duel, score_body(7))  # Fives: 15

    assert (state["players"][0]["upper_total"], state["players"][0]["upper_bonus"]) == (77, 35)
    assert state["players"][0]["score"] == 77 + 35 + 50 + 40 + 200


def test_a_filled_box_is_refused_as_box_taken(api: YahtzeeApi, duel: Created):
    api.play(duel, score("chance", 1, 2, 3, 4, 5), score("ones", 1, 1, 2, 3, 4))

    message = api.refused(duel, score("chance", 6, 6, 6, 6, 5), "box_taken", 422)

    assert "Chance" in message


# --- the points typed instead of the dice (extension)


def test_points_typed_fill_a_box_when_some_dice_give_them(api: YahtzeeApi, duel: Created):
    state = api.play(duel, points("three_of_a_kind", 17))

    assert state["players"][0]["boxes"]["three_of_a_kind"] == 17


@pytest.mark.parametrize(("box", "value"), [("full_house", 7), ("ones", 6), ("small_straight", 29), ("yahtzee", 25)])
def test_points_no_five_dice_can_give_there_are_refused(api: YahtzeeApi, duel: Created, box: str, value: int):
    message = api.refused(duel, points(box, value), "invalid", 422)

    assert str(value) in message


def test_fifty_typed_in_yahtzee_then_five_alike_typed_earn_the_bonus(api: YahtzeeApi, duel: Created):
    api.play(duel, points("yahtzee", 50), points("chance", 20))
    # 20 in Fours: only five 4s give it, so they were five alike.
    state = api.play(duel, points("fours", 20))

    assert state["players"][0]["yahtzee_bonus"] == 100


def test_five_alike_said_with_points_is_held_to_the_joker(api: YahtzeeApi, duel: Created):
    api.play(duel, points("yahtzee", 50), points("chance", 20))

    api.refused(duel, points("chance", 20, five_alike=True), "joker_upper", 422)
    state = api.play(duel, points("chance", 20))  # not said: not five alike, no bonus

    assert state["players"][0]["yahtzee_bonus"] == 0


# --- malformed turns


@pytest.mark.parametrize(
    ("body", "reason_words"),
    [
        pytest.param(score("fullhouse", 3, 3, 5, 5, 5), "Unknown box", id="unknown-box"),
        pytest.param(score("chance", 1, 2, 3, 4), "not 4", id="four-dice"),
        pytest.param(score("chance", 1, 2, 3, 4, 5, 6), "not 6", id="six-dice"),
        pytest.param(score("chance", 1, 2, 3, 4, 7), "Die 5", id="die-of-7"),
        pytest.param(score("chance", 1, 2, 0, 4, 5), "Die 3", id="die-of-0"),
        pytest.param(score("chance", 1, 2, "3", 4, 5), "Die 3", id="die-as-text"),
        pytest.param(score("chance", 1, 2, True, 4, 5), "Die 3", id="die-as-bool"),
        pytest.param(score("chance", 1, 2, 3.0, 4, 5), "Die 3", id="die-as-float"),
        pytest.param({"type": "score", "box": "chance", "dice": "12345"}, "list", id="dice-as-text"),
        pytest.param({"type": "score", "box": "chance"}, "or the points", id="neither"),
        pytest.param({**score("chance", 1, 2, 3, 4, 5), "points": 15}, "not both", id="both"),
        pytest.param(score("chance", 1, 2, 3, 4, 5, five_alike=False), "five_alike", id="five-alike-with-dice"),
        pytest.param(points("chance", 51), "0 to 50", id="points-over-50"),
        pytest.param(points("chance", -1), "0 to 50", id="points-negative"),
        pytest.param(points("chance", "20"), "0 to 50", id="points-as-text"),
        pytest.param(points("chance", 20, five_alike="yes"), "five_alike", id="five-alike-as-text"),
        pytest.param({**score("chance", 1, 2, 3, 4, 5), "player": 0}, "player", id="unknown-field"),
        pytest.param({"type": "take", "total": 25}, '"score"', id="another-game-s-action"),
    ],
)
def test_a_malformed_turn_is_refused_as_invalid_naming_what_is_wrong(
    api: YahtzeeApi, duel: Created, body: dict[str, Any], reason_words: str
):
    message = api.refused(duel, body, "invalid", 422)

    assert reason_words in message


# --- refusals in both languages


@pytest.mark.parametrize(
    ("language", "joker", "taken", "impossible"),
    [
        ("en", "Joker rule: with the Yahtzee box filled, five 4s must go in Fours", "Chance already holds", "No five"),
        (
            "fr",
            f"Règle du joker{NBSP}: la case Yahtzee remplie, cinq 4 doivent aller en Quatre",
            "La case Chance",
            "Aucun",
        ),
    ],
)
def test_refusals_are_worded_in_the_reader_s_language(
    api: YahtzeeApi, duel: Created, language: str, joker: str, taken: str, impossible: str
):
    api.play(duel, score("yahtzee", 2, 2, 2, 2, 2), score("chance", 1, 2, 3, 4, 5))

    assert joker in api.refused(duel, score("chance", 4, 4, 4, 4, 4), "joker_upper", 422, language=language)
    api.play(duel, score("chance", 1, 2, 3, 4, 5))
    assert taken in api.refused(duel, score("chance", 1, 1, 1, 1, 2), "box_taken", 422, language=language)
    assert api.refused(duel, points("full_house", 7), "invalid", 422, language=language).startswith(impossible)


def test_the_french_wording_keeps_french_typography(api: YahtzeeApi, duel: Created):
    message = api.refused(duel, {"type": "score", "box": "chance"}, "invalid", 422, language="fr")

    assert f"«{NBSP}dice{NBSP}»" in message
    assert " :" not in message.replace(f"{NBSP}:", "")


# --- undo, the guards, the end


def test_undo_takes_the_last_turn_back_and_gives_the_player_the_turn_again(api: YahtzeeApi, duel: Created):
    api.play(duel, score("chance", 1, 2, 3, 4, 5))

    state = api.play(duel, UNDO)

    assert state["players"][0]["boxes"]["chance"] is None
    assert (state["seq"], state["current"], state["round"]) == (2, 0, 1)
    payloads = list(LogEntry.objects.filter(match_id=duel.id).order_by("seq").values_list("payload", flat=True))
    assert payloads[0] == {"type": "score", "box": "chance", "dice": [1, 2, 3, 4, 5]}
    assert len(payloads) == 2


def test_nothing_to_undo_and_a_stale_seq_are_refused_as_for_every_game(api: YahtzeeApi, duel: Created):
    api.refused(duel, UNDO, "nothing_to_undo", 409)
    api.play(duel, score("chance", 1, 2, 3, 4, 5))

    api.refused(duel, score("ones", 1, 1, 1, 2, 3, expected_seq=0), "conflict", 409)


def test_the_same_action_id_counts_once(api: YahtzeeApi, duel: Created):
    first = api.act(duel, score("chance", 1, 2, 3, 4, 5, action_id="turn-1")).json()
    again = api.act(duel, score("chance", 1, 2, 3, 4, 5, action_id="turn-1")).json()

    assert first == again
    assert api.state(duel)["seq"] == 1


def test_a_whole_game_ends_after_thirteen_rounds_with_the_tie_shared(api: YahtzeeApi, duel: Created):
    state = api.play(duel, *game_bodies())

    assert state["over"] is True
    assert (state["current"], state["round"], state["seq"]) == (None, 13, 26)
    for player in state["players"]:
        assert player["score"] == FINAL_TOTAL == 528
        assert (player["upper_bonus"], player["yahtzee_bonus"]) == (35, 200)
        assert None not in player["boxes"].values()
    assert state["standings"] == [
        {"player": 0, "score": 528, "rank": 1},
        {"player": 1, "score": 528, "rank": 1},
    ]
    assert state["winners"] == [0, 1]
    message = api.refused(duel, score("chance", 1, 2, 3, 4, 5), "match_over", 409)
    assert "thirteen rounds" in message


def test_the_last_turn_undone_reopens_the_game(api: YahtzeeApi, duel: Created):
    api.play(duel, *game_bodies())

    state = api.play(duel, UNDO)

    assert (state["over"], state["current"], state["winners"]) == (False, 1, [])
    assert state["players"][1]["boxes"]["chance"] is None


def test_a_solitaire_game_has_one_finisher(api: YahtzeeApi):
    solo = api.new_yahtzee(["Ada"])

    state = api.play(solo, *game_bodies(players=1))

    assert (state["over"], state["winners"], state["players"][0]["score"]) == (True, [0], 528)
