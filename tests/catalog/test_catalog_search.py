"""The catalog's search, on the server (the page without JavaScript): by a name in either
language or another name the game is known by, by players, time and category; a clear answer
when nothing matches, and never a 500 whatever the address says."""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import quote

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from marquoir.catalog import search
from marquoir.catalog.games import GAMES, games_by_category, get_game
from marquoir.catalog.views import _search_card
from marquoir.games.meta import CATEGORIES

from .pages import Element, Page

NBSP = "\u00a0"


def searchable_cards(page: Page) -> list[Element]:
    """The catalog's cards (not those of "Played on this device" nor the score sheet's)."""
    return [card for card in page.all("li", cls="card") if "data-keys" in card.attrs]


def slug_of(page: Page, card: Element) -> str:
    href = page.within(card).all("a")[0].attrs["href"]
    return href.rstrip("/").rsplit("/", 1)[-1]


def shown(page: Page) -> list[str]:
    """The games the page shows, in its order."""
    return [slug_of(page, card) for card in searchable_cards(page) if "hidden" not in card.attrs]


def hidden(page: Page) -> list[str]:
    return [slug_of(page, card) for card in searchable_cards(page) if "hidden" in card.attrs]


def count_text(page: Page) -> str:
    return page.one("p", id="catalog-count").text


def label_for(page: Page, field_id: str) -> str:
    (label,) = [label for label in page.all("label") if label.attrs.get("for") == field_id]
    return label.text


def sheet_url(language: str) -> str:
    with translation.override(language):
        return reverse("tables:new", kwargs={"game": "sheet"})


# --- the pure part: folding names, keys, filters -------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Yam's", "yams"),
        ("Mölkky", "molkky"),
        ("6 nimmt!", "6nimmt"),
        ("  LES Aventuriers du Rail ", "lesaventuriersdurail"),
        ("Straße", "strasse"),
        ("Ｙａｈｔｚｅｅ", "yahtzee"),  # full-width letters: NFKD makes them plain
        ("é", "e"),  # already decomposed: the combining acute goes
        ("!!!", ""),
        ("", ""),
    ],
)
def test_a_name_is_folded_to_letters_and_digits_without_case_or_accents(text: str, folded: str):
    assert search.fold(text) == folded


def test_the_keys_of_a_name_start_at_each_of_its_words():
    assert search.search_keys(["Les Aventuriers du Rail"]) == (
        "lesaventuriersdurail",
        "aventuriersdurail",
        "durail",
        "rail",
    )
    assert search.search_keys(["Yam's", "Yams"]) == ("yams",)
    assert search.search_keys(["Heckmeck am Bratwurmeck"])[0] == "heckmeckambratwurmeck"
    assert search.search_keys(["Saint-Malo"]) == ("saintmalo", "malo")
    assert search.search_keys(["!!", ""]) == ()


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("yams", True),
        ("YAM'S", True),
        ("yatz", True),
        ("yahtzee", True),
        ("ahtzee", True),  # a letter missing at the start: one typo
        ("htzee", False),  # two letters missing: too many for five letters
        ("yaht zee", True),  # the whole query, folded, begins the name
        ("yaht zoo", False),  # "zoo" begins no word, and is too short to be a typo
        ("", True),
        ("?!", True),  # nothing left to look for: the query narrows nothing
    ],
)
def test_a_query_finds_a_game_at_the_start_of_a_word_of_one_of_its_names(query: str, found: bool):
    meta = get_game("yahtzee")
    assert meta is not None
    keys = search.search_keys(search.names_of(meta, ["Yahtzee"]))
    assert search.matches(meta, keys, search.Filters(query=query)) is found


def test_the_keys_of_a_name_with_a_number_spell_it_out_in_english_and_french():
    assert search.search_keys(["7 Wonders"]) == ("7wonders", "wonders", "sevenwonders", "septwonders")
    assert search.search_keys(["6 nimmt!"]) == ("6nimmt", "nimmt", "sixnimmt")
    assert search.search_keys(["Phase 10"])[2:] == ("phaseten", "ten", "phasedix", "dix")


