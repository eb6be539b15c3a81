"""A match: the dealer passing on, the history of deals, the end, ranks and winners, undo and replay."""

from __future__ import annotations

from marquoir.games.tarot import (
    Action,
    Contract,
    DealPassed,
    DealScored,
    End,
    Ended,
    EndReason,
    Match,
    Options,
    Pass,
    PassedDeal,
    PlayedDeal,
    Poignee,
    PoigneeSize,
    Setup,
    Side,
    Standing,
    apply,
    fold,
    leaders,
    new_game,
    standings,
    winners,
)

from .builders import deal, play

# Set-up and the dealer


def test_a_new_match_has_every_total_at_zero_and_the_first_dealer_to_deal():
    state = new_game(4, first=2)
    assert state.totals == (0, 0, 0, 0)
    assert (state.first_dealer, state.dealer) == (2, 2)
    assert state.deals == ()
    assert (state.deal_count, state.played_count) == (0, 0)
    assert state.current is None
    assert not state.over


def test_the_deal_passes_to_the_next_player_after_every_deal_passed_or_played():
    state = new_game(4, first=2)
    dealers = []
    for action in (deal(), Pass(), deal(taker=1), Pass(), Pass(), deal()):
        dealers.append(state.dealer)
        state = apply(state, action)[0]
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert [record.dealer for record in state.deals] == dealers
    assert state.dealer == 0


def test_the_deal_goes_round_a_table_of_three_and_of_five():
    assert play(new_game(3, first=2), [Pass()]).dealer == 0
    assert play(new_game(5, first=3), [Pass(), deal(partner=1)]).dealer == 0


def test_a_passed_deal_scores_nothing_and_names_the_next_dealer():
    state = play(new_game(4), [deal()])
    state, passed = apply(state, Pass())
    assert passed == DealPassed(PassedDeal(2, 1, (0, 0, 0, 0)), next_dealer=2, totals=(186, -62, -62, -62))
    assert passed.score_changes() == {}
    assert state.totals == (186, -62, -62, -62)
    assert (state.deal_count, state.played_count) == (2, 1)


# The history of deals


def test_a_played_deal_is_kept_with_its_input_its_result_and_its_scores():
    shown = (Poignee(Side.DEFENCE, PoigneeSize.SIMPLE),)
    state, scored = apply(new_game(5, first=4), deal(taker=1, partner=3, petit_au_bout=Side.TAKER, poignees=shown))
    record = scored.deal
    assert isinstance(record, PlayedDeal)
    assert (record.number, record.dealer, record.taker, record.partner, record.teammate) == (1, 4, 1, 3, 3)
    assert (record.contract, record.bouts, record.points, record.made) == (Contract.GARDE, 2, 47, True)
    assert (record.score.gap, record.score.petit_au_bout, record.score.poignees) == (6, 20, 20)
    assert record.scores == (-102, 204, -102, 102, -102)
    assert state.deals == (record,)
    assert scored.totals == state.totals == record.scores
    assert (scored.leaders, scored.game_over, scored.end_reason) == ((1,), False, None)
    assert scored.score_changes() == {0: -102, 1: 204, 2: -102, 3: 102, 4: -102}


def test_a_taker_alone_at_five_has_no_teammate():
    record = apply(new_game(5), deal(taker=2, partner=2))[1].deal
    assert (record.partner, record.teammate) == (2, None)
    assert apply(new_game(4), deal(taker=2))[1].deal.teammate is None


def test_a_deal_given_by_the_defences_points_is_kept_with_the_takers():
    state = play(new_game(3), [deal(points=None, defence_points=50.5, bouts=2)])
    (record,) = state.played
    assert (record.points, record.made, record.score.gap) == (40.5, False, 1)


def test_the_totals_by_deal_chart_the_match_and_each_player_has_a_row():
    state = play(new_game(4), [deal(), Pass(), deal(taker=2, contract=Contract.GARDE_SANS, bouts=1, points=48)])
    assert state.totals_by_deal() == (
        (0, 0, 0, 0),
        (186, -62, -62, -62),
        (186, -62, -62, -62),
        (298, 50, -398, 50),
    )
    assert state.player_scores(2) == (-62, 0, -336)
    assert state.total(2) == -398
    assert [record.taker for record in state.played] == [0, 2]
    assert [record.made for record in state.played] == [True, False]


# The end


def test_with_no_deal_count_the_match_goes_on_until_end():
    state = play(new_game(4), [deal()] * 40)
    assert not state.over
    state, ended = apply(state, End())
    assert state.over
    assert state.end_reason is EndReason.DECLARED
    assert ended == Ended(played=40, totals=(7440, -2480, -2480, -2480), winners=(0,))
    assert ended.score_changes() == {}


