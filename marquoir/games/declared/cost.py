"""The most work a formula can take, worked out before it runs: for a user's own game,
whose formulas nobody reviewed.

CEL has no loops, but a comprehension (``map``, ``filter``, ``all``, ``exists``) runs its
body once per entry of a list, two of them nested multiply, and lists can be joined
(``t + t + t``) or built in derived values from one round to the next formula. cel-rust
cannot be stopped once it runs (a formula over a table of 2,000 numbers, two comprehensions
deep, took 266 s here), so the work is bounded before: each formula's source is parsed by
the standard CEL grammar (``cel.lark``, from cel-python, Apache-2.0) with lark, and walked
once, giving two bounds:

- ``size``: the most entries any list, map or text in its value can hold;
- ``steps``: the most operations it can take, a comprehension counting its body once per
  entry of the longest list it may run over.

Both are upper bounds, not estimates: sizes add up under ``+``, a ternary costs its dearer
branch, and a name whose size is unknown takes the largest one around. ``GameCost`` adds
up a round's formulas (those of each player times the most players) for the file to be
refused past ``MAX_ROUND_STEPS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token
from lark import Tree as LarkTree
from lark.exceptions import LarkError

from .engine import MAX_SHARES
from .game import Game
from .gamefile import InputDef

COMPREHENSIONS = frozenset({"map", "filter", "all", "exists", "exists_one"})
LINEAR_FUNCTIONS = frozenset({"size", "sum", "min", "max", "contains", "startsWith", "endsWith", "string"})
"""Functions whose work grows with their argument's size (a text or a list)."""
PYTHON_FUNCTIONS = frozenset({"sum", "min", "max", "abs"})
"""Marquoir's own functions (formulas.FUNCTIONS) run in Python: a list handed to one is
converted entry by entry and walked in Python: about 650 ns an entry, forty steps of CEL's own (make bench)."""
PYTHON_WEIGHT = 40


class TooComplex(ValueError):
    """The formula cannot be bounded (the CEL grammar does not read it, or it nests too deep)."""


Tree = LarkTree[Any]


@dataclass(frozen=True, slots=True)
class Bound:
    size: int
    steps: int


@cache
def _parser() -> Lark:
    grammar = (Path(__file__).with_name("cel.lark")).read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        start="expr",
        lexer_callbacks={"IDENT": _literals},
        maybe_placeholders=False,
        priority="invert",
    )


def _literals(token: Token) -> Token:
    """``true`` and ``false`` are words of the grammar and literals of the language."""
    return Token("BOOL_LIT", token.value) if token.value in ("true", "false") else token


def bound(source: str, sizes: Mapping[str, int], fields: Mapping[str, Mapping[str, int]] | None = None) -> Bound:
    """The bounds of ``source`` where each name has the size in ``sizes`` (``fields``: the
    sizes of a name's fields, as ``all.cards`` or ``tables.crowns``)."""
    try:
        tree = _parser().parse(source)
    except LarkError as error:
        raise TooComplex(str(error).splitlines()[0][:200]) from None
    walker = _Walker(dict(sizes), {key: dict(value) for key, value in (fields or {}).items()})
    try:
        return walker.walk(tree)
    except RecursionError:
        raise TooComplex("nested too deep") from None


