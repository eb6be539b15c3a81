"""The game page: everything page-pickomino.md lists, top to bottom, in both languages."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from marquoir.games.content import SECTION_KEYS, load_content
from marquoir.games.pickomino.tiles import TILES, worms_on

from .pages import Page

PAGE_ORDER = ["category-link", "h1", "pitch", "reviewed", "facts", "note", "toc", *SECTION_KEYS, "reference", "box"]


def positions(page: Page) -> dict[str, int]:
    """Where each part of the page starts."""
    found = {
        "h1": page.one("h1").position,
        **{cls: page.one(cls=cls).position for cls in ("category-link", "pitch", "reviewed", "facts", "note", "toc")},
        **{key: page.one("section", id=key).position for key in (*SECTION_KEYS, "reference", "box")},
    }
    return found


@pytest.mark.parametrize("url", ["/en/games/pickomino/", "/fr/jeux/pickomino/"])
def test_the_page_shows_its_parts_in_the_documented_order(get_page: Callable[[str], Page], url: str):
    found = positions(get_page(url))
    assert sorted(found, key=found.__getitem__) == PAGE_ORDER


def test_the_english_page_tells_the_game_in_english(english_game_page: Page):
    content = load_content("pickomino", "en")
    assert english_game_page.one("h1").text == "Pickomino"
    assert english_game_page.one("p", cls="pitch").text == content.pitch
    assert english_game_page.one(cls="category-link").text == "Dice games"
    assert english_game_page.one(cls="reviewed").text == content.reviewed
    assert english_game_page.one("a", cls="button").text == "Keep score"


def test_the_french_page_tells_the_game_in_french(french_game_page: Page):
    content = load_content("pickomino", "fr")
    assert french_game_page.one(cls="category-link").text == "Jeux de dés"
    assert french_game_page.one("p", cls="pitch").text == content.pitch
    assert french_game_page.one(cls="reviewed").text == content.reviewed
    assert french_game_page.one("a", cls="button").text == "Tenir le score"
    setup = french_game_page.within(french_game_page.one("section", id="setup"))
    assert "brochette" in " ".join(item.text for item in setup.all("li"))
    assert french_game_page.one("h2", id="reference-title").text == "Aide-mémoire"
    assert french_game_page.one("h2", id="box-title").text == "La boîte"


def test_the_category_links_back_to_its_place_in_the_catalog(english_game_page: Page, french_game_page: Page):
    assert english_game_page.within(english_game_page.one(cls="category-link")).one("a").attrs["href"] == (
        "/en/#category-dice"
    )
    assert french_game_page.within(french_game_page.one(cls="category-link")).one("a").attrs["href"] == (
        "/fr/#category-dice"
    )


def test_the_quick_facts_give_players_time_and_age(english_game_page: Page, french_game_page: Page):
    assert [dd.text for dd in english_game_page.within(english_game_page.one(cls="facts")).all("dd")][:3] == [
        "2–7",
        "about 20 minutes",
        "8+",
    ]
    assert [dd.text for dd in french_game_page.within(french_game_page.one(cls="facts")).all("dd")][:3] == [
        "2 à 7",
        "environ 20\u00a0minutes",
        "dès 8\u00a0ans",
    ]


def test_the_keep_score_button_opens_a_new_table_for_this_game(english_game_page: Page, french_game_page: Page):
    with translation.override("en"):
        english_url = reverse("tables:new", kwargs={"game": "pickomino"})
    with translation.override("fr"):
        french_url = reverse("tables:new", kwargs={"game": "pickomino"})
    assert english_game_page.one("a", cls="button").attrs["href"] == english_url
    assert french_game_page.one("a", cls="button").attrs["href"] == french_url


@pytest.mark.parametrize(("url", "language"), [("/en/games/pickomino/", "en"), ("/fr/jeux/pickomino/", "fr")])
def test_the_six_sections_carry_the_content_s_headings_in_order(
    get_page: Callable[[str], Page], url: str, language: str
):
    page = get_page(url)
    content = load_content("pickomino", language)
    section_titles = [page.one("h2", id=f"{key}-title").text for key in SECTION_KEYS]
    assert section_titles == [section.title for section in content.sections]


def test_the_table_of_contents_links_to_every_section_on_the_page(english_game_page: Page):
    toc = english_game_page.within(english_game_page.one("nav", cls="toc"))
    targets = [link.attrs["href"] for link in toc.all("a")]
    assert targets == [f"#{key}" for key in (*SECTION_KEYS, "reference", "box")]
    assert all(english_game_page.all(id=target.removeprefix("#")) for target in targets)


@pytest.mark.parametrize("url", ["/en/games/pickomino/", "/fr/jeux/pickomino/"])
def test_headings_start_at_one_h1_and_never_skip_a_level(get_page: Callable[[str], Page], url: str):
    levels = [level for level, _text in get_page(url).headings()]
    assert levels[0] == 1
    assert levels.count(1) == 1
    assert all(later <= earlier + 1 for earlier, later in pairwise(levels))


def test_each_question_is_a_disclosure_with_its_answer(english_game_page: Page):
    content = load_content("pickomino", "en")
    faq = english_game_page.within(english_game_page.one("section", id="faq"))
    assert [summary.text for summary in faq.all("summary")] == [entry.question for entry in content.faq]
    assert len(faq.all("details")) == len(content.faq) >= 4


def test_the_quick_reference_draws_the_sixteen_tiles_with_their_worms(english_game_page: Page):
    reference = english_game_page.within(english_game_page.one("section", id="reference"))
    tiles = reference.all("svg", cls="tile")
    assert len(tiles) == 16
    assert [tile.attrs["aria-label"] for tile in tiles] == [
        f"Tile {tile}, {worms_on(tile)} worm{'s' if worms_on(tile) > 1 else ''}" for tile in TILES
    ]
    assert [caption.text for caption in reference.all(cls="band__caption")] == [
        "21 to 24: 1 worm each",
        "25 to 28: 2 worms each",
        "29 to 32: 3 worms each",
        "33 to 36: 4 worms each",
    ]


def test_the_quick_reference_draws_the_six_die_faces_with_their_values(english_game_page: Page):
    reference = english_game_page.within(english_game_page.one("section", id="reference"))
    assert [die.attrs["aria-label"] for die in reference.all("svg", cls="die")] == [
        "Die showing 1",
        "Die showing 2",
        "Die showing 3",
        "Die showing 4",
        "Die showing 5",
        "Die showing a worm",
    ]
    assert [points.text for points in reference.all(cls="face__points")] == [
        "1 point",
        "2 points",
        "3 points",
        "4 points",
        "5 points",
        "5 points",
    ]
    assert reference.one("p", cls="faces__note").text == load_content("pickomino", "en").faces_note


def test_the_french_quick_reference_speaks_of_pickominos_and_worms(french_game_page: Page):
    reference = french_game_page.within(french_game_page.one("section", id="reference"))
    assert reference.all("svg", cls="tile")[0].attrs["aria-label"] == "Pickomino 21, 1 ver"
    assert reference.all(cls="band__caption")[-1].text == "De 33 à 36\u00a0: 4 vers chacun"


def test_the_page_includes_the_drawing_sprites_once(english_game_page: Page):
    assert len(english_game_page.all("svg", cls="sprites")) == 1


def test_the_box_gives_release_designer_publishers_mechanics_contents_and_original_name(english_game_page: Page):
    box = english_game_page.within(english_game_page.one("section", id="box"))
    facts = dict(zip([dt.text for dt in box.all("dt")], [dd.text for dd in box.all("dd")], strict=True))
    assert facts == {
        "Released": "2005",
        "Players": "2 to 7 players",
        "Ages": "8 and up",
        "Designer": "Reiner Knizia",
        "Publisher": "Gigamic (original: Zoch)",
        "Mechanics": "dice rolling, push your luck, stealing",
        "In the box": "16 tiles numbered 21 to 36, and 8 six-sided dice showing 1 to 5 and a worm.",
        "Original name": "Heckmeck am Bratwurmeck",
    }


def test_the_french_box_speaks_french(french_game_page: Page):
    box = french_game_page.within(french_game_page.one("section", id="box"))
    facts = dict(zip([dt.text for dt in box.all("dt")], [dd.text for dd in box.all("dd")], strict=True))
    assert facts["Auteur"] == "Reiner Knizia"
    assert facts["Éditeur"] == "Gigamic (édition originale\u00a0: Zoch)"
    assert facts["Mécaniques"] == "lancer de dés, stop ou encore, vol"


@pytest.mark.parametrize("url", ["/en/games/chess/", "/fr/jeux/chess/", "/fr/games/pickomino/", "/en/jeux/pickomino/"])
def test_an_unknown_game_or_a_path_in_the_other_language_is_not_found(client: Client, url: str):
    assert client.get(url).status_code == 404


@pytest.mark.usefixtures("pickomino_shows_demo_content")
def test_raw_html_in_content_comes_out_escaped_on_the_page(client: Client):
    html = client.get("/en/games/pickomino/").content.decode()
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&quot;setup&quot;)&lt;/script&gt;" in html
    assert "<b>cheat</b>" not in html
    assert "&lt;b&gt;cheat&lt;/b&gt;" in html
    assert "<img" not in html
    assert "javascript:" not in html.replace("[worms](javascript:alert(1))", "")


@pytest.mark.usefixtures("pickomino_shows_demo_content")
def test_the_review_stamp_is_left_out_where_it_is_not_set(get_page: Callable[[str], Page]):
    assert get_page("/en/games/pickomino/").all(cls="reviewed")
    assert get_page("/fr/jeux/pickomino/").all(cls="reviewed") == []


@pytest.mark.usefixtures("pickomino_shows_demo_content")
def test_the_faq_section_s_own_intro_is_shown_before_the_questions(get_page: Callable[[str], Page]):
    faq = (page := get_page("/en/games/pickomino/")).within(page.one("section", id="faq"))
    intro = faq.all("p")[0]
    assert intro.text == "Questions players ask."
    assert intro.position < faq.all("details")[0].position
