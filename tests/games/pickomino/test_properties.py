"""Invariants over random legal games of 2 to 7 players with random table options."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.pickomino import TILES, Action, Bust, Match, Options, RuleError, Setup, Take, fold, worms_on
from marquoir.games.pickomino.playout import random_legal_action

from ...volume import PROPERTY_VOLUME

# Far above any random game seen (they end in well under 300 actions); a loop would stop here.
# Legal play need not end (everyone busting with empty stacks changes nothing), so the
# games are played by a seeded random player, as people roll, not by hypothesis's
# chooser, which shrinks towards always picking the first (a bust) forever.
ACTION_LIMIT = 1_000
seeds = st.integers(min_value=0, max_value=2**32 - 1)

setups = st.builds(
    lambda count, first_seat, shorter, flip: Setup(count, first_seat % count, Options(shorter, flip)),
    st.integers(min_value=2, max_value=7),
    st.integers(min_value=0, max_value=6),
    st.booleans(),
    st.booleans(),
)


def assert_each_tile_in_exactly_one_place(match: Match) -> None:
    state = match.state
    places = [*state.face_up, *state.face_down, *(tile for stack in state.stacks for tile in stack)]
    assert sorted(places) == list(TILES)


def play_out(setup: Setup, rng: random.Random) -> tuple[Match, list[Match]]:
    """Play a random legal game to its end, checking the per-action invariants on the way."""
    match = Match.start(setup)
    history = [match]
    counter = [0] * setup.player_count  # the live worms counter, fed only by the accounts
    while not match.state.over and len(match.steps) < ACTION_LIMIT:
        action = random_legal_action(match.state, rng.choice)
        following = match.apply(action)
        assert following.undo() == match, "undo restores exactly the previous match"
        assert following.state.current == (match.state.current + 1) % setup.player_count
        for player, change in following.outcomes[-1].worm_changes().items():
            counter[player] += change
        assert counter == [following.state.worms(p) for p in range(setup.player_count)]
        assert sum(counter) + sum(_worms_on_grill(following)) == 40
        match = following
        assert_each_tile_in_exactly_one_place(match)
        history.append(match)
    PROPERTY_VOLUME.record(actions=len(match.steps))
    return match, history


def _worms_on_grill(match: Match) -> list[int]:
    state = match.state
    return [worms_on(tile) for tile in (*state.face_up, *state.face_down)]


@settings(max_examples=1000, deadline=None)
@given(setup=setups, seed=seeds)
def test_random_games_keep_every_invariant_and_end(setup, seed):
    match, _ = play_out(setup, random.Random(seed))
    assert match.state.over, "every game ends"
    assert match.outcomes[-1].game_over


@settings(max_examples=200, deadline=None)
@given(setup=setups, seed=seeds, cut=st.floats(min_value=0, max_value=1))
def test_undo_after_any_prefix_gives_back_the_state_before_it(setup, seed, cut):
    match, history = play_out(setup, random.Random(seed))
    prefix = int(cut * len(match.steps))
    steps_back = len(match.steps) - prefix
    if steps_back:
        assert match.undo(steps_back) == history[prefix]
        assert match.undo(steps_back).state == fold(setup, match.actions[:prefix])


@settings(max_examples=200, deadline=None)
@given(setup=setups, seed=seeds)
def test_replaying_the_log_gives_the_same_match(setup, seed):
    match, _ = play_out(setup, random.Random(seed))
    assert Match.replay(setup, match.actions) == match
    assert fold(setup, match.actions) == match.state


@settings(max_examples=200, deadline=None)
@given(setup=setups, seed=seeds, total=st.integers(min_value=5, max_value=40))
def test_nothing_is_accepted_after_the_end(setup, seed, total):
    match, _ = play_out(setup, random.Random(seed))
    actions: list[Action] = [Bust(), Take(total, True), *(Take(total, True, p) for p in range(setup.player_count))]
    for action in actions:
        with pytest.raises(RuleError) as refused:
            match.apply(action)
        assert refused.value.code == "match_over"