class _Walker:
    def __init__(self, sizes: dict[str, int], fields: dict[str, dict[str, int]]) -> None:
        self.sizes = sizes
        self.fields = fields
        self.largest = max([1, *sizes.values(), *(size for inner in fields.values() for size in inner.values())])

    def walk(self, node: Tree | Token) -> Bound:
        if isinstance(node, Token):
            return self._token(node)
        rule = str(node.data)
        children = node.children
        method = getattr(self, f"_{rule}", None)
        if method is not None:
            found: Bound = method(children)
            return found
        return self._combined([self.walk(child) for child in children])

    @staticmethod
    def _combined(bounds: list[Bound], extra: int = 1) -> Bound:
        return Bound(max([1, *(item.size for item in bounds)]), sum(item.steps for item in bounds) + extra)

    def _token(self, token: Token) -> Bound:
        if token.type in ("STRING_LIT", "MLSTRING_LIT", "BYTES_LIT"):
            return Bound(max(1, len(token.value)), 1)
        return Bound(1, 1)

    def _literal(self, children: list[Tree | Token]) -> Bound:
        return self.walk(children[0])

    def _ident(self, children: list[Tree | Token]) -> Bound:
        name = str(children[0])
        return Bound(self.sizes.get(name, self.largest), 1)

    def _addition(self, children: list[Tree | Token]) -> Bound:
        if len(children) == 1:
            return self.walk(children[0])
        operator, right = children
        assert isinstance(operator, LarkTree)  # noqa: S101 (the grammar's addition_add or addition_sub)
        left = self.walk(operator.children[0])
        right_bound = self.walk(right)
        if operator.data == "addition_add":  # lists and texts join: their sizes add up
            return Bound(left.size + right_bound.size, left.steps + right_bound.steps + left.size + right_bound.size)
        return self._combined([left, right_bound])

    def _relation(self, children: list[Tree | Token]) -> Bound:
        if len(children) == 1:
            return self.walk(children[0])
        operator, right = children
        assert isinstance(operator, LarkTree)  # noqa: S101
        left = self.walk(operator.children[0])
        right_bound = self.walk(right)
        # ``x in list`` and comparing two lists look at each entry.
        return Bound(1, left.steps + right_bound.steps + max(left.size, right_bound.size))

    def _list_lit(self, children: list[Tree | Token]) -> Bound:
        items = self._items(children)
        return Bound(
            max([len(items), *(item.size for item in items)]), sum(item.steps for item in items) + len(items) + 1
        )

    def _map_lit(self, children: list[Tree | Token]) -> Bound:
        items = self._items(children)
        return Bound(
            max([len(items), *(item.size for item in items)]), sum(item.steps for item in items) + len(items) + 1
        )

    def _items(self, children: list[Tree | Token]) -> list[Bound]:
        if not children:
            return []
        listed = children[0]
        return [self.walk(child) for child in (listed.children if isinstance(listed, LarkTree) else [listed])]

    def _member_dot(self, children: list[Tree | Token]) -> Bound:
        member, field = children
        name = self._name(member)
        if name is not None and name in self.fields:
            inner = self.fields[name]
            return Bound(inner.get(str(field), self.largest), 2)
        base = self.walk(member)
        return Bound(base.size, base.steps + 1)

    def _member_index(self, children: list[Tree | Token]) -> Bound:
        member, index = children
        base, key = self.walk(member), self.walk(index)
        return Bound(base.size, base.steps + key.steps + 1)

    def _member_dot_arg(self, children: list[Tree | Token]) -> Bound:
        member, function = children[0], str(children[1])
        arguments = children[2].children if len(children) > 2 and isinstance(children[2], LarkTree) else []
        target = self.walk(member)
        if function in COMPREHENSIONS and len(arguments) >= 2:
            variable = self._name(arguments[0])
            saved = self.sizes.get(variable) if variable else None
            if variable:
                self.sizes[variable] = target.size  # an entry is no bigger than the list
            try:
                body = [self.walk(argument) for argument in arguments[1:]]
            finally:
                if variable:
                    if saved is None:
                        self.sizes.pop(variable, None)
                    else:
                        self.sizes[variable] = saved
            per_entry = sum(item.steps for item in body) + 1
            size = max([target.size, *(item.size for item in body)]) if function in ("map", "filter") else 1
            return Bound(size, target.steps + target.size * per_entry + 1)
        rest = [self.walk(argument) for argument in arguments]
        steps = target.steps + sum(item.steps for item in rest) + 1
        if function in LINEAR_FUNCTIONS:
            steps += max([target.size, *(item.size for item in rest)])
        size = 1 if function in ("size", "contains", "startsWith", "endsWith") else target.size
        return Bound(size, steps)

    def _ident_arg(self, children: list[Tree | Token]) -> Bound:
        function = str(children[0])
        arguments = children[1].children if len(children) > 1 and isinstance(children[1], LarkTree) else []
        rest = [self.walk(argument) for argument in arguments]
        largest = max([1, *(item.size for item in rest)])
        weight = PYTHON_WEIGHT if function in PYTHON_FUNCTIONS else 1 if function in LINEAR_FUNCTIONS else 0
        steps = sum(item.steps for item in rest) + 1 + weight * largest
        size = 1 if function in ("size", "sum", "abs", "int", "bool", "has") else largest
        return Bound(size, steps)

    @staticmethod
    def _name(node: Tree | Token) -> str | None:
        """The name ``node`` is, if it is a bare name (through the grammar's single-child rules)."""
        while isinstance(node, LarkTree) and len(node.children) == 1:
            if node.data == "ident":
                return str(node.children[0])
            node = node.children[0]
        return None


# --- a whole game's round

MAX_ROUND_STEPS = 10_000_000
"""The most steps one round of a user's game may take, all its formulas told. The bounds
are loose: the costliest constructs measured take 13 to 21 ns a step of the bound (texts
built in a comprehension, Marquoir's functions given a list), most under 2 ns
(benchmarks/bench_own_games.py), so a round within this bound takes at most about 0.2 s.
The catalog's heaviest, 7 Wonders' best spread of science symbols, is bounded at 3
million (tests/declared/test_cost.py)."""
MAX_VALUE_SIZE = 2_000
"""The most entries a derived value may hold: a derived list joined to itself in the next
one would otherwise double from formula to formula."""


