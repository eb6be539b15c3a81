"""The optimal solitaire strategy: the value of an empty sheet, brute force on the last turns,
the advice's answers and its refusals, and the table's file."""

from __future__ import annotations

import numpy as np
import pytest

from marquoir.games.yahtzee import Box, RuleError, Sheet, box_choices, solver
from marquoir.games.yahtzee.solver import (
    EMPTY_SHEET_VALUE,
    EMPTY_SHEET_VALUE_FORCED,
    BoxValue,
    JokerRule,
    KeepValue,
    best_boxes,
    best_keeps,
    sheet_value,
)

from . import brute_force
from .builders import only_open, sheet

# float32 in the table: about 2e-5 at 250 points.
TOLERANCE = 1e-4


def test_an_empty_sheet_is_worth_254_5896_under_verhoeffs_rules(free_choice_table):
    assert round(float(free_choice_table[0, 0, 0]), 4) == EMPTY_SHEET_VALUE == 254.5896


def test_an_empty_sheet_is_worth_254_5877_under_the_forced_joker_marquoir_keeps(table):
    # The box's forced joker takes a few choices away: 0.0019 point less than Verhoeff's figure.
    assert round(float(table[0, 0, 0]), 4) == EMPTY_SHEET_VALUE_FORCED == 254.5877
    assert round(sheet_value(Sheet()), 4) == 254.5877


def test_the_table_is_float32_over_open_boxes_upper_totals_and_the_fifty_flag(table):
    assert table.shape == (8192, 64, 2)
    assert table.dtype == np.float32
    assert not table.flags.writeable
    assert (table[8191] == 0).all(), "a full sheet has nothing to come"


def test_a_full_sheet_is_worth_its_total():
    full = Sheet((1, 2, 3, 4, 5, 6, 10, 0, 25, 30, 0, 50, 20), yahtzee_bonuses=1)
    assert sheet_value(full) == full.total == 156 + 100


# Brute force on the last turns, in plain Python (brute_force.py), against the table.

LAST_TURNS = {
    "chance alone": only_open("chance"),
    "yahtzee alone": only_open("yahtzee"),
    "three of a kind alone, yahtzee holds 50": only_open("three_of_a_kind", yahtzee=50, fours=12),
    "fours alone, 8 points from the upper bonus": only_open("fours", ones=3, twos=6, threes=9, fives=15, sixes=18),
    "full house alone, yahtzee holds 50 (joker and bonus)": only_open("full_house", yahtzee=50, bonuses=1),
    "large straight alone, yahtzee scratched (joker, no bonus)": only_open("large_straight"),
    "sixes and large straight, yahtzee holds 50": only_open("sixes", "large_straight", yahtzee=50),
    "small straight and yahtzee": only_open("small_straight", "yahtzee"),
    "ones and small straight, 60 in the upper boxes, yahtzee scratched": only_open(
        "ones", "small_straight", sixes=30, fives=20, fours=8, twos=2
    ),
    "fives and full house, yahtzee holds 50, 58 in the upper boxes": only_open(
        "fives", "full_house", yahtzee=50, sixes=24, fours=16, threes=12, twos=6
    ),
}


@pytest.mark.parametrize("name", list(LAST_TURNS))
def test_the_value_of_the_last_turns_matches_brute_force(name, table):
    last = LAST_TURNS[name]
    assert sheet_value(last) == pytest.approx(brute_force.sheet_value(last), abs=TOLERANCE)


@pytest.mark.parametrize("name", list(LAST_TURNS))
def test_the_keeps_and_boxes_of_the_last_turns_match_brute_force(name, table):
    last = LAST_TURNS[name]
    turn = brute_force.Turn(last)
    for dice in ((1, 2, 3, 4, 6), (6, 6, 6, 6, 6), (5, 5, 5, 2, 2), (1, 1, 3, 4, 4), (2, 3, 4, 5, 6)):
        for rolls_left in (1, 2):
            keeps = best_keeps(last, dice, rolls_left)
            assert {keep.keep for keep in keeps} == brute_force.keeps_of(dice)
            for keep in keeps:
                expected = turn.keep_value(keep.keep, rolls_left)
                assert keep.value == pytest.approx(expected, abs=TOLERANCE), (dice, rolls_left, keep)
        boxes = best_boxes(last, dice)
        expected_boxes = turn.box_values(dice)
        assert {item.box.value for item in boxes} == set(expected_boxes)
        for item in boxes:
            assert item.value == pytest.approx(expected_boxes[item.box.value], abs=TOLERANCE)


# What the advice answers.


def test_best_keeps_list_every_distinct_keep_best_first(table):
    keeps = best_keeps(Sheet(), (1, 3, 3, 4, 6), rolls_left=2)
    assert len(keeps) == len({keep.keep for keep in keeps}) == 24  # 2 × 2 × 2 × 3 multisets
    assert all(isinstance(keep, KeepValue) for keep in keeps)
    assert [keep.value for keep in keeps] == sorted((keep.value for keep in keeps), reverse=True)
    assert keeps[0].keep == (3, 3)
    assert keeps[0].value < sheet_value(Sheet()) + 10


def test_the_expected_score_before_a_turn_is_the_mean_of_the_first_rolls_best_keeps(table):
    mean = sum(chance * best_keeps(Sheet(), roll, 2)[0].value for roll, chance in brute_force.outcomes(5))
    assert mean == pytest.approx(sheet_value(Sheet()), abs=TOLERANCE)


