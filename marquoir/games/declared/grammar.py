"""The standard CEL grammar (``cel.lark``, from cel-python, Apache-2.0) read by lark: one
parser for what Marquoir reads in a formula besides cel-rust itself, its cost bound
(``cost``) and its types (``types``), so that both read a formula alike."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lark import Lark, Token


def _literals(token: Token) -> Token:
    """``true`` and ``false`` are words of the grammar and literals of the language (the
    new token keeps the word's position, for an error pointing at it)."""
    if token.value in ("true", "false"):
        return Token.new_borrow_pos("BOOL_LIT", token.value, token)
    return token


@cache
def parser(*, positions: bool = False) -> Lark:
    """The CEL grammar's parser; with ``positions``, a line and column on every node too
    (it doubles the time a parse takes: only an error needs it)."""
    grammar = Path(__file__).with_name("cel.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        start="expr",
        lexer_callbacks={"IDENT": _literals},
        maybe_placeholders=False,
        priority="invert",
        propagate_positions=positions,
    )
