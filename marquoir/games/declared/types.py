"""The types of a game file's formulas, checked when the file loads rather than at the table.

cel-rust, which runs the formulas (``formulas``), has no type checker: ``points * 1.5`` (an
int times a double) or ``"a" + 1`` compile, then fail at every round a table plays. This
module reads each formula with the standard CEL grammar (``cel.lark``, the one ``cost``
reads) and works out its type from the types of the names it reads, refusing on the first
fault with a ``FormulaTypeError`` that says what, where (line and column) and a code:

- ``double``: a decimal literal (a game file counts in whole numbers);
- ``literal``: an unsigned (``1u``) or bytes (``b"x"``) literal, which cel-rust will not mix with ints;
- ``operator``: an operator on types it does not take (``1 + true``, ``!3``, ``x < "a"``);
- ``condition``: a ternary's condition that is not a bool;
- ``branches``: a ternary's branches, or a list's or map's entries, of incompatible types;
- ``field``: a field a record does not have (``options.targett``), or a field of a non-record;
- ``index``: indexing what cannot be indexed, or a list by a non-int, a map by a wrong key;
- ``function``: an unknown function, or one given the wrong number or types of arguments;
- ``macro``: a comprehension (``all``, ``exists``, ``exists_one``, ``map``, ``filter``) over a
  non-list, a malformed one, or one whose condition is not a bool;
- ``unknown_name``: a name neither given nor a comprehension's variable in scope;
- ``result``: the formula's type is not the one its field wants (``check_formula_is``);
- ``syntax``: the grammar does not read it; ``nested``: it nests too deep to check.

The checker is permissive exactly where CEL is dynamic: ``DYN`` (a value whose type is not
known) is taken by every operator and function and joins with anything. Everywhere else it
is strict, including where cel-rust would quietly give ``false`` (``1 == "a"``): a formula
comparing a number to a text is a mistake in a game file, never an intent.

Pure: no Django, no I/O beyond reading the grammar once.
"""

from __future__ import annotations

import ast
from collections import ChainMap
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import NoReturn, cast

from lark import Lark, Token
from lark import Tree as LarkTree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from .grammar import parser

__all__ = [
    "BOOL",
    "COMPREHENSIONS",
    "DOUBLE",
    "DYN",
    "INT",
    "NULL",
    "STRING",
    "FormulaTypeError",
    "ListOf",
    "MapOf",
    "Nullable",
    "Primitive",
    "Record",
    "Type",
    "accepts",
    "check_formula",
    "check_formula_is",
    "count_comprehensions",
    "join",
    "type_of_value",
]


# --- the types


class Type:
    """A formula's type, or a name's. Immutable and hashable: types are compared and joined,
    never changed."""

    __slots__ = ()


@dataclass(frozen=True, slots=True, repr=False)
class Primitive(Type):
    """One of CEL's scalar types, by its CEL name; ``DYN`` is CEL's ``dyn``: not known."""

    name: str

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name.upper()


INT = Primitive("int")
BOOL = Primitive("bool")
STRING = Primitive("string")
NULL = Primitive("null")
DYN = Primitive("dyn")
DOUBLE = Primitive("double")
"""Only so that a decimal literal has a type to be refused by: a game file has whole numbers only."""


@dataclass(frozen=True, slots=True)
class ListOf(Type):
    item: Type

    def __str__(self) -> str:
        return f"list({self.item})"


@dataclass(frozen=True, slots=True)
class MapOf(Type):
    """A map whose keys are not known in advance (a map literal, a table given as a map)."""

    key: Type
    value: Type

    def __str__(self) -> str:
        return f"map({self.key}, {self.value})"


@dataclass(frozen=True, slots=True, eq=False)
class Record(Type):
    """A map whose keys are known: ``options``, ``tables``, a counts input (``science.compass``),
    ``all``. CEL sees a map; the checker knows its fields, so a misspelt one is refused."""

    fields: Mapping[str, Type]

    def __post_init__(self) -> None:
        # A copy behind a read-only view: the record stays as it was made, whatever the
        # caller does with its own dict afterwards.
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and dict(self.fields) == dict(other.fields)

    def __hash__(self) -> int:
        return hash(frozenset(self.fields.items()))

    def __repr__(self) -> str:
        return f"Record({dict(self.fields)!r})"

    def __str__(self) -> str:
        shown = [f"{name}: {value}" for name, value in sorted(self.fields.items())[:6]]
        more = ", …" if len(self.fields) > 6 else ""
        return "{" + ", ".join(shown) + more + "}"


@dataclass(frozen=True, slots=True)
class Nullable(Type):
    """A value that may be null (a nullable option, ``c ? 1 : null``). It may be compared to
    null, and operators and functions take it as its inner type, since formulas guard it
    (``x == null ? 0 : x + 1``); only a result that may be null where a value is wanted is
    refused (``check_formula_is``)."""

    inner: Type

    def __str__(self) -> str:
        return f"{self.inner} or null"


def _nullable(inner: Type) -> Type:
    """``inner`` or null, without nesting (null or null is null; dyn may be null already)."""
    return inner if inner in (NULL, DYN) or isinstance(inner, Nullable) else Nullable(inner)


def _strip(value: Type) -> Type:
    """The type an operator sees: a nullable value as its inner type."""
    return value.inner if isinstance(value, Nullable) else value