@pytest.mark.parametrize(
    ("query", "names", "found"),
    [
        # The three: a typo, a number spelled out, a word of the French name alone.
        ("quixx", ["Qwixx"], True),
        ("seven wonders", ["7 Wonders"], True),
        ("aventuriers", ["Ticket to Ride", "Les Aventuriers du Rail"], True),
        # A word left out or moved: each word of the query begins a word of a name.
        ("aventuriers rail", ["Les Aventuriers du Rail"], True),
        ("rail aventuriers", ["Les Aventuriers du Rail"], True),
        ("wonders duel sept", ["7 Wonders Duel"], True),
        ("aventuriers ciel", ["Les Aventuriers du Rail"], False),
        # One typo in a word of four to seven letters, two from eight on.
        ("catna", ["Catan"], True),  # two letters swapped: one edit
        ("carcasone", ["Carcassonne"], True),
        ("carcasonn", ["Carcassonne"], True),
        ("crcasonne", ["Carcassonne"], True),  # two edits in nine letters
        ("cacsone", ["Carcassonne"], False),  # three edits
        ("azol", ["Azul"], True),
        ("azxy", ["Azul"], False),
        ("dxit", ["Dixit"], True),
        # Under four letters nothing is forgiven: "uni" is not UNO, "ska" not Skull King.
        ("uni", ["UNO"], False),
        ("uno", ["UNO"], True),
        ("ska", ["Skull King"], False),
        # A word longer than any name's is compared exactly, whatever its typos.
        ("carcassonnecarcassonnecarcassonne", ["Carcassonne"], False),
    ],
)
def test_the_search_forgives_a_typo_a_word_left_out_and_a_number_in_words(query: str, names: list[str], found: bool):
    assert search.found(query, search.search_keys(names)) is found


def test_a_game_matches_the_players_the_minutes_and_the_category_it_has():
    meta = get_game("tarot")  # 3 to 5 players, 10 minutes a deal, cards
    assert meta is not None
    keys = search.search_keys(["Tarot"])
    assert search.matches(meta, keys, search.Filters(players=3, minutes=15, category="cards"))
    assert search.matches(meta, keys, search.Filters(players=5))
    assert not search.matches(meta, keys, search.Filters(players=2))
    assert not search.matches(meta, keys, search.Filters(players=6))
    assert search.matches(meta, keys, search.Filters(minutes=10 + 5))
    assert not search.matches(meta, keys, search.Filters(category="dice"))


def choices() -> search.Choices:
    return search.choices_for(list(GAMES.values()), CATEGORIES)


def test_the_form_offers_the_categories_that_have_games_in_catalog_order():
    assert choices().categories == tuple(key for key, _games in games_by_category())
    assert choices().players[0] == 1
    assert choices().players[-1] == max(meta.max_players for meta in GAMES.values())


@pytest.mark.parametrize(
    "params",
    [
        {"players": "abc"},
        {"players": "99999999999999999999"},
        {"players": "-3"},
        {"players": "0"},
        {"players": "2.5"},
        {"players": "\uff13"},  # a full-width 3
        {"players": "1e3"},
        {"minutes": "20"},  # not one of the choices
        {"minutes": "-15"},
        {"minutes": "9" * 5000},
        {"category": "ship"},
        {"category": "DICE"},
        {"category": "../dice"},
        {"q": "   "},
    ],
)
def test_a_value_that_is_none_of_the_choices_is_ignored(params: dict[str, str]):
    assert search.read_filters(params, choices()) == search.Filters()


def test_the_query_is_cut_to_a_hundred_characters():
    filters = search.read_filters({"q": "y" * 10_000}, choices())
    assert filters.query == "y" * search.QUERY_MAX_LENGTH


def test_the_choices_are_read_as_numbers_and_keys():
    filters = search.read_filters({"q": " yams ", "players": " 2 ", "minutes": "30", "category": "dice"}, choices())
    assert filters == search.Filters(query="yams", players=2, minutes=30, category="dice")
    assert filters.active
    assert not search.Filters(query="?!").active


# --- the page: names in either language, other names ---------------------------------------


@pytest.mark.parametrize(
    ("url", "game"),
    [
        ("/en/?q=yams", "yahtzee"),
        ("/fr/?q=yams", "yahtzee"),
        ("/en/?q=" + quote("Yam's"), "yahtzee"),
        ("/en/?q=YATZY", "yahtzee"),
        ("/en/?q=heckmeck", "pickomino"),
        ("/fr/?q=regenwormen", "pickomino"),
        ("/fr/?q=" + quote("Heckmeck am Brat"), "pickomino"),
        ("/en/?q=aventu", "ticket_to_ride"),  # the French title, on the English page
        ("/fr/?q=ticket", "ticket_to_ride"),  # the English title, on the French page
        ("/en/?q=zug", "ticket_to_ride"),
        ("/fr/?q=" + quote("jeu de tarot"), "tarot"),
        ("/fr/?q=" + quote("French Tar"), "tarot"),
        ("/en/?q=" + quote("TÀRÔT"), "tarot"),  # accents and case ignored
        ("/en/?q=" + quote("skull-king"), "skull_king"),
        ("/en/?q=7", "seven_wonders"),
        ("/fr/?q=skyj", "skyjo"),
    ],
)
def test_a_game_is_found_by_any_of_its_names(get_page: Callable[[str], Page], url: str, game: str):
    page = get_page(url)
    assert game in shown(page)
    assert set(shown(page)) | set(hidden(page)) == set(GAMES)


