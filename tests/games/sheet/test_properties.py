"""Invariants over sheets of 1 to 20 players with any options and any legal rounds."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.sheet import (
    MAX_SCORE,
    MIN_SCORE,
    Action,
    End,
    GameState,
    Match,
    Options,
    Round,
    RoundScored,
    RuleError,
    Setup,
    fold,
    leaders,
    standings,
    winners,
)
from marquoir.games.sheet.playout import random_legal_action

from ...volume import PROPERTY_VOLUME

# A sheet with no target and no round count only ends on End; the random player says it
# one time in six, so a game past this many actions means End is never taken.
ACTION_LIMIT = 1_000
seeds = st.integers(min_value=0, max_value=2**32 - 1)

options = st.builds(
    Options,
    title=st.none() | st.just("Skyjo"),
    lowest_wins=st.booleans(),
    target=st.none() | st.integers(min_value=1, max_value=300),
    rounds=st.none() | st.integers(min_value=1, max_value=12),
)
setups = st.builds(
    lambda count, first_seat, chosen: Setup(count, first_seat % count, chosen),
    st.integers(min_value=1, max_value=20),
    st.integers(min_value=0, max_value=19),
    options,
)
# Card-game scores mostly, and anywhere in the allowed range too (the extremes included).
scores = st.integers(min_value=-20, max_value=60) | st.integers(min_value=MIN_SCORE, max_value=MAX_SCORE)


@st.composite
def games(draw: st.DrawFn) -> tuple[Setup, tuple[Action, ...]]:
    """A set-up and a legal log from it: rounds, maybe an End, stopping at the end or earlier."""
    setup = draw(setups)
    length = draw(st.integers(min_value=0, max_value=25))
    state = setup.initial_state()
    actions: list[Action] = []
    while len(actions) < length and not state.over:
        if state.rounds and draw(st.integers(min_value=0, max_value=7)) == 0:
            action: Action = End()
        else:
            action = Round(tuple(draw(st.lists(scores, min_size=setup.player_count, max_size=setup.player_count))))
        state = fold(setup, (*actions, action))
        actions.append(action)
    return setup, tuple(actions)


def over_by_the_rules(state: GameState, ended_by_end: bool) -> bool:
    """The end as the contract words it, worked out on its own."""
    target, rounds = state.options.target, state.options.rounds
    return (
        ended_by_end
        or (target is not None and max(state.totals) >= target)
        or (rounds is not None and state.round_count >= rounds)
    )


def assert_ranked_by_the_totals(state: GameState) -> None:
    table = standings(state)
    assert sorted(row.player for row in table) == list(range(state.player_count)), "a permutation of the players"

    def better(a: int, b: int) -> bool:
        return a < b if state.options.lowest_wins else a > b

    for row in table:
        assert row.score == state.totals[row.player]
        assert row.rank == 1 + sum(better(total, row.score) for total in state.totals)
    for earlier, later in pairwise(table):
        assert not better(later.score, earlier.score), "best first"
        assert earlier.rank <= later.rank
        if earlier.score == later.score:
            assert earlier.player < later.player, "ties in seating order"
    first = tuple(sorted(row.player for row in table if row.rank == 1))
    assert leaders(state) == first
    assert winners(state) == (first if state.over else ())


def assert_sheet_invariants(match: Match) -> None:
    state = match.state
    assert all(len(row) == state.player_count for row in state.rounds)
    assert state.totals == tuple(sum(state.player_rounds(player)) for player in range(state.player_count))
    assert state.round_count == sum(isinstance(action, Round) for action in match.actions)
    assert_ranked_by_the_totals(state)


@settings(max_examples=300, deadline=None)
@given(game=games())
def test_totals_ranks_and_the_end_hold_after_every_action(game):
    setup, actions = game
    match = Match.start(setup)
    assert_sheet_invariants(match)
    for action in actions:
        following = match.apply(action)
        assert following.undo() == match, "undo restores exactly the previous match"
        assert following.state.over == over_by_the_rules(following.state, isinstance(action, End))
        assert following.outcomes[-1].game_over == following.state.over
        outcome = following.outcomes[-1]
        assert outcome.totals == following.state.totals
        if isinstance(outcome, RoundScored):
            assert outcome.leaders == leaders(following.state)
        else:
            assert outcome.winners == winners(following.state)
        match = following
        assert_sheet_invariants(match)
    assert not any(state.over for state in match.states()[:-1]), "nothing is recorded after the end"


@settings(max_examples=200, deadline=None)
@given(game=games(), cut=st.floats(min_value=0, max_value=1))
def test_undo_after_any_prefix_gives_back_the_state_before_it(game, cut):
    setup, actions = game
    match = Match.replay(setup, actions)
    prefix = int(cut * len(actions))
    steps_back = len(actions) - prefix
    if steps_back:
        assert match.undo(steps_back) == Match.replay(setup, actions[:prefix])
        assert match.undo(steps_back).state == match.states()[prefix]
    else:
        assert match == Match.replay(setup, actions[:prefix])


@settings(max_examples=200, deadline=None)
@given(game=games())
def test_replaying_the_log_gives_the_same_match(game):
    setup, actions = game
    match = Match.replay(setup, actions)
    assert Match.replay(setup, match.actions) == match
    assert fold(setup, match.actions) == match.state


@settings(max_examples=100, deadline=None)
@given(setup=setups)
def test_end_before_any_round_is_refused_on_every_sheet(setup):
    with pytest.raises(RuleError) as refused:
        Match.start(setup).apply(End())
    assert refused.value.code == "no_round"


def play_out(setup: Setup, rng: random.Random) -> Match:
    """Play a random legal game to its end, as the random player of playout.py plays it."""
    match = Match.start(setup)
    while not match.state.over and len(match.steps) < ACTION_LIMIT:
        match = match.apply(random_legal_action(match.state, rng.choice))
    PROPERTY_VOLUME.record(actions=len(match.steps))
    return match


@settings(max_examples=300, deadline=None)
@given(setup=setups, seed=seeds)
def test_random_games_end_by_the_rules_and_then_accept_nothing(setup, seed):
    match = play_out(setup, random.Random(seed))
    assert match.state.over, "every game ends"
    assert match.outcomes[-1].game_over
    assert match.state.over == over_by_the_rules(match.state, isinstance(match.actions[-1], End))
    assert_sheet_invariants(match)
    assert winners(match.state), "someone wins"
    for action in (Round((0,) * setup.player_count), End()):
        with pytest.raises(RuleError) as refused:
            match.apply(action)
        assert refused.value.code == "match_over"
