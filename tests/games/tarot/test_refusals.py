"""Input the rules or the cards make impossible is refused with a precise reason, and changes nothing."""

from __future__ import annotations

import pytest

from marquoir.games.tarot import (
    MAX_DEALS,
    Chelem,
    Contract,
    Deal,
    End,
    Match,
    Options,
    Pass,
    Poignee,
    PoigneeSize,
    RuleError,
    Setup,
    Side,
    new_game,
    score_deal,
)

from .builders import deal, play, refusal

SIMPLE = PoigneeSize.SIMPLE
HUGE = 10**100


def reason_for(player_count: int, action: Deal) -> tuple[str, str]:
    code, reason, _ = refusal(new_game(player_count), action)
    return code, reason


# Set-up


@pytest.mark.parametrize("count", [2, 6, 0, -4, True, "4", 4.0, HUGE])
def test_a_match_needs_three_to_five_players(count):
    with pytest.raises(RuleError) as refused:
        new_game(count)
    assert (refused.value.code, refused.value.reason) == ("invalid", "player_count")


@pytest.mark.parametrize("first", [-1, 4, True, "0", 1.0, HUGE])
def test_the_first_dealer_must_be_one_of_the_players(first):
    with pytest.raises(RuleError) as refused:
        new_game(4, first)
    assert (refused.value.code, refused.value.reason) == ("invalid", "first_dealer")


@pytest.mark.parametrize("deals", [0, -1, MAX_DEALS + 1, True, "8", 8.0, HUGE])
def test_the_number_of_deals_is_a_whole_number_from_one_to_the_most_a_match_keeps(deals):
    with pytest.raises(RuleError) as refused:
        Options(deals=deals)
    assert (refused.value.code, refused.value.reason) == ("invalid", "bad_deals")
    assert refused.value.params == {"deals": deals, "min": 1, "max": MAX_DEALS}


def test_options_must_be_tarots_own():
    with pytest.raises(RuleError) as refused:
        new_game(4, 0, {"deals": 3})  # type: ignore[arg-type]
    assert refused.value.reason == "bad_options"


def test_an_unknown_action_is_refused():
    assert reason_for(4, "deal") == ("invalid", "unknown_action")  # type: ignore[arg-type]
    with pytest.raises(RuleError) as refused:
        score_deal(Pass(), 4)  # type: ignore[arg-type]
    assert refused.value.reason == "unknown_action"


# Players


@pytest.mark.parametrize("taker", [4, -1, True, "0", 0.0, None, HUGE])
def test_a_taker_who_is_not_a_player_is_refused(taker):
    code, reason, params = refusal(new_game(4), deal(taker=taker))
    assert (code, reason) == ("invalid", "unknown_player")
    assert params == {"role": "taker", "player": taker, "player_count": 4}


@pytest.mark.parametrize("partner", [5, -1, False, "1", 1.0, HUGE])
def test_a_partner_who_is_not_a_player_is_refused(partner):
    code, reason, params = refusal(new_game(5), deal(partner=partner))
    assert (code, reason) == ("invalid", "unknown_player")
    assert params["role"] == "partner"


@pytest.mark.parametrize("player_count", [3, 4])
@pytest.mark.parametrize("partner", [0, 1])
def test_there_is_no_partner_at_three_or_four_players_not_even_the_taker(player_count, partner):
    code, reason, params = refusal(new_game(player_count), deal(taker=0, partner=partner))
    assert (code, reason) == ("invalid", "partner_not_allowed")
    assert params == {"partner": partner, "player_count": player_count}


def test_at_five_players_the_partner_is_required():
    assert reason_for(5, deal(partner=None)) == ("invalid", "partner_missing")


def test_at_five_players_the_taker_may_call_themself_and_play_alone():
    assert score_deal(deal(taker=2, partner=2), 5).scores == (-62, -62, 248, -62, -62)


# Contract, bouts, points


@pytest.mark.parametrize("contract", ["prise", "GARDE", "", None, 2, True])
def test_an_unknown_contract_is_refused(contract):
    assert reason_for(4, deal(contract=contract)) == ("invalid", "bad_contract")


@pytest.mark.parametrize("bouts", [-1, 4, True, False, "2", 2.0, None, HUGE])
def test_bouts_are_a_whole_number_from_zero_to_three(bouts):
    code, reason, params = refusal(new_game(4), deal(bouts=bouts))
    assert (code, reason) == ("invalid", "bad_bouts")
    assert params == {"bouts": bouts, "min": 0, "max": 3}


