"""The bound of a formula's work (marquoir.games.declared.cost): an upper bound that grows as
the lists it runs over grow, multiplies under nested comprehensions, adds under joined lists,
and holds every catalog game's round well under what a user's file may take."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from marquoir.games.declared import declared_games
from marquoir.games.declared.cost import MAX_MATCH_STEPS, MAX_ROUND_STEPS, TooComplex, bound, game_cost

CATALOG = {game.key: game for game in declared_games()}


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_catalog_game_s_round_is_within_the_bound_a_user_s_file_gets(key: str):
    cost = game_cost(CATALOG[key])
    assert 0 < cost.total <= MAX_ROUND_STEPS // 2, (cost.heaviest, cost.total)
    assert cost.match_total <= MAX_MATCH_STEPS


def test_a_comprehension_counts_its_body_once_per_entry():
    one = bound("xs.map(x, x * 2)", {"xs": 10})
    assert one.steps >= 10 * 2


def test_two_nested_comprehensions_multiply():
    nested = bound("xs.map(a, xs.filter(b, b < a).size())", {"xs": 100})
    assert nested.steps >= 100 * 100


def test_joined_lists_add_up_their_sizes():
    assert bound("xs + xs + xs", {"xs": 30}).size == 90
    joined = bound("(xs + xs).map(a, (xs + xs).exists(b, b == a))", {"xs": 30})
    assert joined.steps >= 60 * 60


def test_a_ternary_costs_its_dearer_branch():
    cheap = bound("c > 3 ? 1 : 2", {"c": 1, "xs": 500})
    dear = bound("c == 4321 ? xs.map(a, xs.map(b, a * b)).size() : 0", {"c": 1, "xs": 500})
    assert dear.steps >= 500 * 500 > cheap.steps


def test_fields_of_a_table_have_their_own_sizes():
    fields = {"tables": {"small": 3, "big": 1000}}
    small = bound("tables.small.map(x, x)", {"tables": 1000}, fields)
    big = bound("tables.big.map(x, x)", {"tables": 1000}, fields)
    assert small.steps * 100 < big.steps


def test_an_entry_of_a_list_of_records_holds_one_record():
    values = {"props": (24, 24 * 4, 4)}
    assert bound("props.map(p, p.squares)", values).total <= 24 * (1 + 4)  # a record's part: at most the record
    assert bound("props[0]", values).total == 4


def test_the_units_of_a_best_spread_bound_its_shares():
    seven = next(game for game in declared_games() if game.key == "seven_wonders")
    science = game_cost(seven).steps["points.science.best.formula"]
    assert science < game_cost(seven).total


def test_a_formula_the_grammar_does_not_read_cannot_be_bounded():
    with pytest.raises(TooComplex):
        bound("a +* b", {"a": 1, "b": 1})


@given(st.integers(1, 200), st.integers(1, 200))
def test_the_bound_never_shrinks_as_a_list_grows(small: int, extra: int):
    formula = "xs.map(a, ys.exists(b, b == a)) + [size(xs)]"
    before = bound(formula, {"xs": small, "ys": small})
    after = bound(formula, {"xs": small + extra, "ys": small + extra})
    assert after.steps >= before.steps
    assert after.size >= before.size
