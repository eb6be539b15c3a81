"""One registry, found once in INSTALLED_APPS: the catalog lists each installed game with box
facts, by slug and by category, and the match core keeps the score of the same games."""

from __future__ import annotations

from django.utils import translation

from marquoir.catalog.categories import CATEGORY_LABELS, category_label
from marquoir.catalog.games import GAMES, games_by_category, games_in, get_game, keeps_score, reference_for
from marquoir.games.meta import CATEGORIES
from marquoir.games.pickomino.meta import META as PICKOMINO
from marquoir.registry import installed_games
from marquoir.tables.keepers import all_keepers


def test_pickomino_is_registered_under_its_slug():
    assert get_game("pickomino") is PICKOMINO
    assert GAMES["pickomino"] is PICKOMINO


def test_an_unknown_slug_is_no_game():
    assert get_game("chess") is None
    assert not keeps_score("chess")


def test_pickomino_is_a_dice_game():
    assert games_in("dice")[0] is PICKOMINO
    assert games_by_category()[0] == ("dice", games_in("dice"))


# The declared games, as their app finds their files: by their folder's name.
DECLARED = [
    "akropolis",
    "azul",
    "belote",
    "canasta",
    "carcassonne",
    "cascadia",
    "catan",
    "codenames",
    "coinche",
    "dixit",
    "everdell",
    "farkle",
    "flip_7",
    "just_one",
    "kingdomino",
    "love_letter",
    "mille_bornes",
    "molkky",
    "oh_hell",
    "papayoo",
    "phase_10",
    "qwixx",
    "rami",
    "rummikub",
    "scrabble",
    "seven_wonders",
    "seven_wonders_duel",
    "six_nimmt",
    "skull_king",
    "skyjo",
    "splendor",
    "sushi_go",
    "terraforming_mars",
    "the_crew",
    "ticket_to_ride",
    "uno",
    "wingspan",
]


# The catalog's games by category, each in the order its app is installed.
BY_CATEGORY = [
    ("dice", ["pickomino", "yahtzee", "farkle", "qwixx"]),
    (
        "cards",
        [
            "tarot",
            "belote",
            "canasta",
            "coinche",
            "flip_7",
            "love_letter",
            "mille_bornes",
            "oh_hell",
            "papayoo",
            "phase_10",
            "rami",
            "seven_wonders",
            "seven_wonders_duel",
            "six_nimmt",
            "skull_king",
            "skyjo",
            "splendor",
            "sushi_go",
            "uno",
        ],
    ),
    (
        "board",
        [
            "akropolis",
            "azul",
            "carcassonne",
            "cascadia",
            "catan",
            "everdell",
            "kingdomino",
            "rummikub",
            "scrabble",
            "terraforming_mars",
            "ticket_to_ride",
            "wingspan",
        ],
    ),
    ("party", ["codenames", "dixit"]),
    ("cooperative", ["just_one", "the_crew"]),
    ("outdoor", ["molkky"]),
]


def test_the_catalog_shows_the_games_by_category_in_the_order_they_are_installed():
    # Installed by category (settings.INSTALLED_APPS), so the whole list is the categories' in turn.
    assert list(GAMES) == [slug for _category, slugs in BY_CATEGORY for slug in slugs]
    assert sorted(set(GAMES) - {"pickomino", "yahtzee", "tarot"}) == DECLARED
    assert [(category, [game.slug for game in games]) for category, games in games_by_category()] == BY_CATEGORY


def test_every_game_s_category_is_listed_and_named_for_people():
    for game in GAMES.values():
        assert game.category in CATEGORIES
        assert game.category in CATEGORY_LABELS


def test_the_dice_category_is_named_in_each_language():
    with translation.override("en"):
        assert category_label("dice") == "Dice games"
    with translation.override("fr"):
        assert category_label("dice") == "Jeux de dés"


def test_the_catalog_and_the_core_read_the_same_registry():
    assert all_keepers() is installed_games()
    assert list(all_keepers()) == ["pickomino", "sheet", "tarot", "yahtzee", *DECLARED]
    assert all(keeps_score(slug) and all_keepers()[slug].meta is meta for slug, meta in GAMES.items())


def test_the_sheet_keeps_score_but_has_no_box_to_list():
    assert keeps_score("sheet")
    assert get_game("sheet") is None


def test_each_game_s_quick_reference_is_its_own_template_beside_its_keeper():
    for slug in GAMES:
        found = reference_for(slug)
        assert found is not None
        # A declared game's reference is the rows of its file, drawn by the one template.
        assert found[0] == (
            "declared/reference.html" if hasattr(all_keepers()[slug], "game") else f"{slug}/reference.html"
        )
    assert reference_for("sheet") is None
    assert reference_for("chess") is None