@dataclass(frozen=True)
class GameCost:
    """A game's round at its most players: the steps of each formula (times the players
    for a player's), and the largest derived value."""

    steps: Mapping[str, int]
    largest_value: tuple[str, int]

    @property
    def total(self) -> int:
        return sum(self.steps.values())

    @property
    def heaviest(self) -> str:
        return max(self.steps, key=lambda field: self.steps[field]) if self.steps else ""


def game_cost(game: Game) -> GameCost:
    """The bounds of every formula of ``game`` in one round at its most players.

    ``TooComplex`` (naming the field) if a formula cannot be bounded."""
    file = game.file
    players = file.box.players[1]
    input_sizes = {item.key: _input_size(item) for item in file.inputs}
    carried = [item.key for item in file.turns.carry] if file.turns else []
    sizes: dict[str, int] = dict.fromkeys(("players", "round", "seat", "total", "thrower", "gained", *carried), 1)
    sizes.update(input_sizes)
    tables = {key: _value_size(value) for key, value in file.tables.items()}
    options = {option.key: option.max_length if option.kind == "numbers" else 1 for option in file.options}
    everyone = {key: max(players, size) for key, size in input_sizes.items()}
    fields = {"tables": tables, "options": options, "all": everyone, "others": everyone}
    sizes.update(tables=max([1, *tables.values()]), options=max([1, *options.values()]))
    sizes.update(all=max([players, *everyone.values()]), others=max([players, *everyone.values()]))
    steps: dict[str, int] = {}
    largest = ("", 1)

    def add(field: str, source: str | None, times: int = 1) -> Bound | None:
        if source is None:
            return None
        try:
            found = bound(source, sizes, fields)
        except TooComplex as error:
            raise TooComplex(f"{field}: {error}") from None
        steps[field] = steps.get(field, 0) + found.steps * times
        return found

    def derive(field: str, key: str, source: str, times: int) -> None:
        nonlocal largest
        found = add(field, source, times)
        if found is None:
            return
        sizes[key] = found.size
        everyone[key] = max(players, found.size)
        if found.size > largest[1]:
            largest = (field, found.size)

    for option in file.options:
        add(f"options.{option.key}.default_formula", option.default_formula)
    for check in file.option_checks:
        add(f"option_checks.{check.key}.holds", check.holds)
    add("lowest_wins_when", file.lowest_wins_when)
    for name, value in (("rounds", file.end.rounds), ("target", file.end.target)):
        add(f"end.{name}", value if isinstance(value, str) else None)
    for item in file.inputs:
        times = players if item.per == "player" else 1
        for name in ("min", "max"):
            value = getattr(item, name)
            add(f"inputs.{item.key}.{name}", value if isinstance(value, str) else None, times)
        add(f"inputs.{item.key}.when", item.when)
    for per, times in (("round", 1), ("player", players)):
        for derived in file.derived:
            if derived.per == per:
                derive(f"derived.{derived.key}", derived.key, derived.formula, times)
    for category in file.points:
        field = f"points.{category.key}"
        add(f"{field}.when", category.when)
        if category.formula is not None:
            add(f"{field}.formula", category.formula, players)
        elif category.best is not None:
            for name, start in category.best.over.items():
                add(f"{field}.best.over.{name}", start, players)
                sizes[name] = 1
            add(f"{field}.best.units", category.best.units, players)
            add(f"{field}.best.formula", category.best.formula, players * MAX_SHARES)
    for kind in ("checks", "warnings"):
        for check in getattr(file, kind):
            add(f"{kind}.{check.key}.holds", check.holds, players if check.per == "player" else 1)
    for tiebreak in file.tiebreaks:
        add(f"tiebreaks.{tiebreak.key}.value", tiebreak.value, players)
    for figure in file.figures:
        add(f"figures.{figure.key}.value", figure.value, players)
    if file.turns is not None:
        for key, source in file.turns.after.items():
            add(f"turns.after.{key}", source)
        for key, source in file.turns.others.items():
            add(f"turns.others.{key}", source, players)
        add("turns.skip", file.turns.skip, players)
    return GameCost(steps, largest)


def _input_size(item: InputDef) -> int:
    """The most entries an input's value holds (a number: 1)."""
    if item.kind in ("list", "records"):
        return max(1, item.max_length or 1, len(item.list_values()) if item.kind == "list" else 1)
    if item.kind == "counts":
        return max(1, len(item.parts))
    return 1


def _value_size(value: object) -> int:
    """The most entries any list or map in ``value`` holds, or the longest text."""
    if isinstance(value, Mapping):
        return max([len(value), *(_value_size(item) for item in value.values())])
    if isinstance(value, list):
        return max([len(value), *(_value_size(item) for item in value)])
    if isinstance(value, str):
        return max(1, len(value))
    return 1