@pytest.mark.parametrize("points", [True, False, "47", 47j, float("nan"), float("inf"), -float("inf"), [47]])
def test_points_that_are_not_a_number_are_refused(points):
    code, reason, params = refusal(new_game(4), deal(points=points))
    assert (code, reason) == ("invalid", "bad_points")
    assert params["side"] == "taker"


@pytest.mark.parametrize("points", [-0.5, -1, 91.5, 92, HUGE, -HUGE, 1e308])
def test_points_outside_0_to_91_are_refused(points):
    code, reason, params = refusal(new_game(4), deal(bouts=3, points=points))
    assert (code, reason) == ("invalid", "points_range")
    assert params == {"side": "taker", "points": points, "min": 0, "max": 91}


@pytest.mark.parametrize("points", [47.25, 47.1, 40.75, 0.3])
def test_points_not_in_halves_are_refused(points):
    code, reason, _ = refusal(new_game(4), deal(bouts=0, points=points))
    assert (code, reason) == ("invalid", "points_halves")


def test_the_defences_points_are_checked_the_same_way():
    for points, reason in ((True, "bad_points"), (92, "points_range"), (44.2, "points_halves")):
        code, got, params = refusal(new_game(4), Deal(taker=0, contract=Contract.GARDE, bouts=2, defence_points=points))
        assert (code, got, params["side"]) == ("invalid", reason, "defence")


def test_points_must_be_given_once_for_one_side():
    missing = Deal(taker=0, contract=Contract.GARDE, bouts=2)
    both = Deal(taker=0, contract=Contract.GARDE, bouts=2, points=47, defence_points=44)
    assert reason_for(4, missing) == ("invalid", "points_missing")
    assert reason_for(4, both) == ("invalid", "points_twice")


@pytest.mark.parametrize(("bouts", "points"), [(1, 4), (2, 8.5), (3, 13), (3, 0)])
def test_fewer_points_than_four_and_a_half_per_bout_held_are_refused(bouts, points):
    code, reason, params = refusal(new_game(4), deal(bouts=bouts, points=points))
    assert (code, reason) == ("invalid", "points_for_bouts")
    assert params["min"] == 4.5 * bouts


@pytest.mark.parametrize(("bouts", "points"), [(0, 78), (1, 82.5), (2, 87), (0, 91)])
def test_more_points_than_91_less_the_bouts_not_held_are_refused(bouts, points):
    code, reason, params = refusal(new_game(4), deal(bouts=bouts, points=points))
    assert (code, reason) == ("invalid", "points_for_bouts")
    assert params["max"] == 91 - 4.5 * (3 - bouts)


def test_the_points_at_the_edges_the_bouts_allow_are_accepted():
    for bouts, low, high in ((0, 0, 77.5), (1, 4.5, 82), (2, 9, 86.5), (3, 13.5, 91)):
        assert score_deal(deal(bouts=bouts, points=low), 3).points == low
        assert score_deal(deal(bouts=bouts, points=high), 3).points == high


def test_defence_points_the_bouts_make_impossible_are_refused():
    action = Deal(taker=0, contract=Contract.GARDE, bouts=0, defence_points=10)
    code, reason, params = refusal(new_game(4), action)
    assert (code, reason) == ("invalid", "points_for_bouts")
    assert params["points"] == 81


# Petit au bout, handfuls, chelem


@pytest.mark.parametrize("side", ["attack", "Taker", 1, True])
def test_an_unknown_petit_au_bout_side_is_refused(side):
    assert reason_for(4, deal(petit_au_bout=side)) == ("invalid", "bad_petit_au_bout")


def test_the_petit_au_bout_goes_to_a_side_that_holds_the_petit():
    assert reason_for(4, deal(bouts=0, points=40, petit_au_bout=Side.TAKER)) == ("invalid", "petit_au_bout_bouts")
    assert reason_for(4, deal(bouts=3, points=40, petit_au_bout=Side.DEFENCE)) == ("invalid", "petit_au_bout_bouts")


@pytest.mark.parametrize(
    "poignees",
    [[Poignee(Side.TAKER, SIMPLE)], Poignee(Side.TAKER, SIMPLE), None, "simple"],
)
def test_handfuls_not_given_as_a_tuple_are_refused(poignees):
    assert reason_for(4, deal(poignees=poignees)) == ("invalid", "bad_poignees")


@pytest.mark.parametrize(
    "poignee",
    [
        Poignee("attack", SIMPLE),  # type: ignore[arg-type]
        Poignee(Side.TAKER, "quadruple"),  # type: ignore[arg-type]
        Poignee(None, SIMPLE),  # type: ignore[arg-type]
        ("taker", "simple"),
        "simple",
    ],
)
def test_a_handful_needs_a_side_and_a_size(poignee):
    code, reason, params = refusal(new_game(4), deal(poignees=(Poignee(Side.DEFENCE, SIMPLE), poignee)))
    assert (code, reason, params["index"]) == ("invalid", "bad_poignee", 1)


