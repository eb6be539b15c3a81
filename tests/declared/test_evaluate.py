"""Formulas evaluated in Python (``evaluate``) give what cel-rust gives: on every formula
of every game file's worked examples, on the four test files, and on random formulas over
random values; an error in one is an error in the other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from marquoir.games.declared import declared_games, load_game
from marquoir.games.declared.evaluate import EvaluationError, Unsupported, compile_tree
from marquoir.games.declared.examples import mismatches
from marquoir.games.declared.formulas import FUNCTIONS, Compiled, FormulaFailed, context
from marquoir.games.declared.types import FormulaTypeError, check_formula, type_of_value

from .compiled import compiled_formulas

TEST_GAMES = Path(__file__).parent / "games"
IN_PYTHON = Compiled.evaluate


def _both(compiled: Compiled, variables: Any) -> Any:
    """The formula's value both ways; the test fails where they differ."""
    try:
        expected: Any = ("value", compiled.evaluate_in_cel(variables))
    except FormulaFailed:
        expected = ("error",)
    try:
        found: Any = ("value", IN_PYTHON(compiled, variables))
    except FormulaFailed:
        found = ("error",)
    assert found == expected, f"{compiled.field}: {compiled.source!r} gives {found}, cel-rust {expected}"
    if expected[0] == "error":
        raise FormulaFailed(compiled.field, "as cel-rust")
    return expected[1]


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every evaluation compared with cel-rust's while the test runs; the fields seen."""
    seen: list[str] = []

    def evaluate(self: Compiled, variables: Any) -> Any:
        if self.run is not None:
            seen.append(self.field)
        return _both(self, variables) if self.run is not None else self.evaluate_in_cel(variables)

    monkeypatch.setattr(Compiled, "evaluate", evaluate)
    return seen


def test_every_example_of_every_game_file_evaluates_as_cel_rust_does(compared: list[str]) -> None:
    games = [*declared_games(), *(load_game(path) for path in sorted(TEST_GAMES.glob("*.toml")))]
    for game in games:
        for example in game.file.examples:
            assert mismatches(game, example) == [], f"{game.key}: {example.name}"
    # The formulas the examples reach, every game together (a ranking by the total alone and
    # points that are an input as given are read without one: 150 of them, 159 before).
    assert len(set(compared)) >= 150


def test_every_catalog_formula_is_evaluated_in_python() -> None:
    """No formula of the catalog falls back to cel-rust (a fallback is for a construct the
    Python evaluation does not take, such as a text with escapes)."""
    left: list[str] = []
    for game in declared_games():
        for compiled in compiled_formulas(game):
            if compiled.run is None and compiled.bare is None:
                left.append(f"{game.key}: {compiled.field}")
    assert left == []


# --- random formulas over random values

VALUES = {
    "a": 7,
    "b": -3,
    "z": 0,
    "big": 2**62,
    "t": True,
    "f": False,
    "n": None,
    "s": "wheat",
    "e": "",
    "xs": [3, 1, 2],
    "ys": [],
    "ss": ["a", "b"],
    "m": {"wheat": 2, "lake": 0},
    "r": {"terrain": "lake", "squares": 4, "crowns": 1},
    "rs": [{"terrain": "lake", "squares": 4, "crowns": 1}, {"terrain": "mine", "squares": 2, "crowns": 3}],
    "im": {1: "one", 2: "two"},
    "nested": [[1, 2], [3]],
}

TYPES = {name: type_of_value(value) for name, value in VALUES.items()}

_LEAVES = st.sampled_from(
    [*VALUES, "0", "1", "-1", "2", "9223372036854775807", "true", "false", "null", '"a"', '"wheat"', "[]", "{}"]
)


def _formula(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(
        children,
        st.sampled_from(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "in"]),
        children,
    ).map(lambda parts: f"({parts[0]} {parts[1]} {parts[2]})")
    unary = st.tuples(st.sampled_from(["!", "-"]), children).map(lambda parts: f"{parts[0]}({parts[1]})")
    ternary = st.tuples(children, children, children).map(lambda parts: f"({parts[0]} ? {parts[1]} : {parts[2]})")
    member = st.tuples(children, st.sampled_from(["terrain", "squares", "wheat", "x"])).map(
        lambda parts: f"{parts[0]}.{parts[1]}"
    )
    index = st.tuples(children, children).map(lambda parts: f"{parts[0]}[{parts[1]}]")
    call = st.tuples(st.sampled_from(["size", "int", "string", "sum", "min", "max", "abs"]), children).map(
        lambda parts: f"{parts[0]}({parts[1]})"
    )
    has = st.sampled_from(["has(r.terrain)", "has(m.x)", "has(r.x)"])
    method = st.tuples(children, st.sampled_from(["contains", "startsWith", "endsWith"]), children).map(
        lambda parts: f"{parts[0]}.{parts[1]}({parts[2]})"
    )
    listed = st.lists(children, max_size=3).map(lambda items: f"[{', '.join(items)}]")
    mapped = st.lists(st.tuples(children, children), max_size=2).map(
        lambda pairs: "{" + ", ".join(f"{key}: {value}" for key, value in pairs) + "}"
    )
    macro = st.tuples(children, st.sampled_from(["all", "exists", "exists_one", "filter", "map"]), children).map(
        lambda parts: f"{parts[0]}.{parts[1]}(v, {parts[2].replace('a', 'v')})"
    )
    mapped_where = st.tuples(children, children, children).map(
        lambda parts: f"{parts[0]}.map(v, {parts[1].replace('a', 'v')}, {parts[2]})"
    )
    ranked = st.tuples(children, children, st.sampled_from(['"share"', '"split"', '"full"', '"dense"'])).map(
        lambda parts: f"rank_points({parts[0]}, {parts[1]}, {parts[2]})"
    )
    return st.one_of(
        binary, unary, ternary, member, index, call, has, method, listed, mapped, macro, mapped_where, ranked
    )


