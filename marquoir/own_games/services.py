"""Every write of an own game: make one, change it (a new version), link a device to it.

The rights are the match core's capabilities (``marquoir.tables.capabilities``), under a
salt of their own: an own game's key opens neither a match nor a group, nor theirs it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from marquoir.games.declared import Game, GameFileError
from marquoir.tables.capabilities import DeviceLinks, key_for, key_matches
from marquoir.tables.models import is_match_id
from marquoir.tables.outcome import ServiceError
from marquoir.tables.ratelimit import Allowance, spend

from . import files
from .messages import file_refusal
from .models import DeviceOwnGame, OwnGame, OwnGameVersion

OWN_GAME_KEY_SALT = "marquoir.own_games.key"
MAX_VERSIONS = 100
"""Versions one game keeps: each change is one, and a match points at its own."""

GAME_LINKS: DeviceLinks[OwnGame] = DeviceLinks(DeviceOwnGame, "game")

CHECKS_PER_WINDOW = 600
CHECK_WINDOW_SECONDS = 600
"""A file or a draft compiled for a client (a save, a check as it is typed, a tried round,
the API's check or creation, refused or not): at most 600 in 10 minutes from one address,
one a second sustained, more than anyone typing; each costs a few milliseconds, so a flood
is refused in memory before any of it."""


def spend_check(client: str) -> None:
    """ServiceError ``rate_limited`` (``too_many_checks``) once ``client`` has spent its checks."""
    allowance = spend(f"own-check:{client}", limit=CHECKS_PER_WINDOW, window_seconds=CHECK_WINDOW_SECONDS)
    if not allowance.allowed:
        raise ServiceError(
            "rate_limited", "too_many_checks", seconds=allowance.retry_after, retry_after=allowance.retry_after
        )


def game_key_for(game_id: str) -> str:
    """The game's edit key: an HMAC of its id under the site's secret key, never stored."""
    return key_for(game_id, salt=OWN_GAME_KEY_SALT)


def game_key_matches(game_id: str, key: str | None) -> bool:
    """Whether ``key`` is the game's edit key, compared in constant time."""
    return key_matches(game_id, key, salt=OWN_GAME_KEY_SALT)


def checked_file(data: Mapping[str, Any]) -> tuple[Game, dict[str, Any]]:
    """The file read, compiled and its examples played, with what the database keeps of
    it; ServiceError ``invalid``/``game_file`` saying where and why."""
    try:
        game = files.compile_file(data)
    except GameFileError as error:
        raise file_refusal(error) from None
    return game, files.stored(game.file)


@dataclass(frozen=True)
class Saved:
    game: OwnGame
    version: OwnGameVersion
    key: str


def own_game_create(
    *,
    data: Mapping[str, Any],
    device_secret: str | None = None,
    spend: Callable[[], Allowance] | None = None,
) -> Saved:
    """A new own game, its first version ``data`` (checked first: a refused file costs no
    allowance), and its edit key; the device that made it may change it."""
    _game, kept = checked_file(data)
    if spend is not None:
        allowance = spend()
        if not allowance.allowed:
            raise ServiceError("rate_limited", minutes=allowance.minutes, retry_after=allowance.retry_after)
    with transaction.atomic():
        game = OwnGame.objects.create(latest=1)
        version = OwnGameVersion.objects.create(game=game, number=1, file=kept)
        if device_secret:
            GAME_LINKS.link(device_secret=device_secret, thing=game, can_edit=True)
    return Saved(game, version, game_key_for(game.id))


def own_game_change(*, game: OwnGame, data: Mapping[str, Any]) -> OwnGameVersion:
    """A new version of ``game``: the matches under way keep theirs. The same file again
    makes no version (a second tap on Save changes nothing)."""
    _game, kept = checked_file(data)
    try:
        return _new_version(game, kept)
    except IntegrityError:  # another save took this number meanwhile (SQLite locks no row)
        raise ServiceError("conflict", "changed_meanwhile") from None


def _new_version(game: OwnGame, kept: dict[str, Any]) -> OwnGameVersion:
    with transaction.atomic():
        locked = OwnGame.objects.select_for_update().get(pk=game.pk)
        latest = OwnGameVersion.objects.get(game=locked, number=locked.latest)
        if latest.file == kept:
            return latest
        if locked.latest >= MAX_VERSIONS:
            raise ServiceError("invalid", "too_many_versions", limit=MAX_VERSIONS)
        locked.latest += 1
        locked.save(update_fields=["latest", "updated_at"])
        version = OwnGameVersion.objects.create(game=locked, number=locked.latest, file=kept)
    game.latest = locked.latest
    return version


def link_device(*, device_secret: str, game: OwnGame, can_edit: bool) -> None:
    GAME_LINKS.link(device_secret=device_secret, thing=game, can_edit=can_edit)


def device_can_edit(*, device_secret: str | None, game: OwnGame) -> bool:
    return GAME_LINKS.can_edit(device_secret=device_secret, thing=game)


def find_game(game_id: object) -> OwnGame | None:
    """The game with this id, or None; an id no game can have is never looked up."""
    return OwnGame.objects.filter(pk=game_id).first() if is_match_id(game_id) else None


def version_of(game: OwnGame, number: int | None = None) -> OwnGameVersion | None:
    """The version ``number`` of ``game`` (its latest if None)."""
    return OwnGameVersion.objects.filter(game=game, number=number or game.latest).first()


def games_of_device(device_secret: str | None) -> list[tuple[OwnGame, bool]]:
    return GAME_LINKS.of_device(device_secret=device_secret, limit=50)