def test_more_handfuls_than_players_are_refused():
    code, reason, params = refusal(new_game(4), deal(poignees=(Poignee(Side.DEFENCE, SIMPLE),) * 5))
    assert (code, reason) == ("invalid", "too_many_poignees")
    assert params == {"count": 5, "max": 4}


def test_a_side_shows_no_more_handfuls_than_it_has_players():
    two_for_the_taker = (Poignee(Side.TAKER, SIMPLE),) * 2
    code, reason, params = refusal(new_game(4), deal(poignees=two_for_the_taker))
    assert (code, reason) == ("invalid", "too_many_poignees")
    assert params == {"side": "taker", "count": 2, "max": 1}
    assert reason_for(5, deal(partner=0, poignees=two_for_the_taker)) == ("invalid", "too_many_poignees")
    assert score_deal(deal(partner=1, poignees=two_for_the_taker), 5).poignees == 40


def test_handfuls_showing_more_than_the_22_trumps_are_refused():
    code, reason, params = refusal(
        new_game(3), deal(poignees=(Poignee(Side.TAKER, SIMPLE), Poignee(Side.DEFENCE, SIMPLE)))
    )
    assert (code, reason) == ("invalid", "poignee_trumps")
    assert params == {"trumps": 26, "max": 22}
    too_many = (Poignee(Side.TAKER, PoigneeSize.TRIPLE), Poignee(Side.DEFENCE, SIMPLE))
    assert reason_for(4, deal(poignees=too_many)) == ("invalid", "poignee_trumps")
    just_enough = (Poignee(Side.TAKER, PoigneeSize.TRIPLE), Poignee(Side.DEFENCE, SIMPLE))
    assert score_deal(deal(partner=1, poignees=just_enough), 5).poignees == 60


@pytest.mark.parametrize("chelem", ["grand", "announced", True, 400])
def test_an_unknown_chelem_is_refused(chelem):
    assert reason_for(4, deal(chelem=chelem)) == ("invalid", "bad_chelem")


@pytest.mark.parametrize("chelem", [Chelem.ANNOUNCED_MADE, Chelem.MADE])
def test_a_chelem_made_cannot_fail_the_contract(chelem):
    assert reason_for(4, deal(bouts=2, points=40, chelem=chelem)) == ("invalid", "chelem_contract_failed")


@pytest.mark.parametrize("chelem", [Chelem.ANNOUNCED_MADE, Chelem.MADE])
def test_a_chelem_made_leaves_no_last_trick_to_the_defence(chelem):
    action = deal(bouts=2, points=86.5, petit_au_bout=Side.DEFENCE, chelem=chelem)
    assert reason_for(4, action) == ("invalid", "petit_au_bout_after_chelem")


def test_a_failed_chelem_may_lose_the_contract_and_the_last_trick():
    action = deal(bouts=1, points=40, petit_au_bout=Side.DEFENCE, chelem=Chelem.ANNOUNCED_FAILED)
    assert score_deal(action, 4).per_defender == -(36 * 2) - 20 - 200


# The match


def test_no_deal_no_pass_and_no_end_after_the_end():
    ended = play(new_game(4), [deal(), End()])
    by_deals = play(new_game(4, options=Options(deals=1)), [deal()])
    for state in (ended, by_deals):
        for action in (deal(), Pass(), End(), deal(taker=9)):
            assert refusal(state, action)[:2] == ("match_over", "match_over")


def test_end_before_any_scored_deal_is_refused():
    assert refusal(new_game(4), End())[:2] == ("no_deal", "no_deal")
    assert refusal(play(new_game(4), [Pass(), Pass()]), End())[:2] == ("no_deal", "no_deal")


def test_a_match_keeps_at_most_its_limit_of_deals_and_may_still_end():
    state = play(new_game(3), [deal(), *[Pass()] * (MAX_DEALS - 1)])
    assert state.deal_count == MAX_DEALS
    assert refusal(state, Pass())[:2] == ("invalid", "too_many_deals")
    assert refusal(state, deal())[:2] == ("invalid", "too_many_deals")
    assert play(state, [End()]).over


def test_a_refused_deal_leaves_the_match_as_it_was():
    match = Match.replay(Setup(4), [deal()])
    for bad in (deal(bouts=7), deal(taker=4), deal(points=92), deal(partner=1)):
        with pytest.raises(RuleError):
            match.apply(bad)
    assert match.state.totals == (186, -62, -62, -62)
    assert len(match.actions) == 1
    assert match.state.dealer == 1
