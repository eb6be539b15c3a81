"""A formula evaluated in Python: its parsed tree (the standard CEL grammar, ``grammar``)
turned once into nested functions that read the round's values where they are.

Why, beside cel-rust: cel-rust (``common-expression-language`` 0.10) evaluates a formula in
0.2 µs, but hands every value over by converting it, and converts all a context holds again
after any change: 37 µs for six of Kingdomino's properties, so that a round of Kingdomino at
four players took over a millisecond, almost all of it conversions. Here nothing is
converted: a formula reads the Python values themselves. cel-rust stays what reads a file
(its syntax errors, names and functions) and the reference: the tests evaluate every
formula of every game file's examples, and random formulas over random values, both ways,
and compare (``tests/declared/test_evaluate.py``).

What is evaluated here is what a type-checked formula may hold: whole numbers (64 bits, an
overflow is an error), texts, bools, null, lists and maps, the operators, ``? :``, the
functions of ``formulas.FUNCTIONS`` and CEL's ``size``, ``int``, ``string``, ``has``,
``contains``, ``startsWith``, ``endsWith`` and the comprehension macros. A formula with
anything else (a decimal, bytes, an unsigned number, a message) raises ``Unsupported`` when
compiled, and is left to cel-rust. Semantics follow CEL's: equality between values of two
kinds is false (``1 == true`` is false, where Python says true), ``/`` and ``%`` truncate
toward zero, ``&&`` and ``||`` absorb an error on one side when the other decides.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, cast

from lark import Token
from lark import Tree as LarkTree

from .types import parsed_tree


class Values(Protocol):
    """What a formula reads its names from: a round's scope, a mapping, a comprehension's."""

    def __getitem__(self, name: str, /) -> Any: ...


Run = Callable[[Values], Any]

_LEAST, _MOST = -(2**63), 2**63 - 1
Tree = LarkTree[Token]
_PASS_THROUGH = frozenset(
    {"expr", "conditionalor", "conditionaland", "relation", "addition", "multiplication", "unary", "member", "primary"}
)


class Unsupported(Exception):
    """A formula this evaluator does not take (it is left to cel-rust)."""


class EvaluationError(Exception):
    """A formula that cannot be evaluated on these values (CEL's error value)."""


def compile_tree(source: str, functions: Mapping[str, Callable[..., Any]]) -> Run:
    """``source`` as a function of its values, or ``Unsupported``."""
    try:
        return _Compiler(functions).node(parsed_tree(source))
    except RecursionError:
        raise Unsupported("nested too deep") from None
    except Exception as error:
        if isinstance(error, Unsupported):
            raise
        raise Unsupported(str(error)[:200]) from None


# --- values


def _whole(value: int) -> int:
    if not _LEAST <= value <= _MOST:
        raise EvaluationError("integer overflow")
    return value


_KINDS: Mapping[type, str] = {
    bool: "bool",
    int: "int",
    str: "string",
    type(None): "null",
    list: "list",
    tuple: "list",
    dict: "map",
}


def _kind(value: Any) -> str:
    found = _KINDS.get(type(value))
    if found is not None:
        return found
    kind = type(value)
    if kind is bool:
        return "bool"
    if kind is int:
        return "int"
    if kind is str:
        return "string"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, Mapping):
        return "map"
    return kind.__name__


_SCALARS = (int, str, bool)


def _equal(left: Any, right: Any) -> bool:
    """CEL's equality: values of two kinds are never equal; lists and maps entry by entry."""
    kind_of = type(left)
    if kind_of is type(right) and kind_of in _SCALARS:
        return bool(left == right)
    kind = _kind(left)
    if kind != _kind(right):
        return False
    if kind == "list":
        return len(left) == len(right) and all(_equal(a, b) for a, b in zip(left, right, strict=True))
    if kind == "map":
        if len(left) != len(right):
            return False
        for key, value in left.items():
            other = _lookup(right, key)
            if other is _MISSING or not _equal(value, other):
                return False
        return True
    return bool(left == right)


_MISSING = object()


def _lookup(container: Mapping[Any, Any], key: Any) -> Any:
    """A map's value for ``key`` by CEL's equality (``1`` and ``true`` are other keys)."""
    for candidate, value in container.items():
        if _kind(candidate) == _kind(key) and candidate == key:
            return value
    return _MISSING


