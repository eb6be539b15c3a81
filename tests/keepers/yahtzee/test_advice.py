"""GET /api/v1/matches/{id}/advice for Yahtzee (docs/api-v1.md): the current player's sheet
as the solver values it, the keeps with rolls left, the boxes without; refusals."""

from __future__ import annotations

from typing import Any

import pytest

from marquoir.games.yahtzee import Box, Sheet, box_choices, solver
from marquoir.tables.models import Match
from marquoir.tables.selectors import match_view

from .conftest import MATCHES, Created, YahtzeeApi, error_of, score
from .game import game_bodies


def sheet_of(match: Created, player: int) -> Sheet:
    sheet: Sheet = match_view(Match.objects.get(pk=match.id)).engine.state.sheet(player)
    return sheet


def test_without_dice_it_is_the_value_of_the_sheet_before_the_turn(api: YahtzeeApi, duel: Created):
    response = api.advice(duel)

    assert response.status_code == 200
    assert response.json() == {"player": 0, "value": pytest.approx(solver.EMPTY_SHEET_VALUE_FORCED, abs=1e-3)}


def test_it_advises_the_current_player_s_sheet(api: YahtzeeApi, duel: Created):
    api.play(duel, score("yahtzee", 3, 3, 3, 3, 3))  # Ada's Yahtzee; Ben to play

    answer = api.advice(duel).json()

    assert answer["player"] == 1
    assert answer["value"] == pytest.approx(solver.sheet_value(sheet_of(duel, 1)))
    assert solver.sheet_value(sheet_of(duel, 0)) > answer["value"] + 40


@pytest.mark.parametrize("rolls_left", [1, 2])
def test_with_rolls_left_it_gives_every_keep_best_first(api: YahtzeeApi, duel: Created, rolls_left: int):
    api.play(duel, score("chance", 1, 2, 3, 4, 6), score("ones", 1, 1, 2, 3, 4))

    answer = api.advice(duel, dice="1,3,3,4,6", rolls_left=rolls_left).json()

    keeps = solver.best_keeps(sheet_of(duel, 0), (1, 3, 3, 4, 6), rolls_left)
    assert set(answer) == {"player", "value", "keep", "keeps"}
    assert answer["keep"] == list(keeps[0].keep)
    assert answer["value"] == pytest.approx(keeps[0].value)
    assert [keep["keep"] for keep in answer["keeps"]] == [list(keep.keep) for keep in keeps]
    assert [keep["value"] for keep in answer["keeps"]] == pytest.approx([keep.value for keep in keeps])


@pytest.mark.parametrize("query", [{"rolls_left": 0}, {}])
def test_with_no_roll_left_it_gives_every_allowed_box_best_first(api: YahtzeeApi, duel: Created, query: dict[str, Any]):
    api.play(duel, score("yahtzee", 2, 2, 2, 2, 2), score("ones", 1, 1, 2, 3, 4))

    answer = api.advice(duel, dice="4,4,4,4,4", **query).json()

    sheet = sheet_of(duel, 0)
    boxes = solver.best_boxes(sheet, (4, 4, 4, 4, 4))
    points = {choice.box: choice.points for choice in box_choices(sheet, (4, 4, 4, 4, 4))}
    assert set(answer) == {"player", "value", "box", "boxes"}
    # The joker allows only Fours: one box, with its 20 points (the bonus comes on top).
    assert answer["box"] == "fours" == boxes[0].box.value
    assert answer["boxes"] == [
        {"box": item.box.value, "points": points[item.box], "value": pytest.approx(item.value)} for item in boxes
    ]
    assert answer["boxes"][0]["points"] == 20
    assert points[Box.FULL_HOUSE] is None


def test_the_best_box_of_a_full_house_roll_early_is_the_full_house(api: YahtzeeApi, duel: Created):
    answer = api.advice(duel, dice="3,3,5,5,5", rolls_left=0).json()

    assert answer["box"] == "full_house"
    assert answer["boxes"][0] == {"box": "full_house", "points": 25, "value": pytest.approx(answer["value"])}


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"dice": "1,2,3"}, "five dice"),
        ({"dice": "1,2,3,4,7"}, "five dice"),
        ({"dice": "12345"}, "five dice"),
        ({"dice": "1,2,3,4,5", "rolls_left": 3}, "0, 1 or 2"),
        ({"dice": "1,2,3,4,5", "rolls_left": "two"}, "0, 1 or 2"),
        ({"dice": "1,2,3,4,5", "rolls_left": ""}, "0, 1 or 2"),
        ({"rolls_left": 1}, "goes with"),
    ],
)
def test_a_malformed_question_is_refused_as_invalid(api: YahtzeeApi, duel: Created, query: dict[str, Any], words: str):
    assert words in error_of(api.advice(duel, **query), "invalid", 422)


def test_refusals_of_the_assistant_are_worded_in_french_too(api: YahtzeeApi, duel: Created):
    message = error_of(api.advice(duel, language="fr", dice="1,2,3"), "invalid", 422)

    assert message.startswith("«\u00a0dice\u00a0» donne les cinq dés")


def test_after_the_end_there_is_nothing_to_advise(api: YahtzeeApi, duel: Created):
    api.play(duel, *game_bodies())

    error_of(api.advice(duel), "match_over", 409)


def test_an_unknown_match_and_a_game_without_the_assistant_answer_not_found(api: YahtzeeApi):
    error_of(api.client.get(f"{MATCHES}/{'A' * 22}/advice"), "not_found", 404)
    sheet = api.create({"game": "sheet", "players": ["Ada"]}).json()

    error_of(api.client.get(f"{MATCHES}/{sheet['id']}/advice"), "not_found", 404)
