"""What each box scores with the dice, by the table of boxes (docs/rules-yahtzee.md)."""

from __future__ import annotations

import pytest

from marquoir.games.yahtzee import Box, Sheet, box_choices, plain_points


def points(box: str, *dice: int) -> int:
    return plain_points(Box(box), dice)


def test_ones_count_the_dice_showing_one():
    assert points("ones", 1, 1, 3, 1, 6) == 3
    assert points("ones", 2, 3, 4, 5, 6) == 0


def test_twos_count_the_dice_showing_two():
    assert points("twos", 2, 2, 5, 1, 2) == 6
    assert points("twos", 1, 3, 4, 5, 6) == 0


def test_threes_count_the_dice_showing_three():
    assert points("threes", 3, 3, 3, 3, 1) == 12


def test_fours_count_the_dice_showing_four():
    assert points("fours", 4, 1, 2, 3, 5) == 4


def test_fives_count_the_dice_showing_five():
    assert points("fives", 5, 5, 6, 6, 6) == 10


def test_sixes_count_the_dice_showing_six():
    assert points("sixes", 6, 6, 6, 6, 6) == 30
    assert points("sixes", 1, 2, 3, 4, 5) == 0


def test_three_of_a_kind_sums_all_five_dice_with_three_alike_or_more():
    assert points("three_of_a_kind", 2, 2, 2, 5, 6) == 17
    assert points("three_of_a_kind", 4, 4, 4, 4, 1) == 17
    assert points("three_of_a_kind", 1, 1, 1, 1, 1) == 5
    assert points("three_of_a_kind", 2, 2, 5, 5, 6) == 0


def test_four_of_a_kind_sums_all_five_dice_with_four_alike_or_more():
    assert points("four_of_a_kind", 6, 6, 6, 6, 2) == 26
    assert points("four_of_a_kind", 3, 3, 3, 3, 3) == 15
    assert points("four_of_a_kind", 6, 6, 6, 2, 2) == 0


def test_full_house_is_25_for_three_of_one_number_and_two_of_another():
    assert points("full_house", 2, 2, 6, 6, 6) == 25
    assert points("full_house", 2, 2, 6, 6, 5) == 0
    assert points("full_house", 6, 6, 6, 6, 2) == 0


def test_five_alike_is_not_a_full_house_outside_the_joker():
    assert points("full_house", 4, 4, 4, 4, 4) == 0
    choices = {choice.box: choice for choice in box_choices(Sheet(), (4, 4, 4, 4, 4))}
    assert choices[Box.FULL_HOUSE].points == 0


def test_small_straight_is_30_for_four_in_sequence():
    for dice in ((1, 2, 3, 4, 6), (2, 3, 4, 5, 5), (6, 5, 4, 3, 1), (3, 4, 5, 6, 6), (1, 2, 3, 4, 5)):
        assert points("small_straight", *dice) == 30, dice
    assert points("small_straight", 1, 2, 3, 5, 6) == 0


def test_large_straight_is_40_for_five_in_sequence():
    assert points("large_straight", 5, 1, 3, 2, 4) == 40
    assert points("large_straight", 2, 3, 4, 5, 6) == 40
    assert points("large_straight", 1, 2, 3, 4, 6) == 0


def test_yahtzee_is_50_for_five_alike():
    assert points("yahtzee", 3, 3, 3, 3, 3) == 50
    assert points("yahtzee", 3, 3, 3, 3, 2) == 0


def test_chance_is_the_sum_of_the_dice():
    assert points("chance", 1, 2, 3, 4, 6) == 16
    assert points("chance", 6, 6, 6, 6, 6) == 30


@pytest.mark.parametrize("box", [box for box in Box if box is not Box.CHANCE])
def test_any_open_box_may_take_a_zero_when_the_dice_do_not_fit(box):
    if box.is_upper:
        others = [face for face in range(1, 7) if face != box.face]
        dice = (others[0], others[0], others[1], others[2], others[4])
    else:
        dice = (1, 1, 2, 3, 6)
    (choice,) = [choice for choice in box_choices(Sheet(), dice) if choice.box is box]
    assert choice.allowed
    assert choice.points == 0


def test_box_choices_list_every_open_box_in_sheet_order_with_its_points():
    choices = box_choices(Sheet(), (3, 3, 5, 5, 5))
    assert [choice.box for choice in choices] == list(Box)
    assert {choice.box.value: choice.points for choice in choices} == {
        "ones": 0,
        "twos": 0,
        "threes": 6,
        "fours": 0,
        "fives": 15,
        "sixes": 0,
        "three_of_a_kind": 21,
        "four_of_a_kind": 0,
        "full_house": 25,
        "small_straight": 0,
        "large_straight": 0,
        "yahtzee": 0,
        "chance": 21,
    }
    assert all(choice.allowed and not choice.joker and choice.yahtzee_bonus == 0 for choice in choices)