def _ordered(left: Any, right: Any) -> tuple[Any, Any]:
    if type(left) is type(right) and type(left) in _SCALARS:
        return left, right
    kind = _kind(left)
    if kind != _kind(right) or kind not in ("int", "string", "bool"):
        raise EvaluationError(f"no such overload: {_kind(left)} and {_kind(right)} cannot be compared")
    return left, right


def _less(left: Any, right: Any) -> bool:
    if type(left) is int and type(right) is int:
        return left < right
    a, b = _ordered(left, right)
    return bool(a < b)


def _less_or_equal(left: Any, right: Any) -> bool:
    if type(left) is int and type(right) is int:
        return left <= right
    a, b = _ordered(left, right)
    return bool(a <= b)


def _greater(left: Any, right: Any) -> bool:
    if type(left) is int and type(right) is int:
        return left > right
    a, b = _ordered(left, right)
    return bool(a > b)


def _greater_or_equal(left: Any, right: Any) -> bool:
    if type(left) is int and type(right) is int:
        return left >= right
    a, b = _ordered(left, right)
    return bool(a >= b)


def _ints(symbol: str, left: Any, right: Any) -> tuple[int, int]:
    if type(left) is not int or type(right) is not int:
        raise EvaluationError(f"no such overload: {_kind(left)} {symbol} {_kind(right)}")
    return left, right


def _add(left: Any, right: Any) -> Any:
    if type(left) is int and type(right) is int:
        return _whole(left + right)
    kind = _kind(left)
    if kind != _kind(right):
        raise EvaluationError(f"no such overload: {kind} + {_kind(right)}")
    if kind == "int":
        return _whole(left + right)
    if kind == "string":
        return left + right
    if kind == "list":
        return [*left, *right]
    raise EvaluationError(f"no such overload: {kind} + {kind}")


def _subtract(left: Any, right: Any) -> int:
    a, b = _ints("-", left, right)
    return _whole(a - b)


def _multiply(left: Any, right: Any) -> int:
    a, b = _ints("*", left, right)
    return _whole(a * b)


def _divide(left: Any, right: Any) -> int:
    a, b = _ints("/", left, right)
    if b == 0:
        raise EvaluationError("division by zero")
    quotient = abs(a) // abs(b)
    return _whole(quotient if (a < 0) == (b < 0) else -quotient)


def _remainder(left: Any, right: Any) -> int:
    a, b = _ints("%", left, right)
    if b == 0:
        raise EvaluationError("modulus by zero")
    remainder = abs(a) % abs(b)
    return remainder if a >= 0 else -remainder


def _contained(left: Any, right: Any) -> bool:
    kind = _kind(right)
    if kind == "list":
        return any(_equal(left, item) for item in right)
    if kind == "map":
        return _lookup(right, left) is not _MISSING
    raise EvaluationError(f"no such overload: {_kind(left)} in {kind}")


_OPERATORS: Mapping[str, Callable[[Any, Any], Any]] = {
    "relation_lt": _less,
    "relation_le": _less_or_equal,
    "relation_gt": _greater,
    "relation_ge": _greater_or_equal,
    "relation_eq": _equal,
    "relation_ne": lambda left, right: not _equal(left, right),
    "relation_in": _contained,
    "addition_add": _add,
    "addition_sub": _subtract,
    "multiplication_mul": _multiply,
    "multiplication_div": _divide,
    "multiplication_mod": _remainder,
}


def _truth(value: Any) -> bool:
    if type(value) is not bool:
        raise EvaluationError(f"no such overload: a condition gives {_kind(value)}")
    return value


def _field(container: Any, name: str) -> Any:
    if type(container) is dict and name in container:
        return container[name]
    if not isinstance(container, Mapping):
        raise EvaluationError(f"no such key: {name} ({_kind(container)} has no fields)")
    if name in container:
        return container[name]
    raise EvaluationError(f"no such key: {name}")