FORMULAS = st.recursive(_LEAVES, _formula, max_leaves=8)


@settings(max_examples=500, deadline=None)
@given(FORMULAS)
def test_random_formulas_evaluate_as_cel_rust_does(source: str) -> None:
    """Over formulas the type check lets through, as every formula of a file is."""
    import cel

    try:
        program = cel.compile(source)
    except ValueError:
        return  # cel-rust does not read it: no game file can hold it
    try:
        check_formula(source, TYPES)
    except FormulaTypeError:
        event("refused by the type check")
        return  # refused when a file loads: never evaluated (cel-rust gives -true as false)
    try:
        run = compile_tree(source, FUNCTIONS)
    except Unsupported:
        return
    try:
        expected: Any = ("value", program.execute(context(VALUES)))
    except Exception:
        expected = ("error",)
    try:
        found: Any = ("value", run(VALUES))
    except EvaluationError:
        found = ("error",)
    event(f"compared: {expected[0]}")
    assert _same(found, expected) or _same_but_map_order(source, found, expected), (
        f"{source!r}: {found} where cel-rust gives {expected}"
    )


def _same_but_map_order(source: str, found: Any, expected: Any) -> bool:
    """A list made by running over a map, its items in another order: CEL leaves the order
    of a map's keys unspecified (cel-rust's follows its hash), Python gives the file's."""
    over_a_map = any(name in source for name in ("m.", "im.", "{")) and any(
        macro in source for macro in (".map(", ".filter(")
    )
    if not over_a_map or found[0] != "value" or expected[0] != "value":
        return False
    found_value, expected_value = found[1], expected[1]
    if not isinstance(found_value, list) or not isinstance(expected_value, list):
        return False
    return sorted(map(repr, found_value)) == sorted(map(repr, expected_value))


# Formulas built by type, so that most pass the type check (the free ones above mostly do
# not, and find the mixes): ``v`` is a comprehension's variable, an int.
def _op(parts: tuple[str, ...]) -> str:
    return f"({parts[0]} {parts[1]} {parts[2]})"


