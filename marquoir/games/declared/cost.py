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

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lark import Lark, Token
from lark import Tree as LarkTree
from lark.exceptions import LarkError

from marquoir.rules.errors import RuleError

from .engine import MAX_ROUNDS, MAX_SHARES, MAX_TURNS, GameState
from .game import Game
from .gamefile import GameFile, InputDef, Spread
from .grammar import parser

COMPREHENSIONS = frozenset({"map", "filter", "all", "exists", "exists_one"})
LINEAR_FUNCTIONS = frozenset(
    {"size", "sum", "min", "max", "rank_points", "contains", "startsWith", "endsWith", "string"}
)
"""Functions whose work grows with their argument's size (a text or a list)."""
PYTHON_FUNCTIONS = frozenset({"sum", "min", "max", "abs", "rank_points"})
"""Marquoir's own functions (formulas.FUNCTIONS) run in Python: a list handed to one is
converted entry by entry and walked in Python: about 650 ns an entry, forty steps of CEL's own (make bench)."""
PYTHON_WEIGHT = 40
ACCUMULATION_WEIGHT = 2


class TooComplex(ValueError):
    """The formula cannot be bounded (the CEL grammar does not read it, or it nests too deep)."""


Tree = LarkTree[Any]


@dataclass(frozen=True, slots=True)
class Bound:
    """The bounds of a value and of the work to make it."""

    size: int
    """The most entries any one list, map or text in the value holds (what a comprehension over it runs)."""
    total: int
    """The most entries the value holds in all, nested ones told (what copying or converting it costs)."""
    steps: int
    entry: int = 1
    """The most entries one entry of it holds in all (a record of a list, a player's list of ``all``)."""

    @property
    def value(self) -> Value:
        return (self.size, self.total, self.entry)


Value = tuple[int, int, int]
"""A name's (size, total, entry): see ``Bound``."""

SCALAR: Value = (1, 1, 1)
TEXT_PER_ENTRY = 24
"""``string(x)`` of a value writes at most this many characters an entry (a 64-bit number and a separator)."""


def _parser() -> Lark:
    return parser()


def bound(
    source: str,
    values: Mapping[str, Value | int],
    fields: Mapping[str, Mapping[str, Value | int]] | None = None,
) -> Bound:
    """The bounds of ``source`` where each name holds the value bounded in ``values`` (a
    number: a list of that many scalars); ``fields``: the values of a name's fields, as
    ``all.cards`` or ``tables.crowns``."""
    try:
        tree = _parser().parse(source)
    except LarkError as error:
        raise TooComplex(str(error).splitlines()[0][:200]) from None
    known = {name: _value(value) for name, value in values.items()}
    inner = {name: {field: _value(value) for field, value in named.items()} for name, named in (fields or {}).items()}
    walker = _Walker(known, inner)
    try:
        found = walker.walk(tree)
    except RecursionError:
        raise TooComplex("nested too deep") from None
    # Its value goes back to Python (and a derived value into the next formula's names).
    return Bound(found.size, found.total, found.steps + PYTHON_WEIGHT * found.total, found.entry)


def _value(value: Value | int) -> Value:
    return (value, value, 1) if isinstance(value, int) else value


