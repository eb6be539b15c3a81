"""What one deal scores: the worked examples of rules-tarot.md, the FFT's standard cases, the numbers behind a score."""

from __future__ import annotations

import pytest

from marquoir.games.tarot import (
    Chelem,
    Contract,
    Deal,
    DealScore,
    Poignee,
    PoigneeSize,
    RuleError,
    Side,
    check_deal,
    points_needed,
    points_range,
    score_deal,
)

from .builders import deal

DEFENCE_SIMPLE = Poignee(Side.DEFENCE, PoigneeSize.SIMPLE)

# The worked examples of rules-tarot.md, one test each (4 players unless said)


def test_worked_example_garde_two_bouts_47_points_is_made_by_6():
    score = score_deal(deal(contract=Contract.GARDE, bouts=2, points=47), 4)
    assert (score.made, score.gap, score.per_defender) == (True, 6, 62)
    assert score.scores == (186, -62, -62, -62)


def test_worked_example_the_same_with_the_petit_au_bout_to_the_defence():
    score = score_deal(deal(bouts=2, points=47, petit_au_bout=Side.DEFENCE), 4)
    assert score.petit_au_bout == -20
    assert score.per_defender == 42
    assert score.scores == (126, -42, -42, -42)


def test_worked_example_garde_sans_one_bout_48_points_fails_by_3():
    score = score_deal(deal(contract=Contract.GARDE_SANS, bouts=1, points=48), 4)
    assert (score.made, score.gap, score.multiplier) == (False, 3, 4)
    assert score.per_defender == -112
    assert score.scores == (-336, 112, 112, 112)


def test_worked_example_a_defenders_simple_handful_goes_to_the_winning_taker():
    score = score_deal(deal(bouts=2, points=47, poignees=(DEFENCE_SIMPLE,)), 4)
    assert score.poignees == 20
    assert score.per_defender == 82
    assert score.scores == (246, -82, -82, -82)


def test_worked_example_five_players_petite_one_bout_55_points_with_a_partner():
    score = score_deal(deal(contract=Contract.PETITE, bouts=1, points=55, partner=1), 5)
    assert score.per_defender == 29
    assert score.scores == (58, 29, -29, -29, -29)


def test_worked_example_five_players_the_same_deal_with_the_taker_alone():
    score = score_deal(deal(contract=Contract.PETITE, bouts=1, points=55, partner=0), 5)
    assert score.per_defender == 29
    assert score.scores == (116, -29, -29, -29, -29)


def test_worked_example_three_players_garde_contre_three_bouts_36_points_just_made():
    score = score_deal(deal(contract=Contract.GARDE_CONTRE, bouts=3, points=36), 3)
    assert (score.made, score.gap, score.per_defender) == (True, 0, 150)
    assert score.scores == (300, -150, -150)


# The FFT rulebook's standard cases, worked out by its formula


def test_the_numbers_behind_a_garde_made_by_6_with_2_bouts():
    assert score_deal(deal(bouts=2, points=47), 4) == DealScore(
        needed=41,
        points=47,
        difference=6,
        made=True,
        gap=6,
        base=25,
        multiplier=2,
        contract_points=62,
        petit_au_bout=0,
        poignees=0,
        chelem=0,
        per_defender=62,
        scores=(186, -62, -62, -62),
    )


