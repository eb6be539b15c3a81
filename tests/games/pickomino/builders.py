"""Tables set up by hand for rule tests: say what is where, the rest lies face up on the grill."""

from __future__ import annotations

from collections.abc import Iterable

from marquoir.games.pickomino import TILES, GameState, Options


def table(
    *stacks: Iterable[int],
    face_down: Iterable[int] = (),
    gone: Iterable[int] = (),
    current: int = 0,
    options: Options | None = None,
) -> GameState:
    """A state whose stacks are ``stacks`` (bottom first) and ``face_down`` tiles are turned.

    ``gone`` names face-down tiles too, for readability where a test says "22 is gone".
    Every other tile lies face up on the grill.
    """
    stacks_tuple = tuple(tuple(stack) for stack in stacks) or ((), ())
    down = frozenset(face_down) | frozenset(gone)
    held = {tile for stack in stacks_tuple for tile in stack}
    assert not held & down, "a tile cannot be both held and face down"
    assert len(held) == sum(len(stack) for stack in stacks_tuple), "a tile is held twice"
    return GameState(
        options=options or Options(),
        stacks=stacks_tuple,
        face_up=frozenset(TILES) - held - down,
        face_down=down,
        current=current,
    )


def only_face_up(
    *tiles: int,
    stacks: tuple[tuple[int, ...], ...] = ((), ()),
    current: int = 0,
    options: Options | None = None,
) -> GameState:
    """A state where only ``tiles`` lie face up; every tile not held is face down."""
    held = {tile for stack in stacks for tile in stack}
    return GameState(
        options=options or Options(),
        stacks=stacks,
        face_up=frozenset(tiles),
        face_down=frozenset(TILES) - frozenset(tiles) - held,
        current=current,
    )
