"""Pickomino's quick reference on its rules page: the tiles in their worm bands, the die faces
(drawn by ``pickomino/reference.html``, from the pure package's own figures)."""

from __future__ import annotations

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