def join(first: Type, second: Type) -> Type | None:
    """The type of a value that is one of two (a ternary's branches, a list's entries), or
    None when they cannot be one value's: int with string, a list with a map.

    dyn joins with anything into dyn; null with a type into that type or null; lists and
    maps entry by entry; two records with the same fields field by field, otherwise as maps
    (at run time both are maps)."""
    if first == second:
        return first
    if DYN in (first, second):
        return DYN
    if first == NULL:
        return _nullable(second)
    if second == NULL:
        return _nullable(first)
    if isinstance(first, Nullable) or isinstance(second, Nullable):
        inner = join(_strip(first), _strip(second))
        return None if inner is None else _nullable(inner)
    if isinstance(first, ListOf) and isinstance(second, ListOf):
        item = join(first.item, second.item)
        return None if item is None else ListOf(item)
    if isinstance(first, Record) and isinstance(second, Record) and first.fields.keys() == second.fields.keys():
        fields = {name: join(value, second.fields[name]) for name, value in first.fields.items()}
        if all(value is not None for value in fields.values()):
            return Record(cast(dict[str, Type], fields))
    if isinstance(first, MapOf | Record) and isinstance(second, MapOf | Record):
        left, right = _as_map(first), _as_map(second)
        key, value = join(left.key, right.key), join(left.value, right.value)
        return None if key is None or value is None else MapOf(key, value)
    return None


def _as_map(value: MapOf | Record) -> MapOf:
    """A record seen as a map: string keys, its fields' joined type as values (dyn if they differ)."""
    if isinstance(value, MapOf):
        return value
    return MapOf(STRING, _join_all(value.fields.values()))


def _join_all(types: Iterable[Type]) -> Type:
    """The join of ``types``, dyn if there are none or they do not join."""
    found: Type | None = None
    for value in types:
        found = value if found is None else join(found, value)
        if found is None:
            return DYN
    return DYN if found is None else found


def accepts(expected: Type, actual: Type) -> bool:
    """Whether a value of type ``actual`` may stand where ``expected`` is wanted: dyn either
    way, null or the inner type where a nullable is wanted, never a nullable where a value
    is wanted; lists and maps entry by entry; a record where a record is wanted if it has
    every wanted field (more fields do no harm)."""
    if expected == actual or DYN in (expected, actual):
        return True
    if isinstance(expected, Nullable):
        return actual == NULL or accepts(expected.inner, _strip(actual))
    if isinstance(expected, ListOf):
        return isinstance(actual, ListOf) and accepts(expected.item, actual.item)
    if isinstance(expected, MapOf):
        if isinstance(actual, Record):
            return accepts(expected.key, STRING) and all(accepts(expected.value, v) for v in actual.fields.values())
        return isinstance(actual, MapOf) and accepts(expected.key, actual.key) and accepts(expected.value, actual.value)
    if isinstance(expected, Record):
        if isinstance(actual, MapOf):  # its keys are not known: dynamic, taken
            return accepts(actual.key, STRING) and all(accepts(v, actual.value) for v in expected.fields.values())
        return isinstance(actual, Record) and all(
            name in actual.fields and accepts(value, actual.fields[name]) for name, value in expected.fields.items()
        )
    return False


def type_of_value(value: object) -> Type:
    """The type of a value from a game file's TOML (its tables, an option's default) as
    formulas see it. A list of mixed entries is a list of dyn, as CEL types it; anything
    TOML has that formulas have no type for (a date) is dyn."""
    # bool first: True is an int to Python, never to CEL.
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return DOUBLE
    if isinstance(value, str):
        return STRING
    if isinstance(value, list | tuple):
        return ListOf(_join_all(type_of_value(item) for item in value))
    if isinstance(value, Mapping):
        if all(isinstance(key, str) for key in value):
            return Record({key: type_of_value(item) for key, item in value.items()})
        return MapOf(_join_all(map(type_of_value, value.keys())), _join_all(map(type_of_value, value.values())))
    return DYN


# --- the errors


class FormulaTypeError(ValueError):
    """A formula's type fault: its ``code`` (module docstring), a message in English, the
    1-based line and column it points at, and ``params`` naming what is at fault (the
    operator and its operands' types, the field, the function...) for a translated message."""

    def __init__(self, code: str, message: str, line: int, column: int, **params: object) -> None:
        self.code, self.message, self.line, self.column = code, message, line, column
        self.params: dict[str, object] = params
        super().__init__(f"line {line}, column {column}: {message}")


# --- the parser

Tree = LarkTree[Token]
Node = Tree | Token

COMPREHENSIONS = frozenset({"map", "filter", "all", "exists", "exists_one"})
"""CEL's comprehension macros, called as methods: ``xs.map(x, …)``."""


def _parser() -> Lark:
    """The parser ``cost`` bounds formulas with: a formula read by both is parsed by one grammar."""
    return parser()


def _positioned_parser() -> Lark:
    """The same grammar with a position on every node: parsed only for a formula that
    failed, checked again on it to fail the same way, now saying where (the tests check
    that both read formulas into the same trees)."""
    return parser(positions=True)


