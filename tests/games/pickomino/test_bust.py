"""Ending a turn badly: the penalty under every combination of the two table options."""

import pytest

from marquoir.games.pickomino import Bust, BustReason, Options, RuleError, apply, new_game

from .builders import only_face_up, table

OFF = Options()
SHORTER = Options(shorter_game=True)
FLIP_EMPTY = Options(flip_without_return=True)
BOTH = Options(shorter_game=True, flip_without_return=True)


def test_a_bust_returns_the_top_tile_face_up_to_the_grill():
    state = table((22, 27), (), current=0)
    after, busted = apply(state, Bust())
    assert busted.returned == 27
    assert after.stacks[0] == (22,)
    assert 27 in after.face_up or busted.turned_down == 27


def test_a_bust_that_returns_a_tile_turns_the_highest_face_up_tile_down():
    state = table((22, 27), (), current=0)
    after, busted = apply(state, Bust())
    assert busted.turned_down == 36
    assert 36 in after.face_down
    assert 36 not in after.face_up
    assert 27 in after.face_up


def test_the_bust_costs_the_worms_of_the_returned_tile():
    state = table((22, 27), (), current=0)
    _, busted = apply(state, Bust())
    assert busted.worms_lost == 2
    assert busted.worm_changes() == {0: -2}


def test_example_bust_returning_30_when_30_is_then_highest_turns_nothing():
    state = only_face_up(21, 25, stacks=((30,), ()))
    after, busted = apply(state, Bust())
    assert busted.returned == 30
    assert busted.turned_down is None
    assert after.face_up == {21, 25, 30}


def test_example_total_25_on_own_top_with_nothing_below_busts_and_returns_the_25():
    state = only_face_up(30, 31, stacks=((25,), (21, 22)))
    after, busted = apply(state, Bust(BustReason.NOTHING_TO_CLAIM))
    assert busted.returned == 25
    assert busted.turned_down == 31
    assert after.stacks[0] == ()
    assert after.face_up == {25, 30}


def test_example_a_roll_with_only_kept_faces_is_a_bust():
    state = table((24,), (), current=0)
    _, busted = apply(state, Bust(BustReason.NO_NEW_FACE))
    assert busted.reason is BustReason.NO_NEW_FACE
    assert busted.returned == 24


def test_bust_with_empty_stack_turns_nothing():
    state = new_game(2)
    after, busted = apply(state, Bust())
    assert (busted.returned, busted.turned_down, busted.worms_lost) == (None, None, 0)
    assert after.face_up == state.face_up
    assert busted.worm_changes() == {}


def test_a_bust_passes_the_turn_to_the_next_player():
    assert apply(new_game(4, first=3), Bust())[0].current == 0


# In every case 36 is face down and 35 is in the opponent's stack.
RETURNS_27 = ((27,), 34)  # 34 stays the highest face-up tile after 27 comes back
RETURNS_34 = ((34,), 33)  # 34 comes back above 33 and becomes the highest
RETURNS_NOTHING = ((), 33)  # 34 is face down too: 33 is the highest


@pytest.mark.parametrize(
    ("options", "case", "returned", "turned_down"),
    [
        (OFF, RETURNS_27, 27, 34),
        (SHORTER, RETURNS_27, 27, 34),
        (FLIP_EMPTY, RETURNS_27, 27, 34),
        (BOTH, RETURNS_27, 27, 34),
        (OFF, RETURNS_34, 34, None),
        (SHORTER, RETURNS_34, 34, 34),
        (FLIP_EMPTY, RETURNS_34, 34, None),
        (BOTH, RETURNS_34, 34, 34),
        (OFF, RETURNS_NOTHING, None, None),
        (SHORTER, RETURNS_NOTHING, None, None),
        (FLIP_EMPTY, RETURNS_NOTHING, None, 33),
        (BOTH, RETURNS_NOTHING, None, 33),
    ],
)
def test_the_penalty_under_every_combination_of_options(options, case, returned, turned_down):
    stack, highest_before = case
    face_down = [36] if stack else [36, 34]
    state = table(stack, (35,), face_down=face_down, options=options)
    assert max(state.face_up) == highest_before
    after, busted = apply(state, Bust())
    assert (busted.returned, busted.turned_down) == (returned, turned_down)
    if turned_down is not None:
        assert turned_down in after.face_down
        assert turned_down not in after.face_up
    if returned is not None and turned_down != returned:
        assert returned in after.face_up
    assert after.stacks[0] == ()


def test_shorter_game_turns_down_the_returned_tile_even_when_it_is_the_only_one_above():
    state = only_face_up(21, stacks=((30,), ()), options=SHORTER)
    after, busted = apply(state, Bust())
    assert (busted.returned, busted.turned_down) == (30, 30)
    assert after.face_up == {21}
    assert not busted.game_over


def test_flip_without_return_on_the_last_face_up_tile_ends_the_game():
    state = only_face_up(25, stacks=((), (30,)), options=FLIP_EMPTY)
    after, busted = apply(state, Bust())
    assert busted.turned_down == 25
    assert after.over
    assert busted.game_over


def test_nothing_is_accepted_after_the_end():
    state = only_face_up(stacks=((21,), (22,)))
    assert state.over
    with pytest.raises(RuleError) as refused:
        apply(state, Bust())
    assert refused.value.code == "match_over"
