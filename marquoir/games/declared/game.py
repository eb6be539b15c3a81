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

from .formulas import Compiled, compile_formula, context
from .gamefile import Bound, GameFile, GameFileError, InputDef, read_game_file

TABLE_NAMES = ("players", "tables")
RESERVED = frozenset({*TABLE_NAMES, "options", "round", "all", "others", "seat", "total", "thrower", "gained"})


@dataclass(frozen=True)
class CompiledInput:
    """An input with its bounds and condition compiled (a bound may be a number)."""

    spec: InputDef
    least: Compiled | int | None
    most: Compiled | int | None
    when: Compiled | None


@dataclass(frozen=True)
class CompiledCategory:
    key: str
    formula: Compiled | None
    units: Compiled | None
    over: tuple[tuple[str, Compiled], ...]
    when: Compiled | None = None


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
    lowest_when: Compiled | None
    turn_after: tuple[tuple[str, Compiled], ...]
    turn_others: tuple[tuple[str, Compiled], ...]
    skip: Compiled | None
    end_rounds: Compiled | int | None
    end_target: Compiled | int | None
    tiebreaks: tuple[tuple[str, Compiled], ...]
    figures: tuple[tuple[str, Compiled], ...]

    @property
    def key(self) -> str:
        return self.file.key

    def lowest_wins_for(self, options: Mapping[str, Any], player_count: int) -> bool:
        """The lowest total wins with these options (UNO's "held" scoring turns it over)."""
        if self.lowest_when is not None:
            variables = {"players": player_count, "tables": self.file.tables, "options": dict(options)}
            if self.lowest_when.truth(context(variables)):
                return self.file.winner == "highest"
        return self.file.winner == "lowest"

    @property
    def by_turns(self) -> bool:
        return self.file.scored == "turns"

    @cached_property
    def carried(self) -> dict[str, int | bool]:
        """Each value a player keeps from turn to turn, with its start."""
        return {item.key: item.initial for item in self.file.turns.carry} if self.file.turns else {}

    @cached_property
    def player_inputs(self) -> tuple[CompiledInput, ...]:
        return tuple(item for item in self.inputs if item.spec.per == "player")

    @cached_property
    def round_inputs(self) -> tuple[CompiledInput, ...]:
        return tuple(item for item in self.inputs if item.spec.per != "player")

    @cached_property
    def input_keys(self) -> frozenset[str]:
        return frozenset(item.spec.key for item in self.inputs)


def load_game(path: Path) -> Game:
    """The game file at ``path``, read by the schema and compiled; ``GameFileError`` if not."""
    return compile_game(read_game_file(path), source=str(path))


def compile_game(file: GameFile, *, source: str = "<game file>") -> Game:
    """``file`` with every formula compiled, or ``GameFileError`` naming the first fault."""
    carried = [item.key for item in file.turns.carry] if file.turns else []
    for key in [item.key for item in file.inputs] + [item.key for item in file.derived] + carried:
        if key in RESERVED or key in file.tables:
            raise GameFileError(
                source, f"inputs.{key}", f"{key!r} is a name formulas already use", code="name_taken", name=key
            )
    player_keys = [item.key for item in file.inputs if item.per == "player"]
    round_keys = [item.key for item in file.inputs if item.per != "player"]
    # In a game played by turns, a round is one player's turn: its formulas read that
    # player's seat, total and carried values as they were before the turn.
    thrower_level = {"seat", "total", *carried} if file.turns else set()

    def compiled(formula: str, field: str, names: set[str]) -> Compiled:
        return compile_formula(formula, file=source, field=field, names=names)

    def bound(value: Bound | None, field: str, names: set[str]) -> Compiled | int | None:
        return compiled(value, field, names) if isinstance(value, str) else value

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
            round_derived.append((item.key, compiled(item.formula, f"derived.{item.key}", set(round_level))))
            round_level.add(item.key)
    inputs_level = {*round_level, "seat", *player_keys, "others"}
    inputs = tuple(
        CompiledInput(
            spec,
            bound(spec.min, f"inputs.{spec.key}.min", inputs_level),
            bound(spec.max, f"inputs.{spec.key}.max", inputs_level),
            compiled(spec.when, f"inputs.{spec.key}.when", option_level) if spec.when else None,
        )
        for spec in file.inputs
    )
    player_level = set(inputs_level)
    player_derived: list[tuple[str, Compiled]] = []
    for item in file.derived:
        if item.per == "player":
            player_derived.append((item.key, compiled(item.formula, f"derived.{item.key}", set(player_level))))
            player_level.add(item.key)
    categories = tuple(
        replace(
            _category(category, player_level, compiled, source),
            when=compiled(category.when, f"points.{category.key}.when", option_level) if category.when else None,
        )
        for category in file.points
    )
    checks = {
        (kind, per): tuple(
            (
                check.key,
                compiled(
                    check.holds, f"{kind}.{check.key}.holds", player_level if per == "player" else round_level | {"all"}
                ),
            )
            for check in getattr(file, kind)
            if check.per == per
        )
        for kind in ("checks", "warnings")
        for per in ("player", "round")
    }
    turn_after: tuple[tuple[str, Compiled], ...] = ()
    turn_others: tuple[tuple[str, Compiled], ...] = ()
    skip = None
    if file.turns:
        for kind, formulas in (("after", file.turns.after), ("others", file.turns.others)):
            for key in formulas:
                if key != "total" and key not in carried:
                    raise GameFileError(
                        source,
                        f"turns.{kind}.{key}",
                        f"{key!r} is neither total nor a carried value",
                        code="not_carried",
                    )
        # ``total`` and each carried value an ``after`` formula reads are the thrower's before the turn.
        turn_after = tuple(
            (key, compiled(formula, f"turns.after.{key}", {*player_level, "gained"}))
            for key, formula in file.turns.after.items()
        )
        others_level = {*option_level, "seat", "total", *carried, "thrower"}
        turn_others = tuple(
            (key, compiled(formula, f"turns.others.{key}", others_level)) for key, formula in file.turns.others.items()
        )
        if file.turns.skip:
            skip = compiled(file.turns.skip, "turns.skip", {*option_level, "seat", "total", *carried})
    return Game(
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
        lowest_when=compiled(file.lowest_wins_when, "lowest_wins_when", option_level)
        if file.lowest_wins_when
        else None,
        turn_after=turn_after,
        turn_others=turn_others,
        skip=skip,
        end_rounds=bound(file.end.rounds, "end.rounds", option_level),
        end_target=bound(file.end.target, "end.target", option_level),
        tiebreaks=tuple(
            (tiebreak.key, compiled(tiebreak.value, f"tiebreaks.{tiebreak.key}.value", {*player_level, "total"}))
            for tiebreak in file.tiebreaks
        ),
        figures=tuple(
            (figure.key, compiled(figure.value, f"figures.{figure.key}.value", player_level)) for figure in file.figures
        ),
    )


def _category(category: Any, names: set[str], compiled: Any, source: str) -> CompiledCategory:
    field = f"points.{category.key}"
    if category.formula is not None:
        return CompiledCategory(category.key, compiled(category.formula, f"{field}.formula", names), None, ())
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