@lru_cache(maxsize=512)
def parsed_tree(source: str) -> Tree:
    """``source``'s tree, parsed once however many times it is checked or counted while a
    file loads (trees are only read, never changed, so sharing them is safe)."""
    try:
        return _parser().parse(source)
    except LarkError:
        pass
    _positioned_tree(source)  # the same grammar refuses it again, now with its position
    raise FormulaTypeError("syntax", "the formula cannot be read", 1, 1)


def _positioned_tree(source: str) -> Tree:
    """``source``'s tree with positions, or its syntax error with its position."""
    try:
        return _positioned_parser().parse(source)
    except UnexpectedCharacters as error:
        raise FormulaTypeError(
            "syntax", f"unexpected character {error.char!r}", error.line, error.column, found=error.char
        ) from None
    except UnexpectedEOF:
        line, column = _position(source, len(source))
        raise FormulaTypeError("syntax", "the formula ends too soon", line, column) from None
    except UnexpectedToken as error:
        token = error.token
        if token.type == "$END" or not isinstance(token.line, int) or not isinstance(token.column, int):
            line, column = _position(source, len(source))
            raise FormulaTypeError("syntax", "the formula ends too soon", line, column) from None
        problem = f"unexpected {token.value!r}"
        raise FormulaTypeError("syntax", problem, token.line, token.column, found=str(token.value)) from None
    except LarkError as error:
        message = str(error).strip().splitlines()[0][:200] if str(error).strip() else "cannot be read"
        raise FormulaTypeError("syntax", message, 1, 1) from None


