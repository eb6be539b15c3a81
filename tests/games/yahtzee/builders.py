"""Sheets and games set up by hand for the tests."""

from __future__ import annotations

from collections.abc import Iterable

from marquoir.games.yahtzee import BOXES, Box, GameState, Options, Score, Sheet, apply


def sheet(bonuses: int = 0, **points: int) -> Sheet:
    """A sheet with ``points`` in those boxes (by key), every other box open."""
    return Sheet(tuple(points.get(box.value) for box in BOXES), bonuses)


def only_open(*open_boxes: str, bonuses: int = 0, **points: int) -> Sheet:
    """A sheet with only ``open_boxes`` open; the filled boxes hold ``points``, by default 0
    (5 in ``chance``, its least)."""
    points = {"chance": 5, **points}
    return Sheet(tuple(None if box.value in open_boxes else points.get(box.value, 0) for box in BOXES), bonuses)


def solo(on_sheet: Sheet) -> GameState:
    """A one-player game whose sheet is ``on_sheet``, that player to play."""
    return GameState(Options(), 0, (on_sheet,), turns=on_sheet.filled_count)


def play(state: GameState, *turns: tuple[str | Box, Iterable[int]]) -> GameState:
    """The state after scoring each (box, dice) in turn."""
    for box, dice in turns:
        state = apply(state, Score(box, tuple(dice)))[0]
    return state
