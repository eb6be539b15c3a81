"""Invariants over random legal games of 1 to 8 players: hypothesis's logs, and whole games
played by the seeded random player of playout.py."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.yahtzee import (
    BOXES,
    ROUNDS,
    Action,
    Box,
    GameState,
    Match,
    RuleError,
    Score,
    ScorePoints,
    Setup,
    apply,
    box_choices,
    fold,
    standings,
    winners,
)
from marquoir.games.yahtzee.playout import random_game, random_legal_action

from ...volume import PROPERTY_VOLUME

seeds = st.integers(min_value=0, max_value=2**32 - 1)
setups = st.builds(
    lambda count, first: Setup(tuple(f"Player {n}" for n in range(count)), first % count),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=0, max_value=7),
)
# Five alike one time in four, so the bonus and every branch of the joker come up.
any_dice = st.tuples(*[st.integers(min_value=1, max_value=6)] * 5)
five_alike = st.integers(min_value=1, max_value=6).map(lambda face: (face,) * 5)
rolls = st.one_of(any_dice, any_dice, any_dice, five_alike)


@st.composite
def games(draw: st.DrawFn, whole: bool = False) -> tuple[Setup, tuple[Action, ...]]:
    """A set-up and a legal log from it (a whole game when ``whole``, else any part of one)."""
    setup = draw(setups)
    length = ROUNDS * setup.player_count if whole else draw(st.integers(0, ROUNDS * setup.player_count))
    state = setup.initial_state()
    actions: list[Action] = []
    for _ in range(length):
        dice = draw(rolls)
        sheet = state.sheets[state.current or 0]
        choice = draw(st.sampled_from([choice for choice in box_choices(sheet, dice) if choice.allowed]))
        if draw(st.integers(0, 4)) == 0:
            action: Action = ScorePoints(choice.box, choice.points or 0, five_alike=len(set(dice)) == 1)
        else:
            action = Score(choice.box, dice)
        actions.append(action)
        state = apply(state, action)[0]
    return setup, tuple(actions)


def assert_sheets_add_up(match: Match) -> None:
    """Each box filled at most once per player, by that player's turns; totals from the log."""
    state = match.state
    filled: Counter[tuple[int, Box]] = Counter((outcome.player, outcome.box) for outcome in match.outcomes)
    assert all(count == 1 for count in filled.values()), "a box filled twice"
    bonuses: Counter[int] = Counter()
    for before, action, outcome in zip(match.states()[:-1], match.actions, match.outcomes, strict=True):
        sheet = before.sheets[outcome.player]
        if isinstance(action, Score):
            alike = len(set(action.dice)) == 1
        else:  # typed points: five alike when the player said so or only five alike give them
            alike = bool(outcome.joker or outcome.yahtzee_bonus)
        if alike and sheet.points(Box.YAHTZEE) == 50:
            bonuses[outcome.player] += 1
    for player, sheet in enumerate(state.sheets):
        mine = [outcome for outcome in match.outcomes if outcome.player == player]
        assert sheet.filled_count == len(mine)
        assert {outcome.box for outcome in mine} == {box for box in BOXES if sheet.points(box) is not None}
        upper = sum(sheet.points(box) or 0 for box in BOXES[:6])
        boxes = sum(points or 0 for points in sheet.boxes)
        assert sheet.yahtzee_bonuses == bonuses[player]
        assert sheet.total == boxes + (35 if upper >= 63 else 0) + 100 * bonuses[player]
        assert sheet.total == sum(outcome.gained for outcome in mine)
    turns = len(match.steps)
    n = state.player_count
    assert state.turns == turns
    assert state.over == (turns == ROUNDS * n)
    assert state.current == (None if state.over else (match.setup.first + turns) % n)
    assert state.round == min(turns // n + 1, ROUNDS)


def assert_ranked_by_totals(state: GameState) -> None:
    table = standings(state)
    assert sorted(row.player for row in table) == list(range(state.player_count))
    for row in table:
        assert row.score == state.total(row.player)
        assert row.rank == 1 + sum(total > row.score for total in state.totals)
    best = max(state.totals)
    assert winners(state) == (tuple(p for p, t in enumerate(state.totals) if t == best) if state.over else ())


@settings(max_examples=150, deadline=None)
@given(game=games())
def test_sheets_add_up_and_undo_gives_back_the_previous_state_after_every_turn(game):
    setup, actions = game
    match = Match.start(setup)
    for action in actions:
        following = match.apply(action)
        assert following.undo() == match
        assert following.undo().state == match.state
        outcome = following.outcomes[-1]
        assert outcome.total == following.state.total(outcome.player)
        assert outcome.game_over == following.state.over
        match = following
    assert_sheets_add_up(match)
    assert_ranked_by_totals(match.state)


@settings(max_examples=150, deadline=None)
@given(game=games(), cut=st.floats(min_value=0, max_value=1))
def test_replaying_the_log_gives_the_same_match_and_undo_any_suffix_the_prefix(game, cut):
    setup, actions = game
    match = Match.replay(setup, actions)
    assert Match.replay(setup, match.actions) == match
    assert fold(setup, match.actions) == match.state
    prefix = int(cut * len(actions))
    if prefix < len(actions):
        assert match.undo(len(actions) - prefix) == Match.replay(setup, actions[:prefix])


@settings(max_examples=60, deadline=None)
@given(game=games(whole=True))
def test_a_whole_game_fills_every_box_of_every_sheet_exactly_once_then_ends(game):
    setup, actions = game
    match = Match.replay(setup, actions)
    assert match.state.over
    assert all(sheet.is_full for sheet in match.state.sheets)
    assert Counter(outcome.player for outcome in match.outcomes) == dict.fromkeys(range(setup.player_count), ROUNDS)
    assert_sheets_add_up(match)
    assert_ranked_by_totals(match.state)
    assert winners(match.state)
    with pytest.raises(RuleError) as refused:
        match.apply(Score("chance", (1, 2, 3, 4, 5)))
    assert refused.value.code == "match_over"


@settings(max_examples=200, deadline=None)
@given(setup=setups, seed=seeds)
def test_random_games_by_the_random_player_end_after_13_rounds_and_add_up(setup, seed):
    rng = random.Random(seed)
    actions = random_game(setup.initial_state(), rng.choice)
    match = Match.replay(setup, actions)
    PROPERTY_VOLUME.record(actions=len(actions))
    assert len(actions) == ROUNDS * setup.player_count
    assert match.state.over
    assert_sheets_add_up(match)
    assert_ranked_by_totals(match.state)
    assert match.undo().state == match.states()[-2]


def test_the_random_player_refuses_to_play_a_finished_game():
    setup = Setup(("Ada",))
    rng = random.Random(7)
    state = fold(setup, random_game(setup.initial_state(), rng.choice))
    with pytest.raises(ValueError, match="over"):
        random_legal_action(state, rng.choice)
