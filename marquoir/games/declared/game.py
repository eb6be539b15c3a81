"""A game file compiled: every formula compiled once, with the names it may read checked
where it is used, ready for the engine (``marquoir.games.declared.engine``).

The names a formula reads (docs/game-file.md has the table):

- everywhere: ``players`` (how many), ``tables`` (the file's lookup tables) and, but in an
  option's default, ``options``;
- in a round: ``round`` (1 for the first), the round's inputs and derived values by key,
  and ``all``: each per-player input and derived value as a list in seat order;
- for one player (per-player bounds, derived values, points, checks, tie-breaks, figures):
  ``seat``, the player's own inputs and derived values by key, and ``others``: as ``all``
  without the player; a tie-break reads ``total`` too.

A formula naming anything else is refused when the game loads, with its file, field and
position: a typo never waits for the table to find it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from .formulas import Compiled, FormulaFailed, compile_formula
from .gamefile import Bound, End, GameFile, GameFileError, InputDef, read_game_file
from .types import BOOL, DYN, INT, STRING, ListOf, Nullable, Record, Type, type_of_value

TABLE_NAMES = ("players", "sides", "tables")
RESERVED = frozenset(
    {*TABLE_NAMES, "options", "round", "all", "others", "seat", "team", "total", "thrower", "gained", "out", "leaders"}
)


@dataclass(frozen=True)
class CompiledInput:
    """An input with its bounds and condition compiled (a bound may be a number)."""

    spec: InputDef
    least: Compiled | int | None
    most: Compiled | int | None
    when: Compiled | None

    @cached_property
    def bounded(self) -> bool:
        """Whether its values have bounds to check (a number, a choice, a list of numbers)."""
        kind = self.spec.kind
        return kind in ("count", "points") or (kind in ("choice", "list") and not self.spec.names)


@dataclass(frozen=True)
class CompiledCategory:
    key: str
    formula: Compiled | None
    units: Compiled | None
    over: tuple[tuple[str, Compiled], ...]
    when: Compiled | None = None


@dataclass(frozen=True)
class CompiledEndRule:
    key: str
    when: Compiled
    winners: Compiled | None
    result: str | None


@dataclass(frozen=True)
class Game:
    """One declared game, ready to keep score: its file and its compiled formulas."""

    file: GameFile
    source: str
    option_defaults: Mapping[str, Compiled]
    option_checks: tuple[Compiled, ...]
    inputs: tuple[CompiledInput, ...]
    round_derived: tuple[tuple[str, Compiled], ...]
    player_derived: tuple[tuple[str, Compiled], ...]
    categories: tuple[CompiledCategory, ...]
    round_checks: tuple[tuple[str, Compiled], ...]
    player_checks: tuple[tuple[str, Compiled], ...]
    round_warnings: tuple[tuple[str, Compiled], ...]
    player_warnings: tuple[tuple[str, Compiled], ...]
    after: tuple[tuple[str, Compiled], ...]
    turn_others: tuple[tuple[str, Compiled], ...]
    out: Compiled | None
    end_rounds: Compiled | int | None
    end_target: Compiled | int | None
    end_rules: tuple[CompiledEndRule, ...]
    end_unless: Compiled | None
    cooperative_won: Compiled | None
    ranking: tuple[tuple[str, Compiled], ...]
    """Each ranking key's value for a side, in order."""
    rank_orders: tuple[Compiled | str, ...]
    """Each ranking key's order: "highest", "lowest", or a formula on the options giving one."""
    rematch_by: Compiled | None
    team_of: Compiled | None
    figures: tuple[tuple[str, Compiled], ...]
    final: Game | None = None
    """The end's count (``final``), compiled as a game of one round for every side at once."""
    said: tuple[Compiled | None, ...] = ()
    """Each sentence of ``said``: when it is said (None: always)."""

    @property
    def key(self) -> str:
        return self.file.key

    def __repr__(self) -> str:
        # Its key, not every compiled formula (tens of kilobytes): what a log or a failing
        # test's example needs to name the game.
        return f"Game({self.key!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The same in the pretty-printers of IPython and Hypothesis, which would print a
        dataclass field by field otherwise (Hypothesis refuses a repr over 30 kB)."""
        printer.text(repr(self))

    @property
    def tiebreaks(self) -> tuple[tuple[str, Compiled], ...]:
        """The ranking's keys after the total."""
        return self.ranking[self.file.total_rank + 1 :]

    def orders_for(self, options: Mapping[str, Any], player_count: int, sides: int | None = None) -> tuple[bool, ...]:
        """Each ranking key's order with these options: True where the higher ranks first."""
        variables: dict[str, Any] | None = None
        orders: list[bool] = []
        for order in self.rank_orders:
            if isinstance(order, str):
                orders.append(order != "lowest")
                continue
            if variables is None:
                variables = {"players": player_count, "sides": sides or player_count, "tables": self.file.tables}
                variables["options"] = dict(options)
            value = order.evaluate(variables)
            if value not in ("highest", "lowest"):
                raise FormulaFailed(order.field, "gives neither 'highest' nor 'lowest'")
            orders.append(value == "highest")
        return tuple(orders)

    def lowest_wins_for(self, options: Mapping[str, Any], player_count: int, sides: int | None = None) -> bool:
        """The lowest total wins with these options (UNO's "held" scoring turns it over)."""
        return not self.orders_for(options, player_count, sides)[self.file.total_rank]

    @cached_property
    def by_turns(self) -> bool:
        return self.file.by_turns

    @cached_property
    def teams(self) -> bool:
        return self.file.play == "teams"

    @cached_property
    def cooperative(self) -> bool:
        return self.file.play == "cooperative"

    @cached_property
    def carried(self) -> dict[str, int | bool]:
        """Each value a side keeps from round to round, with its start."""
        return {item.key: item.initial for item in self.file.carry}

    @cached_property
    def player_inputs(self) -> tuple[CompiledInput, ...]:
        """The inputs given per side (a player, or a team in a team game)."""
        return tuple(item for item in self.inputs if item.spec.per_side)

    @cached_property
    def round_inputs(self) -> tuple[CompiledInput, ...]:
        return tuple(item for item in self.inputs if not item.spec.per_side)

    @cached_property
    def input_keys(self) -> frozenset[str]:
        return frozenset(item.spec.key for item in self.inputs)

    # What lets a round skip work (engine.score_round), read once from the file: each is a
    # shape of the file, never a game's name.

    @cached_property
    def points_as_given(self) -> tuple[tuple[str, str], ...] | None:
        """Each category and the number input it is, where every category's points are a
        player's input as given (the score sheet's ``scores``); None otherwise."""
        numbers = {item.spec.key for item in self.player_inputs if item.spec.kind in ("count", "points")}
        pairs = []
        for category in self.categories:
            formula = category.formula
            if category.when is not None or category.units is not None or formula is None:
                return None
            if formula.bare is None or formula.bare not in numbers:
                return None
            pairs.append((category.key, formula.bare))
        return tuple(pairs)

    @cached_property
    def ranked_by_total(self) -> bool:
        """The ranking is the total alone (its value the side's total)."""
        return len(self.ranking) == 1 and self.ranking[0][0] == "total" and self.ranking[0][1].bare == "total"

    @cached_property
    def reads_each_side(self) -> bool:
        """Whether a round needs each side's own scope: a formula read per side (derived
        values, checks, warnings, figures, what is carried or out, points or ranking other
        than as given, a bound that is a formula), or a game by turns."""
        return (
            self.by_turns
            or bool(self.player_derived or self.player_checks or self.player_warnings or self.figures)
            or bool(self.after or self.out is not None or self.turn_others)
            or self.points_as_given is None
            or not self.ranked_by_total
            or any(not isinstance(bound, int | None) for item in self.inputs for bound in (item.least, item.most))
        )


