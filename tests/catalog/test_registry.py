"""The registry lists the games by slug and by category; the catalog names each category."""

from __future__ import annotations

from django.utils import translation

from marquoir.catalog.categories import CATEGORY_LABELS, category_label
from marquoir.games.pickomino.meta import META as PICKOMINO
from marquoir.games.registry import CATEGORIES, GAMES, games_by_category, games_in, get_game


def test_pickomino_is_registered_under_its_slug():
    assert get_game("pickomino") is PICKOMINO
    assert GAMES["pickomino"] is PICKOMINO


def test_an_unknown_slug_is_no_game():
    assert get_game("chess") is None


def test_pickomino_is_a_dice_game():
    assert games_in("dice")[0] is PICKOMINO
    assert games_by_category()[0] == ("dice", games_in("dice"))


def test_every_game_s_category_is_listed_and_named_for_people():
    for game in GAMES.values():
        assert game.category in CATEGORIES
        assert game.category in CATEGORY_LABELS


def test_the_dice_category_is_named_in_each_language():
    with translation.override("en"):
        assert category_label("dice") == "Dice games"
    with translation.override("fr"):
        assert category_label("dice") == "Jeux de dés"
