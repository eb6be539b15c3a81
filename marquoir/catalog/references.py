"""The data each game's quick reference draws (tiles, dice faces), taken from its pure package.

A game with a quick reference has a template ``catalog/reference/<slug>.html`` and, here, a
function returning what that template needs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from marquoir.games.pickomino.dice import ALL_FACES
from marquoir.games.pickomino.tiles import TILE_BANDS


@dataclass(frozen=True, slots=True)
class TileBand:
    """Four tiles in a row that carry the same number of worms."""

    first: int
    last: int
    worms: int

    @property
    def tiles(self) -> range:
        """The tile numbers of the band, lowest first."""
        return range(self.first, self.last + 1)


@dataclass(frozen=True, slots=True)
class DieFace:
    """A die face by its key ("1"–"5", "worm") and what it adds to a total."""

    key: str
    points: int


@dataclass(frozen=True, slots=True)
class PickominoReference:
    """The tile bands and the die faces."""

    bands: tuple[TileBand, ...]
    faces: tuple[DieFace, ...]


def pickomino_reference() -> PickominoReference:
    """Pickomino's quick reference: the 16 tiles in their worm bands, the six die faces."""
    return PickominoReference(
        bands=tuple(TileBand(first, last, worms) for first, last, worms in TILE_BANDS),
        faces=tuple(DieFace(face.key, face.points) for face in ALL_FACES),
    )


REFERENCES: dict[str, Callable[[], object]] = {
    "pickomino": pickomino_reference,
}


def reference_for(slug: str) -> tuple[str, object] | None:
    """The quick reference template and its data for game ``slug``, or None if it has none."""
    build = REFERENCES.get(slug)
    if build is None:
        return None
    return f"catalog/reference/{slug}.html", build()