def test_a_search_shows_only_the_games_found_and_their_categories(get_page: Callable[[str], Page]):
    page = get_page("/en/?q=yams")
    assert shown(page) == ["yahtzee"]
    sections = {section.attrs["aria-labelledby"]: section for section in page.all("section", cls="category")}
    assert "hidden" not in sections["category-dice"].attrs
    assert "hidden" in sections["category-board"].attrs
    assert count_text(page) == "1 game"
    assert get_page("/fr/?q=yams").one("p", id="catalog-count").text == f"1{NBSP}jeu"


def test_without_filters_every_game_shows_and_the_count_says_how_many(get_page: Callable[[str], Page]):
    english, french = get_page("/en/"), get_page("/fr/")
    total = len(GAMES)
    assert shown(english) == list(GAMES)
    assert count_text(english) == f"{total} games"
    assert count_text(french) == f"{total}{NBSP}jeux"
    assert "hidden" in english.one("p", id="catalog-clear").attrs
    assert "hidden" in english.one("p", id="catalog-empty").attrs


def test_the_count_is_a_polite_live_region_with_a_sentence_for_every_count(get_page: Callable[[str], Page]):
    page = get_page("/fr/")
    region = page.one("p", id="catalog-count")
    assert region.attrs["role"] == "status"
    assert region.attrs["aria-live"] == "polite"
    sentences = json.loads(region.attrs["data-counts"])
    assert len(sentences) == len(GAMES) + 1
    assert sentences[:3] == ["Aucun jeu ne correspond.", f"1{NBSP}jeu", f"2{NBSP}jeux"]


# --- the page: players, time, category --------------------------------------------------------


def test_the_players_filter_keeps_the_games_that_take_that_many(get_page: Callable[[str], Page]):
    page = get_page("/en/?players=1")
    expected = [slug for slug, meta in GAMES.items() if meta.min_players <= 1 <= meta.max_players]
    assert shown(page) == expected
    assert "yahtzee" in expected
    assert "pickomino" in hidden(page)
    assert page.one("option", value="1").attrs.get("selected") == ""


def test_the_time_filter_keeps_the_games_that_fit_in_it(get_page: Callable[[str], Page]):
    page = get_page("/fr/?minutes=15")
    assert "tarot" in shown(page)
    assert {"yahtzee", "ticket_to_ride", "skull_king"} <= set(hidden(page))
    assert all(GAMES[slug].minutes <= 15 for slug in shown(page))
    checked = [radio for radio in page.all("input", name="minutes") if "checked" in radio.attrs]
    assert [radio.attrs["value"] for radio in checked] == ["15"]


def test_the_category_filter_keeps_its_games(get_page: Callable[[str], Page]):
    page = get_page("/en/?category=board")
    assert "ticket_to_ride" in shown(page)
    assert all(GAMES[slug].category == "board" for slug in shown(page))
    assert "hidden" in page.one("section", aria_labelledby="category-dice").attrs


def test_the_filters_add_up(get_page: Callable[[str], Page]):
    page = get_page("/en/?q=t&players=3&minutes=15&category=cards")
    assert "tarot" in shown(page)
    assert "yahtzee" not in shown(page)  # dice
    assert "skull_king" not in shown(page)  # 30 minutes
    for slug in shown(page):
        meta = GAMES[slug]
        assert (meta.category, meta.min_players <= 3 <= meta.max_players, meta.minutes <= 15) == ("cards", True, True)
    assert page.one("input", id="catalog-q").attrs["value"] == "t"


def test_the_form_offers_only_the_categories_that_have_games(get_page: Callable[[str], Page]):
    page = get_page("/fr/")
    values = [radio.attrs["value"] for radio in page.all("input", name="category")]
    assert values == ["", *(key for key, _games in games_by_category())]
    labels = [label.text for label in page.all("label") if label.text.startswith("Jeux de")]
    assert "Jeux de dés" in labels
    assert "Jeux de plateau" in labels


