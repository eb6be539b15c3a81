"""Extra Yahtzees: the 100-point bonus and the forced joker, case by case."""

from __future__ import annotations

import pytest

from marquoir.games.yahtzee import Box, GameState, RuleError, Score, ScorePoints, apply, box_choices, joker_boxes

from .builders import only_open, sheet, solo

FIVE_FOURS = (4, 4, 4, 4, 4)


def refusal(state: GameState, box: str, dice: tuple[int, ...] = FIVE_FOURS) -> str:
    with pytest.raises(RuleError) as refused:
        apply(state, Score(box, dice))
    return refused.value.code


def test_five_alike_with_the_yahtzee_box_open_may_go_anywhere_by_the_plain_table():
    choices = box_choices(sheet(), FIVE_FOURS)
    assert all(choice.allowed and not choice.joker for choice in choices)
    points = {choice.box: choice.points for choice in choices}
    assert (points[Box.FULL_HOUSE], points[Box.SMALL_STRAIGHT], points[Box.LARGE_STRAIGHT]) == (0, 0, 0)
    assert points[Box.YAHTZEE] == 50


def test_a_second_yahtzee_must_go_in_its_open_upper_box_with_or_without_the_bonus():
    for held in (50, 0):
        state = solo(sheet(yahtzee=held))
        for box in Box:
            if box not in (Box.FOURS, Box.YAHTZEE):
                assert refusal(state, box) == "joker_upper", (held, box)
        assert apply(state, Score("fours", FIVE_FOURS))[1].points == 20


def test_with_its_upper_box_filled_it_must_go_in_an_open_lower_box():
    state = solo(sheet(yahtzee=50, fours=8))
    for box in ("ones", "twos", "threes", "fives", "sixes"):
        assert refusal(state, box) == "joker_lower"
    allowed = [choice.box for choice in box_choices(state.sheets[0], FIVE_FOURS) if choice.allowed]
    assert allowed == [
        Box.THREE_OF_A_KIND,
        Box.FOUR_OF_A_KIND,
        Box.FULL_HOUSE,
        Box.SMALL_STRAIGHT,
        Box.LARGE_STRAIGHT,
        Box.CHANCE,
    ]


@pytest.mark.parametrize(
    ("box", "points"),
    [
        ("three_of_a_kind", 20),
        ("four_of_a_kind", 20),
        ("full_house", 25),
        ("small_straight", 30),
        ("large_straight", 40),
        ("chance", 20),
    ],
)
def test_as_a_joker_the_straights_and_full_house_count_in_full_the_others_the_sum(box, points):
    state, outcome = apply(solo(sheet(yahtzee=50, fours=12)), Score(box, FIVE_FOURS))
    assert (outcome.points, outcome.yahtzee_bonus, outcome.joker) == (points, 100, True)
    assert state.total(0) == 50 + 12 + points + 100


def test_with_its_upper_box_and_every_lower_box_filled_it_scores_0_in_an_open_upper_box():
    state = solo(only_open("ones", "sixes", yahtzee=50, fours=16))
    assert joker_boxes(state.sheets[0].open_boxes, 4) == (Box.ONES, Box.SIXES)
    state, outcome = apply(state, Score("sixes", FIVE_FOURS))
    assert (outcome.points, outcome.yahtzee_bonus) == (0, 100)
    assert state.sheets[0].yahtzee_bonuses == 1


def test_a_scratched_yahtzee_box_earns_no_bonus_but_the_joker_still_applies():
    _, outcome = apply(solo(sheet(yahtzee=0, fours=4)), Score("large_straight", FIVE_FOURS))
    assert (outcome.points, outcome.yahtzee_bonus, outcome.joker) == (40, 0, True)


def test_every_later_yahtzee_earns_another_bonus_while_the_box_holds_50():
    state = solo(sheet(yahtzee=50))
    for box, face in (("ones", 1), ("twos", 2), ("threes", 3)):
        state = apply(state, Score(box, (face,) * 5))[0]
    assert state.sheets[0].yahtzee_bonuses == 3
    assert state.total(0) == 50 + 5 + 10 + 15 + 300


def test_a_taken_box_is_refused_before_the_joker_is_considered():
    assert refusal(solo(sheet(yahtzee=50, fours=8, chance=10)), "chance") == "box_taken"


def test_box_choices_say_which_rule_refuses_each_box_and_that_the_bonus_applies():
    choices = {choice.box: choice for choice in box_choices(sheet(yahtzee=50), FIVE_FOURS)}
    assert choices[Box.FOURS].allowed
    assert choices[Box.FOURS].joker
    assert choices[Box.FULL_HOUSE].refusal == "joker_upper"
    assert choices[Box.FULL_HOUSE].points is None
    assert all(choice.yahtzee_bonus == 100 for choice in choices.values())
    lower_only = {choice.box: choice for choice in box_choices(sheet(yahtzee=50, fours=8), FIVE_FOURS)}
    assert lower_only[Box.ONES].refusal == "joker_lower"
    assert lower_only[Box.FULL_HOUSE].points == 25


# Points typed without the dice follow the same rules.


def test_points_only_five_alike_in_their_upper_box_earn_the_bonus():
    _, outcome = apply(solo(sheet(yahtzee=50)), ScorePoints("sixes", 30))
    assert (outcome.points, outcome.yahtzee_bonus, outcome.dice) == (30, 100, None)


def test_points_only_a_joker_full_house_needs_to_be_said_five_alike_for_its_bonus():
    state = solo(sheet(yahtzee=50, fours=8, twos=4, ones=3, threes=9, fives=15, sixes=18))
    plain = apply(state, ScorePoints("full_house", 25))[1]
    joker = apply(state, ScorePoints("full_house", 25, five_alike=True))[1]
    assert (plain.yahtzee_bonus, plain.joker) == (0, False)
    assert (joker.yahtzee_bonus, joker.joker) == (100, True)


def test_points_only_that_only_five_alike_make_are_refused_where_the_joker_forbids_them():
    state = solo(sheet(yahtzee=50))
    with pytest.raises(RuleError) as refused:
        apply(state, ScorePoints("three_of_a_kind", 30))  # five sixes: they must go in sixes
    assert refused.value.code == "joker_upper"
    with pytest.raises(RuleError) as refused:
        apply(state, ScorePoints("full_house", 25, five_alike=True))
    assert refused.value.code == "joker_upper"


def test_points_only_five_alike_in_an_upper_box_while_a_lower_box_is_open_are_refused():
    filled_uppers = sheet(yahtzee=50, twos=4, threes=6, fours=8, fives=10, sixes=12)
    with pytest.raises(RuleError) as refused:
        apply(solo(filled_uppers), ScorePoints("ones", 0, five_alike=True))
    assert refused.value.code == "joker_lower"