def _position(source: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``source``, as lark counts them."""
    line = source.count("\n", 0, offset) + 1
    return line, offset - (source.rfind("\n", 0, offset) + 1) + 1


def count_comprehensions(source: str) -> int:
    """How many comprehension macros ``source`` calls (``xs.map(…)``, ``.filter``, ``.all``,
    ``.exists``, ``.exists_one``), read from its tree: a word in a text (``"x.map("``) is not
    counted, nor a field of that name (``all.map``). ``FormulaTypeError`` (``syntax``) if the
    grammar does not read it."""
    return sum(
        1
        for node in parsed_tree(source).iter_subtrees()
        if node.data == "member_dot_arg" and str(node.children[1]) in COMPREHENSIONS
    )


# --- the functions formulas may call

Accepts = Callable[[Type], bool]


def _is_int(value: Type) -> bool:
    return _strip(value) in (INT, DYN)


def _is_bool(value: Type) -> bool:
    return _strip(value) in (BOOL, DYN)


def _is_string(value: Type) -> bool:
    return _strip(value) in (STRING, DYN)


def _is_int_or_string(value: Type) -> bool:
    return _strip(value) in (INT, STRING, DYN)


def _is_sized(value: Type) -> bool:
    return _strip(value) in (STRING, DYN) or isinstance(_strip(value), ListOf | MapOf | Record)


def _is_int_list(value: Type) -> bool:
    """A list of ints: its entries themselves never null (``sum`` adds ints only)."""
    stripped = _strip(value)
    return stripped == DYN or (isinstance(stripped, ListOf) and stripped.item in (INT, DYN))


def _is_ordered_list(value: Type) -> bool:
    """A list Python can take the least or most of: ints, texts, bools."""
    stripped = _strip(value)
    return stripped == DYN or (isinstance(stripped, ListOf) and stripped.item in (INT, STRING, BOOL, DYN))


def _entry(types: list[Type]) -> Type:
    """``min`` and ``max`` give an entry of their list."""
    stripped = _strip(types[0])
    return stripped.item if isinstance(stripped, ListOf) else DYN


@dataclass(frozen=True, slots=True)
class _Signature:
    """A function's parameters (what each takes, and its words for an error) and its result.
    A method's first parameter is the value it is called on. The last ``optional`` ones may
    be left out."""

    params: tuple[tuple[Accepts, str], ...]
    result: Callable[[list[Type]], Type]
    optional: int = 0


def _gives(result: Type) -> Callable[[list[Type]], Type]:
    return lambda _types: result


_SIZED = (_is_sized, "a text, a list or a map")
_INT_LIST = (_is_int_list, "a list of int")

FUNCTIONS: Mapping[str, _Signature] = {
    # CEL's own, as cel-rust has them: int() and string() of an int or a text only (int(true)
    # and string(true) are no overload there), size() of a text, list or map.
    "size": _Signature((_SIZED,), _gives(INT)),
    "int": _Signature(((_is_int_or_string, "an int or a text"),), _gives(INT)),
    "string": _Signature(((_is_int_or_string, "an int or a text"),), _gives(STRING)),
    # Marquoir's (formulas.FUNCTIONS), run in Python over a list.
    "sum": _Signature((_INT_LIST,), _gives(INT)),
    "min": _Signature(((_is_ordered_list, "a list of int, string or bool"),), _entry),
    "max": _Signature(((_is_ordered_list, "a list of int, string or bool"),), _entry),
    "abs": _Signature(((_is_int, "an int"),), _gives(INT)),
    "rank_points": _Signature(
        (_INT_LIST, _INT_LIST, (_is_string, "a text (how ties share)"), (_is_int, "an int")),
        _gives(ListOf(INT)),
        optional=1,
    ),
}
"""The functions called by name: ``size(x)``, ``sum(xs)``; ``has`` and the macros apart."""

METHODS: Mapping[str, _Signature] = {
    "size": _Signature((_SIZED,), _gives(INT)),
    "contains": _Signature(((_is_string, "a text"), (_is_string, "a text")), _gives(BOOL)),
    "startsWith": _Signature(((_is_string, "a text"), (_is_string, "a text")), _gives(BOOL)),
    "endsWith": _Signature(((_is_string, "a text"), (_is_string, "a text")), _gives(BOOL)),
}
"""The functions called on a value: ``name.startsWith("a")``; the comprehension macros apart."""

_UNAVAILABLE = {
    # CEL has bool(), and formulas lets its name through, but cel-rust 0.10 has no such
    # function: bool(true) fails at run time ("Undefined variable or function: 'bool'").
    "bool": 'bool() is not available: compare instead (x == "true")',
}


# --- the checker

_PASS_THROUGH = frozenset(
    {"expr", "conditionalor", "conditionaland", "relation", "addition", "multiplication", "unary", "member", "primary"}
)
"""The grammar's rules that are their one child unless an operator is there."""

_SYMBOLS = {
    "relation_lt": "<",
    "relation_le": "<=",
    "relation_gt": ">",
    "relation_ge": ">=",
    "relation_eq": "==",
    "relation_ne": "!=",
    "relation_in": "in",
    "addition_add": "+",
    "addition_sub": "-",
    "multiplication_mul": "*",
    "multiplication_div": "/",
    "multiplication_mod": "%",
}

FieldPath = tuple[str, ...]
"""A name and its fields (``options.target``): what a null test narrows."""


@dataclass(frozen=True, slots=True)
class _Scope:
    """What a subexpression sees: its names' types (the given ones and the comprehension
    variables around it), and the paths a null test around it showed are not null."""

    names: Mapping[str, Type]
    not_null: frozenset[FieldPath] = frozenset()

    def bind(self, name: str, value: Type) -> _Scope:
        """The scope of a comprehension's body: its variable hides a name, and what was
        known about that name's nullness no longer holds."""
        kept = frozenset(path for path in self.not_null if path[0] != name)
        # A chain, not a copy: nothing copied per comprehension, and whatever Mapping the
        # caller gave keeps answering for the names it knows. (ChainMap wants mutable maps;
        # nothing writes to it, hence the cast.)
        return _Scope(ChainMap({name: value}, cast(MutableMapping[str, Type], self.names)), kept)

    def knowing(self, paths: frozenset[FieldPath]) -> _Scope:
        return self if not paths else _Scope(self.names, self.not_null | paths)


_NO_TESTS: tuple[frozenset[FieldPath], frozenset[FieldPath]] = (frozenset(), frozenset())


class _Refused(Exception):
    """A fault found on a tree without positions: ``check_formula`` checks again on one with."""


class _Checker:
    """One walk of one formula's tree, each node's type worked out once from its children's.

    ``positioned``: the tree has positions (``_positioned_parser``), and a fault is raised
    as the ``FormulaTypeError`` saying where; otherwise as ``_Refused``."""

    def __init__(self, source: str, names: Mapping[str, Type], *, positioned: bool) -> None:
        self.source = source
        self.names = names
        self.positioned = positioned

    # -- positions and errors

    @staticmethod
    def _start(node: Node) -> int:
        if isinstance(node, Token):
            return node.start_pos or 0
        if not node.meta.empty:
            return node.meta.start_pos
        for token in node.scan_values(lambda value: isinstance(value, Token)):
            return token.start_pos or 0
        return 0

    def fail(self, code: str, message: str, at: Node | int, **params: object) -> NoReturn:
        if not self.positioned:
            raise _Refused
        offset = at if isinstance(at, int) else self._start(at)
        line, column = _position(self.source, offset)
        raise FormulaTypeError(code, message, line, column, **params)

    def _between(self, symbol: str, left: Node, right: Node) -> int:
        """Where ``symbol`` (``&&``, ``?``) is written between two operands: the grammar keeps
        no token for it, but nothing but blanks and comments separates them from it."""
        end = left.meta.end_pos if isinstance(left, LarkTree) and not left.meta.empty else self._start(left)
        found = self.source.find(symbol, end, self._start(right))
        return found if found >= 0 else end

    # -- the walk

    def check(self, node: Node, scope: _Scope) -> Type:
        """``node``'s type, or ``FormulaTypeError``."""
        while isinstance(node, LarkTree):
            # Each operand is wrapped in a chain of one-child rules (expr, conditionalor...,
            # primary): walked down in a loop, not a call each, so that only the real
            # nesting of a formula uses Python's stack.
            if (node.data in _PASS_THROUGH and len(node.children) == 1) or node.data == "paren_expr":
                node = node.children[0]
                continue
            handler = _HANDLERS.get(node.data)
            if handler is None:  # a rule of the grammar this checker does not know: nothing to refuse
                return DYN
            return handler(self, node, scope)
        return self._literal(node)

    def _literal(self, token: Token) -> Type:
        kind = token.type
        if kind == "INT_LIT":
            return INT
        if kind in ("STRING_LIT", "MLSTRING_LIT"):
            return STRING
        if kind == "BOOL_LIT":
            return BOOL
        if kind == "NULL_LIT":
            return NULL
        if kind == "FLOAT_LIT":
            self.fail(
                "double",
                f"{token.value} is a decimal number: a game file counts in whole numbers",
                token,
                value=str(token),
            )
        if kind in ("UINT_LIT", "BYTES_LIT"):
            what = "an unsigned number" if kind == "UINT_LIT" else "bytes"
            self.fail(
                "literal", f"{token.value} is {what}: a game file has ints, texts and bools", token, value=str(token)
            )
        return DYN  # no other terminal stands for a value

    def _name(self, token: Token, scope: _Scope | None) -> Type:
        """A name's type: from the scope (comprehension variables first), or only from the
        given names for ``.name`` (CEL's root scope)."""
        name = str(token)
        names = self.names if scope is None else scope.names
        found = names.get(name)
        if found is None:
            self.fail("unknown_name", f"unknown name {name!r}", token, name=name, known=sorted(names))
        if scope is not None and isinstance(found, Nullable) and (name,) in scope.not_null:
            return found.inner
        return found

    def _ident(self, node: Tree, scope: _Scope) -> Type:
        return self._name(cast(Token, node.children[0]), scope)

    def _dot_ident(self, node: Tree, scope: _Scope) -> Type:
        return self._name(cast(Token, node.children[0]), None)

    # -- operators

    def _ternary(self, node: Tree, scope: _Scope) -> Type:
        condition, yes, no = node.children
        found = self.check(condition, scope)
        if not _is_bool(found):
            self.fail("condition", f"the condition of ? : gives {found}, not bool", condition, found=str(found))
        when_true, when_false = _null_tests(condition)
        first = self.check(yes, scope.knowing(when_true))
        second = self.check(no, scope.knowing(when_false))
        joined = join(first, second)
        if joined is None:
            self.fail(
                "branches",
                f"the branches of ? : give {first} and {second}, which cannot be one value",
                self._between("?", condition, yes),
                first=str(first),
                second=str(second),
            )
        return joined

    def _logical(self, node: Tree, scope: _Scope) -> Type:
        """``a && b && c`` (or ``||``): walked along its left spine, not down it. The right of
        ``&&`` is read knowing the left held (``x != null && x > 3``), of ``||`` that it did not."""
        kind, symbol = node.data, "&&" if node.data == "conditionaland" else "||"
        spine: list[tuple[Node, Node]] = []
        left_node: Node = node
        while isinstance(left_node, LarkTree) and left_node.data == kind and len(left_node.children) == 2:
            spine.append((left_node.children[0], left_node.children[1]))
            left_node = left_node.children[0]
        left = self.check(left_node, scope)
        known = _null_tests(left_node)[0 if kind == "conditionaland" else 1]
        for before, right_node in reversed(spine):
            right = self.check(right_node, scope.knowing(known))
            if not (_is_bool(left) and _is_bool(right)):
                self.fail(
                    "operator",
                    f"{symbol} takes two bools, not {left} and {right}",
                    self._between(symbol, before, right_node),
                    operator=symbol,
                    left=str(left),
                    right=str(right),
                )
            left = BOOL
            known |= _null_tests(right_node)[0 if kind == "conditionaland" else 1]
        return left

    def _binary(self, node: Tree, scope: _Scope) -> Type:
        """A relation, an addition or a multiplication chain (``a + b - c``), left to right,
        along its left spine: ``rule(rule_op(left), right)``."""
        kind = node.data
        spine: list[tuple[Tree, Node]] = []
        current: Node = node
        while isinstance(current, LarkTree) and current.data == kind and len(current.children) == 2:
            operator = cast(Tree, current.children[0])
            spine.append((operator, current.children[1]))
            current = operator.children[0]
        left = self.check(current, scope)
        for operator, right_node in reversed(spine):
            right = self.check(right_node, scope)
            left = self._operator(operator, left, right)
        return left

    def _operator(self, operator: Tree, left: Type, right: Type) -> Type:
        symbol = _SYMBOLS[operator.data]
        found = _operation(symbol, left, right)
        if found is None:
            # The operator's token is the last of its rule (``relation_lt: relation "<"``).
            at = operator.meta.end_pos - len(symbol) if not operator.meta.empty else self._start(operator)
            self.fail(
                "operator",
                f"{symbol} does not take {left} and {right}",
                at,
                operator=symbol,
                left=str(left),
                right=str(right),
            )
        return found

    def _unary(self, node: Tree, scope: _Scope) -> Type:
        """``!x``, ``-x``, ``!!x``…: the signs collected in a loop, applied innermost first."""
        signs: list[Tree] = []
        current: Node = node
        while isinstance(current, LarkTree) and current.data == "unary" and len(current.children) == 2:
            signs.append(cast(Tree, current.children[0]))
            current = current.children[1]
        found = self.check(current, scope)
        for sign in reversed(signs):
            negation = sign.data == "unary_not"
            wanted = _is_bool(found) if negation else _is_int(found)
            if not wanted:
                symbol = "!" if negation else "-"
                taken = "a bool" if negation else "an int"
                self.fail("operator", f"{symbol} takes {taken}, not {found}", sign, operator=symbol, operand=str(found))
            found = BOOL if negation else INT
        return found

    # -- members

    def _member_dot(self, node: Tree, scope: _Scope) -> Type:
        member, field = node.children[0], cast(Token, node.children[1])
        found = self._field(self.check(member, scope), field)
        if isinstance(found, Nullable) and scope.not_null and _path(node) in scope.not_null:
            return found.inner
        return found

    def _field(self, value: Type, field: Token) -> Type:
        name = str(field)
        stripped = _strip(value)
        if isinstance(stripped, Record):
            found = stripped.fields.get(name)
            if found is None:
                known = sorted(stripped.fields)
                listed = f" (its fields: {', '.join(known)})" if known else " (it has none)"
                self.fail("field", f"no field {name!r}{listed}", field, field=name, known=known)
            return found
        if isinstance(stripped, MapOf) and accepts(stripped.key, STRING):
            return stripped.value
        if stripped == DYN:
            return DYN
        self.fail("field", f"{value} has no field {name!r}", field, field=name, type=str(value))

    def _member_index(self, node: Tree, scope: _Scope) -> Type:
        member, index = node.children
        container = self.check(member, scope)
        key = self.check(index, scope)
        stripped, key_type = _strip(container), _strip(key)
        if stripped == DYN:
            return DYN
        if isinstance(stripped, ListOf):
            if key_type not in (INT, DYN):
                self.fail("index", f"a list is indexed by an int, not {key}", index, found=str(key))
            return stripped.item
        if isinstance(stripped, MapOf):
            if join(key_type, stripped.key) is None:
                self.fail("index", f"{container} is indexed by {stripped.key}, not {key}", index, found=str(key))
            return stripped.value
        if isinstance(stripped, Record):
            if key_type not in (STRING, DYN):
                self.fail("index", f"{container} is indexed by a text, not {key}", index, found=str(key))
            written = _string_literal(index)
            if written is not None:  # tables["route_points"]: that field
                return self._field(stripped, Token.new_borrow_pos("IDENT", written, _first_token(index)))
            # A key worked out at the table (tables.route_points[string(n)]): any field's value.
            return _join_all(stripped.fields.values())
        self.fail("index", f"{container} cannot be indexed", member, type=str(container))

    def _member_object(self, node: Tree, scope: _Scope) -> Type:
        self.fail("unknown_name", "a game file has no message types to build", node, name="")

    def _member_dot_arg(self, node: Tree, scope: _Scope) -> Type:
        member, function = node.children[0], cast(Token, node.children[1])
        arguments = _arguments(node.children[2:])
        target = self.check(member, scope)
        if str(function) in COMPREHENSIONS:
            return self._comprehension(function, target, member, arguments, scope)
        return self._call(function, arguments, scope, METHODS, (target, member))

    def _ident_arg(self, node: Tree, scope: _Scope) -> Type:
        function = cast(Token, node.children[0])
        arguments = _arguments(node.children[1:])
        if str(function) == "has":
            return self._has(function, arguments, scope)
        return self._call(function, arguments, scope, FUNCTIONS, None)

    _dot_ident_arg = _ident_arg

    # -- calls

    def _call(
        self,
        function: Token,
        arguments: list[Node],
        scope: _Scope,
        table: Mapping[str, _Signature],
        target: tuple[Type, Node] | None,
    ) -> Type:
        name = str(function)
        signature = table.get(name)
        written = f"{name}()" if target is None else f".{name}()"
        if signature is None:
            if name in _UNAVAILABLE:
                self.fail("function", _UNAVAILABLE[name], function, function=name)
            if target is None and name in COMPREHENSIONS:
                problem = f"{name}() is called on a list: xs.{name}(x, …)"
                self.fail("function", problem, function, function=name)
            self.fail("function", f"unknown function {written}", function, function=name)
        given = [(self.check(argument, scope), argument) for argument in arguments]
        if target is not None:
            given.insert(0, target)
        shift = 0 if target is None else 1  # a method's count leaves out what it is called on
        most, least = len(signature.params), len(signature.params) - signature.optional
        if not least <= len(given) <= most:
            counts = f"{least - shift}" if least == most else f"{least - shift} or {most - shift}"
            self.fail(
                "function",
                f"{written} takes {counts} argument{'s' if most - shift != 1 else ''}, not {len(given) - shift}",
                function,
                function=name,
                wanted=most - shift,
                found=len(given) - shift,
            )
        for (found, argument), (accepted, wanted) in zip(given, signature.params, strict=False):
            if not accepted(found):
                self.fail(
                    "function",
                    f"{written} takes {wanted}, not {found}",
                    argument,
                    function=name,
                    wanted=wanted,
                    found=str(found),
                )
        return signature.result([found for found, _argument in given])

    def _has(self, function: Token, arguments: list[Node], scope: _Scope) -> Type:
        """``has(x.f)``: CEL's macro, which takes a field selection, not a value."""
        selection = _unwrapped(arguments[0]) if len(arguments) == 1 else None
        if not isinstance(selection, LarkTree) or selection.data != "member_dot":
            self.fail("function", "has() takes a field: has(x.field)", function, function="has")
        member, field = selection.children[0], cast(Token, selection.children[1])
        self._field(self.check(member, scope), field)
        return BOOL

    def _comprehension(
        self, macro_token: Token, target: Type, target_node: Node, arguments: list[Node], scope: _Scope
    ) -> Type:
        """``xs.all(x, p)`` and the like: ``x`` is each entry of a list, or each key of a map
        (as in CEL: ``routes.map(n, routes[n])`` goes over a counts input's keys), known only
        in the macro's own arguments."""
        macro = str(macro_token)
        counts = (2, 3) if macro == "map" else (2,)
        variable = _unwrapped(arguments[0]) if arguments else None
        if (
            len(arguments) not in counts
            or not isinstance(variable, LarkTree)
            or variable.data != "ident"
            or not variable.children
        ):
            shape = f"xs.{macro}(x, condition)" if macro != "map" else "xs.map(x, value) or xs.map(x, condition, value)"
            self.fail("macro", f"{macro}() is written {shape}", macro_token, macro=macro)
        stripped = _strip(target)
        if isinstance(stripped, ListOf):
            entry = stripped.item
        elif isinstance(stripped, MapOf):
            entry = stripped.key
        elif isinstance(stripped, Record):
            entry = STRING
        elif stripped == DYN:
            entry = DYN
        else:
            self.fail(
                "macro",
                f"{macro}() goes over a list or a map, not {target}",
                target_node,
                macro=macro,
                found=str(target),
            )
        inner = scope.bind(str(variable.children[0]), entry)
        if macro != "map" or len(arguments) == 3:
            condition = arguments[1]
            found = self.check(condition, inner)
            if not _is_bool(found):
                self.fail(
                    "macro",
                    f"the condition of {macro}() gives {found}, not bool",
                    condition,
                    macro=macro,
                    found=str(found),
                )
            if macro == "filter":
                return ListOf(entry)
            if macro != "map":
                return BOOL
        return ListOf(self.check(arguments[-1], inner))

    # -- literals of lists and maps

    def _list_lit(self, node: Tree, scope: _Scope) -> Type:
        items = _arguments(node.children)
        found: Type = DYN  # [] is a list of anything: it joins with any list
        for index, item in enumerate(items):
            value = self.check(item, scope)
            joined = value if index == 0 else join(found, value)
            if joined is None:
                self.fail(
                    "branches",
                    f"a list's entries give {found} and {value}, which cannot be one type",
                    item,
                    first=str(found),
                    second=str(value),
                )
            found = joined
        return ListOf(found)

    def _map_lit(self, node: Tree, scope: _Scope) -> Type:
        entries = list(cast(Tree, node.children[0]).children) if node.children else []
        key_type: Type | None = None
        value_type: Type | None = None
        for key_node, value_node in zip(entries[::2], entries[1::2], strict=True):
            key, value = self.check(key_node, scope), self.check(value_node, scope)
            if _strip(key) not in (INT, STRING, BOOL, DYN):
                self.fail("index", f"a map's key is an int, a text or a bool, not {key}", key_node, found=str(key))
            for before, now, at in ((key_type, key, key_node), (value_type, value, value_node)):
                if before is not None and join(before, now) is None:
                    self.fail(
                        "branches",
                        f"a map's entries give {before} and {now}, which cannot be one type",
                        at,
                        first=str(before),
                        second=str(now),
                    )
            key_type = key if key_type is None else join(key_type, key)
            value_type = value if value_type is None else join(value_type, value)
        return MapOf(key_type or DYN, value_type or DYN)


def _operation(symbol: str, left: Type, right: Type) -> Type | None:
    """The type ``left symbol right`` gives, or None if no overload takes them. A nullable
    operand counts as its inner type (formulas guard it); dyn is taken where the other
    operand could meet it."""
    if symbol in ("==", "!="):
        return None if join(left, right) is None else BOOL
    if symbol == "in":
        container = _strip(right)
        if container == DYN:
            return BOOL
        if isinstance(container, ListOf):
            return None if join(left, container.item) is None else BOOL
        if isinstance(container, MapOf):
            return None if join(left, container.key) is None else BOOL
        if isinstance(container, Record):
            return None if join(left, STRING) is None else BOOL
        return None
    first, second = _strip(left), _strip(right)
    if symbol in ("<", "<=", ">", ">="):
        if first not in (INT, STRING, DYN) or second not in (INT, STRING, DYN):
            return None
        return BOOL if DYN in (first, second) or first == second else None
    if symbol == "+":
        if first == second == DYN:
            return DYN
        if DYN in (first, second):
            known = second if first == DYN else first
            if known in (INT, STRING):
                return known
            return ListOf(DYN) if isinstance(known, ListOf) else None
        if first == second and first in (INT, STRING):
            return first
        if isinstance(first, ListOf) and isinstance(second, ListOf):
            item = join(first.item, second.item)
            return None if item is None else ListOf(item)
        return None
    # - * / %: ints only (there are no doubles, so dyn can only be an int here).
    return INT if first in (INT, DYN) and second in (INT, DYN) else None


def _unwrapped(node: Node) -> Node:
    """``node`` through its one-child rules and parentheses: what it really is."""
    while isinstance(node, LarkTree) and (
        (node.data in _PASS_THROUGH and len(node.children) == 1) or node.data == "paren_expr"
    ):
        node = node.children[0]
    return node


def _first_token(node: Node) -> Token:
    while isinstance(node, LarkTree):
        node = node.children[0]
    return node


def _arguments(children: list[Node]) -> list[Node]:
    """The expressions of an optional ``exprlist`` (absent when a call has no arguments)."""
    if not children:
        return []
    listed = children[0]
    return list(listed.children) if isinstance(listed, LarkTree) and listed.data == "exprlist" else [listed]


def _string_literal(node: Node) -> str | None:
    """The text ``node`` writes, if it is a plain text literal (``"route_points"``)."""
    found = _unwrapped(node)
    if isinstance(found, LarkTree) and found.data == "literal":
        found = found.children[0]
    if not isinstance(found, Token) or found.type != "STRING_LIT":
        return None
    try:
        # CEL's escapes are Python's for what a key holds; anything else is not a literal here.
        value = ast.literal_eval(str(found))
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


def _path(node: Node) -> FieldPath | None:
    """The name and fields ``node`` reads (``options.target``), if it is only that."""
    found = _unwrapped(node)
    if isinstance(found, LarkTree) and found.data == "ident":
        return (str(found.children[0]),)
    if isinstance(found, LarkTree) and found.data == "member_dot":
        inner = _path(found.children[0])
        return None if inner is None else (*inner, str(found.children[1]))
    return None


def _is_null(node: Node) -> bool:
    found = _unwrapped(node)
    if isinstance(found, LarkTree) and found.data == "literal":
        found = found.children[0]
    return isinstance(found, Token) and found.type == "NULL_LIT"


def _null_tests(node: Node) -> tuple[frozenset[FieldPath], frozenset[FieldPath]]:
    """The paths known not null when ``node`` is true, and when it is false: ``x != null``
    and ``x == null`` (either way round), through ``&&``, ``||``, ``!`` and parentheses.
    A ternary's branches are read knowing them: ``x == null ? 0 : x`` gives an int."""
    found = _unwrapped(node)
    if not isinstance(found, LarkTree) or len(found.children) != 2:
        return _NO_TESTS
    if found.data == "relation":
        operator, right = found.children
        if not isinstance(operator, LarkTree) or operator.data not in ("relation_eq", "relation_ne"):
            return _NO_TESTS
        left = operator.children[0]
        path = _path(left) if _is_null(right) else _path(right) if _is_null(left) else None
        if path is None:
            return _NO_TESTS
        known = frozenset({path})
        return (known, frozenset()) if operator.data == "relation_ne" else (frozenset(), known)
    if found.data == "unary":
        sign, operand = found.children
        if isinstance(sign, LarkTree) and sign.data == "unary_not":
            when_true, when_false = _null_tests(operand)
            return when_false, when_true
        return _NO_TESTS
    if found.data == "conditionaland":
        return _null_tests(found.children[0])[0] | _null_tests(found.children[1])[0], frozenset()
    if found.data == "conditionalor":
        return frozenset(), _null_tests(found.children[0])[1] | _null_tests(found.children[1])[1]
    return _NO_TESTS


_HANDLERS: Mapping[str, Callable[[_Checker, Tree, _Scope], Type]] = {
    "expr": _Checker._ternary,
    "conditionalor": _Checker._logical,
    "conditionaland": _Checker._logical,
    "relation": _Checker._binary,
    "addition": _Checker._binary,
    "multiplication": _Checker._binary,
    "unary": _Checker._unary,
    "member_dot": _Checker._member_dot,
    "member_dot_arg": _Checker._member_dot_arg,
    "member_index": _Checker._member_index,
    "member_object": _Checker._member_object,
    "ident": _Checker._ident,
    "ident_arg": _Checker._ident_arg,
    "dot_ident": _Checker._dot_ident,
    "dot_ident_arg": _Checker._dot_ident_arg,
    "list_lit": _Checker._list_lit,
    "map_lit": _Checker._map_lit,
    "literal": lambda checker, node, _scope: checker.check(node.children[0], _scope),
}
"""Each rule of the grammar to what types it (``check`` walks through the one-child ones)."""


# --- the entry points


def check_formula(source: str, names: Mapping[str, Type]) -> Type:
    """The type of ``source`` where each name has its type in ``names``, or
    ``FormulaTypeError`` at the first fault (the module's docstring lists the codes).

    The formula is parsed once (its tree is kept for the next check or count of the same
    source) and walked once, each node's type from its children's: linear in its size.
    Only a formula at fault is parsed and walked a second time, for its position."""
    try:
        try:
            return _Checker(source, names, positioned=False).check(parsed_tree(source), _Scope(names))
        except _Refused:
            pass
        # Checked again where each node knows its position: the same walk fails the same way.
        _Checker(source, names, positioned=True).check(_positioned_tree(source), _Scope(names))
    except RecursionError:
        # Only real nesting deepens the stack (chains of operators and parentheses are
        # walked in loops): a formula of the longest length a file allows stays well within it.
        raise FormulaTypeError("nested", "the formula nests too deep to be checked", 1, 1) from None
    raise FormulaTypeError("syntax", "the formula cannot be checked", 1, 1)  # both parsers read alike (tests)


def check_formula_is(source: str, names: Mapping[str, Type], expected: Type) -> Type:
    """``source``'s type, if a value of it may stand where ``expected`` is wanted (a points
    formula: INT; a check: BOOL; a bound: Nullable(INT)); ``FormulaTypeError`` with code
    ``result`` otherwise (or any fault ``check_formula`` finds)."""
    found = check_formula(source, names)
    if not accepts(expected, found):
        start = _Checker._start(_positioned_tree(source))
        line, column = _position(source, start)
        maybe = " (it may be null)" if isinstance(found, Nullable) and accepts(expected, found.inner) else ""
        raise FormulaTypeError(
            "result",
            f"gives {found} where {expected} is wanted{maybe}",
            line,
            column,
            expected=str(expected),
            found=str(found),
        )
    return found
