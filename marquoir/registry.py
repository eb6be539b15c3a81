"""The games installed, found once: the one registry the match core and the catalog both read.

A game is registered by its app's line in ``INSTALLED_APPS`` and by nothing else: each app
with a ``keeper`` module (``marquoir/keepers/<game>/keeper.py``, as Django finds an app's
``admin.py``) holds ``KEEPER``, the game's one definition (or ``KEEPERS``, one per game, for
the app that keeps every game declared as data; or ``find_keeper``, for games made since,
such as a user's own): its key, box facts, quick
reference and score keeping (``marquoir.tables.keepers.Keeper``). The core reads it
through ``marquoir.tables.keepers.all_keepers``, the catalog through
``marquoir.catalog.games``; this module imports neither them nor any game (an
import-linter contract says so), so neither reaches into the other through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from types import MappingProxyType
from typing import Any, Protocol

from django.apps import apps
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import module_has_submodule

DEFINITION_MODULE = "keeper"
"""The module of a game app that defines the game (``KEEPER`` in it)."""

FINDER = "find_keeper"
"""A definition module's function that finds a game not installed by key but made since
(a user's own game, kept in the database): ``find_keeper(key) -> keeper | None``."""

FINDER_KEYS = "FOUND_KEYS"
"""Beside ``find_keeper``: the pattern (a regular expression) of the keys it finds, for the
API's schema to take them."""

FINDER_STATE = "FOUND_STATE"
"""Beside ``find_keeper``: the schema of the State of every game it finds (one for all, as
the OpenAPI is built once)."""


class InstalledGame(Protocol):
    """What the registry itself reads of a game's definition (the rest is its readers')."""

    @property
    def key(self) -> str: ...

    @property
    def meta(self) -> Any:
        """The game's box facts (``marquoir.games.meta.GameMeta``), None if it has no box."""


@cache
def installed_games() -> Mapping[str, Any]:
    """Every installed game's definition, by key, in ``INSTALLED_APPS`` order."""
    found: dict[str, InstalledGame] = {}
    for config in apps.get_app_configs():
        if config.module is None or not module_has_submodule(config.module, DEFINITION_MODULE):
            continue
        module = import_module(f"{config.name}.{DEFINITION_MODULE}")
        # KEEPERS: an app that keeps several games (the declared games, one per game file).
        definitions: tuple[InstalledGame, ...] | None = getattr(module, "KEEPERS", None)
        if definitions is None:
            definition: InstalledGame | None = getattr(module, "KEEPER", None)
            if definition is None:
                raise ImproperlyConfigured(f"{config.name}.{DEFINITION_MODULE} must define KEEPER, the game's keeper")
            definitions = (definition,)
        for definition in definitions:
            if definition.key in found:
                raise ImproperlyConfigured(f"{config.name}: the game {definition.key!r} is installed twice")
            found[definition.key] = definition
    return MappingProxyType(found)


@cache
def keeper_finders() -> tuple[tuple[Callable[[str], Any], str, Any], ...]:
    """Each app's ``find_keeper`` with the pattern of the keys it finds and the schema of their
    State, in ``INSTALLED_APPS`` order."""
    finders: list[tuple[Callable[[str], Any], str, Any]] = []
    for config in apps.get_app_configs():
        if config.module is None or not module_has_submodule(config.module, DEFINITION_MODULE):
            continue
        module = import_module(f"{config.name}.{DEFINITION_MODULE}")
        finder = getattr(module, FINDER, None)
        if finder is not None:
            finders.append((finder, getattr(module, FINDER_KEYS), getattr(module, FINDER_STATE)))
    return tuple(finders)


@receiver(setting_changed)
def _forget_on_new_apps(*, setting: str, **kwargs: object) -> None:
    """A test that installs an app of its own (a fake game) finds it, and loses it after."""
    if setting == "INSTALLED_APPS":
        installed_games.cache_clear()
        keeper_finders.cache_clear()