class _Walker:
    def __init__(self, values: dict[str, Value], fields: dict[str, dict[str, Value]]) -> None:
        self.values = values
        self.fields = fields
        every = [*values.values(), *(value for inner in fields.values() for value in inner.values())]
        self.largest: Value = (
            max([1, *(value[0] for value in every)]),
            max([1, *(value[1] for value in every)]),
            max([1, *(value[1] for value in every)]),
        )

    def walk(self, node: Tree | Token) -> Bound:
        if isinstance(node, Token):
            return self._token(node)
        method = getattr(self, f"_{node.data}", None)
        if method is not None:
            found: Bound = method(node.children)
            return found
        return self._combined([self.walk(child) for child in node.children])

    @staticmethod
    def _combined(bounds: list[Bound], extra: int = 1) -> Bound:
        """A value that is one of its parts (an operator, a ternary: its dearer branch counted too)."""
        return Bound(
            max([1, *(item.size for item in bounds)]),
            max([1, *(item.total for item in bounds)]),
            sum(item.steps for item in bounds) + extra,
            max([1, *(item.entry for item in bounds)]),
        )

    @staticmethod
    def _of(value: Value, steps: int = 1) -> Bound:
        return Bound(value[0], value[1], steps, value[2])

    def _token(self, token: Token) -> Bound:
        if token.type in ("STRING_LIT", "MLSTRING_LIT", "BYTES_LIT"):
            return Bound(max(1, len(token.value)), max(1, len(token.value)), 1)
        return Bound(1, 1, 1)

    def _literal(self, children: list[Tree | Token]) -> Bound:
        return self.walk(children[0])

    def _ident(self, children: list[Tree | Token]) -> Bound:
        return self._of(self.values.get(str(children[0]), self.largest))

    def _addition(self, children: list[Tree | Token]) -> Bound:
        if len(children) == 1:
            return self.walk(children[0])
        operator, right = children
        assert isinstance(operator, LarkTree)  # noqa: S101 (the grammar's addition_add or addition_sub)
        left, right_bound = self.walk(operator.children[0]), self.walk(right)
        if operator.data == "addition_add":  # lists and texts join: sizes add up, and are copied
            total = left.total + right_bound.total
            steps = left.steps + right_bound.steps + total
            return Bound(left.size + right_bound.size, total, steps, max(left.entry, right_bound.entry))
        return self._combined([left, right_bound])

    def _relation(self, children: list[Tree | Token]) -> Bound:
        if len(children) == 1:
            return self.walk(children[0])
        operator, right = children
        assert isinstance(operator, LarkTree)  # noqa: S101
        left, right_bound = self.walk(operator.children[0]), self.walk(right)
        # ``x in list`` and comparing two lists look at every entry, nested ones too.
        return Bound(1, 1, left.steps + right_bound.steps + max(left.total, right_bound.total))

    def _list_lit(self, children: list[Tree | Token]) -> Bound:
        items = self._items(children)
        return Bound(
            max([len(items), *(item.size for item in items)]),
            len(items) + sum(item.total for item in items),
            sum(item.steps for item in items) + len(items) + 1,
            max([1, *(item.total for item in items)]),
        )

    _map_lit = _list_lit

    def _items(self, children: list[Tree | Token]) -> list[Bound]:
        if not children:
            return []
        listed = children[0]
        return [self.walk(child) for child in (listed.children if isinstance(listed, LarkTree) else [listed])]

    def _member_dot(self, children: list[Tree | Token]) -> Bound:
        member, field = children
        name = self._name(member)
        if name is not None and name in self.fields:
            return self._of(self.fields[name].get(str(field), self.largest), 2)
        base = self.walk(member)
        return Bound(base.size, base.total, base.steps + 1, base.entry)

    def _member_index(self, children: list[Tree | Token]) -> Bound:
        member, index = children
        base, key = self.walk(member), self.walk(index)
        # One entry of it: what an entry holds.
        return Bound(base.size, base.entry, base.steps + key.steps + 1, base.entry)

    def _member_dot_arg(self, children: list[Tree | Token]) -> Bound:
        member, function = children[0], str(children[1])
        arguments = children[2].children if len(children) > 2 and isinstance(children[2], LarkTree) else []
        target = self.walk(member)
        if function in COMPREHENSIONS and len(arguments) >= 2:
            return self._comprehension(function, target, arguments)
        rest = [self.walk(argument) for argument in arguments]
        steps = target.steps + sum(item.steps for item in rest) + 1
        if function in LINEAR_FUNCTIONS:
            steps += max([target.total, *(item.total for item in rest)])
        if function in ("size", "contains", "startsWith", "endsWith"):
            return Bound(1, 1, steps)
        return Bound(target.size, target.total, steps, target.entry)

    def _comprehension(self, function: str, target: Bound, arguments: list[Tree | Token]) -> Bound:
        """``target.map(x, body)`` and the like: the body once per entry, an entry as big as
        the list's entries may be."""
        variable = self._name(arguments[0])
        saved = self.values.get(variable) if variable else None
        if variable:
            self.values[variable] = (target.size, target.entry, target.entry)
        try:
            body = [self.walk(argument) for argument in arguments[1:]]
        finally:
            if variable and saved is None:
                self.values.pop(variable, None)
            elif variable and saved is not None:
                self.values[variable] = saved
        steps = target.steps + target.size * (sum(item.steps for item in body) + 1) + 1
        if function not in ("map", "filter"):
            return Bound(1, 1, steps)
        # cel-rust builds the list by joining one entry at a time: each join copies it, at
        # about twice a step's cost an entry (make bench).
        steps += ACCUMULATION_WEIGHT * target.size * target.size
        if function == "filter":
            return Bound(target.size, target.total, steps, target.entry)
        made = body[-1]
        total = target.size * (1 + made.total)
        return Bound(max(target.size, made.size), total, steps + total, made.total)

    def _ident_arg(self, children: list[Tree | Token]) -> Bound:
        function = str(children[0])
        arguments = children[1].children if len(children) > 1 and isinstance(children[1], LarkTree) else []
        rest = [self.walk(argument) for argument in arguments]
        steps = sum(item.steps for item in rest) + 1
        total = max([1, *(item.total for item in rest)])
        if function in PYTHON_FUNCTIONS:  # every entry handed to Python is converted
            steps += PYTHON_WEIGHT * sum(item.total for item in rest)
        elif function in LINEAR_FUNCTIONS:
            steps += total
        if function == "string":
            return Bound(TEXT_PER_ENTRY * total, TEXT_PER_ENTRY * total, steps + TEXT_PER_ENTRY * total)
        if function in ("size", "sum", "abs", "int", "bool", "has"):
            return Bound(1, 1, steps)
        # min and max of a list give one of its entries.
        entry = max([1, *(item.entry for item in rest)])
        return Bound(
            max([1, *(item.size for item in rest)]), entry if function in ("min", "max") else total, steps, entry
        )

    @staticmethod
    def _name(node: Tree | Token) -> str | None:
        """The name ``node`` is, if it is a bare name (through the grammar's single-child rules)."""
        while isinstance(node, LarkTree) and len(node.children) == 1:
            if node.data == "ident":
                return str(node.children[0])
            node = node.children[0]
        return None


