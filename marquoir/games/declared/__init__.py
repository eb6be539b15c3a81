"""Games declared as data: a game file (``marquoir/games/<key>/game.toml``) per game, its
formulas in CEL, and one engine for all of them (docs/game-file.md).

A game is declared by its file alone: ``game_files()`` finds every ``game.toml`` beside the
games' rules pages, so adding a game is its file and its two pages (``content/en.md``,
``content/fr.md``), and nothing else.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..content import GAMES_DIR
from .engine import (
    RULE,
    End,
    GameState,
    Match,
    Round,
    RoundScored,
    Setup,
    Turn,
    leaders,
    resolve_options,
    standings,
    winners,
)
from .game import Game, load_game
from .gamefile import GameFile, GameFileError

GAME_FILE = "game.toml"


def game_files(base_dir: Path = GAMES_DIR) -> tuple[Path, ...]:
    """Every game file under ``base_dir``, by the game's folder name."""
    return tuple(sorted(base_dir.glob(f"*/{GAME_FILE}")))


@cache
def declared_games() -> tuple[Game, ...]:
    """Every declared game, compiled once (a faulty file stops the site from starting, with
    the file, the field and the position named)."""
    games = tuple(load_game(path) for path in game_files())
    for game, path in zip(games, game_files(), strict=True):
        if game.key != path.parent.name:
            raise GameFileError(str(path), "key", f"the key must be the folder's name, {path.parent.name!r}")
    return games


__all__ = [
    "GAME_FILE",
    "RULE",
    "End",
    "Game",
    "GameFile",
    "GameFileError",
    "GameState",
    "Match",
    "Round",
    "RoundScored",
    "Setup",
    "Turn",
    "declared_games",
    "game_files",
    "leaders",
    "load_game",
    "resolve_options",
    "standings",
    "winners",
]