@pytest.mark.parametrize(("bouts", "needed"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_the_points_needed_fall_with_the_bouts_held(bouts, needed):
    assert points_needed(bouts) == needed
    just_made = score_deal(deal(contract=Contract.PETITE, bouts=bouts, points=needed), 4)
    assert (just_made.made, just_made.gap, just_made.scores[0]) == (True, 0, 75)
    one_short = score_deal(deal(contract=Contract.PETITE, bouts=bouts, points=needed - 1), 4)
    assert (one_short.made, one_short.gap, one_short.scores[0]) == (False, 1, -78)


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [(Contract.PETITE, 1), (Contract.GARDE, 2), (Contract.GARDE_SANS, 4), (Contract.GARDE_CONTRE, 6)],
)
def test_each_contract_multiplies_the_base_the_gap_and_the_petit_au_bout(contract, multiplier):
    score = score_deal(deal(contract=contract, bouts=2, points=51, petit_au_bout=Side.TAKER), 4)
    assert score.multiplier == contract.multiplier == multiplier
    assert score.contract_points == 35 * multiplier
    assert score.petit_au_bout == 10 * multiplier
    assert score.per_defender == 45 * multiplier


def test_a_petite_just_made_with_no_bout_and_56_points_wins_25_from_each_defender():
    assert score_deal(deal(contract=Contract.PETITE, bouts=0, points=56), 4).scores == (75, -25, -25, -25)


def test_a_garde_contre_with_no_bout_and_40_points_fails_by_16():
    score = score_deal(deal(contract=Contract.GARDE_CONTRE, bouts=0, points=40), 4)
    assert (score.made, score.gap, score.per_defender) == (False, 16, -246)
    assert score.scores == (-738, 246, 246, 246)


def test_the_petit_au_bout_counts_for_its_side_whatever_the_result():
    score = score_deal(deal(contract=Contract.PETITE, bouts=1, points=45, petit_au_bout=Side.TAKER), 4)
    assert (score.made, score.contract_points, score.petit_au_bout) == (False, -31, 10)
    assert score.scores == (-63, 21, 21, 21)


def test_a_takers_handful_goes_to_the_defence_when_the_contract_fails():
    score = score_deal(deal(bouts=1, points=50, poignees=(Poignee(Side.TAKER, PoigneeSize.SIMPLE),)), 4)
    assert (score.made, score.gap, score.poignees) == (False, 1, -20)
    assert score.scores == (-216, 72, 72, 72)


@pytest.mark.parametrize(
    ("size", "bonus"), [(PoigneeSize.SIMPLE, 20), (PoigneeSize.DOUBLE, 30), (PoigneeSize.TRIPLE, 40)]
)
def test_handfuls_are_worth_20_30_and_40_whatever_the_contract(size, bonus):
    for contract in Contract:
        score = score_deal(deal(contract=contract, bouts=2, points=41, poignees=(Poignee(Side.TAKER, size),)), 4)
        assert score.poignees == bonus


def test_two_handfuls_both_go_to_the_winners():
    shown = (Poignee(Side.TAKER, PoigneeSize.SIMPLE), Poignee(Side.DEFENCE, PoigneeSize.TRIPLE))
    score = score_deal(deal(contract=Contract.PETITE, bouts=2, points=41, partner=1, poignees=shown), 5)
    assert score.poignees == 60
    assert score.scores == (170, 85, -85, -85, -85)


@pytest.mark.parametrize(("player_count", "trumps"), [(3, (13, 15, 18)), (4, (10, 13, 15)), (5, (8, 10, 13))])
def test_handful_sizes_depend_on_the_number_of_players(player_count, trumps):
    assert tuple(size.trumps(player_count) for size in PoigneeSize) == trumps


def test_a_chelem_announced_and_made_adds_400_unmultiplied():
    score = score_deal(
        deal(contract=Contract.GARDE_SANS, bouts=3, points=91, petit_au_bout=Side.TAKER, chelem=Chelem.ANNOUNCED_MADE),
        4,
    )
    assert (score.gap, score.contract_points, score.petit_au_bout, score.chelem) == (55, 320, 40, 400)
    assert score.scores == (2280, -760, -760, -760)


def test_a_chelem_made_without_announcing_adds_200():
    score = score_deal(deal(contract=Contract.PETITE, bouts=3, points=91, chelem=Chelem.MADE), 4)
    assert (score.chelem, score.per_defender) == (200, 280)


def test_a_chelem_announced_and_failed_costs_200_even_when_the_contract_is_made():
    score = score_deal(deal(bouts=2, points=60, chelem=Chelem.ANNOUNCED_FAILED), 4)
    assert (score.made, score.contract_points, score.chelem) == (True, 88, -200)
    assert score.scores == (-336, 112, 112, 112)


def test_five_players_garde_with_a_partner_shares_two_thirds_and_one_third():
    score = score_deal(deal(taker=3, partner=1, bouts=2, points=47), 5)
    assert score.scores == (-62, 62, -62, 124, -62)


def test_five_players_a_failed_contract_costs_the_partner_too():
    score = score_deal(deal(taker=2, partner=4, contract=Contract.PETITE, bouts=0, points=50), 5)
    assert score.scores == (31, 31, -62, 31, -31)


# Points in halves, and given for the defence


def test_three_players_40_and_a_half_with_2_bouts_fails_by_1_the_half_to_the_defence():
    score = score_deal(deal(contract=Contract.PETITE, bouts=2, points=40.5), 3)
    assert (score.made, score.difference, score.gap) == (False, -0.5, 1)
    assert score.scores == (-52, 26, 26)


def test_three_players_41_and_a_half_with_2_bouts_is_made_by_1_the_half_to_the_taker():
    score = score_deal(deal(contract=Contract.PETITE, bouts=2, points=41.5), 3)
    assert (score.made, score.difference, score.gap) == (True, 0.5, 1)
    assert score.scores == (52, -26, -26)


def test_five_players_a_half_point_goes_to_the_winners_either_way():
    failed = score_deal(deal(partner=1, bouts=1, points=44.5), 5)
    made = score_deal(deal(partner=1, bouts=1, points=57.5), 5)
    assert (failed.made, failed.gap, failed.per_defender) == (False, 7, -64)
    assert (made.made, made.gap, made.per_defender) == (True, 7, 64)


def test_whole_points_given_as_floats_count_as_whole():
    assert score_deal(deal(points=47.0), 4) == score_deal(deal(points=47), 4)
    assert score_deal(deal(points=47.0), 4).points == 47


def test_the_defences_points_are_turned_into_the_takers_91_less():
    by_defence = Deal(taker=0, contract=Contract.GARDE, bouts=2, defence_points=44)
    assert score_deal(by_defence, 4) == score_deal(deal(points=47), 4)
    halves = Deal(taker=0, contract=Contract.PETITE, bouts=2, defence_points=50.5)
    assert score_deal(halves, 3).points == 40.5


def test_contract_sides_and_sizes_may_be_given_by_their_keys():
    by_keys = Deal(
        taker=0,
        contract="garde",  # type: ignore[arg-type]
        bouts=2,
        points=47,
        petit_au_bout="defence",  # type: ignore[arg-type]
        poignees=(Poignee("defence", "simple"),),  # type: ignore[arg-type]
        chelem=None,
    )
    assert score_deal(by_keys, 4).per_defender == 62


@pytest.mark.parametrize(("bouts", "low", "high"), [(0, 0, 77.5), (1, 4.5, 82), (2, 9, 86.5), (3, 13.5, 91)])
def test_the_points_a_side_can_hold_depend_on_its_bouts(bouts, low, high):
    assert points_range(bouts) == (low, high)


@pytest.mark.parametrize("player_count", [3, 4, 5])
def test_every_deal_adds_up_to_zero_at_every_table(player_count):
    partner = 1 if player_count == 5 else None
    for points in (0, 20.5, 41, 77.5):
        score = score_deal(deal(bouts=0, points=points, partner=partner, petit_au_bout=None), player_count)
        assert sum(score.scores) == 0


def test_a_checked_deal_is_in_normal_form_with_its_score():
    checked = check_deal(
        Deal(
            taker=1,
            contract="garde_sans",  # type: ignore[arg-type]
            partner=1,
            bouts=1,
            defence_points=40,
            poignees=(Poignee("taker", "double"),),  # type: ignore[arg-type]
        ),
        5,
    )
    assert checked.contract is Contract.GARDE_SANS
    assert (checked.taker, checked.partner, checked.points) == (1, 1, 51)
    assert checked.poignees == (Poignee(Side.TAKER, PoigneeSize.DOUBLE),)
    assert checked.poignees[0].side is Side.TAKER
    assert checked.score.scores == (-130, 520, -130, -130, -130)


@pytest.mark.parametrize("player_count", [2, 6, True, "4"])
def test_a_deal_is_scored_only_for_three_to_five_players(player_count):
    with pytest.raises(RuleError) as refused:
        score_deal(deal(), player_count)
    assert (refused.value.code, refused.value.reason) == ("invalid", "player_count")