def load_game(path: Path) -> Game:
    """The game file at ``path``, read by the schema and compiled; ``GameFileError`` if not."""
    return compile_game(read_game_file(path), source=str(path))


def compile_game(file: GameFile, *, source: str = "<game file>") -> Game:
    """``file`` with every formula compiled, or ``GameFileError`` naming the first fault."""
    carried = [item.key for item in file.carry]
    for key in [item.key for item in file.inputs] + [item.key for item in file.derived] + carried:
        if key in RESERVED or key in file.tables:
            raise GameFileError(
                source, f"inputs.{key}", f"{key!r} is a name formulas already use", code="name_taken", name=key
            )
    player_keys = [item.key for item in file.inputs if item.per in ("player", "team")]
    round_keys = [item.key for item in file.inputs if item.per in ("round", "turn")]
    # In a game entered by turns, a round is one player's turn: its formulas read that
    # player's seat, total and carried values as they were before the turn.
    thrower_level = {"seat", "total", *carried} if file.by_turns else set()
    side_names = {"seat", "team"} if file.play == "teams" else {"seat"}

    types = name_types(file)

    def compiled(formula: str, field: str, names: set[str], expected: Type | None = None) -> Compiled:
        return compile_formula(formula, file=source, field=field, names=names, types=types, expected=expected)

    def bound(value: Bound | None, field: str, names: set[str]) -> Compiled | int | None:
        return compiled(value, field, names, Nullable(INT)) if isinstance(value, str) else value

    def derive(item: Any, names: set[str]) -> Compiled:
        """A derived value, its type known to the formulas after it (a side's, in ``all`` too)."""
        found = compiled(item.formula, f"derived.{item.key}", names)
        types[item.key] = found.value_type
        if item.per == "player":
            sides = dict(types["all"].fields) if isinstance(types["all"], Record) else {}
            sides[item.key] = ListOf(found.value_type)
            types["all"] = types["others"] = Record(sides)
        return found

    table_level = set(TABLE_NAMES)
    option_level = {*table_level, "options"}
    defaults = {
        option.key: compiled(option.default_formula, f"options.{option.key}.default_formula", table_level)
        for option in file.options
        if option.default_formula is not None
    }
    option_checks = tuple(
        compiled(check.holds, f"option_checks.{check.key}.holds", option_level) for check in file.option_checks
    )
    round_level = {*option_level, "round", *round_keys, "all", *thrower_level}
    round_derived: list[tuple[str, Compiled]] = []
    for item in file.derived:
        if item.per == "round":
            round_derived.append((item.key, derive(item, set(round_level))))
            round_level.add(item.key)
    # A side's own running state (its total and carried values before the round) and its inputs.
    inputs_level = {*round_level, *side_names, "total", *carried, *player_keys, "others"}
    inputs = tuple(
        CompiledInput(
            spec,
            bound(spec.min, f"inputs.{spec.key}.min", inputs_level),
            bound(spec.max, f"inputs.{spec.key}.max", inputs_level),
            compiled(spec.when, f"inputs.{spec.key}.when", option_level, BOOL) if spec.when else None,
        )
        for spec in file.inputs
    )
    player_level = set(inputs_level)
    player_derived: list[tuple[str, Compiled]] = []
    for item in file.derived:
        if item.per == "player":
            player_derived.append((item.key, derive(item, set(player_level))))
            player_level.add(item.key)
    categories = tuple(
        replace(
            _category(category, player_level, compiled, source),
            when=compiled(category.when, f"points.{category.key}.when", option_level, BOOL) if category.when else None,
        )
        for category in file.points
    )
    checks = {
        (kind, per): tuple(
            (
                check.key,
                compiled(
                    check.holds,
                    f"{kind}.{check.key}.holds",
                    player_level if per == "player" else round_level | {"all"},
                    BOOL,
                ),
            )
            for check in getattr(file, kind)
            if check.per == per
        )
        for kind in ("checks", "warnings")
        for per in ("player", "round")
    }
    # ``total`` and each carried value an ``after`` formula reads are the side's before the round.
    after = tuple(
        (key, compiled(formula, f"after.{key}", {*player_level, "gained"})) for key, formula in file.after.items()
    )
    others_level = {*option_level, "seat", "total", *carried, "thrower"}
    turn_others = tuple(
        (key, compiled(formula, f"turns.others.{key}", others_level))
        for key, formula in (file.turns.others.items() if file.turns else ())
    )
    out = compiled(file.out, "out", {*option_level, *side_names, "total", *carried}, BOOL) if file.out else None
    # The end reads the round's values and the state after it: ``all`` holds each side's
    # total, out and carried values as they are after the round; ``leaders`` the sides first.
    end_level = {*round_level, "leaders"}
    end_rules = tuple(
        CompiledEndRule(
            rule.key,
            compiled(rule.when, f"end.rules.{rule.key}.when", end_level, BOOL),
            compiled(rule.winners, f"end.rules.{rule.key}.winners", end_level) if rule.winners else None,
            rule.result,
        )
        for rule in file.end.rules
    )
    # A ranking key reads the side's values after the last round (its total, out, carried values).
    rank_level = {*player_level, "out"}
    ranking = tuple((key.key, compiled(key.formula, f"ranking.{key.key}.value", rank_level)) for key in file.ranking)
    rank_orders = tuple(
        key.order
        if key.order in ("highest", "lowest")
        else compiled(key.order, f"ranking.{key.key}.order", option_level, STRING)
        for key in file.ranking
    )
    final_level = {*option_level, *side_names, "total", "out", *carried}
    return Game(
        final=_final_count(file, source),
        said=tuple(
            compiled(sentence.when, f"said[{index}].when", round_level, BOOL) if sentence.when else None
            for index, sentence in enumerate(file.said)
        ),
        file=file,
        source=source,
        option_defaults=defaults,
        option_checks=option_checks,
        inputs=inputs,
        round_derived=tuple(round_derived),
        player_derived=tuple(player_derived),
        categories=categories,
        round_checks=checks["checks", "round"],
        player_checks=checks["checks", "player"],
        round_warnings=checks["warnings", "round"],
        player_warnings=checks["warnings", "player"],
        after=after,
        turn_others=turn_others,
        out=out,
        end_rounds=bound(file.end.rounds, "end.rounds", option_level),
        end_target=bound(file.end.target, "end.target", option_level),
        end_rules=end_rules,
        end_unless=compiled(file.end.unless, "end.unless", end_level, BOOL) if file.end.unless else None,
        # Read at the table's end too, where no round is being scored: the state alone.
        cooperative_won=compiled(
            file.cooperative.won, "cooperative.won", {*option_level, "round", "all", "leaders"}, BOOL
        )
        if file.cooperative
        else None,
        ranking=ranking,
        rank_orders=rank_orders,
        rematch_by=compiled(file.rematch.by, "rematch.by", final_level) if file.rematch else None,
        # Read before the teams exist: the players and tables, not the sides.
        team_of=compiled(file.teams.formed, "teams.formed", {"players", "tables", "seat"})
        if file.teams and file.teams.formed
        else None,
        figures=tuple(
            (figure.key, compiled(figure.value, f"figures.{figure.key}.value", rank_level, INT))
            for figure in file.figures
        ),
    )


