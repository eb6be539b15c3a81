"""Shared fixtures for the catalog: the fake game's content, the real pages in both languages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client

from marquoir.catalog import views
from marquoir.games.content import GameContent, load_content

from .pages import Page

FIXTURE_GAMES_DIR = Path(__file__).resolve().parent / "fixtures" / "games"
"""A games directory holding one made-up game, "demo", with content in English and French."""


@pytest.fixture
def fixture_games_dir() -> Path:
    return FIXTURE_GAMES_DIR


@pytest.fixture
def demo_content() -> GameContent:
    """The made-up game's English content (with raw HTML in it, and a review stamp)."""
    return load_content("demo", "en", FIXTURE_GAMES_DIR)


@pytest.fixture
def get_page(client: Client) -> Callable[[str], Page]:
    """Fetch a page that must answer 200 and read its HTML."""

    def get(url: str) -> Page:
        response = client.get(url)
        assert response.status_code == 200, url
        return Page(response.content.decode())

    return get


@pytest.fixture
def english_game_page(get_page: Callable[[str], Page]) -> Page:
    return get_page("/en/games/pickomino/")


@pytest.fixture
def french_game_page(get_page: Callable[[str], Page]) -> Page:
    return get_page("/fr/jeux/pickomino/")


@pytest.fixture
def pickomino_shows_demo_content(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pickomino's page shows the made-up game's content instead of its own."""

    def load_demo(slug: str, language: str) -> GameContent:
        return load_content("demo", language, FIXTURE_GAMES_DIR)

    monkeypatch.setattr(views, "load_content", load_demo)
