"""Play order, the end of the game, standings, winners and the tie-break."""

import pytest

from marquoir.games.pickomino import Bust, RuleError, Take, apply, new_game, standings, tie_break_decided, winners

from .builders import only_face_up, table


def test_the_chosen_first_player_starts():
    assert new_game(5, first=3).current == 3


@pytest.mark.parametrize("count", [1, 8, 0])
def test_a_game_needs_two_to_seven_players(count):
    with pytest.raises(RuleError) as refused:
        new_game(count)
    assert (refused.value.code, refused.value.reason) == ("invalid", "player_count")


def test_the_first_player_must_sit_at_the_table():
    with pytest.raises(RuleError) as refused:
        new_game(3, first=3)
    assert refused.value.reason == "first_player"


def test_at_the_start_all_sixteen_tiles_lie_face_up_and_stacks_are_empty():
    state = new_game(2)
    assert len(state.face_up) == 16
    assert state.face_down == frozenset()
    assert state.stacks == ((), ())
    assert state.grill() == tuple((tile, True) for tile in range(21, 37))


def test_play_goes_round_the_table_in_seating_order():
    state = new_game(3, first=1)
    seen = []
    for _ in range(4):
        seen.append(state.current)
        state, _ = apply(state, Bust())
    assert seen == [1, 2, 0, 1]


def test_the_game_ends_as_soon_as_no_face_up_tile_is_left():
    state = only_face_up(22, stacks=((21,), (30,)))
    after, took = apply(state, Take(22, True))
    assert after.over
    assert took.game_over


def test_the_game_goes_on_while_a_face_up_tile_is_left():
    state = only_face_up(22, 23, stacks=((21,), (30,)))
    after, took = apply(state, Take(22, True))
    assert not after.over
    assert not took.game_over


def test_a_take_after_the_end_is_refused():
    state = only_face_up(stacks=((21,), (22,)))
    with pytest.raises(RuleError) as refused:
        apply(state, Take(25, True))
    assert refused.value.code == "match_over"


def test_the_score_is_the_worms_on_the_tiles_of_the_stack():
    state = table((21, 25, 29, 33), ())
    assert state.worms(0) == 1 + 2 + 3 + 4
    assert state.worms(1) == 0


def test_most_worms_wins():
    state = only_face_up(stacks=((33, 34), (21, 22, 23), (29,)))
    assert winners(state) == (0,)
    assert [(row.player, row.worms, row.rank) for row in standings(state)] == [(0, 8, 1), (2, 3, 2), (1, 3, 3)]


def test_on_a_tie_the_highest_numbered_tile_wins():
    state = only_face_up(stacks=((21, 22, 23, 24), (35,)))
    assert state.worms(0) == state.worms(1) == 4
    assert winners(state) == (1,)
    assert tie_break_decided(state)
    first, second = standings(state)
    assert (first.player, first.best_tile, first.rank) == (1, 35, 1)
    assert (second.player, second.best_tile, second.rank) == (0, 24, 2)


def test_tied_players_with_no_tile_share_the_win():
    state = only_face_up(stacks=((), (), ()))
    assert winners(state) == (0, 1, 2)
    assert [row.rank for row in standings(state)] == [1, 1, 1]
    assert not tie_break_decided(state)


def test_players_with_no_tile_share_a_rank_below_the_leaders():
    state = only_face_up(stacks=((21,), (), ()))
    assert [(row.player, row.rank) for row in standings(state)] == [(0, 1), (1, 2), (2, 2)]


def test_there_are_no_winners_before_the_end():
    state = table((36,), ())
    assert winners(state) == ()
    assert standings(state)[0].player == 0


def test_a_win_on_worms_alone_is_not_a_tie_break():
    state = only_face_up(stacks=((36,), (21,)))
    assert not tie_break_decided(state)
