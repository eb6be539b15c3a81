"""A match as its set-up plus its log: apply, undo several steps, replay."""

import pytest

from marquoir.games.pickomino import GRILL, Bust, Match, Options, RuleError, Setup, Take, fold

SETUP = Setup(player_count=3, first=0, options=Options())

OPENING = (Take(24, True), Take(24, True, 0), Bust(), Take(33, True))


def test_a_new_match_has_no_actions_and_the_initial_table():
    match = Match.start(SETUP)
    assert match.actions == ()
    assert match.state == SETUP.initial_state()


def test_apply_records_the_action_and_its_account():
    match = Match.start(SETUP).apply(Take(24, True))
    assert match.actions == (Take(24, True),)
    assert match.outcomes[0].tile == 24  # type: ignore[union-attr]
    assert match.state.stacks[0] == (24,)


def test_the_old_match_value_is_left_as_it_was():
    start = Match.start(SETUP)
    start.apply(Take(24, True))
    assert start.actions == ()


def test_a_refused_action_is_not_recorded():
    match = Match.start(SETUP).apply(Take(24, True))
    with pytest.raises(RuleError):
        match.apply(Take(30, True, 0))
    assert len(match.actions) == 1


def test_undo_takes_back_the_last_action_exactly():
    before = Match.start(SETUP).apply(Take(24, True))
    after = before.apply(Take(24, True, 0))
    assert after.undo().state == before.state
    assert after.undo() == before


def test_undo_several_steps_at_once_or_one_by_one():
    match = Match.replay(SETUP, OPENING)
    assert match.undo(3) == match.undo().undo().undo()
    assert match.undo(4).state == SETUP.initial_state()


def test_undo_with_nothing_in_force_is_refused():
    with pytest.raises(RuleError) as refused:
        Match.start(SETUP).undo()
    assert refused.value.code == "nothing_to_undo"
    with pytest.raises(RuleError) as refused:
        Match.replay(SETUP, OPENING[:2]).undo(3)
    assert refused.value.code == "nothing_to_undo"


def test_replay_gives_the_same_match_as_applying_one_by_one():
    by_hand = Match.start(SETUP)
    for action in OPENING:
        by_hand = by_hand.apply(action)
    assert Match.replay(SETUP, OPENING) == by_hand
    assert fold(SETUP, OPENING) == by_hand.state


def test_the_accounts_tell_the_story_of_the_opening():
    outcomes = Match.replay(SETUP, OPENING).outcomes
    ada_takes, ben_steals, cy_busts, ada_takes_33 = outcomes
    assert (ada_takes.player, ada_takes.tile, ada_takes.source) == (0, 24, GRILL)  # type: ignore[union-attr]
    assert (ben_steals.player, ben_steals.tile, ben_steals.source) == (1, 24, 0)  # type: ignore[union-attr]
    assert (cy_busts.player, cy_busts.returned, cy_busts.turned_down) == (2, None, None)  # type: ignore[union-attr]
    assert (ada_takes_33.player, ada_takes_33.tile) == (0, 33)  # type: ignore[union-attr]


def test_states_lists_the_table_before_and_after_every_action():
    match = Match.replay(SETUP, OPENING)
    states = match.states()
    assert len(states) == len(OPENING) + 1
    assert states[0] == SETUP.initial_state()
    assert states[-1] == match.state
