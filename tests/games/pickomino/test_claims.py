"""Ending a turn well: the grill, steals, the choice between them, and the worked examples."""

import pytest

from marquoir.games.pickomino import GRILL, Claim, RuleError, Take, apply, legal_claims, new_game

from .builders import only_face_up, table


def refusal(state, action) -> RuleError:
    with pytest.raises(RuleError) as refused:
        apply(state, action)
    return refused.value


# The rulebook's worked examples, one test each.


def test_example_total_24_with_a_worm_takes_24_from_the_grill():
    state = new_game(3)
    after, took = apply(state, Take(24, True))
    assert took.tile == 24
    assert took.source == GRILL
    assert after.stacks[0] == (24,)
    assert 24 not in after.face_up


def test_example_total_21_steals_21_from_an_opponents_top():
    state = table((), (25, 21), current=0)
    assert Claim(21, 1) in legal_claims(state, 21, True)
    after, took = apply(state, Take(21, True, 1))
    assert took.is_steal
    assert (after.stacks[0], after.stacks[1]) == ((21,), (25,))
    assert took.worm_changes() == {0: 1, 1: -1}


def test_example_total_23_on_own_top_with_22_gone_takes_21():
    state = table((23,), (), gone=[22], current=0)
    assert legal_claims(state, 23, True) == (Claim(21, GRILL),)
    after, took = apply(state, Take(23, True))
    assert took.tile == 21
    assert after.stacks[0] == (23, 21)


def test_example_total_31_with_29_to_31_off_the_grill_takes_28():
    state = table((31,), (30,), gone=[29], current=0)
    assert legal_claims(state, 31, True) == (Claim(28, GRILL),)
    assert apply(state, Take(31, True))[1].tile == 28


def test_example_total_26_may_take_25_from_the_grill_instead_of_stealing_26():
    state = table((), (26,), gone=[], current=0)
    assert legal_claims(state, 26, True) == (Claim(26, 1), Claim(25, GRILL))
    # 26 is in Ben's stack, so the grill gives the highest face-up tile below it.
    after, took = apply(state, Take(26, True, GRILL))
    assert (took.tile, took.source) == (25, GRILL)
    assert after.stacks == ((25,), (26,))


def test_example_total_31_without_a_worm_is_refused_as_no_worm():
    state = new_game(2)
    assert legal_claims(state, 31, False) == ()
    error = refusal(state, Take(31, False))
    assert error.code == "no_worm"


def test_example_total_25_on_own_top_with_nothing_below_on_the_grill_is_a_bust():
    state = only_face_up(30, 31, stacks=((25,), (21, 22)))
    assert legal_claims(state, 25, True) == ()
    assert refusal(state, Take(25, True)).code == "nothing_to_take"


# The rules of claiming.


def test_the_grill_gives_the_exact_tile_when_it_is_face_up():
    assert legal_claims(new_game(2), 29, True) == (Claim(29, GRILL),)


def test_the_grill_gives_the_highest_face_up_tile_below_the_total():
    state = table((), (), face_down=[27, 26])
    assert legal_claims(state, 27, True) == (Claim(25, GRILL),)


def test_a_total_above_36_takes_36_when_it_is_face_up():
    assert apply(new_game(2), Take(40, True))[1].tile == 36


def test_a_total_above_36_takes_the_highest_face_up_tile_when_36_is_gone():
    state = table((), (36,), face_down=[35], current=0)
    assert apply(state, Take(38, True))[1].tile == 34


def test_a_player_may_not_choose_a_lower_tile_than_the_rules_give():
    # The API has no way to name a lower grill tile: the grill source always gives the rule's tile.
    state = new_game(2)
    assert legal_claims(state, 30, True) == (Claim(30, GRILL),)


def test_a_total_below_every_face_up_tile_takes_nothing():
    state = new_game(2)
    assert legal_claims(state, 20, True) == ()
    error = refusal(state, Take(20, True))
    assert (error.code, error.params["total"]) == ("nothing_to_take", 20)


def test_only_the_exact_total_steals():
    state = table((), (27,), current=0)
    assert Claim(27, 1) not in legal_claims(state, 28, True)
    error = refusal(state, Take(28, True, 1))
    assert (error.code, error.reason) == ("not_stealable", "top_differs")


def test_only_the_top_tile_of_a_stack_can_be_stolen():
    state = table((), (27, 30), current=0)
    assert legal_claims(state, 27, True) == (Claim(26, GRILL),)
    assert refusal(state, Take(27, True, 1)).code == "not_stealable"


def test_a_steal_from_an_empty_stack_is_refused():
    assert refusal(new_game(3), Take(25, True, 2)).code == "not_stealable"


def test_a_player_never_steals_their_own_top_tile():
    state = table((27,), (), current=0)
    error = refusal(state, Take(27, True, 0))
    assert (error.code, error.reason) == ("not_stealable", "own_tile")


def test_own_top_tile_is_never_a_claim_even_with_the_exact_total():
    state = table((27,), (), current=0)
    assert legal_claims(state, 27, True) == (Claim(26, GRILL),)


def test_a_steal_needs_a_worm():
    state = table((), (27,), current=0)
    assert refusal(state, Take(27, False, 1)).code == "no_worm"


def test_a_steal_is_possible_even_when_the_grill_offers_nothing():
    state = only_face_up(33, stacks=((), (22,)))
    assert legal_claims(state, 22, True) == (Claim(22, 1),)
    after, took = apply(state, Take(22, True, 1))
    assert after.stacks == ((22,), ())
    assert took.worms == 1


def test_the_tile_won_goes_on_top_of_the_stack():
    state = table((21, 25), (), current=0)
    after, _ = apply(state, Take(30, True))
    assert after.stacks[0] == (21, 25, 30)
    assert after.top(0) == 30


def test_a_take_passes_the_turn_to_the_next_player():
    state = new_game(3, first=2)
    after, _ = apply(state, Take(24, True))
    assert after.current == 0


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Take(41, True), "bad_total"),
        (Take(0, True), "bad_total"),
        (Take(4, True), "bad_total"),
        (Take(True, True), "bad_total"),
        (Take(25, True, 3), "bad_source"),
        (Take(25, True, -1), "bad_source"),
        (Take(25, True, "pile"), "bad_source"),  # type: ignore[arg-type]
        (Take(25, "yes", GRILL), "bad_worm"),  # type: ignore[arg-type]
    ],
)
def test_malformed_takes_are_invalid(action, reason):
    error = refusal(new_game(3), action)
    assert (error.code, error.reason) == ("invalid", reason)


def test_a_refused_action_leaves_the_state_unchanged():
    state = table((), (27,), current=0)
    before = state
    refusal(state, Take(28, True, 1))
    assert state == before