def test_the_match_ends_after_the_agreed_number_of_scored_deals_passes_not_counted():
    state = new_game(4, options=Options(deals=3))
    state = play(state, [deal(), Pass(), deal(taker=1), Pass()])
    assert not state.over
    state, scored = apply(state, deal(taker=2))
    assert state.over
    assert (state.played_count, state.deal_count) == (3, 5)
    assert (scored.game_over, scored.end_reason) == (True, EndReason.DEALS)
    assert winners(state) == (0, 1, 2)


def test_the_players_may_stop_before_the_agreed_number_of_deals():
    state = play(new_game(3, options=Options(deals=10)), [deal(), End()])
    assert state.over
    assert state.end_reason is EndReason.DECLARED
    assert winners(state) == (0,)


def test_undoing_the_end_opens_the_match_again():
    match = Match.replay(Setup(4), [deal(), End()])
    reopened = match.undo()
    assert not reopened.state.over
    assert reopened.apply(deal(taker=3)).state.totals == (124, -124, -124, 124)


def test_undoing_the_last_deal_gives_back_the_dealer_and_the_totals():
    match = Match.replay(Setup(4, first=1), [deal(), Pass()])
    back = match.undo(2)
    assert back.state == new_game(4, first=1)
    assert match.undo().state.dealer == 2


# Ranks and winners


def test_the_highest_total_ranks_first():
    state = play(new_game(4), [deal(taker=2)])
    assert standings(state)[0] == Standing(2, 186, 1)
    assert leaders(state) == (2,)
    assert winners(state) == ()


def test_tied_players_share_their_rank_and_the_next_rank_skips_past_them():
    # A garde made by 6 for players 0 then 1: both +124, players 2 and 3 both −124.
    state = play(new_game(4), [deal(taker=0), deal(taker=1)])
    assert state.totals == (124, 124, -124, -124)
    assert standings(state) == (Standing(0, 124, 1), Standing(1, 124, 1), Standing(2, -124, 3), Standing(3, -124, 3))


def test_equal_best_totals_share_the_win():
    state = play(new_game(4), [deal(taker=0), deal(taker=1), End()])
    assert winners(state) == (0, 1)


def test_five_players_a_three_way_tie_below_the_leader():
    state = play(new_game(5), [deal(partner=1, contract=Contract.PETITE, bouts=1, points=55)])
    assert standings(state) == (
        Standing(0, 58, 1),
        Standing(1, 29, 2),
        Standing(2, -29, 3),
        Standing(3, -29, 3),
        Standing(4, -29, 3),
    )


def test_before_any_deal_everyone_leads_and_no_one_has_won():
    state = new_game(5)
    assert leaders(state) == (0, 1, 2, 3, 4)
    assert {standing.rank for standing in standings(state)} == {1}
    assert winners(state) == ()


# A whole evening


def test_an_evening_of_five_deals_at_four_players():
    setup = Setup(4, first=3, options=Options(deals=5))
    actions: list[Action] = [
        deal(taker=0, contract=Contract.GARDE, bouts=2, points=47),  # +186 / −62
        Pass(),
        deal(taker=1, contract=Contract.PETITE, bouts=1, points=45, petit_au_bout=Side.TAKER),  # failed by 6: −21
        deal(taker=2, contract=Contract.GARDE_SANS, bouts=1, points=48),  # failed by 3: −112
        deal(
            taker=3,
            contract=Contract.GARDE,
            bouts=2,
            points=47,
            poignees=(Poignee(Side.DEFENCE, PoigneeSize.SIMPLE),),
        ),  # +82
        deal(taker=0, contract=Contract.GARDE_CONTRE, bouts=3, points=36),  # just made: +150
    ]
    match = Match.replay(setup, actions[:-1])
    assert not match.state.over
    match = match.apply(actions[-1])
    state = match.state
    assert state.over
    assert state.end_reason is EndReason.DEALS
    assert [record.dealer for record in state.deals] == [3, 0, 1, 2, 3, 0]
    assert state.totals == (
        186 + 21 + 112 - 82 + 450,
        -62 - 63 + 112 - 82 - 150,
        -62 + 21 - 336 - 82 - 150,
        -62 + 21 + 112 + 246 - 150,
    )
    assert sum(state.totals) == 0
    assert winners(state) == (0,)
    assert fold(setup, match.actions) == state
    last = match.outcomes[-1]
    assert isinstance(last, DealScored)
    assert (last.deal.number, last.game_over) == (6, True)