def _index(container: Any, key: Any) -> Any:
    if type(container) is list and type(key) is int and 0 <= key < len(container):
        return container[key]
    if type(container) is dict and type(key) is str and key in container:
        return container[key]
    kind = _kind(container)
    if kind == "list":
        if type(key) is not int:
            raise EvaluationError(f"no such overload: a list indexed by {_kind(key)}")
        if not 0 <= key < len(container):
            raise EvaluationError(f"index out of bounds: {key}")
        return container[key]
    if kind == "map":
        # A text key is looked up directly; a number or a bool by CEL's equality (1 is not true).
        found = container.get(key, _MISSING) if type(key) is str else _lookup(container, key)
        if found is _MISSING:
            raise EvaluationError(f"no such key: {key}")
        return found
    raise EvaluationError(f"no such overload: {kind} cannot be indexed")


def _size(value: Any) -> int:
    if _kind(value) not in ("string", "list", "map"):
        raise EvaluationError(f"no such overload: size({_kind(value)})")
    return len(value)


def _int(value: Any) -> int:
    if type(value) is int:
        return value
    if type(value) is str:
        text = value.strip()
        if text == value and text.lstrip("+-").isascii() and text.lstrip("+-").isdigit():
            return _whole(int(text))
        raise EvaluationError(f"cannot convert {value!r} to int")
    raise EvaluationError(f"no such overload: int({_kind(value)})")


def _string(value: Any) -> str:
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    raise EvaluationError(f"no such overload: string({_kind(value)})")


def _text_method(name: str) -> Callable[[Any, Any], bool]:
    def method(text: Any, part: Any) -> bool:
        if type(text) is not str or type(part) is not str:
            raise EvaluationError(f"no such overload: {_kind(text)}.{name}({_kind(part)})")
        if name == "contains":
            return part in text
        return text.startswith(part) if name == "startsWith" else text.endswith(part)

    return method


_BUILT_IN: Mapping[str, Callable[..., Any]] = {"size": _size, "int": _int, "string": _string}
_METHODS: Mapping[str, Callable[..., Any]] = {
    "size": _size,
    **{name: _text_method(name) for name in ("contains", "startsWith", "endsWith")},
}


class _With:
    """The values a comprehension's body reads: its own variable, then the formula's."""

    __slots__ = ("_name", "_outer", "_value")

    def __init__(self, outer: Values, name: str, value: Any) -> None:
        self._outer, self._name, self._value = outer, name, value

    def __getitem__(self, name: str) -> Any:
        return self._value if name == self._name else self._outer[name]

    @property
    def root(self) -> Values:
        outer = self._outer
        return outer.root if isinstance(outer, _With) else outer


def _name(name: str) -> Run:
    def read(values: Values) -> Any:
        try:
            return values[name]
        except KeyError:
            raise EvaluationError(f"undeclared reference to '{name}'") from None

    return read


def _root_name(name: str) -> Run:
    """``.name``: the formula's own name, never a comprehension's variable."""
    read = _name(name)
    return lambda values: read(values.root if isinstance(values, _With) else values)


