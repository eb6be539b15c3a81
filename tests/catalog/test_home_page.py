"""The catalog's home: games by category, each with its pitch and quick facts."""

from __future__ import annotations

from collections.abc import Callable

from marquoir.games.content import load_content

from .pages import Page


def test_the_english_home_lists_pickomino_under_dice_games(get_page: Callable[[str], Page]):
    page = get_page("/en/")
    category = page.one("section", cls="category", aria_labelledby="category-dice")
    assert page.one("h2", id="category-dice").text == "Dice games"
    card = page.within(category)
    link = card.all("h3", cls="card__title")[0]
    assert link.text == "Pickomino"
    assert card.one("a", href="/en/games/pickomino/").text == "Pickomino"
    assert load_content("pickomino", "en").pitch in [paragraph.text for paragraph in card.all("p")]
    assert [dd.text for dd in card.all("dd")][:3] == ["2–7", "about 20 minutes", "8+"]


def test_the_french_home_lists_pickomino_under_jeux_de_des(get_page: Callable[[str], Page]):
    page = get_page("/fr/")
    assert page.one("h1").text == "Les jeux à table"
    assert page.one("h2", id="category-dice").text == "Jeux de dés"
    card = page.within(page.one("section", cls="category", aria_labelledby="category-dice"))
    assert card.one("a", href="/fr/jeux/pickomino/").text == "Pickomino"
    assert load_content("pickomino", "fr").pitch in [paragraph.text for paragraph in card.all("p")]
    assert [dd.text for dd in card.all("dd")][:3] == ["2 à 7", "environ 20\u00a0minutes", "dès 8\u00a0ans"]
    assert [dt.text for dt in card.all("dt")][:3] == ["Joueurs", "Durée", "Âge"]


def test_the_home_headings_go_from_the_page_to_the_category_to_the_game(get_page: Callable[[str], Page]):
    levels = [level for level, _text in get_page("/en/").headings()]
    assert levels[:3] == [1, 2, 3]
    assert levels.count(1) == 1
    assert set(levels) == {1, 2, 3}
