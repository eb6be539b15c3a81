"""The worked examples of docs/rules-yahtzee.md, one test each, and the upper bonus at 62 and 63."""

from __future__ import annotations

import pytest

from marquoir.games.yahtzee import GameState, RuleError, Score, Scored, Sheet, apply, box_choices, new_game

from .builders import only_open, play, sheet, solo


def scored(state: GameState, box: str, dice: tuple[int, ...]) -> tuple[GameState, Scored]:
    return apply(state, Score(box, dice))


def test_example_3_3_5_5_5_scores_25_in_full_house_21_in_three_of_a_kind_15_in_fives():
    points = {choice.box.value: choice.points for choice in box_choices(Sheet(), (3, 3, 5, 5, 5))}
    assert points["full_house"] == 25
    assert points["three_of_a_kind"] == 21
    assert points["fives"] == 15
    for box, expected in (("full_house", 25), ("three_of_a_kind", 21), ("fives", 15)):
        assert scored(new_game(1), box, (3, 3, 5, 5, 5))[1].points == expected


def test_example_1_2_3_4_6_scores_30_in_small_straight_and_0_in_large_straight():
    assert scored(new_game(1), "small_straight", (1, 2, 3, 4, 6))[1].points == 30
    assert scored(new_game(1), "large_straight", (1, 2, 3, 4, 6))[1].points == 0


def test_example_2_2_2_2_2_scores_50_in_yahtzee():
    state, outcome = scored(new_game(1), "yahtzee", (2, 2, 2, 2, 2))
    assert outcome.points == 50
    assert outcome.yahtzee_bonus == 0
    assert state.sheets[0].boxes[11] == 50


def test_example_later_4_4_4_4_4_with_fours_open_must_go_in_fours_for_20_and_100_bonus():
    state = play(new_game(1), ("yahtzee", (2, 2, 2, 2, 2)))
    with pytest.raises(RuleError) as refused:
        scored(state, "full_house", (4, 4, 4, 4, 4))
    assert refused.value.code == "joker_upper"
    assert refused.value.params["allowed"] == ["fours"]
    state, outcome = scored(state, "fours", (4, 4, 4, 4, 4))
    assert (outcome.points, outcome.yahtzee_bonus, outcome.joker) == (20, 100, True)
    assert state.sheets[0].yahtzee_bonus == 100
    assert state.total(0) == 50 + 20 + 100


def test_example_later_6_6_6_6_6_with_sixes_filled_gives_40_in_large_straight_plus_100():
    state = play(new_game(1), ("yahtzee", (2, 2, 2, 2, 2)), ("fours", (4, 4, 4, 4, 4)), ("sixes", (6, 6, 1, 2, 3)))
    state, outcome = scored(state, "large_straight", (6, 6, 6, 6, 6))
    assert (outcome.points, outcome.yahtzee_bonus) == (40, 100)
    assert state.total(0) == 50 + (20 + 100) + 12 + (40 + 100)


def test_example_yahtzee_scratched_then_5_5_5_5_5_with_fives_filled_gives_25_in_full_house_and_no_bonus():
    state = play(new_game(1), ("yahtzee", (1, 2, 3, 4, 6)), ("fives", (5, 5, 1, 2, 3)))
    assert state.sheets[0].boxes[11] == 0
    state, outcome = scored(state, "full_house", (5, 5, 5, 5, 5))
    assert (outcome.points, outcome.yahtzee_bonus, outcome.joker) == (25, 0, True)
    assert state.total(0) == 0 + 10 + 25


def test_example_upper_boxes_adding_up_to_63_earn_the_35_bonus():
    done = sheet(ones=3, twos=6, threes=9, fours=12, fives=15)
    state, outcome = scored(solo(done), "sixes", (6, 6, 6, 1, 2))
    assert state.sheets[0].upper_total == 63
    assert outcome.upper_bonus == 35
    assert state.sheets[0].upper_bonus == 35
    assert state.total(0) == 63 + 35


def test_upper_boxes_adding_up_to_62_earn_no_bonus():
    done = sheet(ones=2, twos=6, threes=9, fours=12, fives=15)
    state, outcome = scored(solo(done), "sixes", (6, 6, 6, 1, 2))
    assert state.sheets[0].upper_total == 62
    assert outcome.upper_bonus == 0
    assert state.total(0) == 62


def test_the_upper_bonus_is_earned_once_the_turn_63_is_reached_and_never_again():
    state = solo(sheet(sixes=30, fives=25))
    state, reached = scored(state, "fours", (4, 4, 1, 1, 1))
    state, after = scored(state, "threes", (3, 3, 3, 3, 1))
    assert (reached.upper_bonus, after.upper_bonus) == (35, 0)
    assert state.sheets[0].upper_bonus == 35


def test_the_bonus_counts_in_the_total_before_the_upper_boxes_are_all_filled():
    state = solo(only_open("ones", "twos", "threes", "fours", sixes=30, fives=25, chance=20))
    state, outcome = scored(state, "fours", (4, 4, 4, 1, 1))
    assert outcome.upper_bonus == 35
    assert outcome.total == 30 + 25 + 20 + 12 + 35