class _Compiler:
    def __init__(self, functions: Mapping[str, Callable[..., Any]]) -> None:
        self.functions = functions

    def node(self, node: Tree | Token) -> Run:
        while isinstance(node, LarkTree) and (
            (node.data in _PASS_THROUGH and len(node.children) == 1) or node.data == "paren_expr"
        ):
            node = node.children[0]
        if isinstance(node, Token):
            return self.literal(node)
        handler = getattr(self, f"_{node.data}", None)
        if handler is None:
            raise Unsupported(node.data)
        return cast(Run, handler(node))

    # -- literals

    def literal(self, token: Token) -> Run:
        value = _literal_value(token)
        return lambda _values: value

    def _literal(self, node: Tree) -> Run:
        return self.node(node.children[0])

    def _list_lit(self, node: Tree) -> Run:
        items = [self.node(item) for item in _arguments(node.children)]
        return lambda values: [item(values) for item in items]

    def _map_lit(self, node: Tree) -> Run:
        entries = list(cast(Tree, node.children[0]).children) if node.children else []
        pairs = [(self.node(key), self.node(value)) for key, value in zip(entries[::2], entries[1::2], strict=True)]

        def build(values: Values) -> dict[Any, Any]:
            built: dict[Any, Any] = {}
            for key_of, value_of in pairs:
                key = key_of(values)
                if _kind(key) not in ("int", "string", "bool"):
                    raise EvaluationError(f"unsupported map key: {_kind(key)}")
                if key in built and _lookup(built, key) is _MISSING:
                    # 1 and true: two keys in CEL, one in a Python dict.
                    raise EvaluationError(f"the keys {key!r} and {next(k for k in built if k == key)!r} are mixed")
                built[key] = value_of(values)  # a repeated key: the last value, as cel-rust keeps it
            return built

        return build

    # -- names

    def _ident(self, node: Tree) -> Run:
        return _name(str(node.children[0]))

    def _dot_ident(self, node: Tree) -> Run:
        return _root_name(str(node.children[0]))

    # -- operators

    def _expr(self, node: Tree) -> Run:
        condition, yes, no = (self.node(child) for child in node.children)
        return lambda values: yes(values) if _truth(condition(values)) else no(values)

    def _conditionaland(self, node: Tree) -> Run:
        return self._logical(node, decides=False)

    def _conditionalor(self, node: Tree) -> Run:
        return self._logical(node, decides=True)

    def _logical(self, node: Tree, decides: bool) -> Run:
        """``a && b`` (``decides``: False) or ``a || b`` (True): the value that decides on
        either side wins over an error on the other, as in CEL."""
        parts: list[Run] = []
        current: Tree | Token = node
        while isinstance(current, LarkTree) and current.data == node.data and len(current.children) == 2:
            parts.append(self.node(current.children[1]))
            current = current.children[0]
        parts.append(self.node(current))
        parts.reverse()

        return lambda values: _decided(((part, values) for part in parts), decides, "a logical operator")

    def _binary(self, node: Tree) -> Run:
        spine: list[tuple[Callable[[Any, Any], Any], Run]] = []
        current: Tree | Token = node
        while isinstance(current, LarkTree) and current.data == node.data and len(current.children) == 2:
            operator = cast(Tree, current.children[0])
            spine.append((_OPERATORS[operator.data], self.node(current.children[1])))
            current = operator.children[0]
        first = self.node(current)
        spine.reverse()

        if len(spine) == 1:
            ((operate, second),) = spine
            return lambda values: operate(first(values), second(values))

        def run(values: Values) -> Any:
            result = first(values)
            for operate, right in spine:
                result = operate(result, right(values))
            return result

        return run

    _relation = _addition = _multiplication = _binary

    def _unary(self, node: Tree) -> Run:
        sign, operand = node.children
        inner = self.node(operand)
        if cast(Tree, sign).data == "unary_not":

            def negation(values: Values) -> bool:
                return not _truth(inner(values))

            return negation

        def minus(values: Values) -> int:
            value = inner(values)
            if type(value) is not int:
                raise EvaluationError(f"no such overload: -{_kind(value)}")
            return _whole(-value)

        return minus

    # -- members

    def _member_dot(self, node: Tree) -> Run:
        member, name = self.node(node.children[0]), str(node.children[1])
        return lambda values: _field(member(values), name)

    def _member_index(self, node: Tree) -> Run:
        member, key = self.node(node.children[0]), self.node(node.children[1])
        return lambda values: _index(member(values), key(values))

    def _member_dot_arg(self, node: Tree) -> Run:
        target_node, name = node.children[0], str(node.children[1])
        arguments = _arguments(node.children[2:])
        target = self.node(target_node)
        if name in ("all", "exists", "exists_one", "map", "filter"):
            return self._comprehension(name, target, arguments)
        method = _METHODS.get(name)
        if method is None:
            raise Unsupported(f".{name}()")
        given = [self.node(argument) for argument in arguments]
        return lambda values: method(target(values), *(argument(values) for argument in given))

    def _ident_arg(self, node: Tree) -> Run:
        name = str(node.children[0])
        arguments = _arguments(node.children[1:])
        if name == "has":
            return self._has(arguments)
        function = _BUILT_IN.get(name) or self.functions.get(name)
        if function is None:
            raise Unsupported(f"{name}()")
        given = [self.node(argument) for argument in arguments]
        checked = name in self.functions

        def call(values: Values) -> Any:
            try:
                result = function(*[argument(values) for argument in given])
            except (TypeError, ValueError) as error:
                raise EvaluationError(str(error)) from None
            if checked:
                return _returned(result)
            return result

        return call

    def _has(self, arguments: list[Tree | Token]) -> Run:
        selection = _unwrapped(arguments[0]) if len(arguments) == 1 else None
        if not isinstance(selection, LarkTree) or selection.data != "member_dot":
            raise Unsupported("has() of no field")
        member, name = self.node(selection.children[0]), str(selection.children[1])

        def has(values: Values) -> bool:
            container = member(values)
            if not isinstance(container, Mapping):
                raise EvaluationError(f"no such overload: has() on {_kind(container)}")
            return name in container

        return has

    def _comprehension(self, macro: str, target: Run, arguments: list[Tree | Token]) -> Run:
        variable = _unwrapped(arguments[0]) if arguments else None
        if not isinstance(variable, LarkTree) or variable.data != "ident" or len(arguments) not in (2, 3):
            raise Unsupported(f"{macro}() of another shape")
        if len(arguments) == 3 and macro != "map":
            raise Unsupported(f"{macro}() of three arguments")
        name = str(variable.children[0])
        body = [self.node(argument) for argument in arguments[1:]]

        def entries(values: Values) -> list[Any]:
            over = target(values)
            kind = _kind(over)
            if kind == "list":
                return list(over)
            if kind == "map":
                return list(over.keys())
            raise EvaluationError(f"no such overload: {macro}() over {kind}")

        if macro == "map":
            if len(body) == 2:
                keep, make = body

                def mapped_where(values: Values) -> list[Any]:
                    result = []
                    for entry in entries(values):
                        inner = _With(values, name, entry)
                        if _truth(keep(inner)):
                            result.append(make(inner))
                    return result

                return mapped_where
            (make,) = body
            return lambda values: [make(_With(values, name, entry)) for entry in entries(values)]
        (condition,) = body
        if macro == "filter":
            return lambda values: [entry for entry in entries(values) if _truth(condition(_With(values, name, entry)))]
        if macro == "exists_one":

            def exactly_one(values: Values) -> bool:
                found = 0
                for entry in entries(values):
                    if _truth(condition(_With(values, name, entry))):
                        found += 1
                return found == 1

            return exactly_one
        decides = macro == "exists"  # all(): a false decides; exists(): a true
        what = f"{macro}()'s condition"
        return lambda values: _decided(
            ((condition, _With(values, name, entry)) for entry in entries(values)), decides, what
        )