def test_keeping_all_five_is_worth_at_least_scoring_now(table):
    half = sheet(ones=3, twos=6, chance=22, full_house=25)
    for dice in ((1, 2, 3, 4, 5), (6, 6, 6, 2, 2), (4, 4, 4, 4, 4)):
        keep_all = next(keep for keep in best_keeps(half, dice, 1) if len(keep.keep) == 5)
        assert keep_all.value >= best_boxes(half, dice)[0].value - TOLERANCE


def test_a_large_straight_on_the_last_roll_goes_in_large_straight(table):
    boxes = best_boxes(Sheet(), (1, 2, 3, 4, 5))
    assert isinstance(boxes[0], BoxValue)
    assert boxes[0].box is Box.LARGE_STRAIGHT
    assert len(boxes) == 13
    assert [item.value for item in boxes] == sorted((item.value for item in boxes), reverse=True)


def test_best_boxes_offer_only_the_boxes_the_joker_allows(table):
    after_yahtzee = sheet(yahtzee=50)
    boxes = best_boxes(after_yahtzee, (4, 4, 4, 4, 4))
    assert [item.box for item in boxes] == [Box.FOURS]
    assert boxes[0].value > sheet_value(after_yahtzee) + 100


def test_the_values_include_the_points_already_scored(table):
    early = sheet(chance=20)
    assert sheet_value(early) > 20
    assert best_boxes(early, (6, 6, 6, 6, 6))[0].value > 20 + 50


def test_best_boxes_agree_with_what_the_engine_would_score(table):
    mid = sheet(ones=2, twos=6, threes=9, fours=12, fives=15, yahtzee=50)
    dice = (6, 6, 6, 3, 3)
    engine = {choice.box for choice in box_choices(mid, dice) if choice.allowed}
    assert {item.box for item in best_boxes(mid, dice)} == engine
    sixes = next(item for item in best_boxes(mid, dice) if item.box is Box.SIXES)
    # 18 in sixes reaches 62: no bonus; the value after it is the table's.
    after = Sheet(mid.boxes[:5] + (18,) + mid.boxes[6:])
    assert sixes.value == pytest.approx(sheet_value(after), abs=TOLERANCE)


@pytest.mark.parametrize("rolls_left", [0, 3, -1, True, 1.0, None])
def test_keeps_need_one_or_two_rolls_left(rolls_left, table):
    with pytest.raises(RuleError) as refused:
        best_keeps(Sheet(), (1, 2, 3, 4, 5), rolls_left)
    assert (refused.value.code, refused.value.reason) == ("invalid", "bad_rolls_left")


@pytest.mark.parametrize("dice", [(1, 2, 3, 4), (0, 1, 2, 3, 4), "12345", (True, 1, 1, 1, 1)])
def test_advice_on_bad_dice_is_refused_like_the_engine_refuses_them(dice, table):
    for ask in (lambda: best_keeps(Sheet(), dice, 2), lambda: best_boxes(Sheet(), dice)):
        with pytest.raises(RuleError) as refused:
            ask()
        assert refused.value.code == "invalid"


def test_advice_on_a_full_sheet_is_refused(table):
    full = only_open()
    for ask in (lambda: best_keeps(full, (1, 2, 3, 4, 5), 1), lambda: best_boxes(full, (1, 2, 3, 4, 5))):
        with pytest.raises(RuleError) as refused:
            ask()
        assert refused.value.reason == "sheet_full"


@pytest.mark.parametrize(
    "bad",
    [
        Sheet((7,) + (None,) * 12),
        Sheet((None,) * 12),
        Sheet((None,) * 11 + (49, None)),
        Sheet((True,) + (None,) * 12),
        Sheet((None,) * 13, yahtzee_bonuses=-1),
        "ones",
    ],
)
def test_advice_on_a_sheet_no_game_can_make_is_refused(bad, table):
    with pytest.raises(RuleError) as refused:
        sheet_value(bad)
    assert refused.value.reason == "bad_sheet"


# The table's file.


def test_the_table_path_comes_from_the_environment_with_a_default_in_the_checkout(monkeypatch, tmp_path):
    monkeypatch.delenv(solver.TABLE_ENV, raising=False)
    assert solver.table_path() == solver.DEFAULT_TABLE_PATH
    assert solver.DEFAULT_TABLE_PATH.parent.name == "var"
    monkeypatch.setenv(solver.TABLE_ENV, str(tmp_path / "values.npy"))
    assert solver.table_path() == tmp_path / "values.npy"
    assert solver.table_path(JokerRule.FREE_CHOICE) == tmp_path / "values-free-choice.npy"


def test_load_table_builds_a_missing_or_damaged_file_then_reads_it_once(monkeypatch, tmp_path):
    builds = []

    def quick_build(joker: JokerRule = JokerRule.FORCED) -> np.ndarray:
        builds.append(joker)
        return np.full((8192, 64, 2), 1.5)

    monkeypatch.setattr(solver, "build_values", quick_build)
    path = tmp_path / "tables" / "values.npy"
    try:
        loaded = solver.load_table(path)
        assert builds == [JokerRule.FORCED]
        assert loaded.dtype == np.float32
        assert float(loaded[0, 0, 0]) == 1.5
        assert solver.load_table(path) is loaded, "read once per process"
        solver.clear_cache()
        path.write_bytes(b"not a table")
        solver.load_table(path)
        assert len(builds) == 2, "a damaged file is built again"
        solver.clear_cache()
        solver.load_table(path)
        assert len(builds) == 2, "a good file is read, not built"
        assert not list(path.parent.glob("*.tmp")), "no temporary file left behind"
    finally:
        solver.clear_cache()