def test_the_form_is_a_get_form_with_labels_and_fieldsets_in_both_languages(get_page: Callable[[str], Page]):
    for url, words in (
        ("/en/", ("Find a game by its name", "Number of players", "Time you have", "Category", "Show the games")),
        ("/fr/", ("Chercher un jeu par son nom", "Nombre de joueurs", "Le temps dont vous disposez", "Catégorie")),
    ):
        page = get_page(url)
        form = page.one("form", id="catalog-search")
        assert form.attrs["method"] == "get"
        assert form.attrs["action"] == url
        assert form.attrs["role"] == "search"
        inside = page.within(form)
        assert label_for(inside, "catalog-q") == words[0]
        assert inside.one("input", id="catalog-q").attrs["maxlength"] == "100"
        assert label_for(inside, "catalog-players") == words[1]
        assert [legend.text for legend in inside.all("legend")] == list(words[2:4])
        assert len(inside.all("fieldset")) == 2
    assert "15\u00a0min ou moins" in [label.text for label in get_page("/fr/").all("label")]
    assert "15 min or less" in [label.text for label in get_page("/en/").all("label")]


# --- nothing found -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "message", "language"),
    [
        ("/en/?q=zzzz", "No game matches.", "en"),
        ("/fr/?q=zzzz&players=2", "Aucun jeu ne correspond.", "fr"),
    ],
)
def test_no_match_says_so_and_offers_to_clear_the_filters_and_the_score_sheet(
    get_page: Callable[[str], Page], url: str, message: str, language: str
):
    page = get_page(url)
    assert shown(page) == []
    assert count_text(page) == message
    clear_link = page.within(page.one("p", id="catalog-clear")).one("a")
    assert "hidden" not in page.one("p", id="catalog-clear").attrs
    assert clear_link.attrs["href"] == f"/{language}/"
    assert clear_link.text == {"en": "Clear the filters", "fr": "Effacer les filtres"}[language]
    empty = page.one("p", id="catalog-empty")
    assert "hidden" not in empty.attrs
    assert page.within(empty).one("a").attrs["href"] == sheet_url(language)
    assert all("hidden" in section.attrs for section in page.all("section", cls="category"))


# --- bad addresses never give a 500 ------------------------------------------------------------

HOSTILE = [
    "players=abc",
    "players=99999999999999999999",
    "players=-1",
    "players=%EF%BC%93",  # a full-width 3
    "minutes=99999999999999999999999999999999999999",
    "minutes=abc&minutes=30&minutes=",
    "category=%00",
    "category=dice%00",
    "q=%00",
    "q=%ED%A0%80",  # a lone surrogate, as UTF-8 would write it (not UTF-8)
    "q=%FF%FE",
    "q=%E2%80%AE%E2%80%AE",  # right-to-left overrides
    "q=%CC%81%CC%81%CC%81",  # combining marks alone
    "q=%F0%9F%8E%B2%F0%9F%83%8F",  # emoji
    "q=%C7%85",  # a titlecase digraph
    "q=" + "%E2%80%8B" * 500,  # zero-width spaces
    "q=" + "y" * 10_000,
    "q=" + "%C3%A9" * 5_000,
    "q[]=yams&players[]=2",
    "q=yams&q=zzzz",
    "&&&=&",
]


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("query", HOSTILE)
def test_a_hostile_address_never_gives_a_500(client: Client, language: str, query: str):
    response = client.get(f"/{language}/?{query}")
    assert response.status_code == 200
    page = Page(response.content.decode())
    assert len(page.one("input", id="catalog-q").attrs["value"]) <= search.QUERY_MAX_LENGTH
    # The query is not copied whole into every language link: the page stays its size.
    assert len(response.content) < 40_000


@pytest.mark.parametrize(
    "query", ["players=abc", "players=99999999999999999999", "minutes=7", "category=ship", "q=%00%00"]
)
def test_an_ignored_value_leaves_every_game_shown_and_no_choice_made(get_page: Callable[[str], Page], query: str):
    page = get_page(f"/en/?{query}")
    assert shown(page) == list(GAMES)
    assert [option for option in page.all("option") if "selected" in option.attrs] == []
    assert "hidden" in page.one("p", id="catalog-clear").attrs


