"""The formulas of a game file: CEL (the Common Expression Language, https://cel.dev),
read once by cel-rust through the ``common-expression-language`` package, type-checked
(``types``) and evaluated in Python from their parsed tree (``evaluate``).

Why CEL: a standard made to evaluate untrusted expressions (no loops beyond comprehensions
over the values given, no I/O, no side effects, no way to define a function), with a
specification other implementations follow (cel-go, cel-java, cel-cpp), so a user's file
(issue "Your own game") is as safe to run as the catalog's. cel-rust reads a formula (a
parse error with its line and column, the names and functions it uses) and is the
reference its Python evaluation is tested against; it evaluates what the Python evaluation
does not take (``Compiled.evaluate_in_cel``). Why not at the table: handing it a value
converts it, and a round was mostly conversions (``evaluate``'s docstring has the figures).

Bounds on one evaluation, so that no formula can hold a worker: the source is at most
``MAX_FORMULA_LENGTH`` characters with at most ``MAX_COMPREHENSIONS`` comprehension macros
(``map``, ``filter``, ``all``, ``exists``, ``exists_one``), and the values a formula reads are
the inputs of one round (at most 20 players). Without loops or recursion, the work is
bounded by the number of comprehension steps: at most (list length) ** 2. Integer
overflow, division by zero and an index out of range are errors, never wrong numbers.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import cel

from marquoir.rules.errors import INVALID, RuleError

from .evaluate import EvaluationError, Run, Unsupported, compile_tree
from .gamefile import MAX_FORMULA_LENGTH, GameFileError
from .types import DYN, FormulaTypeError, Type, check_formula, check_formula_is, count_comprehensions

MAX_COMPREHENSIONS = 2
"""Comprehension macros in one formula: two nested over 20 players is 400 steps."""

_COMPREHENSION = re.compile(r"\.\s*(map|filter|all|exists_one|exists)\s*\(\s*([A-Za-z_]\w*)?")


def _int64(value: int) -> int:
    """``value`` if CEL's int holds it: past 64 bits, cel-rust would take it back as an
    unsigned number and a total would keep it; an overflow is an error, never a number."""
    if not -(2**63) <= value < 2**63:
        raise ValueError("integer overflow")
    return value


def _sum(values: list[Any]) -> int:
    if not _WHOLE_NUMBERS.issuperset(map(type, values)):  # a bool is no whole number here
        raise TypeError("sum() adds whole numbers only")
    return _int64(sum(values))


_WHOLE_NUMBERS = frozenset({int})


def _least(values: list[Any]) -> Any:
    if not values:
        raise ValueError("min() of an empty list")
    return min(values)


def _most(values: list[Any]) -> Any:
    if not values:
        raise ValueError("max() of an empty list")
    return max(values)


def _abs(value: int) -> int:
    return _int64(-value if value < 0 else value)


TIE_RULES = ("share", "split", "full", "dense")
"""How ``rank_points`` gives the points of tied places (docs/game-file.md, "Ranks and majorities"):

- ``share``: the tied pool the points of the places they cover and split them, rounded down,
  and the next place is the one after them (Cascadia's habitat majorities: two tied for the
  largest, 3 + 1 shared, 2 each);
