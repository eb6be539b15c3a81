"""The 16 Pickomino tiles and the worms printed on them."""

from __future__ import annotations

LOWEST_TILE = 21
HIGHEST_TILE = 36
TILES: tuple[int, ...] = tuple(range(LOWEST_TILE, HIGHEST_TILE + 1))
TOTAL_WORMS = 40

# Worms per tile, in bands of four: 21–24 one, 25–28 two, 29–32 three, 33–36 four.
_WORMS: dict[int, int] = {tile: (tile - LOWEST_TILE) // 4 + 1 for tile in TILES}


def worms_on(tile: int) -> int:
    """The number of worms printed on ``tile`` (21–36)."""
    return _WORMS[tile]


def is_tile(value: object) -> bool:
    """Whether ``value`` is the number of one of the 16 tiles."""
    return isinstance(value, int) and not isinstance(value, bool) and value in _WORMS


def worms_in(tiles: tuple[int, ...] | frozenset[int]) -> int:
    """The worms on all of ``tiles`` together."""
    return sum(_WORMS[tile] for tile in tiles)


TILE_BANDS: tuple[tuple[int, int, int], ...] = tuple(
    (first, first + 3, worms_on(first)) for first in range(LOWEST_TILE, HIGHEST_TILE + 1, 4)
)
"""(first tile, last tile, worms) for each band of four tiles, for quick references."""