# --- a whole game's round, and its match

MAX_ROUND_STEPS = 2_000_000
"""The most steps one round of a user's game may take, all its formulas told. The bounds
are loose: the costliest constructs measured take at most about 22 ns a step of the bound
(a comprehension building a list, nested lists handed to Python), most under 5 ns
(benchmarks/bench_own_games.py), so a round within it takes at most about 45 ms. The
catalog's heaviest round, Kingdomino's (24 properties a player, checked against the box),
is bounded at about 0.94 million (tests/declared/test_cost.py)."""
MAX_MATCH_STEPS = 100_000_000
"""The most steps a whole match may take: a phone that opens a match the server has not
folded lately replays its log, every round of it (at most ``engine.MAX_ROUNDS``, or
``MAX_TURNS`` turns, unless the file sets their number), in at most about 2 s for the
worst a file can write, well under a second for the catalog's."""
MAX_VALUE_SIZE = 5_000
"""The most entries a derived value may hold, nested ones told: a derived list joined to
itself in the next one would otherwise double from formula to formula."""


@dataclass(frozen=True)
class GameCost:
    """A game's round at its most players: the steps of each formula (times the players
    for a player's), the largest derived value, and the most rounds a match may have."""

    steps: Mapping[str, int]
    largest_value: tuple[str, int]
    rounds: int = 1

    @property
    def total(self) -> int:
        return sum(self.steps.values())

    @property
    def match_total(self) -> int:
        return self.total * self.rounds

    @property
    def heaviest(self) -> str:
        return max(self.steps, key=lambda field: self.steps[field]) if self.steps else ""