- ``split``: the tied split the points of their place, rounded down, and the places they
  cover are used up (Sushi Go's maki: a tie for the most, 6 split, no second place);
- ``full``: every tied player scores the place's full points, and the places they cover are
  used up (Terraforming Mars' awards: a tie for first, 5 each, no second);
- ``dense``: every tied player scores the place's full points, and the next value takes the
  next place (Sushi Go Party's maki: 5, 5, 3 icons score 6, 6, 3)."""


def _rank_points(values: list[Any], points: list[Any], tie: str, least: int | None = None) -> list[int]:
    """Each side's points by its rank among ``values`` (the highest first): ``points`` gives
    the places' points in order; a side under ``least`` takes no place and scores nothing."""
    if tie not in TIE_RULES:
        raise ValueError(f"rank_points: the tie rule is one of {', '.join(TIE_RULES)}")
    if not all(type(value) is int for value in [*values, *points]):
        raise TypeError("rank_points() ranks whole numbers")
    # The seats of each value, once: the work is the sort's, whatever the ties.
    seats_of: dict[int, list[int]] = {}
    for seat, value in enumerate(values):
        if least is None or value >= least:
            seats_of.setdefault(value, []).append(seat)
    scored = [0] * len(values)
    place = 0
    for value in sorted(seats_of, reverse=True):
        if place >= len(points):
            break
        tied = seats_of[value]
        if tie == "share":
            pool = sum(points[place : place + len(tied)])
            each = pool // len(tied)
        elif tie == "split":
            each = points[place] // len(tied) if points[place] >= 0 else -((-points[place]) // len(tied))
        else:
            each = points[place]
        for seat in tied:
            scored[seat] = _int64(each)
        place += 1 if tie == "dense" else len(tied)
    return scored


FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "sum": _sum,
    "min": _least,
    "max": _most,
    "abs": _abs,
    "rank_points": _rank_points,
}
"""The functions Marquoir adds to CEL's own: over a list of whole numbers."""

_CEL_FUNCTIONS = frozenset(
    {"size", "int", "string", "has", "all", "exists", "exists_one", "map", "filter", "contains", "startsWith"}
    | {"endsWith"}
)
"""CEL's own functions and macros a game file may use (no regular expressions, times or bytes)."""


class FormulaFailed(RuleError):
    """A formula could not be evaluated on these values (a division by zero, an overflow,
    a value of the wrong kind): a fault of the file, which its examples should have caught.
    The round is refused as ``invalid`` (``formula_failed``), naming the field."""

    def __init__(self, field: str, problem: str) -> None:
        self.field, self.problem = field, problem
        super().__init__(INVALID, "formula_failed", field=field, problem=problem)


@dataclass(frozen=True, slots=True)
class Compiled:
    """One formula, compiled, with where it comes from (for errors) and the names it reads."""

    field: str
    source: str
    program: Any
    names: frozenset[str]
    value_type: Type = DYN
    """The formula's type, where it was type-checked (any type otherwise)."""
    bare: str | None = None
    """The one name the formula is, where it is nothing else (``total``, ``crowns``): its
    value is read without CEL, as CEL would give it."""
    reads: tuple[str, ...] = ()
    """The names it reads from its scope (``names`` but a comprehension's own variables)."""
    functions: tuple[str, ...] = ()
    """Marquoir's functions it calls (``FUNCTIONS``), the only ones its context holds."""
    held: threading.local = dataclasses.field(default_factory=threading.local, compare=False, repr=False)
    """Each thread's CEL context for this formula (``HeldContext``), where cel-rust evaluates it."""
    run: Run | None = dataclasses.field(default=None, compare=False, repr=False)
    """The formula evaluated in Python (``evaluate.compile_tree``): None for one it does not take."""

    def evaluate(self, variables: Scope | Mapping[str, Any]) -> Any:
        """The formula's value over ``variables``; ``FormulaFailed`` if it cannot be evaluated."""
        if self.bare is not None and self.bare in variables:
            return variables[self.bare]  # a name alone (``total``, ``scores``): its value, as CEL gives it
        if self.run is not None:
            try:
                return self.run(variables)
            except EvaluationError as error:
                raise FormulaFailed(self.field, _first_line(str(error))) from None
        return self.evaluate_in_cel(variables)

    def evaluate_in_cel(self, variables: Scope | Mapping[str, Any]) -> Any:
        """The formula's value by cel-rust (the reference the Python evaluation is tested against)."""
        try:
            if self.bare is not None:
                return variables[self.bare]
            cel_context = self._context_with(variables)
        except KeyError as missing:
            raise FormulaFailed(self.field, f"undeclared reference to {missing}") from None
        try:
            return self.program.execute(cel_context)
        except (ValueError, TypeError, KeyError, IndexError, ZeroDivisionError, OverflowError, RuntimeError) as error:
            raise FormulaFailed(self.field, _first_line(str(error))) from None

    def _context_with(self, variables: Scope | Mapping[str, Any]) -> Any:
        """This thread's context for the formula, holding ``variables``' value of each name it
        reads (KeyError for one they lack): a name is handed over only when its value is
        another object than the one the context holds."""
        held: HeldContext | None = getattr(self.held, "context", None)
        if held is None:
            held = self.held.context = HeldContext(self.functions)
        bound = held.bound
        for name in self.reads:
            value = variables[name]
            if bound.get(name, _UNBOUND) is not value:
                held.context.add_variable(name, value)
                bound[name] = value
        return held.context

    def whole_number(self, variables: Scope | Mapping[str, Any]) -> int:
        value = self.evaluate(variables)
        if type(value) is not int:
            raise FormulaFailed(self.field, f"gives {type(value).__name__}, not a whole number")
        return value

    def truth(self, variables: Scope | Mapping[str, Any]) -> bool:
        value = self.evaluate(variables)
        if type(value) is not bool:
            raise FormulaFailed(self.field, f"gives {type(value).__name__}, not true or false")
        return value


class HeldContext:
    """A formula's CEL context and the value each name holds in it.

    What a CEL context costs (common-expression-language 0.10, measured here): setting a
    name is cheap (0.2 µs), but the next evaluation after any change converts every value the
    context holds again (13 µs for Kingdomino's 24 properties, about 1 µs a field of a map),
    where an evaluation with nothing changed costs 0.2 µs. So each formula has a context of
    its own, holding only what it reads (and the functions it calls: each costs 0.1 µs a
    conversion too), changed only for a value that is another object than the one it holds
    (values are never changed in place: a new list or map replaces them)."""

    __slots__ = ("bound", "context")

    def __init__(self, functions: Iterable[str]) -> None:
        self.context: Any = cel.Context(functions={name: FUNCTIONS[name] for name in functions})
        self.bound: dict[str, Any] = {}


_UNBOUND = object()


def compile_formula(
    source: str,
    *,
    file: str,
    field: str,
    names: Iterable[str],
    types: Mapping[str, Type] | None = None,
    expected: Type | None = None,
) -> Compiled:
    """``source`` compiled, knowing only ``names`` (and CEL's and Marquoir's functions), or
    ``GameFileError`` naming the file, the field and the line and column of the fault.

    With ``types`` (each name's type; a name not in it is of any type), the formula is
    type-checked too (``types.check_formula``): a formula that could only fail at the table
    (``points * 1.5``, ``cards + true``) is refused here, and where ``expected`` is given
    (a category's points are a whole number, a check is true or false) its value must be of it."""
    names = frozenset(names)
    if len(source) > MAX_FORMULA_LENGTH:
        raise GameFileError(
            file,
            field,
            f"a formula has at most {MAX_FORMULA_LENGTH} characters",
            code="too_long",
            limit=MAX_FORMULA_LENGTH,
        )
    try:
        program = cel.compile(source)
    except ValueError as error:
        raise GameFileError(file, field, _parse_error(str(error)), code="syntax", **_position(str(error))) from None
    comprehensions = _COMPREHENSION.findall(source)
    try:
        # Counted on the parsed formula: a macro's name inside a text or a field is none.
        count = count_comprehensions(source)
    except FormulaTypeError:
        count = len(comprehensions)  # read by cel-rust, not by the standard grammar: counted by its text
    if count > MAX_COMPREHENSIONS:
        raise GameFileError(
            file,
            field,
            f"at most {MAX_COMPREHENSIONS} of map, filter, all, exists in one formula (found {count})",
            code="too_many_comprehensions",
            limit=MAX_COMPREHENSIONS,
            found=count,
        )
    # A comprehension's own variable (``c`` in ``cards.exists(c, c > 0)``) is known inside it.
    known = frozenset(names) | {bound for _macro, bound in comprehensions if bound}
    used = set(program.variables())
    for name in sorted(used - known):
        raise GameFileError(
            file,
            field,
            f"{_where(source, name)}unknown name {name!r}",
            code="unknown_name",
            name=name,
            known=sorted(known),
        )
    for function in sorted(program.functions()):
        # Operators are named by their signs (``_+_``, ``-_``, ``@in``); functions by a word.
        if not re.fullmatch(r"[A-Za-z]\w*", function) or function in _CEL_FUNCTIONS or function in FUNCTIONS:
            continue
        raise GameFileError(
            file,
            field,
            f"{_where(source, function)}unknown function {function!r}",
            code="unknown_function",
            name=function,
        )
    value_type: Type = DYN
    if types is not None:
        typed = {name: types.get(name, DYN) for name in names}
        try:
            value_type = check_formula(source, typed) if expected is None else check_formula_is(source, typed, expected)
        except FormulaTypeError as fault:
            raise GameFileError(
                file,
                field,
                f"line {fault.line}, column {fault.column}: {fault.message}",
                code=f"type.{fault.code}",
                line=fault.line,
                column=fault.column,
                message=fault.message,
            ) from None
    bare = source.strip() if used == {source.strip()} else None
    reads = tuple(sorted(used & names))
    calls = tuple(sorted(set(program.functions()) & FUNCTIONS.keys()))
    try:
        run: Run | None = compile_tree(source, FUNCTIONS)
    except Unsupported:
        run = None
    return Compiled(field, source, program, frozenset(used), value_type, bare, reads, calls, run=run)


def context(variables: Mapping[str, Any]) -> Any:
    """A CEL context holding ``variables`` and Marquoir's functions."""
    return cel.Context(variables=dict(variables), functions=dict(FUNCTIONS))


class Scope(dict[str, Any]):
    """The names a set of formulas reads: a value each, or a function that works it out the
    first time a formula reads it (``others``, costly to build and read by few games).

    A dict, so that a formula's read of a name is the dict's own lookup (``__missing__``
    works out a lazy value): a round reads a few hundred names."""

    __slots__ = ("_lazy",)

    def __init__(self, variables: Mapping[str, Any], lazy: Mapping[str, Callable[[], Any]] | None = None) -> None:
        super().__init__(variables)
        self._lazy: dict[str, Callable[[], Any]] = dict(lazy) if lazy else {}

    def __missing__(self, name: str) -> Any:
        value = self[name] = self._lazy.pop(name)()  # KeyError: a name the scope lacks
        return value

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or name in self._lazy

    def set(self, name: str, value: Any) -> None:
        self[name] = value
        if self._lazy:
            self._lazy.pop(name, None)

    @property
    def lazy(self) -> Mapping[str, Callable[[], Any]]:
        """The names not worked out yet, each with what works it out."""
        return self._lazy

    def set_lazy(self, name: str, make: Callable[[], Any]) -> None:
        """``name``'s value is ``make()``, worked out the first time a formula reads it."""
        self.pop(name, None)
        self._lazy[name] = make

    def child(self, variables: Mapping[str, Any]) -> Scope:
        """A new scope with this one's names (values and those not yet worked out) and ``variables``."""
        scope = Scope(self)
        scope.update(variables)
        if self._lazy:
            scope._lazy = {name: make for name, make in self._lazy.items() if name not in variables}
        return scope


def _where(source: str, name: str) -> str:
    found = re.search(rf"(?<![\w.]){re.escape(name)}\b", source)
    if found is None:
        return ""
    line = source.count("\n", 0, found.start()) + 1
    column = found.start() - (source.rfind("\n", 0, found.start()) + 1) + 1
    return f"line {line}, column {column}: "


def _parse_error(message: str) -> str:
    """cel-rust's ``ERROR: <input>:1:22: Syntax error: …`` as ``line 1, column 22: syntax error: …``."""
    found = re.search(r"<input>:(\d+):(\d+): (.*)", message)
    if found is None:
        return _first_line(message)
    line, column, problem = found.groups()
    problem = problem.split(" expecting ")[0]
    return f"line {line}, column {column}: {problem[:1].lower()}{problem[1:]}"


def _position(message: str) -> dict[str, int]:
    """The line and column of cel-rust's parse error, if it says them."""
    found = re.search(r"<input>:(\d+):(\d+):", message)
    return {"line": int(found.group(1)), "column": int(found.group(2))} if found else {}


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0][:200] if message.strip() else "cannot be evaluated"
