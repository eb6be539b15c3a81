"""A game: set-up, whose turn, rounds, the end after 13 rounds, standings; refusals and their codes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.yahtzee import (
    BOXES,
    Action,
    Box,
    GameState,
    Match,
    Options,
    RuleError,
    Score,
    ScorePoints,
    Setup,
    Sheet,
    Standing,
    apply,
    box_choices,
    check_dice,
    fold,
    legal_boxes,
    new_game,
    possible_points,
    standings,
    winners,
)

from .builders import play, sheet

# One legal turn per box, in sheet order: 13 turns fill a sheet.
EVERY_BOX = tuple((box, (1, 2, 3, 4, 6)) for box in BOXES)


def refusal(action: Action, state: GameState | None = None) -> tuple[str, str]:
    with pytest.raises(RuleError) as refused:
        apply(state or new_game(1), action)
    return refused.value.code, refused.value.reason


# Set-up


def test_a_new_game_has_blank_sheets_round_one_and_the_first_player_to_play():
    state = new_game(3, first=2)
    assert state.sheets == (Sheet(),) * 3
    assert (state.current, state.round, state.over) == (2, 1, False)
    assert state.totals == (0, 0, 0)


@pytest.mark.parametrize("count", [0, 9, -1, True, 2.0, "3"])
def test_a_game_takes_1_to_8_players(count):
    with pytest.raises(RuleError) as refused:
        new_game(count)
    assert (refused.value.code, refused.value.reason) == ("invalid", "player_count")


@pytest.mark.parametrize("first", [-1, 2, True, None, "0"])
def test_the_first_player_must_be_one_of_the_players(first):
    with pytest.raises(RuleError) as refused:
        new_game(2, first)
    assert refused.value.reason == "first_player"


def test_a_set_up_names_its_players_in_seating_order():
    setup = Setup(("Ada", "Ben", "Élodie"), first=1)
    assert setup.player_count == 3
    assert setup.initial_state() == new_game(3, 1)


@pytest.mark.parametrize(
    ("players", "reason"),
    [
        ((), "player_count"),
        (tuple(f"P{n}" for n in range(9)), "player_count"),
        (("Ada", "ada"), "name_twice"),
        (("Ada", ""), "bad_players"),
        (["Ada"], "bad_players"),
        (("Ada", 3), "bad_players"),
    ],
)
def test_a_set_up_refuses_bad_player_lists(players, reason):
    with pytest.raises(RuleError) as refused:
        Setup(players)
    assert (refused.value.code, refused.value.reason) == ("invalid", reason)


def test_a_set_up_refuses_a_first_player_outside_the_table_and_options_of_another_kind():
    with pytest.raises(RuleError) as refused:
        Setup(("Ada",), first=1)
    assert refused.value.reason == "first_player"
    with pytest.raises(RuleError) as refused:
        Setup(("Ada",), options="fast")  # type: ignore[arg-type]
    assert refused.value.reason == "bad_options"


# Turns and rounds


def test_players_play_in_seating_order_from_the_first_and_each_round_everyone_plays_once():
    state = new_game(3, first=1)
    seen = []
    for box, dice in EVERY_BOX[:6]:
        seen.append((state.round, state.current))
        state = play(state, (box, dice))
    assert seen == [(1, 1), (1, 2), (1, 0), (2, 1), (2, 2), (2, 0)]


def test_the_account_of_a_turn_names_the_player_box_points_and_round():
    state = new_game(2, first=1)
    state, outcome = apply(state, Score("chance", (6, 5, 4, 3, 3)))
    assert (outcome.player, outcome.box, outcome.points, outcome.round) == (1, Box.CHANCE, 21, 1)
    assert (outcome.total, outcome.game_over, outcome.dice) == (21, False, (6, 5, 4, 3, 3))
    assert outcome.score_changes() == {1: 21}
    assert state.sheets[1].points(Box.CHANCE) == 21
    assert state.sheets[0] == Sheet()


def test_a_scratch_changes_no_total():
    outcome = apply(new_game(1), Score("yahtzee", (1, 2, 3, 4, 6)))[1]
    assert outcome.points == 0
    assert outcome.score_changes() == {}


def test_the_game_ends_after_13_rounds_and_then_refuses_any_turn():
    state = new_game(2)
    for box, dice in EVERY_BOX:
        assert not state.over
        state = play(state, (box, dice), (box, dice))
    assert state.over
    assert (state.current, state.round, state.turns) == (None, 13, 26)
    assert all(sheet.is_full for sheet in state.sheets)
    assert refusal(Score("chance", (1, 1, 1, 1, 1)), state) == ("match_over", "match_over")
    assert legal_boxes(state, (1, 2, 3, 4, 5)) == ()


def test_the_last_turn_of_the_last_round_says_the_game_is_over():
    state = new_game(1)
    for box, dice in EVERY_BOX[:-1]:
        state = play(state, (box, dice))
    assert state.round == 13
    state, outcome = apply(state, Score(*EVERY_BOX[-1]))
    assert outcome.game_over
    assert state.over
    assert outcome.round == 13


# Standings


def test_standings_rank_the_highest_total_first_and_equal_totals_share_the_rank():
    state = new_game(4)
    state = play(state, ("chance", (6, 6, 6, 6, 5)), ("chance", (1, 1, 1, 2, 2)), ("chance", (6, 6, 6, 6, 5)))
    state = play(state, ("chance", (3, 3, 3, 3, 3)))
    assert standings(state) == (
        Standing(0, 29, 1),
        Standing(2, 29, 1),
        Standing(3, 15, 3),
        Standing(1, 7, 4),
    )
    assert winners(state) == ()


def test_equal_totals_share_the_win_at_the_end():
    state = new_game(2)
    for box, dice in EVERY_BOX:
        state = play(state, (box, dice), (box, dice))
    assert state.totals[0] == state.totals[1]
    assert winners(state) == (0, 1)
    assert [row.rank for row in standings(state)] == [1, 1]


def test_the_total_counts_the_boxes_the_upper_bonus_and_the_yahtzee_bonuses():
    done = sheet(bonuses=2, ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18, yahtzee=50, chance=20)
    assert (done.upper_total, done.upper_bonus, done.yahtzee_bonus) == (63, 35, 200)
    assert done.total == 63 + 35 + 50 + 20 + 200


# Refusals


def test_a_box_that_holds_a_score_is_refused_with_box_taken():
    state = play(new_game(1), ("fives", (5, 5, 1, 1, 1)))
    assert refusal(Score("fives", (5, 5, 5, 1, 1)), state) == ("box_taken", "box_taken")
    assert refusal(ScorePoints("fives", 10), state) == ("box_taken", "box_taken")


@pytest.mark.parametrize(
    ("dice", "reason"),
    [
        ("12345", "bad_dice"),
        (None, "bad_dice"),
        ({1, 2, 3, 4, 5}, "bad_dice"),
        ((1, 2, 3, 4), "dice_count"),
        ((1, 2, 3, 4, 5, 6), "dice_count"),
        ((), "dice_count"),
        ((0, 2, 3, 4, 5), "bad_die"),
        ((1, 2, 3, 4, 7), "bad_die"),
        ((True, 2, 3, 4, 5), "bad_die"),
        (("1", 2, 3, 4, 5), "bad_die"),
        ((1.0, 2, 3, 4, 5), "bad_die"),
        ((10**100, 2, 3, 4, 5), "bad_die"),
        ((-(10**100), 2, 3, 4, 5), "bad_die"),
        ((None, 2, 3, 4, 5), "bad_die"),
    ],
)
def test_dice_must_be_five_integers_from_1_to_6(dice, reason):
    assert refusal(Score("chance", dice)) == ("invalid", reason)


def test_dice_may_come_as_a_list_in_any_order():
    assert check_dice([6, 1, 6, 1, 6]) == (6, 1, 6, 1, 6)
    assert apply(new_game(1), Score("full_house", [6, 1, 6, 1, 6]))[1].points == 25  # type: ignore[arg-type]


@pytest.mark.parametrize("box", ["sevens", "", "Chance", None, 3, True, ("chance",)])
def test_an_unknown_box_is_refused(box):
    assert refusal(Score(box, (1, 2, 3, 4, 5))) == ("invalid", "unknown_box")
    assert refusal(ScorePoints(box, 5)) == ("invalid", "unknown_box")


def test_a_box_may_be_named_by_its_key_or_its_member():
    by_key = apply(new_game(1), Score("small_straight", (1, 2, 3, 4, 1)))
    by_member = apply(new_game(1), Score(Box.SMALL_STRAIGHT, (1, 2, 3, 4, 1)))
    assert by_key == by_member


def test_an_unknown_action_is_refused():
    assert refusal("score") == ("invalid", "unknown_action")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    box=st.sampled_from([box.value for box in Box]) | st.text(max_size=5) | st.none() | st.integers(),
    dice=st.lists(
        st.integers(min_value=-3, max_value=9) | st.booleans() | st.floats() | st.text(max_size=2), max_size=7
    )
    | st.text(max_size=6)
    | st.none()
    | st.integers(),
    as_tuple=st.booleans(),
)
def test_any_malformed_score_is_a_rule_error_never_another_exception(box, dice, as_tuple):
    if as_tuple and isinstance(dice, list):
        dice = tuple(dice)
    valid_box = box in {box.value for box in Box}
    valid_dice = (
        isinstance(dice, tuple | list)
        and len(dice) == 5
        and all(type(die) is int and 1 <= die <= 6 for die in dice)  # bools are ints, not dice
    )
    if valid_box and valid_dice:
        state, outcome = apply(new_game(1), Score(box, dice))
        assert outcome.points == state.total(0)
    else:
        with pytest.raises(RuleError) as refused:
            apply(new_game(1), Score(box, dice))
        assert refused.value.code == "invalid"


# Points typed without the dice


def test_points_may_be_typed_without_dice_when_some_dice_give_them():
    state, outcome = apply(new_game(1), ScorePoints("chance", 23))
    assert (outcome.points, outcome.dice, outcome.yahtzee_bonus) == (23, None, 0)
    assert state.sheets[0].points(Box.CHANCE) == 23


@pytest.mark.parametrize(
    ("box", "points"),
    [
        ("full_house", 24),
        ("full_house", 30),
        ("small_straight", 40),
        ("large_straight", 30),
        ("yahtzee", 25),
        ("fours", 6),
        ("fours", 24),
        ("sixes", 36),
        ("chance", 4),
        ("chance", 31),
        ("three_of_a_kind", 4),
        ("three_of_a_kind", 31),
        ("four_of_a_kind", 4),
        ("four_of_a_kind", 31),
        ("ones", -1),
        ("twos", 10**100),
    ],
)
def test_points_no_five_dice_can_give_in_that_box_are_refused(box, points):
    assert refusal(ScorePoints(box, points)) == ("invalid", "impossible_points")


@pytest.mark.parametrize("points", [True, 2.0, "10", None, [10]])
def test_points_must_be_an_integer(points):
    assert refusal(ScorePoints("chance", points)) == ("invalid", "bad_points")


def test_five_alike_must_be_yes_no_or_left_out():
    assert refusal(ScorePoints("chance", 20, five_alike="yes")) == ("invalid", "bad_five_alike")  # type: ignore[arg-type]


def test_points_said_not_five_alike_that_only_five_alike_give_are_refused():
    assert refusal(ScorePoints("yahtzee", 50, five_alike=False)) == ("invalid", "impossible_points")
    assert refusal(ScorePoints("sixes", 30, five_alike=False)) == ("invalid", "impossible_points")


def test_possible_points_list_what_a_box_can_take_as_the_sheet_stands():
    assert possible_points(Sheet(), Box.FOURS) == (0, 4, 8, 12, 16, 20)
    assert possible_points(Sheet(), Box.FULL_HOUSE) == (0, 25)
    assert possible_points(Sheet(), Box.YAHTZEE) == (0, 50)
    assert possible_points(Sheet(), Box.YAHTZEE, five_alike=False) == (0,)
    assert possible_points(Sheet(), Box.CHANCE) == tuple(range(5, 31))
    assert possible_points(sheet(chance=20), Box.CHANCE) == ()


@pytest.mark.parametrize("box", list(Box))
def test_every_possible_points_value_is_accepted_and_every_other_refused(box):
    possible = set(possible_points(Sheet(), box))
    for points in range(-1, 52):
        if points in possible:
            assert apply(new_game(1), ScorePoints(box, points))[1].points == points
        else:
            assert refusal(ScorePoints(box, points)) == ("invalid", "impossible_points")


def test_points_and_dice_agree_on_every_box_and_roll_of_a_fresh_sheet():
    rolls = [(1, 1, 1, 1, 1), (2, 2, 3, 3, 3), (1, 2, 3, 4, 5), (6, 6, 6, 6, 2), (1, 3, 4, 5, 6)]
    for dice in rolls:
        for choice in box_choices(Sheet(), dice):
            points = choice.points or 0
            by_points = apply(new_game(1), ScorePoints(choice.box, points, five_alike=len(set(dice)) == 1))
            assert by_points[0] == apply(new_game(1), Score(choice.box, dice))[0]


# The match: a set-up and its log


SETUP = Setup(("Ada", "Ben"), first=1, options=Options())
OPENING = (
    Score("yahtzee", (3, 3, 3, 3, 3)),
    Score("chance", (1, 2, 3, 4, 6)),
    Score("threes", (3, 3, 3, 3, 3)),
    ScorePoints("full_house", 25),
)


def test_undo_restores_the_exact_state_before_the_last_turn():
    before = Match.replay(SETUP, OPENING[:2])
    after = before.apply(OPENING[2])
    assert after.state.sheets[1].yahtzee_bonuses == 1
    assert after.undo().state == before.state
    assert after.undo() == before


def test_undo_several_turns_at_once_or_one_by_one_and_nothing_more_than_was_played():
    match = Match.replay(SETUP, OPENING)
    assert match.undo(3) == match.undo().undo().undo()
    assert match.undo(4).state == SETUP.initial_state()
    with pytest.raises(RuleError) as refused:
        match.undo(5)
    assert refused.value.code == "nothing_to_undo"


def test_replay_of_the_log_gives_the_same_match_and_fold_the_same_state():
    match = Match.start(SETUP)
    for action in OPENING:
        match = match.apply(action)
    assert Match.replay(SETUP, OPENING) == match
    assert fold(SETUP, OPENING) == match.state
    assert [outcome.player for outcome in match.outcomes] == [1, 0, 1, 0]


def test_a_refused_turn_leaves_the_match_as_it_was():
    match = Match.replay(SETUP, OPENING[:2])
    with pytest.raises(RuleError) as refused:
        match.apply(Score("full_house", (4, 4, 4, 4, 4)))  # Ben's yahtzee box holds 50: fours first
    assert refused.value.code == "joker_upper"
    assert match == Match.replay(SETUP, OPENING[:2])