def game_cost(game: Game) -> GameCost:
    """The bounds of every formula of ``game`` in one round at its most players.

    ``TooComplex`` (naming the field) if a formula cannot be bounded."""
    file = game.file
    players = file.box.players[1]
    carried = [item.key for item in file.carry]
    inputs = {item.key: _input_value(item) for item in file.inputs}
    values: dict[str, Value] = dict.fromkeys(
        ("players", "sides", "round", "seat", "team", "total", "out", "thrower", "gained", *carried), SCALAR
    )
    values.update(inputs)
    tables = {key: (_value_size(value), _count(value), _entry(value)) for key, value in file.tables.items()}
    options: dict[str, Value] = {
        option.key: (option.max_length, option.max_length, 1) if option.kind == "numbers" else SCALAR
        for option in file.options
    }
    everyone = {key: _everyone(players, value) for key, value in inputs.items()}
    # ``all`` holds each side's running state too (its total, out and carried values).
    everyone.update({key: _everyone(players, SCALAR) for key in ("total", "out", *carried)})
    fields: dict[str, dict[str, Value]] = {"tables": tables, "options": options, "all": everyone, "others": everyone}

    def whole(named: Mapping[str, Value], least: int = 1) -> Value:
        return (
            max([least, *(value[0] for value in named.values())]),
            1 + sum(value[1] for value in named.values()),
            max([1, *(value[1] for value in named.values())]),
        )

    values.update(
        tables=whole(tables),
        options=whole(options),
        all=whole(everyone, players),
        others=whole(everyone, players),
        leaders=_everyone(players, SCALAR),
    )
    steps: dict[str, int] = {}
    largest = ("", 1)

    def add(field: str, source: str | None, times: int = 1) -> Bound | None:
        if source is None:
            return None
        try:
            found = bound(source, values, fields)
        except TooComplex as error:
            raise TooComplex(f"{field}: {error}") from None
        steps[field] = steps.get(field, 0) + found.steps * times
        return found

    def derive(field: str, key: str, source: str, times: int) -> None:
        nonlocal largest
        found = add(field, source, times)
        if found is None:
            return
        values[key] = found.value
        everyone[key] = _everyone(players, found.value)
        values.update(all=whole(everyone, players), others=whole(everyone, players))
        if found.total > largest[1]:
            largest = (field, found.total)

    for option in file.options:
        add(f"options.{option.key}.default_formula", option.default_formula)
    for check in file.option_checks:
        add(f"option_checks.{check.key}.holds", check.holds)
    for rank in file.ranking:
        if rank.order not in ("highest", "lowest"):
            add(f"ranking.{rank.key}.order", rank.order)
    for name, value in (("rounds", file.end.rounds), ("target", file.end.target)):
        add(f"end.{name}", value if isinstance(value, str) else None)
    for item in file.inputs:
        times = players if item.per in ("player", "team") else 1
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
            add(f"{field}.best.units", category.best.units, players)
            # The share's own names hold numbers, for its formula only (game.py refuses a
            # share named as anything else).
            shared = {name: values.get(name) for name in category.best.over}
            values.update(dict.fromkeys(category.best.over, SCALAR))
            add(f"{field}.best.formula", category.best.formula, players * _most_shares(file, category.best))
            for name, before in shared.items():
                if before is None:
                    values.pop(name, None)
                else:
                    values[name] = before
    for kind in ("checks", "warnings"):
        for check in getattr(file, kind):
            add(f"{kind}.{check.key}.holds", check.holds, players if check.per == "player" else 1)
    for rank in file.ranking:
        add(f"ranking.{rank.key}.value", rank.formula, players)
    for figure in file.figures:
        add(f"figures.{figure.key}.value", figure.value, players)
    for key, source in file.after.items():
        add(f"after.{key}", source, 1 if file.by_turns else players)
    for key, source in (file.turns.others if file.turns else {}).items():
        add(f"turns.others.{key}", source, players)
    add("out", file.out, players)
    for rule in file.end.rules:
        add(f"end.rules.{rule.key}.when", rule.when)
        add(f"end.rules.{rule.key}.winners", rule.winners)
    add("end.unless", file.end.unless)
    add("cooperative.won", file.cooperative.won if file.cooperative else None)
    add("rematch.by", file.rematch.by if file.rematch else None, players)
    for index, sentence in enumerate(file.said):
        add(f"said[{index}].when", sentence.when)
    return GameCost(steps, largest, _most_rounds(game))


