"""A formula evaluated in Python: its parsed tree (the standard CEL grammar, ``grammar``)
written once as one Python function that reads the round's values where they are
(``_Generator``: nothing the file wrote reaches the text compiled, only the tree's shape).

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
        return _Generator(functions).compiled(parsed_tree(source))
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
        total = left + right
        if _LEAST <= total <= _MOST:
            return total
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
    if type(left) is int and type(right) is int and _LEAST <= (difference := left - right) <= _MOST:
        return difference
    a, b = _ints("-", left, right)
    return _whole(a - b)


def _multiply(left: Any, right: Any) -> int:
    if type(left) is int and type(right) is int and _LEAST <= (product := left * right) <= _MOST:
        return product
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
        if _kind(left) not in ("int", "string", "bool"):
            raise EvaluationError(f"unsupported key type: {_kind(left)}")  # as cel-rust: no map has such a key
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


def _build_map(pairs: tuple[tuple[Any, Any], ...]) -> dict[Any, Any]:
    built: dict[Any, Any] = {}
    for key, value in pairs:
        if _kind(key) not in ("int", "string", "bool"):
            raise EvaluationError(f"unsupported map key: {_kind(key)}")
        if key in built and _lookup(built, key) is _MISSING:
            # 1 and true: two keys in CEL, one in a Python dict.
            raise EvaluationError(f"the keys {key!r} and {next(k for k in built if k == key)!r} are mixed")
        built[key] = value  # a repeated key: the last value, as cel-rust keeps it
    return built


def _negative(value: Any) -> int:
    if type(value) is not int:
        raise EvaluationError(f"no such overload: -{_kind(value)}")
    return _whole(-value)


def _has(container: Any, name: str) -> bool:
    if not isinstance(container, Mapping):
        raise EvaluationError(f"no such overload: has() on {_kind(container)}")
    return name in container


def _entries(over: Any, macro: str) -> Iterable[Any]:
    """What a comprehension runs over: a list's items, a map's keys."""
    kind = type(over)
    if kind is list or kind is tuple:
        return over  # type: ignore[no-any-return]
    kind_name = _kind(over)
    if kind_name == "list":
        return list(over)
    if kind_name == "map":
        return list(over.keys())
    raise EvaluationError(f"no such overload: {macro}() over {kind_name}")


_FAILURES = (EvaluationError, KeyError, TypeError, ValueError)
"""What a formula's evaluation may raise: CEL's error value, a name its values lack (read
by the generated code), and what a function refuses (``formulas.FUNCTIONS``: an empty
list's min, an overflow), each CEL's error value (``_failure``)."""


def _failure(error: Exception) -> EvaluationError:
    if isinstance(error, EvaluationError):
        return error
    if isinstance(error, KeyError):
        return EvaluationError(f"undeclared reference to '{error.args[0] if error.args else ''}'")
    return EvaluationError(str(error))


def _not_bool(what: str, value: Any) -> EvaluationError:
    return EvaluationError(f"no such overload: {what} gives {_kind(value)}")


def _every(entries: Iterable[Any], condition: Callable[[Any], Any], decides: bool, what: str) -> bool:
    """``all()`` (``decides``: False) and ``exists()`` (True) over ``entries``: the first
    entry whose condition gives ``decides`` wins, over an error met before or after it;
    else the first error (a value that is no bool is one), else ``not decides``."""
    failed: EvaluationError | None = None
    for entry in entries:
        try:
            value = condition(entry)
        except _FAILURES as error:
            failed = failed or _failure(error)
            continue
        if value is decides:
            return decides
        if value is not (not decides):
            failed = failed or _not_bool(what, value)
    if failed is not None:
        raise failed
    return not decides


def _exactly_one(entries: Iterable[Any], condition: Callable[[Any], Any]) -> bool:
    return sum(1 for entry in entries if _truth(condition(entry))) == 1


_HELPERS: Mapping[str, Any] = {
    "_truth": _truth,
    "_field": _field,
    "_index": _index,
    "_equal": _equal,
    "_build_map": _build_map,
    "_negative": _negative,
    "_has": _has,
    "_entries": _entries,
    "_every": _every,
    "_exactly_one": _exactly_one,
    "_not_bool": _not_bool,
    "_failure": _failure,
    "_FAILURES": _FAILURES,
    "_dict": dict,
    **{f"_{operator}": function for operator, function in _OPERATORS.items()},
    **{f"_b_{name}": function for name, function in _BUILT_IN.items()},
    **{f"_m_{name}": function for name, function in _METHODS.items()},
}
"""What the generated code may call: the CEL semantics above, nothing else (no built-ins)."""


class _Generator:
    """A formula's tree as one Python expression over ``V`` (its values).

    Nothing the file wrote reaches the generated text: names and texts are constants bound
    by index (``k0``, ``k1``…), numbers are written by Python's ``repr`` of an int, and a
    comprehension's variable is a local numbered in order (``c0``, ``c1``…). What it calls
    is ``_HELPERS`` and the game's functions (``f0``…); it runs with no built-ins."""

    def __init__(self, functions: Mapping[str, Callable[..., Any]]) -> None:
        self.functions = functions
        self.namespace: dict[str, Any] = {"__builtins__": {}, **_HELPERS}
        self.constants: dict[tuple[type, Any], str] = {}
        self.bound: list[tuple[str, str]] = []
        """The comprehensions' variables in reach, innermost last: (CEL name, Python local)."""
        self.locals_made: set[str] = set()
        self.definitions: list[str] = []
        """The functions the formula's expression calls (``l0``…: its logical operators)."""
        self.functions_made = 0

    def constant(self, value: Any) -> str:
        key = (type(value), value)
        name = self.constants.get(key)
        if name is None:
            name = self.constants[key] = f"k{len(self.constants)}"
            self.namespace[name] = value
        return name

    def function(self, function: Callable[..., Any]) -> str:
        name = f"f{self.functions_made}"
        self.functions_made += 1
        self.namespace[name] = function
        return name

    def node(self, node: Tree | Token) -> str:
        node = _unwrapped(node)
        if isinstance(node, Token):
            return self.literal(node)
        handler = getattr(self, f"_{node.data}", None)
        if handler is None:
            raise Unsupported(node.data)
        return cast(str, handler(node))

    # -- literals

    def literal(self, token: Token) -> str:
        value = _literal_value(token)
        if type(value) is int:
            return f"({value!r})"
        if value is None or type(value) is bool:
            return repr(value)
        return self.constant(value)

    def _literal(self, node: Tree) -> str:
        return self.node(node.children[0])

    def _list_lit(self, node: Tree) -> str:
        return "[" + ", ".join(self.node(item) for item in _arguments(node.children)) + "]"

    def _map_lit(self, node: Tree) -> str:
        entries = list(cast(Tree, node.children[0]).children) if node.children else []
        pairs = [
            f"({self.node(key)}, {self.node(value)})," for key, value in zip(entries[::2], entries[1::2], strict=True)
        ]
        return "_build_map((" + " ".join(pairs) + "))"

    # -- names

    def _ident(self, node: Tree) -> str:
        name = str(node.children[0])
        for cel_name, local in reversed(self.bound):
            if cel_name == name:
                return local
        return f"V[{self.constant(name)}]"

    def _dot_ident(self, node: Tree) -> str:
        """``.name``: the formula's own name, never a comprehension's variable."""
        return f"V[{self.constant(str(node.children[0]))}]"

    # -- operators

    def _expr(self, node: Tree) -> str:
        condition, yes, no = node.children
        return f"({self.node(yes)} if {self.truth(condition)} else {self.node(no)})"

    def _conditionaland(self, node: Tree) -> str:
        return self._logical(node, decides=False)

    def _conditionalor(self, node: Tree) -> str:
        return self._logical(node, decides=True)

    def _logical(self, node: Tree, decides: bool) -> str:
        """``a && b`` (``decides``: False) or ``a || b`` (True): the value that decides on
        either side wins over an error on the other, as in CEL. Each is a function of its
        own (a ``try`` per side), called with the values and the comprehensions' variables
        in reach."""
        parts: list[Tree | Token] = []
        current: Tree | Token = node
        while isinstance(current, LarkTree) and current.data == node.data and len(current.children) == 2:
            parts.append(current.children[1])
            current = current.children[0]
        parts.append(current)
        parts.reverse()
        name = f"l{len(self.definitions)}"
        self.definitions.append("")  # its place, kept while its sides (which may hold others) are made
        arguments = ", ".join(["V", *(local for _name, local in self.bound)])
        what = self.constant("a logical operator")
        lines = [f"def {name}({arguments}):", "    failed = None"]
        for part in parts:
            lines += [
                "    try:",
                f"        value = {self.node(part)}",
                "    except _FAILURES as error:",
                "        failed = failed or _failure(error)",
                "    else:",
                f"        if value is {decides!r}:",
                f"            return {decides!r}",
                f"        if value is not {(not decides)!r}:",
                f"            failed = failed or _not_bool({what}, value)",
            ]
        lines += ["    if failed is not None:", "        raise failed", f"    return {(not decides)!r}"]
        self.definitions[int(name[1:])] = "\n".join(lines) + "\n"
        return f"{name}({arguments})"

    def _binary(self, node: Tree) -> str:
        spine: list[tuple[str, Tree | Token]] = []
        current: Tree | Token = node
        while isinstance(current, LarkTree) and current.data == node.data and len(current.children) == 2:
            operator = cast(Tree, current.children[0])
            if operator.data not in _OPERATORS:
                raise Unsupported(operator.data)
            spine.append((operator.data, current.children[1]))
            current = operator.children[0]
        result = self.node(current)
        for operation, right in reversed(spine):
            result = f"_{operation}({result}, {self.node(right)})"
        return result

    _relation = _addition = _multiplication = _binary

    def _unary(self, node: Tree) -> str:
        sign, operand = node.children
        inner = self.node(operand)
        if cast(Tree, sign).data == "unary_not":
            return f"(not {self.truth(operand)})"
        return f"_negative({inner})"

    # -- members

    def _member_dot(self, node: Tree) -> str:
        member, name = self.node(node.children[0]), self.constant(str(node.children[1]))
        if member in self.locals_made:
            # A comprehension's variable (read twice at no cost): a map's field without a call.
            fast = f"{member}[{name}] if {member}.__class__ is _dict and {name} in {member}"
            return f"({fast} else _field({member}, {name}))"
        return f"_field({member}, {name})"

    def _member_index(self, node: Tree) -> str:
        return f"_index({self.node(node.children[0])}, {self.node(node.children[1])})"

    def _member_dot_arg(self, node: Tree) -> str:
        target_node, name = node.children[0], str(node.children[1])
        arguments = _arguments(node.children[2:])
        target = self.node(target_node)
        if name in ("all", "exists", "exists_one", "map", "filter"):
            return self._comprehension(name, target, arguments)
        if name not in _METHODS:
            raise Unsupported(f".{name}()")
        given = "".join(f", {self.node(argument)}" for argument in arguments)
        return f"_m_{name}({target}{given})"

    def _ident_arg(self, node: Tree) -> str:
        name = str(node.children[0])
        arguments = _arguments(node.children[1:])
        if name == "has":
            selection = _unwrapped(arguments[0]) if len(arguments) == 1 else None
            if not isinstance(selection, LarkTree) or selection.data != "member_dot":
                raise Unsupported("has() of no field")
            return f"_has({self.node(selection.children[0])}, {self.constant(str(selection.children[1]))})"
        given = ", ".join(self.node(argument) for argument in arguments)
        if name in _BUILT_IN:
            return f"_b_{name}({given})"
        function = self.functions.get(name)
        if function is None:
            raise Unsupported(f"{name}()")
        called = self.function(function)
        # Called as it is: each of Marquoir's functions gives a value CEL holds (an int in
        # 64 bits) and raises what ``_failure`` turns into CEL's error.
        return f"{called}({given})"

    def _comprehension(self, macro: str, target: str, arguments: list[Tree | Token]) -> str:
        variable = _unwrapped(arguments[0]) if arguments else None
        if not isinstance(variable, LarkTree) or variable.data != "ident" or len(arguments) not in (2, 3):
            raise Unsupported(f"{macro}() of another shape")
        if len(arguments) == 3 and macro != "map":
            raise Unsupported(f"{macro}() of three arguments")
        local = f"c{len(self.locals_made)}"
        self.locals_made.add(local)
        self.bound.append((str(variable.children[0]), local))
        body = [self.node(argument) for argument in arguments[1:]]
        test = self.truth(arguments[1]) if macro == "filter" or len(arguments) == 3 else ""
        self.bound.pop()
        entries = f"_entries({target}, {self.constant(macro)})"
        if macro == "map":
            if len(body) == 2:
                return f"[{body[1]} for {local} in {entries} if {test}]"
            return f"[{body[0]} for {local} in {entries}]"
        (condition,) = body
        if macro == "filter":
            return f"[{local} for {local} in {entries} if {test}]"
        if macro == "exists_one":
            return f"_exactly_one({entries}, lambda {local}: {condition})"
        decides = macro == "exists"  # all(): a false decides; exists(): a true
        what = self.constant(f"{macro}()'s condition")
        return f"_every({entries}, lambda {local}: {condition}, {decides!r}, {what})"

    def truth(self, node: Tree | Token) -> str:
        """``node`` as a condition: its value, which must be a bool. Where the node can give
        nothing else (a comparison, ``!``, ``&&``, ``||``, ``has()``, ``all()``…), as it is."""
        expression = self.node(node)
        return expression if _gives_a_bool(node) else f"_truth({expression})"

    def compiled(self, tree: Tree | Token) -> Run:
        expression = self.node(tree)
        source = "".join(self.definitions) + (
            "def formula(V):\n"
            "    try:\n"
            f"        return {expression}\n"
            "    except _FAILURES as error:\n"
            "        raise _failure(error) from None\n"
        )
        exec(compile(source, "<formula>", "exec"), self.namespace)  # noqa: S102 (generated from the tree alone)
        return cast(Run, self.namespace["formula"])


_BOOLEAN_OPERATORS = frozenset(
    {"relation_lt", "relation_le", "relation_gt", "relation_ge", "relation_eq", "relation_ne", "relation_in"}
)
_BOOLEAN_MACROS = frozenset({"all", "exists", "exists_one", "contains", "startsWith", "endsWith"})


def _gives_a_bool(node: Tree | Token) -> bool:
    """Whether ``node``'s value is a bool whatever its values (or an error): the operators and
    macros whose code above gives nothing else."""
    node = _unwrapped(node)
    if isinstance(node, Token):
        return node.type == "BOOL_LIT"
    if node.data in ("conditionaland", "conditionalor"):
        return True
    if node.data == "relation" and len(node.children) == 2:
        return cast(Tree, node.children[0]).data in _BOOLEAN_OPERATORS
    if node.data == "unary":
        return cast(Tree, node.children[0]).data == "unary_not"
    if node.data == "member_dot_arg":
        return str(node.children[1]) in _BOOLEAN_MACROS
    if node.data == "ident_arg":
        return str(node.children[0]) == "has"
    return False


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