def _final_count(file: GameFile, source: str) -> Game | None:
    """The end's count as a game of its own: the file with the count's inputs, derived values,
    points, checks and ``after`` for a round's, entered for every side at once. Its faults
    are named under ``final.``."""
    if file.final is None:
        return None
    count = file.final
    as_round = file.model_copy(
        update={
            "entry": "rounds",
            "inputs": count.inputs,
            "derived": count.derived,
            "points": count.points,
            "checks": count.checks,
            "warnings": [],
            "after": count.after,
            "turns": None,
            "figures": [],
            "said": [],
            "examples": [],
            "final": None,
            # The table has ended the game: no rule of the game's end is read after the count.
            "end": End.model_validate({"table_decides": True}),
        }
    )
    try:
        return compile_game(as_round, source=source)
    except GameFileError as error:
        raise error.under("final") from error


def input_type(spec: InputDef) -> Type:
    """What a formula reads of an input: a number, a yes or no, a group of counts, a list."""

    def part_type(part: Any) -> Type:
        kind = STRING if part.names else INT
        return Nullable(kind) if part.optional else kind

    if spec.kind == "flag":
        return BOOL
    if spec.kind == "counts":
        return Record({part.key: part_type(part) for part in spec.parts})
    if spec.kind == "records":
        return ListOf(Record({part.key: part_type(part) for part in spec.parts}))
    if spec.kind == "list":
        return ListOf(STRING if spec.names else INT)
    if spec.kind == "choice" and spec.names:
        return STRING
    if spec.kind == "groups":
        return ListOf(ListOf(INT))
    return INT