def test_a_long_query_is_cut_and_still_searched(get_page: Callable[[str], Page]):
    page = get_page("/en/?q=" + "yams" + "z" * 10_000)
    assert page.one("input", id="catalog-q").attrs["value"] == ("yams" + "z" * 10_000)[:100]
    assert shown(page) == []


# --- the cards --------------------------------------------------------------------------------


def test_each_card_says_marquoir_keeps_its_score_by_the_rules(get_page: Callable[[str], Page]):
    for url, words in (("/en/", "Keeps score by the rules"), ("/fr/", "Tient les scores selon la règle")):
        page = get_page(url)
        for card in searchable_cards(page):
            assert page.within(card).one("p", cls="card__keeps").text == words


def test_each_card_carries_what_the_script_filters_by(get_page: Callable[[str], Page]):
    page = get_page("/fr/")
    cards = {slug_of(page, card): card for card in searchable_cards(page)}
    yahtzee = cards["yahtzee"].attrs
    assert set(yahtzee["data-keys"].split()) == {"yahtzee", "yams", "yatzy"}
    assert (yahtzee["data-players"], yahtzee["data-minutes"], yahtzee["data-category"]) == ("1 8", "30", "dice")
    assert "aventuriersdurail" in cards["ticket_to_ride"].attrs["data-keys"].split()
    assert "ticket" in " ".join(cards["ticket_to_ride"].attrs["data-keys"].split())


def test_the_home_still_carries_no_inline_script_and_loads_its_own(get_page: Callable[[str], Page]):
    page = get_page("/en/?q=yams")
    assert "/static/js/catalog.js" in [script.attrs.get("src") for script in page.all("script")]
    assert "style" not in {name for element in page.elements for name in element.attrs}


# --- played on this device --------------------------------------------------------------------


def _played_cards(*slugs: str) -> list[object]:
    with translation.override("en"):
        return [_search_card(GAMES[slug], search.Filters()) for slug in slugs]


def test_the_played_group_shows_the_games_given_most_recent_first():
    with translation.override("en"):
        html = render_to_string(
            "catalog/_played.html",
            {"played": _played_cards("skyjo", "yahtzee"), "filters": search.Filters(), "LANGUAGE_CODE": "en"},
        )
    page = Page(html)
    section = page.one("section", id="catalog-played")
    assert "hidden" not in section.attrs
    assert page.one("h2").text == "Played on this device"
    assert [link.attrs["href"] for link in page.all("a")] == ["/en/games/skyjo/", "/en/games/yahtzee/"]
    # Not the catalog's cards: the script does not count them.
    assert all("data-keys" not in card.attrs for card in page.all("li"))


def test_the_played_group_is_hidden_while_filters_are_on_and_absent_when_empty():
    with translation.override("fr"):
        filtered = render_to_string(
            "catalog/_played.html",
            {"played": _played_cards("tarot"), "filters": search.Filters(query="yams"), "LANGUAGE_CODE": "fr"},
        )
        empty = render_to_string("catalog/_played.html", {"played": [], "filters": search.Filters()})
    assert "hidden" in Page(filtered).one("section", id="catalog-played").attrs
    assert Page(filtered).one("h2").text == "Joués sur cet appareil"
    assert empty.strip() == ""


def _played_tag_installed() -> bool:
    library = engines["django"].engine.template_libraries.get("recent_matches")  # type: ignore[attr-defined]
    return library is not None and "played_here" in library.tags


@pytest.mark.django_db
@pytest.mark.skipif(
    not _played_tag_installed(),
    reason="needs {% played_here %} in marquoir/tables/templatetags/recent_matches.py (the catalog reads no match)",
)
def test_the_home_shows_the_games_this_device_played_most_recent_first(client: Client):
    from marquoir.tables import services
    from marquoir.tables.device import COOKIE_NAME

    device = "device-secret-of-the-catalog-test-0123"
    for game in ("pickomino", "yahtzee", "pickomino", "yahtzee"):
        row, _token = services.match_create(game=game, players=["Ada", "Ben"], first=0, options=None)
        services.device_link(device_secret=device, match=row, can_edit=True)
    client.cookies[COOKIE_NAME] = device
    page = Page(client.get("/en/").content.decode())
    section = page.one("section", id="catalog-played")
    links = [link.attrs["href"] for link in page.within(section).all("a")]
    assert links == ["/en/games/yahtzee/", "/en/games/pickomino/"]
    assert "hidden" in Page(client.get("/en/?q=yams").content.decode()).one("section", id="catalog-played").attrs
    assert Page(Client().get("/en/").content.decode()).all("section", id="catalog-played") == []