def _everyone(players: int, value: Value) -> Value:
    """``all.<key>``: each player's value, in a list."""
    return (max(players, value[0]), players * (value[1] + 1), value[1])


def _entry(value: object) -> int:
    """The most entries one entry of ``value`` holds, nested ones told."""
    if isinstance(value, Mapping):
        return max([1, *(_count(item) for item in value.values())])
    if isinstance(value, list):
        return max([1, *(_count(item) for item in value)])
    return 1


def _most_shares(file: GameFile, best: Spread) -> int:
    """The most shares a ``best`` category tries: every way of sharing its units among its
    names, at most ``MAX_SHARES`` (the engine refuses more); fewer where its units are an
    input's part with a known most (7 Wonders' wild science symbols, at most 3)."""
    most = _units_most(file, best.units)
    if most is None:
        return MAX_SHARES
    return min(MAX_SHARES, math.comb(most + len(best.over) - 1, len(best.over) - 1))


def _units_most(file: GameFile, units: str) -> int | None:
    """The most ``units`` can be when it names an input (``wild``) or an input's part (``science.wild``)."""
    name, _dot, part = units.strip().partition(".")
    item = next((item for item in file.inputs if item.key == name), None)
    if item is None:
        return None
    if part:
        found = next((piece for piece in item.parts if piece.key == part), None)
        return found.max if found is not None and isinstance(found.max, int) else None
    return item.max if isinstance(item.max, int) and not isinstance(item.max, bool) else None


def _most_rounds(game: Game) -> int:
    """The most rounds (turns) a match of ``game`` may have."""
    if game.by_turns:
        return MAX_TURNS
    planned = game.file.end.rounds
    if isinstance(planned, int) and not isinstance(planned, bool):
        return max(1, min(planned, MAX_ROUNDS))
    if isinstance(planned, str):
        return _rounds_over_options(game) or MAX_ROUNDS
    return MAX_ROUNDS


MAX_OPTION_TABLES = 256
"""Tables of options tried to find the most rounds a formula gives (Kingdomino's Dynasty: 2)."""


def _rounds_over_options(game: Game) -> int | None:
    """The most rounds ``end.rounds`` gives over every table of options and players, when
    its options are all flags or choices (few enough to try each); None otherwise."""
    options = game.file.options
    choices: list[list[Any]] = []
    for option in options:
        if option.kind == "flag":
            choices.append([False, True])
        elif option.kind == "choice":
            choices.append([choice.value for choice in option.choices])
        else:
            return None
    if math.prod(len(values) for values in choices) > MAX_OPTION_TABLES:
        return None
    least, most = game.file.box.players
    found = 0
    for table in itertools.product(*choices):
        for players in range(least, most + 1):
            state = GameState(game, dict(zip((option.key for option in options), table, strict=True)), players, 0)
            try:
                planned = state.rounds_planned()
            except RuleError:
                return None
            if planned is None:
                return None
            found = max(found, planned)
    return min(max(found, 1), MAX_ROUNDS)


def _input_value(item: InputDef) -> Value:
    """The (size, total) of an input's value (a number: a scalar)."""
    if item.kind == "list":
        size = max(1, item.max_length or 1, len(item.list_values()))
        return (size, size, 1)
    if item.kind == "records":
        size = max(1, item.max_length or 1)
        return (max(size, len(item.parts)), size * (len(item.parts) + 1), len(item.parts) + 1)
    if item.kind == "counts":
        return (max(1, len(item.parts)), max(1, len(item.parts)), 1)
    if item.kind == "groups":
        groups, each = max(1, item.max_length or 1), max(1, item.group_length or 1)
        return (max(groups, each), groups * (each + 1), each + 1)
    return SCALAR


def _count(value: object) -> int:
    """Every entry in ``value``, nested ones told."""
    if isinstance(value, Mapping):
        return len(value) + sum(_count(item) for item in value.values())
    if isinstance(value, list):
        return len(value) + sum(_count(item) for item in value)
    if isinstance(value, str):
        return max(1, len(value))
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
