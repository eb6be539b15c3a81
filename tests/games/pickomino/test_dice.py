import pytest

from marquoir.games.pickomino import Face, RuleError, TurnDice


def kept(*keeps: tuple[str, int]) -> TurnDice:
    dice = TurnDice()
    for face, count in keeps:
        dice = dice.keep(face, count)
    return dice


def test_faces_one_to_five_count_their_value_and_the_worm_counts_five():
    assert [face.points for face in Face] == [1, 2, 3, 4, 5, 5]


def test_total_adds_every_kept_die():
    dice = kept(("worm", 2), ("5", 3), ("3", 1))
    assert dice.total == 2 * 5 + 3 * 5 + 3
    assert dice.has_worm
    assert dice.dice_kept == 6
    assert dice.dice_left == 2


def test_a_turn_without_worm_kept_has_no_worm():
    assert not kept(("5", 4), ("4", 4)).has_worm


def test_a_face_may_be_kept_once_per_turn():
    dice = kept(("4", 2))
    with pytest.raises(RuleError) as refused:
        dice.keep("4", 1)
    assert (refused.value.code, refused.value.reason) == ("invalid", "face_already_kept")


def test_at_least_one_die_is_kept_after_each_roll():
    with pytest.raises(RuleError) as refused:
        TurnDice().keep("worm", 0)
    assert refused.value.reason == "no_die_kept"


def test_a_keep_cannot_take_more_dice_than_are_left():
    dice = kept(("5", 6))
    with pytest.raises(RuleError) as refused:
        dice.keep("worm", 3)
    assert refused.value.reason == "too_many_dice"
    assert refused.value.params["dice_left"] == 2


def test_the_turn_stops_by_itself_when_all_eight_dice_are_kept():
    dice = kept(("worm", 3), ("5", 5))
    assert dice.is_finished
    with pytest.raises(RuleError) as refused:
        dice.keep("1", 1)
    assert refused.value.reason == "turn_finished"


def test_the_turn_stops_by_itself_when_all_six_faces_are_kept():
    dice = kept(("1", 1), ("2", 1), ("3", 1), ("4", 1), ("5", 1), ("worm", 1))
    assert dice.dice_left == 2
    assert dice.is_finished


def test_a_fresh_turn_is_not_finished():
    assert not TurnDice().is_finished
    assert TurnDice().dice_left == 8


def test_a_roll_showing_only_kept_faces_offers_nothing_to_keep():
    dice = kept(("worm", 2), ("5", 3))
    assert dice.keepable_faces((Face.WORM, Face.FIVE, Face.FIVE)) == frozenset()


def test_a_roll_offers_only_faces_not_kept_before():
    dice = kept(("worm", 2))
    roll = (Face.WORM, Face.THREE, Face.THREE, Face.ONE, Face.WORM, Face.FIVE)
    assert dice.keepable_faces(roll) == {Face.THREE, Face.ONE, Face.FIVE}


def test_keeping_from_a_roll_keeps_every_die_of_that_face():
    roll = (Face.FIVE, Face.WORM, Face.FIVE, Face.TWO, Face.FIVE, Face.ONE, Face.WORM, Face.THREE)
    dice = TurnDice().keep_from_roll(roll, Face.FIVE)
    assert dice.counts() == {Face.FIVE: 3}


def test_a_roll_must_throw_every_die_left():
    with pytest.raises(RuleError) as refused:
        TurnDice().keep_from_roll((Face.FIVE,), Face.FIVE)
    assert refused.value.reason == "wrong_roll_size"


def test_a_face_not_rolled_cannot_be_kept():
    roll = (Face.ONE,) * 8
    with pytest.raises(RuleError) as refused:
        TurnDice().keep_from_roll(roll, Face.WORM)
    assert refused.value.reason == "face_not_rolled"


def test_counts_as_the_api_sends_them_give_total_and_worm():
    dice = TurnDice.from_counts({"worm": 2, "5": 3, "3": 1})
    assert (dice.total, dice.has_worm, dice.dice_kept) == (28, True, 6)


def test_counts_ignore_faces_with_zero_dice():
    dice = TurnDice.from_counts({"worm": 1, "1": 0})
    assert dice.counts() == {Face.WORM: 1}


@pytest.mark.parametrize(
    ("counts", "reason"),
    [
        ({"worm": 5, "5": 4}, "too_many_dice"),
        ({"6": 1}, "unknown_face"),
        ({"worm": -1}, "bad_die_count"),
        ({"worm": 9}, "bad_die_count"),
        ({"worm": True}, "bad_die_count"),
        ({"worm": "2"}, "bad_die_count"),
        ({}, "no_dice"),
        ({"worm": 0}, "no_dice"),
        (["worm"], "bad_dice"),
    ],
)
def test_counts_are_refused_when_they_break_the_dice_rules(counts, reason):
    with pytest.raises(RuleError) as refused:
        TurnDice.from_counts(counts)
    assert (refused.value.code, refused.value.reason) == ("invalid", reason)


def test_face_keys_round_trip():
    assert [Face.from_key(face.key) for face in Face] == list(Face)
