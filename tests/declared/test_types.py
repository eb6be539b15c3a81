"""The static types of a game file's formulas (marquoir.games.declared.types): what cel-rust
would only find at the table (an int times a decimal, a text plus a number, a misspelt
field) is refused when the file loads, with a code, a line and a column; what CEL leaves
dynamic (dyn) is taken; and what the checker accepts, cel-rust evaluates to a value of the
type it said."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import cel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from marquoir.games.declared import cost, declared_games
from marquoir.games.declared import types as types_module
from marquoir.games.declared.formulas import context
from marquoir.games.declared.types import (
    BOOL,
    DOUBLE,
    DYN,
    INT,
    NULL,
    STRING,
    FormulaTypeError,
    ListOf,
    MapOf,
    Nullable,
    Record,
    Type,
    accepts,
    check_formula,
    check_formula_is,
    count_comprehensions,
    join,
    type_of_value,
)

from .compiled import compiled_formulas

SKYJO = {"seat": INT, "ended_by": INT, "cards": INT, "others": Record({"cards": ListOf(INT)})}
NAMES: dict[str, Type] = {
    "seat": INT,
    "a": INT,
    "b": INT,
    "x": INT,
    "c": BOOL,
    "s": STRING,
    "d": DYN,
    "points": INT,
    "xs": ListOf(INT),
    "ys": ListOf(INT),
    "words": ListOf(STRING),
    "all": Record({"points": ListOf(INT), "maki": ListOf(INT)}),
    "options": Record({"target": Nullable(INT), "scoring": STRING}),
    "tables": Record({"route_points": Record({"1": INT, "2": INT, "3": INT})}),
    "routes": Record({"1": INT, "2": INT, "3": INT}),
}


def refusal(source: str, names: Mapping[str, Type] = NAMES) -> FormulaTypeError:
    with pytest.raises(FormulaTypeError) as raised:
        check_formula(source, names)
    return raised.value


# --- the examples the brief names


def test_a_decimal_times_points_is_refused_as_double_at_the_decimal_s_column():
    error = refusal("points * 1.5")
    assert error.code == "double"
    assert (error.line, error.column) == (1, 10)
    assert error.params == {"value": "1.5"}
    assert "whole numbers" in error.message
    assert str(error).startswith("line 1, column 10: ")


def test_a_decimal_on_a_later_line_is_found_on_its_line():
    error = refusal("points\n  + 0.5")
    assert (error.code, error.line, error.column) == ("double", 2, 5)


def test_skyjo_s_doubling_rule_is_a_bool():
    formula = "seat == ended_by && cards > 0 && others.cards.exists(c, c <= cards)"
    assert check_formula(formula, SKYJO) == BOOL


def test_a_ternary_of_two_ints_gives_an_int():
    assert check_formula("c ? 2 * points : points", NAMES) == INT
    assert check_formula("points > 0 ? 1 : 0", NAMES) == INT


def test_the_sum_of_everyone_s_points_is_an_int():
    assert check_formula("sum(all.points)", NAMES) == INT


def test_the_least_and_most_of_a_list_are_of_its_entries_type():
    assert check_formula("min([a, b])", NAMES) == INT
    assert check_formula("max(words)", NAMES) == STRING
    assert check_formula("min([])", NAMES) == DYN  # an empty list holds anything


def test_nested_comprehensions_see_both_variables():
    assert check_formula("xs.all(x, ys.exists(y, y == x))", NAMES) == BOOL


def test_an_inner_comprehension_s_variable_has_its_own_list_s_type():
    error = refusal("xs.all(x, words.exists(y, y == x))")
    assert error.code == "operator"
    assert error.params == {"operator": "==", "left": "string", "right": "int"}


def test_a_comprehension_s_variable_is_unknown_after_it():
    names = {"xs": ListOf(INT)}
    error = refusal("xs.all(v, v > 0) && v > 0", names)
    assert (error.code, error.column) == ("unknown_name", 21)
    assert error.params["name"] == "v"


def test_a_comprehension_s_variable_hides_a_name_only_in_its_body():
    # ``s`` is a text outside, each int of xs inside.
    assert check_formula('xs.all(s, s > 0) && s == "a"', NAMES) == BOOL


def test_rank_points_gives_a_list_of_ints_indexed_by_a_seat():
    assert check_formula('rank_points(all.maki, [6, 3], "split")[seat]', NAMES) == INT
    assert check_formula('rank_points(all.maki, [6, 3], "split", 1)', NAMES) == ListOf(INT)


def test_a_nullable_option_guarded_against_null_is_an_int():
    assert check_formula("options.target == null ? 0 : options.target", NAMES) == INT
    assert check_formula("options.target != null ? options.target : 0", NAMES) == INT
    assert check_formula("null == options.target ? 0 : options.target", NAMES) == INT
    # Within ``&&`` and ``||`` too: the right side is read once the left one held, or failed.
    assert check_formula("options.target != null && options.target > 3", NAMES) == BOOL


def test_a_nullable_option_unguarded_may_be_null():
    assert check_formula("options.target", NAMES) == Nullable(INT)
    assert check_formula("c ? options.target : 0", NAMES) == Nullable(INT)


def test_operators_take_a_nullable_option_as_its_inner_type():
    assert check_formula("options.target + 1", NAMES) == INT
    assert check_formula("points >= options.target", NAMES) == BOOL


@pytest.mark.parametrize(
    "tables",
    [Record({"route_points": Record({"1": INT, "2": INT})}), Record({"route_points": MapOf(STRING, INT)})],
    ids=["record", "map"],
)
def test_a_table_looked_up_by_a_worked_out_key_gives_its_values_type(tables: Type):
    assert check_formula("tables.route_points[string(n)]", {"tables": tables, "n": INT}) == INT


def test_a_counts_input_is_gone_over_by_its_keys():
    # Ticket to Ride's routes: a map from a length ("1"…"6") to how many were claimed.
    formula = "sum(routes.map(n, tables.route_points[n] * routes[n]))"
    assert check_formula(formula, NAMES) == INT
    assert check_formula("sum(routes.map(n, int(n) * routes[n]))", NAMES) == INT


def test_an_unknown_field_is_refused_naming_it_and_the_known_ones():
    error = refusal("options.targett + 1")
    assert (error.code, error.line, error.column) == ("field", 1, 9)
    assert error.params == {"field": "targett", "known": ["scoring", "target"]}
    assert "'targett'" in error.message


def test_a_table_read_by_a_written_key_must_have_it():
    assert check_formula('tables["route_points"]["2"]', NAMES) == INT
    assert refusal('tables.route_points["9"]').params["field"] == "9"


def test_count_comprehensions_counts_the_macros_of_the_tree():
    assert count_comprehensions("xs.map(x, ys.filter(y, y > x)).size()") == 2
    assert count_comprehensions("xs.exists_one(x, x > 0) || xs.all(x, x > 0)") == 2
    assert count_comprehensions("points + 1") == 0


def test_count_comprehensions_ignores_a_macro_s_name_in_a_text_or_as_a_field():
    assert count_comprehensions('size(".map(x, x)") + size(all.map)') == 0
    assert count_comprehensions("all.map.map(m, m)") == 1


# --- each code of refusal


@pytest.mark.parametrize(
    ("source", "column", "params"),
    [
        ("1 + true", 3, {"operator": "+", "left": "int", "right": "bool"}),
        ('"a" * 2', 5, {"operator": "*", "left": "string", "right": "int"}),
        ("!3", 1, {"operator": "!", "operand": "int"}),
        ("-true", 1, {"operator": "-", "operand": "bool"}),
        ('x < "a"', 3, {"operator": "<", "left": "int", "right": "string"}),
        ("x <= s", 3, {"operator": "<=", "left": "int", "right": "string"}),
        ("a && c", 3, {"operator": "&&", "left": "int", "right": "bool"}),
        ("c || (c ||  a)", 9, {"operator": "||", "left": "bool", "right": "int"}),
        ('1 == "a"', 3, {"operator": "==", "left": "int", "right": "string"}),
        ('"a" in xs', 5, {"operator": "in", "left": "string", "right": "list(int)"}),
        ('xs + ["a"]', 4, {"operator": "+", "left": "list(int)", "right": "list(string)"}),
        ("null + 1", 6, {"operator": "+", "left": "null", "right": "int"}),
    ],
)
def test_an_operator_on_types_it_does_not_take_is_refused_at_the_operator(
    source: str, column: int, params: dict[str, str]
):
    error = refusal(source)
    assert error.code == "operator"
    assert error.column == column
    assert error.params == params


def test_the_operators_take_what_cel_gives_them_meaning_for():
    assert check_formula('s + "x"', NAMES) == STRING
    assert check_formula("xs + [1]", NAMES) == ListOf(INT)
    assert check_formula("xs + []", NAMES) == ListOf(DYN)  # [] holds anything: dyn wins the join
    assert check_formula('s < "b" && x in xs && "1" in routes', NAMES) == BOOL
    assert check_formula("-(-a) % 3 / 2", NAMES) == INT
    assert check_formula("a == null && !c", NAMES) == BOOL


def test_a_ternary_s_condition_must_be_a_bool():
    error = refusal("points ? 1 : 0")
    assert (error.code, error.column) == ("condition", 1)
    assert error.params == {"found": "int"}


def test_a_ternary_s_branches_must_join():
    error = refusal('c ? 1 : "a"')
    assert (error.code, error.column) == ("branches", 3)
    assert error.params == {"first": "int", "second": "string"}


def test_an_int_and_null_join_into_a_nullable_int():
    assert check_formula("c ? 1 : null", NAMES) == Nullable(INT)
    assert check_formula("[1, null]", NAMES) == ListOf(Nullable(INT))
    assert join(INT, NULL) == join(NULL, INT) == Nullable(INT)


def test_a_list_of_dyn_joins_with_a_list_of_ints():
    assert join(ListOf(DYN), ListOf(INT)) == ListOf(DYN)
    assert check_formula("c ? [] : xs", NAMES) == ListOf(DYN)
    assert check_formula("sum(c ? [] : xs)", NAMES) == INT


def test_a_list_s_entries_must_join():
    error = refusal('[1, "a"]')
    assert (error.code, error.column) == ("branches", 5)


@pytest.mark.parametrize(
    ("source", "column"),
    [("x[0]", 1), ('xs["a"]', 4), ("s[0]", 1), ("all[0]", 5)],
)
def test_indexing_what_cannot_be_indexed_so_is_refused(source: str, column: int):
    error = refusal(source)
    assert (error.code, error.column) == ("index", column)


@pytest.mark.parametrize(
    ("source", "column", "params"),
    [
        ("sum([true])", 5, {"function": "sum", "wanted": "a list of int", "found": "list(bool)"}),
        ("size(3)", 6, {"function": "size", "wanted": "a text, a list or a map", "found": "int"}),
        ('abs("a")', 5, {"function": "abs", "wanted": "an int", "found": "string"}),
        (
            "rank_points([1], [1], 3)",
            23,
            {"function": "rank_points", "wanted": "a text (how ties share)", "found": "int"},
        ),
        ("rank_points([1], [1])", 1, {"function": "rank_points", "wanted": 4, "found": 2}),
        ("max(1, 2)", 1, {"function": "max", "wanted": 1, "found": 2}),
        ("s.contains(1)", 12, {"function": "contains", "wanted": "a text", "found": "int"}),
        ("string(c)", 8, {"function": "string", "wanted": "an int or a text", "found": "bool"}),
        ("average(xs)", 1, {"function": "average"}),
        ("xs.average()", 4, {"function": "average"}),
        ("bool(c)", 1, {"function": "bool"}),
        ("has(x)", 1, {"function": "has"}),
    ],
)
def test_an_unknown_function_or_a_wrong_call_is_refused(source: str, column: int, params: dict[str, object]):
    error = refusal(source)
    assert (error.code, error.column) == ("function", column)
    assert error.params == params


def test_has_checks_its_field_against_the_record():
    assert check_formula("has(options.target)", NAMES) == BOOL
    assert check_formula("has(d.anything)", NAMES) == BOOL
    assert refusal("has(options.goal)").code == "field"


@pytest.mark.parametrize(
    ("source", "column", "found"),
    [("x.map(y, y)", 1, "int"), ("xs.all(v, v)", 11, "int"), ("xs.filter(v, v + 1)", 14, "int")],
)
def test_a_comprehension_over_a_non_list_or_with_a_non_bool_condition_is_refused(source: str, column: int, found: str):
    error = refusal(source)
    assert (error.code, error.column) == ("macro", column)
    assert error.params["found"] == found


def test_a_comprehension_gives_a_list_of_its_body_or_of_its_entries():
    assert check_formula("xs.map(v, v > 1)", NAMES) == ListOf(BOOL)
    assert check_formula("xs.map(v, v > 1, string(v))", NAMES) == ListOf(STRING)
    assert check_formula("words.filter(w, w.startsWith(s))", NAMES) == ListOf(STRING)
    assert check_formula("d.exists(v, v.anything)", NAMES) == BOOL


def test_a_malformed_comprehension_is_refused():
    assert refusal("xs.all(v)").code == "macro"
    assert refusal("xs.map(1, 2)").code == "macro"
    assert refusal("xs.exists(v, v > 0, true)").code == "macro"


def test_a_name_neither_given_nor_bound_is_refused_with_the_names_known():
    error = refusal("seat == ender", SKYJO)
    assert (error.code, error.column) == ("unknown_name", 9)
    assert error.params == {"name": "ender", "known": sorted(SKYJO)}


def test_a_literal_cel_has_but_a_game_file_does_not_is_refused():
    assert refusal("points + 1u").code == "literal"
    assert refusal('size(b"ab")').code == "literal"


def test_what_the_grammar_does_not_read_is_a_syntax_error_with_its_position():
    error = refusal("points +\n  * 2")
    assert (error.code, error.line, error.column) == ("syntax", 2, 3)
    assert refusal("1 $ 2").column == 3
    assert refusal("(1 + 2").code == "syntax"


def test_dyn_takes_every_operator_and_function():
    assert check_formula("d + 1", NAMES) == INT
    assert check_formula("d.a.b[d] == d", NAMES) == BOOL
    assert check_formula("sum(d) + size(d) + d.size()", NAMES) == INT
    assert check_formula("d.map(v, v)", NAMES) == ListOf(DYN)
    # What nothing could make work is refused even beside dyn.
    assert refusal("d + true").code == "operator"


# --- the result a field wants


def test_a_points_formula_must_give_an_int():
    assert check_formula_is("c ? 2 : 1", NAMES, INT) == INT
    error = _result_refusal("s", INT)
    assert (error.code, error.line, error.column) == ("result", 1, 1)
    assert error.params == {"expected": "int", "found": "string"}


def test_a_check_must_give_a_bool():
    assert check_formula_is("points > 3", NAMES, BOOL) == BOOL
    assert _result_refusal("points", BOOL).params == {"expected": "bool", "found": "int"}


def test_a_bound_may_be_null_where_a_points_formula_may_not():
    assert check_formula_is("options.target", NAMES, Nullable(INT)) == Nullable(INT)
    assert check_formula_is("null", NAMES, Nullable(INT)) == NULL
    assert check_formula_is("3", NAMES, Nullable(INT)) == INT
    error = _result_refusal("options.target", INT)
    assert "may be null" in error.message


def test_a_dyn_result_stands_where_anything_is_wanted():
    assert check_formula_is("d.points", NAMES, INT) == DYN


def _result_refusal(source: str, expected: Type) -> FormulaTypeError:
    with pytest.raises(FormulaTypeError) as raised:
        check_formula_is(source, NAMES, expected)
    return raised.value


# --- the type model


def test_type_of_value_tells_a_bool_from_an_int():
    assert type_of_value(True) == BOOL
    assert type_of_value(3) == INT
    assert type_of_value([True, False]) == ListOf(BOOL)
    assert type_of_value([1, 2]) == ListOf(INT)


def test_type_of_value_reads_a_toml_table_as_records_and_lists():
    table = {"route_points": {"1": 1, "2": 2}, "least": [0, 4, 9], "name": "x", "none": []}
    assert type_of_value(table) == Record(
        {
            "route_points": Record({"1": INT, "2": INT}),
            "least": ListOf(INT),
            "name": STRING,
            "none": ListOf(DYN),
        }
    )
    assert type_of_value([1, "a"]) == ListOf(DYN)
    assert type_of_value(1.5) == DOUBLE


def test_a_record_is_immutable_and_hashable_whatever_its_caller_does():
    fields_given: dict[str, Type] = {"a": INT}
    record = Record(fields_given)
    fields_given["b"] = BOOL
    assert dict(record.fields) == {"a": INT}
    assert hash(record) == hash(Record({"a": INT}))
    assert {record, Record({"a": INT})} == {record}
    with pytest.raises(TypeError):
        record.fields["c"] = INT  # type: ignore[index]


def test_types_print_as_cel_names_them():
    assert str(ListOf(MapOf(STRING, INT))) == "list(map(string, int))"
    assert str(Nullable(INT)) == "int or null"
    assert str(Record({"b": BOOL, "a": INT})) == "{a: int, b: bool}"


def test_accepts_allows_null_only_where_a_nullable_is_wanted():
    assert accepts(Nullable(INT), NULL)
    assert accepts(Nullable(INT), INT)
    assert not accepts(INT, Nullable(INT))
    assert not accepts(INT, NULL)
    assert accepts(ListOf(INT), ListOf(DYN))
    assert accepts(Record({"a": INT}), Record({"a": INT, "b": BOOL}))
    assert not accepts(Record({"a": INT}), Record({"b": INT}))


# --- the catalog, the parsers and the speed


class _AnyName(Mapping[str, Type]):
    """Every name known, of a type not known: what a formula is with nothing known of its names."""

    def __getitem__(self, name: str) -> Type:
        return DYN

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


CATALOG_FORMULAS = sorted({formula.source for game in declared_games() for formula in compiled_formulas(game)})


def test_the_catalog_has_formulas_to_check():
    assert len(CATALOG_FORMULAS) > 50


def test_every_catalog_formula_is_accepted_when_its_names_are_not_known():
    for source in CATALOG_FORMULAS:
        assert isinstance(check_formula(source, _AnyName()), Type), source


def test_both_parsers_read_every_formula_into_the_same_tree():
    # The checker walks cost's tree and, for a fault's position only, its own: the same
    # walk must meet the same nodes.
    tricky = [
        "true && !false || null == x",
        "-1 - -x",
        "a ? b : c ? d : e",
        ".a + a[0].b.c(1, 2)",
        "{'a': [1, 2]}['a'].map(v, v > 1, v)",
        "x in [1, 2] && 'a' in {'a': 1}",
        "f()",
    ]
    positioned = types_module._positioned_parser()
    for source in [*CATALOG_FORMULAS, *tricky]:
        assert cost._parser().parse(source) == positioned.parse(source), source


def test_a_formula_nested_as_deep_as_a_file_allows_is_checked_without_exhausting_the_stack():
    deep = {
        "[" * 290 + "]" * 290: "list",
        "(" * 290 + "1" + ")" * 290: "int",
        "!" * 590 + "c": "bool",
        "1" + " + 1" * 140: "int",
        "c ? 1 : " * 70 + "2": "int",
        "-(" * 190 + "a" + ")" * 190: "int",
    }
    for source, kind in deep.items():
        assert str(check_formula(source, NAMES)).startswith(kind)


def test_a_type_fault_deep_in_a_formula_is_found_where_it_is():
    source = "[" * 200 + "1.5" + "]" * 200
    error = refusal(source)
    assert (error.code, error.column) == ("double", 201)


# --- properties

_INT_ARITHMETIC = st.recursive(
    st.integers(0, 10**6).map(str),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*"]), inner).map(lambda parts: f"({' '.join(parts)})"),
        inner.map(lambda operand: f"-({operand})"),
    ),
    max_leaves=20,
)


@given(_INT_ARITHMETIC)
@settings(deadline=None)
def test_any_formula_of_int_literals_and_plus_minus_times_is_an_int(source: str):
    assert check_formula(source, {}) == INT
    assert check_formula_is(source, {}, INT) == INT


VALUES: dict[str, Any] = {"a": 3, "b": -2, "c": True, "s": "ab", "xs": [1, 2, 3], "r": {"k": 4}}
VALUE_TYPES = {name: type_of_value(value) for name, value in VALUES.items()}


def _formulas(depth: int = 3) -> st.SearchStrategy[str]:
    """Formulas over ``VALUES`` at most ``depth`` deep, built mostly by the type each part
    should have (so that most are accepted and the property has something to check), with
    parts of any type where CEL takes any (``==``, a ternary's branches), which the checker
    may refuse."""

    def of(template: str, *parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.tuples(*parts).map(lambda written: template.format(*written))

    def sign(*signs: str) -> st.SearchStrategy[str]:
        return st.sampled_from(signs)

    ints = st.sampled_from(["a", "b", "0", "1", "7", "r.k", "xs[0]"])
    bools = st.sampled_from(["c", "true", "false"])
    strings = st.sampled_from(["s", '"x"', '""'])
    lists = st.sampled_from(["xs", "[]", "[1, 2]"])
    anything = st.one_of(ints, bools, strings, lists, st.just("null"))
    for _level in range(depth):
        # Each level's parts are the level below's: the right-hand sides read the old ones.
        ints, bools, strings, lists, anything = (
            st.one_of(
                ints,
                of("({} {} {})", ints, sign("+", "-", "*", "/", "%"), ints),
                of("-({})", ints),
                of("abs({})", ints),
                of("{}({})", sign("size", "sum", "min", "max"), lists),
                of("({}).size()", strings),
                of("int({})", strings),
                of("({} ? {} : {})", bools, ints, ints),
                of("({})[{}]", lists, ints),
            ),
            st.one_of(
                bools,
                of("({} {} {})", ints, sign("<", "<=", ">", ">=", "==", "!="), ints),
                of("({} {} {})", strings, sign("<", ">=", "=="), strings),
                of("({} {} {})", bools, sign("&&", "||", "==", "!="), bools),
                of("!({})", bools),
                of("({} in {})", ints, lists),
                st.just('("k" in r)'),
                of("({}).{}", lists, sign("exists(v, v > 1)", "all(v, v != 0)", "exists_one(v, v == 2)")),
                of("({}).{}({})", strings, sign("contains", "startsWith", "endsWith"), strings),
                of("({} == {})", anything, anything),
                of("({} == null)", anything),
            ),
            st.one_of(
                strings,
                of("({} + {})", strings, strings),
                of("string({})", ints),
                of("({} ? {} : {})", bools, strings, strings),
            ),
            st.one_of(
                lists,
                of("({} + {})", lists, lists),
                of("[{}, {}]", ints, ints),
                of("({}).{}", lists, sign("map(v, v + 1)", "filter(v, v > 1)", "map(v, v > 1, v * 2)")),
                of("({} ? {} : {})", bools, lists, lists),
            ),
            st.one_of(anything, ints, bools, strings, lists, of("({} ? {} : {})", bools, anything, anything)),
        )
    return anything


def _conforms(value: Any, kind: Type) -> bool:
    """Whether the value cel-rust gave is one of type ``kind``."""
    if kind == DYN:
        return True
    if isinstance(kind, Nullable):
        return value is None or _conforms(value, kind.inner)
    if isinstance(kind, ListOf):
        return isinstance(value, list) and all(_conforms(item, kind.item) for item in value)
    if isinstance(kind, MapOf):
        return isinstance(value, dict) and all(
            _conforms(key, kind.key) and _conforms(item, kind.value) for key, item in value.items()
        )
    if isinstance(kind, Record):
        return isinstance(value, dict) and all(
            _conforms(item, kind.fields[key]) for key, item in value.items() if key in kind.fields
        )
    return type(value) is PYTHON_TYPES[kind]


PYTHON_TYPES: dict[Type, type] = {INT: int, BOOL: bool, STRING: str, NULL: type(None)}


RUN_TIME_FAULTS = (ZeroDivisionError, OverflowError, IndexError)
"""What a well-typed formula may still meet at the table: it depends on the values, not the types."""


def _checked(source: str) -> Type | FormulaTypeError:
    try:
        return check_formula(source, VALUE_TYPES)
    except FormulaTypeError as error:
        return error


def _evaluated(source: str) -> tuple[Any, str | None]:
    """cel-rust's value of ``source``, or the fault it met."""
    try:
        return cel.compile(source).execute(context(VALUES)), None
    except RUN_TIME_FAULTS as error:
        return None, type(error).__name__
    except RuntimeError as error:
        return None, str(error)


@given(_formulas())
@settings(deadline=None, max_examples=300)
def test_what_the_checker_accepts_cel_rust_evaluates_to_a_value_of_that_type(source: str):
    kind = _checked(source)
    if isinstance(kind, FormulaTypeError):
        assert kind.code not in ("syntax", "nested"), source  # every generated formula is read
        return
    value, fault = _evaluated(source)
    if fault is None:
        assert _conforms(value, kind), (source, kind, value)
    else:
        # Faults of the values, not of the types: a division by zero, an overflow, an index
        # out of range, min and max of an empty list, int() of a text that is no number.
        assert fault in ("ZeroDivisionError", "OverflowError", "IndexError") or any(
            words in fault for words in ("empty list", "parse error")
        ), (source, fault)
