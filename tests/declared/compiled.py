"""Every formula a compiled game holds, wherever it keeps it: what the tests of the type
check and of the Python evaluation go over."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from marquoir.games.declared.formulas import Compiled


def compiled_formulas(value: Any, seen: set[int] | None = None) -> Iterator[Compiled]:
    """Each ``Compiled`` in ``value`` (a game), once."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Compiled):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from compiled_formulas(item, seen)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from compiled_formulas(item, seen)
    elif is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            yield from compiled_formulas(getattr(value, field.name), seen)