def option_type(option: Any) -> Type:
    kind: Type
    if option.kind == "flag":
        kind = BOOL
    elif option.kind == "numbers":
        kind = ListOf(INT)
    elif option.kind == "text":
        kind = STRING
    elif option.kind == "choice":
        values = {type(choice.value) for choice in option.choices}
        kind = STRING if values == {str} else INT if values == {int} else DYN
    else:
        kind = INT
    return Nullable(kind) if option.nullable else kind


def name_types(file: GameFile) -> dict[str, Type]:
    """The type of every name a formula of ``file`` may read (a derived value's is added as
    it is compiled): what the type check reads (``types.check_formula``)."""
    carried = {item.key: type_of_value(item.initial) for item in file.carry}
    inputs = {item.key: input_type(item) for item in file.inputs}
    per_side = {item.key: inputs[item.key] for item in file.inputs if item.per in ("player", "team")}
    sides = {key: ListOf(value) for key, value in per_side.items()}
    sides.update({"total": ListOf(INT), "out": ListOf(BOOL)})
    sides.update({key: ListOf(value) for key, value in carried.items()})
    types: dict[str, Type] = {
        "players": INT,
        "sides": INT,
        "round": INT,
        "seat": INT,
        "team": INT,
        "total": INT,
        "gained": INT,
        "out": BOOL,
        "leaders": ListOf(INT),
        "options": Record({option.key: option_type(option) for option in file.options}),
        "tables": Record({key: type_of_value(value) for key, value in file.tables.items()}),
        "all": Record(sides),
        "others": Record(sides),
        "thrower": Record({"seat": INT, "before": INT, "total": INT, "out": BOOL, **carried}),
        **inputs,
        **carried,
    }
    for category in file.points:
        if category.best is not None:
            types.update(dict.fromkeys(category.best.over, INT))
    return types


def _category(category: Any, names: set[str], compiled: Any, source: str) -> CompiledCategory:
    field = f"points.{category.key}"
    if category.formula is not None:
        return CompiledCategory(category.key, compiled(category.formula, f"{field}.formula", names, INT), None, ())
    best = category.best
    for name in best.over:
        if name in names:  # a share's name would hide the input or value of that name
            problem = f"{name!r} is a name formulas already use"
            raise GameFileError(source, f"{field}.best.over.{name}", problem, code="name_taken", name=name)
    over = tuple((name, compiled(start, f"{field}.best.over.{name}", names)) for name, start in best.over.items())
    return CompiledCategory(
        category.key,
        compiled(best.formula, f"{field}.best.formula", {*names, *best.over}),
        compiled(best.units, f"{field}.best.units", names),
        over,
    )