def _decided(tries: Iterable[tuple[Run, Values]], decides: bool, what: str) -> bool:
    """CEL's ``&&`` and ``||``, ``all()`` and ``exists()``: each run on its values in turn; the
    first that gives ``decides`` wins, over an error met before or after it; else the first
    error (a value that is no bool is one), else ``not decides``."""
    failed: EvaluationError | None = None
    for run, values in tries:
        try:
            value = run(values)
        except EvaluationError as error:
            failed = failed or error
            continue
        if type(value) is not bool:
            failed = failed or EvaluationError(f"no such overload: {what} gives {_kind(value)}")
            continue
        if value is decides:
            return decides
    if failed is not None:
        raise failed
    return not decides


def _returned(value: Any) -> Any:
    """What one of Marquoir's functions gave, as CEL would hold it (an int in 64 bits)."""
    if type(value) is int:
        return _whole(value)
    if isinstance(value, list):
        return [_returned(item) for item in value]
    return value


def _literal_value(token: Token) -> Any:
    kind, text = token.type, str(token)
    if kind == "INT_LIT":
        return _whole(int(text, 16) if "0x" in text else int(text))
    if kind == "BOOL_LIT":
        return text == "true"
    if kind == "NULL_LIT":
        return None
    if kind in ("STRING_LIT", "MLSTRING_LIT"):
        if text[0] in "rR" or "\\" in text:
            raise Unsupported("a raw text or one with escapes")
        value = ast.literal_eval(text)
        if not isinstance(value, str):
            raise Unsupported("not a text")
        return value
    raise Unsupported(kind)


def _unwrapped(node: Tree | Token) -> Tree | Token:
    while isinstance(node, LarkTree) and (
        (node.data in _PASS_THROUGH and len(node.children) == 1) or node.data == "paren_expr"
    ):
        node = node.children[0]
    return node


def _arguments(children: list[Tree | Token]) -> list[Tree | Token]:
    if not children:
        return []
    listed = children[0]
    return list(listed.children) if isinstance(listed, LarkTree) and listed.data == "exprlist" else [listed]
