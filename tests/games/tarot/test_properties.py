"""Invariants over random legal matches of 3, 4 and 5 players, checked against the rules worked out on their own."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.tarot import (
    Action,
    Deal,
    DealScored,
    End,
    GameState,
    Match,
    Options,
    Pass,
    PlayedDeal,
    RuleError,
    Setup,
    Side,
    fold,
    leaders,
    standings,
    winners,
)
from marquoir.games.tarot.playout import random_deal, random_legal_action

from ...volume import PROPERTY_VOLUME

seeds = st.integers(min_value=0, max_value=2**32 - 1)
setups = st.builds(
    lambda count, first_seat, deals: Setup(count, first_seat % count, Options(deals=deals)),
    st.integers(min_value=3, max_value=5),
    st.integers(min_value=0, max_value=4),
    st.none() | st.integers(min_value=1, max_value=12),
)

# The rules file's tables, written out again so the engine is checked against them, not itself.
NEEDED = {0: 56, 1: 51, 2: 41, 3: 36}
MULTIPLIER = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
HANDFUL = {"simple": 20, "double": 30, "triple": 40}
CHELEM = {None: 0, "announced_made": 400, "made": 200, "announced_failed": -200}


def expected_scores(action: Deal, player_count: int) -> tuple[int, ...]:
    """The scores of a deal as rules-tarot.md words them, a half point to the winners (FFT)."""
    if action.points is not None:
        points = Fraction(action.points)
    else:
        assert action.defence_points is not None
        points = 91 - Fraction(action.defence_points)
    needed = NEEDED[action.bouts]
    won = 1 if points >= needed else -1
    gap = math.ceil(abs(points - needed))
    multiplier = MULTIPLIER[action.contract]
    a = won * (25 + gap) * multiplier
    if action.petit_au_bout is not None:
        a += (10 if action.petit_au_bout == "taker" else -10) * multiplier
    a += won * sum(HANDFUL[poignee.size] for poignee in action.poignees)
    a += CHELEM[action.chelem]
    scores = [-a] * player_count
    partner = action.partner if action.partner != action.taker else None
    if player_count == 3:
        scores[action.taker] = 2 * a
    elif player_count == 4:
        scores[action.taker] = 3 * a
    elif partner is None:
        scores[action.taker] = 4 * a
    else:
        scores[action.taker], scores[partner] = 2 * a, a
    return tuple(scores)


@st.composite
def games(draw: st.DrawFn) -> tuple[Setup, tuple[Action, ...]]:
    """A set-up and a legal log from it: deals, passes, maybe an End, stopping at the end or earlier."""
    setup = draw(setups)
    length = draw(st.integers(min_value=0, max_value=30))

    def choose(options):
        return draw(st.sampled_from(options))

    state = setup.initial_state()
    actions: list[Action] = []
    while len(actions) < length and not state.over:
        action = random_legal_action(state, choose)
        state = fold(setup, (*actions, action))
        actions.append(action)
    return setup, tuple(actions)


def assert_ranked_by_the_totals(state: GameState) -> None:
    table = standings(state)
    assert sorted(row.player for row in table) == list(range(state.player_count))
    for row in table:
        assert row.score == state.totals[row.player]
        assert row.rank == 1 + sum(total > row.score for total in state.totals)
    first = tuple(sorted(row.player for row in table if row.rank == 1))
    assert leaders(state) == first
    assert winners(state) == (first if state.over else ())


def assert_match_invariants(match: Match) -> None:
    state = match.state
    for record in state.deals:
        assert sum(record.scores) == 0, "every deal adds up to zero"
    assert sum(state.totals) == 0
    assert state.totals == tuple(sum(state.player_scores(player)) for player in range(state.player_count))
    assert state.totals_by_deal()[-1] == state.totals
    assert state.deal_count == sum(isinstance(action, Deal | Pass) for action in match.actions)
    assert state.played_count == sum(isinstance(action, Deal) for action in match.actions)
    assert state.dealer == (state.first_dealer + state.deal_count) % state.player_count
    assert [record.dealer for record in state.deals] == [
        (state.first_dealer + index) % state.player_count for index in range(state.deal_count)
    ]
    assert [record.number for record in state.deals] == list(range(1, state.deal_count + 1))
    assert_ranked_by_the_totals(state)


@settings(max_examples=300, deadline=None)
@given(game=games())
def test_every_deal_scores_by_the_rules_adds_up_to_zero_and_can_be_undone(game):
    setup, actions = game
    match = Match.start(setup)
    assert_match_invariants(match)
    for action in actions:
        following = match.apply(action)
        assert following.undo() == match, "undo restores exactly the previous match"
        assert following.undo().state == match.state
        outcome = following.outcomes[-1]
        assert outcome.totals == following.state.totals
        assert outcome.game_over == following.state.over
        if isinstance(action, Deal):
            assert isinstance(outcome, DealScored)
            assert outcome.deal.scores == expected_scores(action, setup.player_count)
            assert outcome.deal == following.state.deals[-1]
            assert following.state.totals == tuple(
                before + score for before, score in zip(match.state.totals, outcome.deal.scores, strict=True)
            )
        else:
            assert following.state.totals == match.state.totals
        match = following
        assert_match_invariants(match)
    assert not any(state.over for state in match.states()[:-1]), "nothing is recorded after the end"
    PROPERTY_VOLUME.record(actions=len(actions))


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


@settings(max_examples=300, deadline=None)
@given(player_count=st.integers(min_value=3, max_value=5), seed=seeds)
def test_random_legal_deals_are_accepted_and_sum_to_zero(player_count, seed):
    rng = random.Random(seed)
    for _ in range(20):
        action = random_deal(player_count, rng.choice)
        (record,) = Match.start(Setup(player_count)).apply(action).state.deals
        assert isinstance(record, PlayedDeal)
        assert sum(record.scores) == 0
        assert record.scores == expected_scores(action, player_count)
        defenders = [
            score for player, score in enumerate(record.scores) if player not in (action.taker, action.partner)
        ]
        assert len(set(defenders)) == 1, "every defender pays or gets the same"
        if record.petit_au_bout is Side.TAKER:
            assert record.bouts >= 1


@settings(max_examples=200, deadline=None)
@given(setup=setups, seed=seeds)
def test_random_matches_end_by_the_rules_and_then_accept_nothing(setup, seed):
    rng = random.Random(seed)
    match = Match.start(setup)
    while not match.state.over:
        match = match.apply(random_legal_action(match.state, rng.choice))
    PROPERTY_VOLUME.record(actions=len(match.steps))
    state = match.state
    if isinstance(match.actions[-1], End):
        assert not state.options.deals or state.played_count < state.options.deals
    else:
        assert state.played_count == state.options.deals
    assert winners(state), "someone wins"
    assert_match_invariants(match)
    for action in (Pass(), End(), random_deal(setup.player_count, rng.choice)):
        with pytest.raises(RuleError) as refused:
            match.apply(action)
        assert refused.value.code == "match_over"
