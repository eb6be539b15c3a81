"""The keepers of users' own games, found by key (``marquoir.registry``'s ``find_keeper``):
the declared games' keeper, drawn from the version's file, under the key
``own.<id>.<version>`` a match keeps (``own.<id>``: the newest version, for a new match).

A version never changes, so its keeper, once compiled, is remembered (the most recently
used ``KEEPERS_REMEMBERED``): a turn of a match of an own game compiles nothing.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

from django.urls import reverse
from pydantic import Field

from marquoir.games.declared.game import compile_game
from marquoir.games.declared.gamefile import parse_game_file
from marquoir.keepers.declared.keeper import DeclaredKeeper
from marquoir.keepers.declared.state import DeclaredStateOut
from marquoir.keepers.declared.words import local

from .files import SOURCE
from .models import OwnGame, OwnGameVersion

KEEPERS: tuple[DeclaredKeeper, ...] = ()
"""No game installed: each is found by its key."""

PREFIX = "own."
FOUND_KEYS = r"^own\.[A-Za-z0-9_-]{16,32}(\.[1-9][0-9]{0,5})?$"
_KEY = re.compile(FOUND_KEYS)


class OwnGameStateOut(DeclaredStateOut):
    """The State of a match of a user's own game: a declared game's, its ``game`` the
    version's key."""

    game: str = Field(..., pattern=FOUND_KEYS, description="own.<id>.<version>: the version the match keeps")


FOUND_STATE = OwnGameStateOut
KEEPERS_REMEMBERED = 256
"""Compiled versions kept in memory (a few hundred kB each at most)."""


def own_key(game_id: str, number: int | None = None) -> str:
    """The game key of an own game's version (its newest, if None)."""
    return f"{PREFIX}{game_id}" + (f".{number}" if number is not None else "")


def parse_key(key: str) -> tuple[str, int | None] | None:
    """``(id, version)`` of an own game's key (version None: the newest), or None."""
    if not _KEY.fullmatch(key):
        return None
    game_id, _dot, number = key.removeprefix(PREFIX).partition(".")
    return game_id, int(number) if number else None


class OwnGameKeeper(DeclaredKeeper):
    """A user's own game, one version of it: its names are the user's, its rules its own page."""

    def __init__(self, game_id: str, number: int, file: dict[str, object]) -> None:
        self.game_id, self.version = game_id, number
        super().__init__(
            compile_game(parse_game_file(file, source=SOURCE), source=SOURCE), key=own_key(game_id, number)
        )

    def name(self) -> str:
        return local(self.game.file.box.names)

    @property
    def game_family(self) -> str:
        return own_key(self.game_id)

    def rules_address(self) -> str | None:
        return reverse("own_games:game", args=[self.game_id])


_remembered: OrderedDict[tuple[str, int], OwnGameKeeper] = OrderedDict()
_lock = threading.Lock()


def find_keeper(key: str) -> OwnGameKeeper | None:
    """The keeper of ``key`` if it names an own game's version that exists (only found
    versions are remembered: a version asked for before it is made is found once it is)."""
    parsed = parse_key(key)
    if parsed is None:
        return None
    game_id, number = parsed
    if number is None:
        number = OwnGame.objects.filter(pk=game_id).values_list("latest", flat=True).first()
        if number is None:
            return None
    with _lock:
        keeper = _remembered.get((game_id, number))
        if keeper is not None:
            _remembered.move_to_end((game_id, number))
            return keeper
    file = OwnGameVersion.objects.filter(game_id=game_id, number=number).values_list("file", flat=True).first()
    if file is None:
        return None
    keeper = OwnGameKeeper(game_id, number, file)
    with _lock:
        _remembered[game_id, number] = keeper
        while len(_remembered) > KEEPERS_REMEMBERED:
            _remembered.popitem(last=False)
    return keeper


def forget_all() -> None:
    """Forget the compiled versions (tests)."""
    with _lock:
        _remembered.clear()
