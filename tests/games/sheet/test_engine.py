"""The score sheet's rules: set-up and options, rounds, the three ways a game ends, ranks and winners."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from marquoir.games.sheet import (
    MAX_ROUNDS,
    MAX_TARGET,
    Action,
    End,
    Ended,
    EndReason,
    GameState,
    Match,
    Options,
    Round,
    RoundScored,
    RuleError,
    Setup,
    Standing,
    apply,
    fold,
    leaders,
    new_game,
    standings,
    winners,
)


def play(state: GameState, *rows: Iterable[int]) -> GameState:
    """The state after recording each row of scores as a round."""
    for row in rows:
        state, _ = apply(state, Round(tuple(row)))
    return state


def refusal(state: GameState, action: Action) -> tuple[str, str]:
    with pytest.raises(RuleError) as refused:
        apply(state, action)
    return refused.value.code, refused.value.reason


# Set-up


def test_a_new_sheet_is_blank_with_every_total_at_zero():
    state = new_game(3)
    assert state.rounds == ()
    assert state.totals == (0, 0, 0)
    assert state.round_count == 0
    assert not state.over
    assert state.end_reason is None


def test_the_chosen_first_player_is_kept_for_the_screen_and_no_one_is_current():
    state = new_game(4, first=2)
    assert state.first == 2
    assert state.current is None


def test_a_sheet_takes_a_single_player():
    state = play(new_game(1), [12], [-3])
    state, ended = apply(state, End())
    assert state.totals == (9,)
    assert standings(state) == (Standing(0, 9, 1),)
    assert ended.winners == (0,)


def test_a_sheet_takes_twenty_players():
    state = play(new_game(20), range(20))
    assert state.player_count == 20
    assert state.totals == tuple(range(20))
    assert leaders(state) == (19,)


@pytest.mark.parametrize("count", [0, 21, -1, True])
def test_a_sheet_needs_one_to_twenty_players(count):
    with pytest.raises(RuleError) as refused:
        new_game(count)
    assert (refused.value.code, refused.value.reason) == ("invalid", "player_count")


@pytest.mark.parametrize("first", [3, -1, True])
def test_the_first_player_must_sit_at_the_table(first):
    with pytest.raises(RuleError) as refused:
        new_game(3, first=first)
    assert (refused.value.code, refused.value.reason) == ("invalid", "first_player")


# Options


def test_the_default_options_are_highest_wins_with_no_title_and_no_end_but_end():
    assert Options() == Options(title=None, lowest_wins=False, target=None, rounds=None)


@pytest.mark.parametrize("title", ["S", "Skyjo", "x" * 60, "6 qui prend !", "Ярмарка", "麻雀 🀄"])
def test_a_title_of_one_to_sixty_characters_is_kept(title):
    assert Options(title=title).title == title


@pytest.mark.parametrize("title", ["", "x" * 61, "   ", " Skyjo", "Skyjo ", "Sky\njo", "Sky\x00jo", 7, b"Skyjo"])
def test_a_title_empty_too_long_untrimmed_multiline_or_not_text_is_refused(title):
    with pytest.raises(RuleError) as refused:
        Options(title=title)
    assert (refused.value.code, refused.value.reason) == ("invalid", "bad_title")


@pytest.mark.parametrize("lowest_wins", [1, 0, "yes", None])
def test_lowest_wins_must_be_true_or_false(lowest_wins):
    with pytest.raises(RuleError) as refused:
        Options(lowest_wins=lowest_wins)
    assert (refused.value.code, refused.value.reason) == ("invalid", "bad_lowest_wins")


@pytest.mark.parametrize("target", [0, -100, True, 100.0, "100", MAX_TARGET + 1])
def test_a_target_must_be_a_positive_whole_number(target):
    with pytest.raises(RuleError) as refused:
        Options(target=target)
    assert (refused.value.code, refused.value.reason) == ("invalid", "bad_target")


@pytest.mark.parametrize("rounds", [0, -3, True, 10.0, "10", MAX_ROUNDS + 1])
def test_a_round_count_must_be_a_positive_whole_number(rounds):
    with pytest.raises(RuleError) as refused:
        Options(rounds=rounds)
    assert (refused.value.code, refused.value.reason) == ("invalid", "bad_rounds")


def test_options_at_their_bounds_are_accepted():
    options = Options(target=MAX_TARGET, rounds=MAX_ROUNDS)
    assert (options.target, options.rounds) == (MAX_TARGET, MAX_ROUNDS)
    assert Options(target=1, rounds=1) == Options(target=1, rounds=1)


# Rounds


def test_a_round_adds_each_players_score_to_their_total():
    state = play(new_game(3), [12, -3, 40], [5, 5, -50])
    assert state.rounds == ((12, -3, 40), (5, 5, -50))
    assert state.totals == (17, 2, -10)
    assert state.round_count == 2
    assert state.player_rounds(2) == (40, -50)
    assert state.total(0) == 17


def test_negative_scores_count_and_a_negative_total_can_lead():
    state = play(new_game(2), [-30, -5], [-10, -20])
    assert state.totals == (-40, -25)
    assert leaders(state) == (1,)
    assert leaders(play(new_game(2, options=Options(lowest_wins=True)), [-30, -5])) == (0,)


def test_the_extreme_scores_are_accepted():
    state = play(new_game(2), [100_000, -100_000])
    assert state.totals == (100_000, -100_000)


def test_a_round_account_tells_its_number_scores_totals_and_leaders():
    state = play(new_game(3), [10, 0, 4])
    _, scored = apply(state, Round((0, 15, 6)))
    assert scored == RoundScored(
        number=2, scores=(0, 15, 6), totals=(10, 15, 10), leaders=(1,), game_over=False, end_reason=None
    )
    assert scored.score_changes() == {1: 15, 2: 6}


@pytest.mark.parametrize("scores", [(1, 2), (1, 2, 3, 4), ()])
def test_a_round_needs_exactly_one_score_per_player(scores):
    assert refusal(new_game(3), Round(scores)) == ("invalid", "score_count")


@pytest.mark.parametrize("bad", [True, False, 1.0, 2.5, "3", None])
def test_a_score_that_is_a_bool_a_float_or_not_a_number_is_refused(bad):
    with pytest.raises(RuleError) as refused:
        apply(new_game(3), Round((1, bad, 3)))
    assert (refused.value.code, refused.value.reason) == ("invalid", "bad_scores")
    assert refused.value.params["player"] == 1


def test_scores_not_given_as_a_tuple_are_refused():
    assert refusal(new_game(2), Round([1, 2])) == ("invalid", "bad_scores")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [100_001, -100_001, 10**12])
def test_a_score_beyond_a_hundred_thousand_either_way_is_refused(bad):
    with pytest.raises(RuleError) as refused:
        apply(new_game(2), Round((0, bad)))
    assert (refused.value.code, refused.value.reason) == ("invalid", "score_range")
    assert refused.value.params == {"player": 1, "score": bad, "min": -100_000, "max": 100_000}


def test_an_unknown_action_is_refused():
    assert refusal(new_game(2), "round") == ("invalid", "unknown_action")  # type: ignore[arg-type]


def test_a_refused_round_leaves_the_sheet_as_it_was():
    match = Match.replay(Setup(2), [Round((3, 4))])
    with pytest.raises(RuleError):
        match.apply(Round((1, 100_001)))
    assert match.state.totals == (3, 4)
    assert len(match.actions) == 1


# The three ways a game ends


def test_with_no_target_and_no_round_count_the_game_goes_on_until_end():
    state = play(new_game(2), *([[50_000, 0]] * 30))
    assert not state.over
    state, ended = apply(state, End())
    assert state.over
    assert state.end_reason is EndReason.DECLARED
    assert ended == Ended(rounds=30, totals=(1_500_000, 0), winners=(0,))


def test_the_game_ends_after_the_round_in_which_a_total_reaches_the_target():
    state = play(new_game(2, options=Options(target=100)), [60, 40], [39, 50])
    assert not state.over
    state, scored = apply(state, Round((1, 0)))
    assert state.totals == (100, 90)
    assert state.over
    assert (scored.game_over, scored.end_reason) == (True, EndReason.TARGET)


def test_the_game_ends_after_the_round_in_which_a_total_passes_the_target():
    state, scored = apply(new_game(3, options=Options(target=10)), Round((2, 25, 3)))
    assert state.over
    assert scored.end_reason is EndReason.TARGET
    assert winners(state) == (1,)


def test_the_game_ends_after_the_set_number_of_rounds():
    state = play(new_game(2, options=Options(rounds=3)), [1, 2], [3, 4])
    assert not state.over
    state, scored = apply(state, Round((5, 6)))
    assert state.over
    assert (scored.number, scored.game_over, scored.end_reason) == (3, True, EndReason.ROUNDS)


def test_with_a_target_and_a_round_count_whichever_comes_first_ends_it():
    by_rounds = play(new_game(2, options=Options(target=100, rounds=2)), [10, 20], [10, 20])
    assert by_rounds.end_reason is EndReason.ROUNDS
    by_target = play(new_game(2, options=Options(target=100, rounds=5)), [10, 120])
    assert by_target.end_reason is EndReason.TARGET
    both = play(new_game(2, options=Options(target=100, rounds=1)), [10, 120])
    assert both.end_reason is EndReason.TARGET


def test_the_players_may_stop_before_the_target_or_the_last_round():
    state = play(new_game(2, options=Options(target=100, rounds=10)), [10, 20])
    state, ended = apply(state, End())
    assert state.over
    assert ended.winners == (1,)


def test_end_with_no_round_recorded_is_refused():
    assert refusal(new_game(3), End()) == ("no_round", "no_round")


def test_no_round_and_no_end_after_the_end():
    ended = apply(play(new_game(2), [1, 2]), End())[0]
    by_target = play(new_game(2, options=Options(target=5)), [1, 7])
    by_rounds = play(new_game(2, options=Options(rounds=1)), [1, 2])
    for state in (ended, by_target, by_rounds):
        assert refusal(state, Round((1, 1))) == ("match_over", "match_over")
        assert refusal(state, End()) == ("match_over", "match_over")


def test_a_round_out_of_shape_after_the_end_is_told_the_match_is_over():
    state = play(new_game(2, options=Options(rounds=1)), [1, 2])
    assert refusal(state, Round((1, 2, 3))) == ("match_over", "match_over")


def test_undoing_the_end_opens_the_sheet_again():
    match = Match.replay(Setup(2), [Round((1, 2)), End()])
    reopened = match.undo()
    assert not reopened.state.over
    assert reopened.apply(Round((5, 0))).state.totals == (6, 2)


# Ranks and winners


def test_the_highest_total_wins_by_default():
    state = apply(play(new_game(3), [10, 30, 20]), End())[0]
    assert [row.player for row in standings(state)] == [1, 2, 0]
    assert winners(state) == (1,)


def test_the_lowest_total_wins_when_lowest_wins():
    state = apply(play(new_game(3, options=Options(lowest_wins=True)), [10, 30, 20]), End())[0]
    assert [row.player for row in standings(state)] == [0, 2, 1]
    assert winners(state) == (0,)


def test_tied_players_share_their_rank_and_the_next_rank_skips_past_them():
    state = play(new_game(5), [7, 9, 9, 3, 7])
    assert standings(state) == (
        Standing(1, 9, 1),
        Standing(2, 9, 1),
        Standing(0, 7, 3),
        Standing(4, 7, 3),
        Standing(3, 3, 5),
    )


def test_everyone_tied_best_wins():
    state = apply(play(new_game(4), [5, 8, 8, 8]), End())[0]
    assert winners(state) == (1, 2, 3)


def test_before_any_round_everyone_leads_and_no_one_has_won():
    state = new_game(3)
    assert leaders(state) == (0, 1, 2)
    assert {row.rank for row in standings(state)} == {1}
    assert winners(state) == ()


def test_no_winner_before_the_end_but_a_leader():
    state = play(new_game(2), [3, 4])
    assert winners(state) == ()
    assert leaders(state) == (1,)


def test_a_skyjo_like_game_to_a_hundred_lowest_wins_with_a_tie():
    setup = Setup(4, first=1, options=Options(title="Skyjo", lowest_wins=True, target=100))
    rows = [(25, 10, 31, 8), (30, 12, 22, 20), (-4, 18, 20, 14), (40, 12, 29, 10)]
    match = Match.replay(setup, [Round(row) for row in rows[:3]])
    assert not match.state.over
    assert match.state.totals == (51, 40, 73, 42)
    match = match.apply(Round(rows[3]))
    state = match.state
    assert state.totals == (91, 52, 102, 52)
    assert state.over
    assert state.end_reason is EndReason.TARGET
    assert standings(state) == (Standing(1, 52, 1), Standing(3, 52, 1), Standing(0, 91, 3), Standing(2, 102, 4))
    assert winners(state) == (1, 3)
    last = match.outcomes[-1]
    assert isinstance(last, RoundScored)
    assert (last.number, last.leaders, last.game_over) == (4, (1, 3), True)


def test_a_ten_round_game_highest_wins():
    setup = Setup(3, options=Options(title="Wizard", rounds=10))
    rows = [(r * 10, 20 - r, -10 if r % 3 else 30) for r in range(1, 11)]
    match = Match.replay(setup, [Round(row) for row in rows[:9]])
    assert not match.state.over
    match = match.apply(Round(rows[9]))
    state = match.state
    assert state.over
    assert state.round_count == 10
    assert state.end_reason is EndReason.ROUNDS
    assert state.totals == (550, 145, 20)
    assert [(row.player, row.rank) for row in standings(state)] == [(0, 1), (1, 2), (2, 3)]
    assert winners(state) == (0,)
    assert fold(setup, match.actions) == state