INTS: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["a", "b", "z", "big", "0", "1", "-1", "2", "9223372036854775807", "r.squares", "m.wheat"]),
        st.tuples(INTS, st.sampled_from(["+", "-", "*", "/", "%"]), INTS).map(_op),
        INTS.map(lambda x: f"-({x})"),
        st.tuples(BOOLS, INTS, INTS).map(lambda p: f"({p[0]} ? {p[1]} : {p[2]})"),
        LISTS.map(lambda x: f"sum({x})"),
        LISTS.map(lambda x: f"size({x})"),
        st.tuples(st.sampled_from(["min", "max"]), LISTS).map(lambda p: f"{p[0]}({p[1]})"),
        INTS.map(lambda x: f"abs({x})"),
        st.tuples(LISTS, INTS).map(lambda p: f"{p[0]}[{p[1]}]"),
        TEXTS.map(lambda x: f"int({x})"),
        TEXTS.map(lambda x: f"size({x})"),
    )
)
BOOLS: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["t", "f", "true", "false", "has(r.terrain)", "has(m.x)"]),
        st.tuples(INTS, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), INTS).map(_op),
        st.tuples(TEXTS, st.sampled_from(["<", "==", "!="]), TEXTS).map(_op),
        st.tuples(BOOLS, st.sampled_from(["&&", "||", "==", "!="]), BOOLS).map(_op),
        BOOLS.map(lambda x: f"!({x})"),
        st.tuples(INTS, LISTS).map(lambda p: f"({p[0]} in {p[1]})"),
        st.tuples(TEXTS, st.sampled_from(["contains", "startsWith", "endsWith"]), TEXTS).map(
            lambda p: f"{p[0]}.{p[1]}({p[2]})"
        ),
        st.tuples(LISTS, st.sampled_from(["all", "exists", "exists_one"]), BODIES).map(
            lambda p: f"{p[0]}.{p[1]}(v, {p[2]})"
        ),
        st.tuples(LISTS, LISTS).map(lambda p: f"({p[0]} == {p[1]})"),
    )
)
BODIES: st.SearchStrategy[str] = st.one_of(
    st.tuples(st.sampled_from(["v", "v * 2", "v % 2"]), st.sampled_from(["<", ">", "=="]), INTS).map(_op),
    BOOLS,
)
LISTS: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["xs", "ys", "[]", "[1, 2]", "[a, b, big]", "rs.map(p, p.crowns)"]),
        st.lists(INTS, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
        st.tuples(LISTS, LISTS).map(lambda p: f"({p[0]} + {p[1]})"),
        st.tuples(LISTS, st.sampled_from(["v + 1", "v * v", "-v", "v / 2"])).map(lambda p: f"{p[0]}.map(v, {p[1]})"),
        st.tuples(LISTS, BODIES).map(lambda p: f"{p[0]}.filter(v, {p[1]})"),
        st.tuples(LISTS, BODIES, st.sampled_from(["v", "v + a"])).map(lambda p: f"{p[0]}.map(v, {p[1]}, {p[2]})"),
        st.tuples(LISTS, LISTS, st.sampled_from(['"share"', '"split"', '"full"', '"dense"'])).map(
            lambda p: f"rank_points({p[0]}, {p[1]}, {p[2]})"
        ),
    )
)
TEXTS: st.SearchStrategy[str] = st.deferred(
    lambda: st.one_of(
        st.sampled_from(["s", "e", '"a"', '"12"', '"-3"', '" 4"', "r.terrain", "ss[0]"]),
        INTS.map(lambda x: f"string({x})"),
        st.tuples(TEXTS, TEXTS).map(lambda p: f"({p[0]} + {p[1]})"),
    )
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(INTS, BOOLS, LISTS, TEXTS))
def test_random_typed_formulas_evaluate_as_cel_rust_does(source: str) -> None:
    """Formulas of each type: whole numbers (overflows, divisions by zero), conditions,
    lists (macros, rank_points) and texts."""
    test_random_formulas_evaluate_as_cel_rust_does.hypothesis.inner_test(source)  # type: ignore[attr-defined]


def _same(found: Any, expected: Any) -> bool:
    """Equal, and of the same kinds all the way down (True is not 1)."""
    if type(found) is not type(expected):
        return False
    if isinstance(found, list | tuple):
        return len(found) == len(expected) and all(_same(a, b) for a, b in zip(found, expected, strict=True))
    if isinstance(found, dict):
        return found.keys() == expected.keys() and all(_same(found[key], expected[key]) for key in found)
    return bool(found == expected)


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("-7 / 2", -3),  # toward zero, where Python's // gives -4
        ("-7 % 2", -1),  # the sign of the dividend
        ("7 % -2", 1),
        ("1 == true", False),  # two kinds are never equal, where Python says 1 == True
        ("[1] == [true]", False),
        ("false && (1 / 0 == 1)", False),
        ("(1 / 0 == 1) && false", False),  # an error on one side, the other decides
        ("(1 / 0 == 1) || true", True),
        ("{1: 'a'}[1]", "a"),
        ("[1, 2, 3].exists_one(x, x > 2)", True),
        ("{'a': 1, 'b': 2}.map(k, k)", ["a", "b"]),
    ],
)
def test_cel_semantics_where_python_differs(source: str, value: Any) -> None:
    assert _same(compile_tree(source, FUNCTIONS)({}), value)


@pytest.mark.parametrize(
    "source",
    [
        "9223372036854775807 + 1",
        "-9223372036854775807 - 2",
        "sum([9223372036854775807, 1])",  # cel-rust alone would give it back as an unsigned number
        "abs(-9223372036854775807 - 1)",
        "1 / 0",
        "1 % 0",
        "[1][1]",
        "{'a': 1}.b",
        "1 < 'a'",
    ],
)
def test_overflows_and_faults_are_errors_not_numbers(source: str) -> None:
    with pytest.raises(EvaluationError):
        compile_tree(source, FUNCTIONS)({})


@pytest.mark.parametrize(
    ("source", "values", "value"),
    [
        ("\"'); __import__('os').system('true'); ('\"", {}, "'); __import__('os').system('true'); ('"),
        ("__import__ + 1", {"__import__": 1}, 2),
        ("__builtins__", {"__builtins__": 5}, 5),
        ("V.k0", {"V": {"k0": 3}}, 3),
        ("[c0, c1].map(c0, c0 + c1)", {"c0": 1, "c1": 10}, [11, 20]),
    ],
)
def test_nothing_a_formula_writes_reaches_the_python_it_is_evaluated_as(
    source: str, values: dict[str, Any], value: Any
) -> None:
    """A name or a text that looks like Python (or like the generated code's own names) is
    only ever a name read from the values or a text: the generated code holds neither."""
    assert compile_tree(source, FUNCTIONS)(values) == value
