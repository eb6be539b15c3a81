"""The catalog's search in a real phone browser: the cards filtered as one types (no reload, the
address in step, the count announced), the same games as the server finds, in both languages;
and the same page without JavaScript, the form sent to the server."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.catalog.pages import Page as Document

from .helpers import BrowserLog, ColorScheme, MakePage, assert_accessible, shoot

pytestmark = pytest.mark.browser

NBSP = "\u00a0"

# Elements one taps that are smaller than a fingertip (44 CSS pixels high).
SMALL_TARGETS = """() => [...document.querySelectorAll(
        "#catalog-search summary, #catalog-search .chips label, #catalog-search input[type=search],"
        + " #catalog-search select, #catalog-search button")]
    .filter((element) => element.getBoundingClientRect().height < 44)
    .map((element) => `${element.localName} ${element.textContent.trim()}: ${element.offsetHeight}px`)"""


def shown(page: Page) -> list[str]:
    """The games the page shows (its catalog cards not hidden), by the slug of their link, read
    from the document as it stands (so also with JavaScript off)."""
    document = Document(page.content())
    cards = [
        card for card in document.all("li", cls="card") if "data-keys" in card.attrs and "hidden" not in card.attrs
    ]
    return [document.within(card).all("a")[0].attrs["href"].rstrip("/").rsplit("/", 1)[-1] for card in cards]


def search_box(page: Page, label: str) -> Locator:
    return page.get_by_role("searchbox", name=label)


def count(page: Page) -> Locator:
    return page.locator("#catalog-count")


def wait_for_count(page: Page, text: str) -> None:
    """The live region says ``text`` exactly (no-break spaces kept)."""
    page.wait_for_function("(text) => document.getElementById('catalog-count').textContent === text", arg=text)


def mark_the_document(page: Page) -> None:
    """Put a mark on the window: it survives only if the page is never reloaded."""
    page.evaluate("() => { window.__notReloaded = true; }")


def still_the_same_document(page: Page) -> bool:
    return bool(page.evaluate("() => window.__notReloaded === true"))


def test_an_english_reader_finds_yahtzee_as_yams_as_they_type(make_page: MakePage):
    page = make_page()
    log = BrowserLog.attach(page)
    page.goto("/en/")
    total = len(shown(page))
    assert {"pickomino", "yahtzee", "tarot", "ticket_to_ride"} <= set(shown(page))
    wait_for_count(page, f"{total} games")
    expect(count(page)).to_have_attribute("role", "status")
    expect(count(page)).to_have_attribute("aria-live", "polite")
    mark_the_document(page)
    history_length = page.evaluate("() => history.length")

    search_box(page, "Find a game by its name").press_sequentially("Yam's", delay=40)

    wait_for_count(page, "1 game")
    assert shown(page) == ["yahtzee"]
    expect(page.get_by_role("heading", level=3, name="Yahtzee")).to_be_visible()
    expect(page.get_by_role("heading", level=2, name="Board games")).to_be_hidden()
    expect(page).to_have_url(re.compile(r"/en/\?q=Yam%27s$"))
    assert still_the_same_document(page)
    assert page.evaluate("() => history.length") == history_length  # replaced, not pushed
    expect(page.get_by_role("link", name="Clear the filters")).to_be_visible()
    shoot(page, "catalog-search-en-yams", full_page=False)

    search_box(page, "Find a game by its name").fill("")
    wait_for_count(page, f"{total} games")
    expect(page).to_have_url(re.compile(r"/en/$"))
    expect(page.get_by_role("link", name="Clear the filters")).to_be_hidden()
    assert log.errors() == []
    assert log.failed_requests == []


def test_a_french_reader_filters_by_name_category_players_then_clears(make_page: MakePage):
    page = make_page(locale="fr-FR")
    log = BrowserLog.attach(page)
    page.goto("/fr/")
    total = len(shown(page))
    mark_the_document(page)

    search_box(page, "Chercher un jeu par son nom").press_sequentially("aventu")
    wait_for_count(page, f"1{NBSP}jeu")
    assert shown(page) == ["ticket_to_ride"]
    expect(page.get_by_role("heading", level=3, name="Les Aventuriers du Rail")).to_be_visible()

    page.get_by_text("Joueurs, durée, catégorie").click()
    page.get_by_role("group", name="Catégorie").get_by_label("Jeux de plateau").check()
    wait_for_count(page, f"1{NBSP}jeu")
    expect(page).to_have_url(re.compile(r"/fr/\?q=aventu&category=board$"))

    page.get_by_label("Nombre de joueurs").select_option("6")  # the box says 2 to 5
    wait_for_count(page, "Aucun jeu ne correspond.")
    assert shown(page) == []
    expect(
        page.get_by_role("link", name="Tenir les scores de n’importe quel jeu sur une feuille de scores")
    ).to_be_visible()
    expect(page).to_have_url(re.compile(r"/fr/\?q=aventu&players=6&category=board$"))
    shoot(page, "catalog-search-fr-no-match", full_page=False)

    page.get_by_role("link", name="Effacer les filtres").click()
    wait_for_count(page, f"{total}{NBSP}jeux")
    expect(page).to_have_url(re.compile(r"/fr/$"))
    expect(search_box(page, "Chercher un jeu par son nom")).to_be_focused()
    expect(search_box(page, "Chercher un jeu par son nom")).to_have_value("")
    expect(page.get_by_label("Nombre de joueurs")).to_have_value("")
    assert still_the_same_document(page)

    page.get_by_role("group", name="Le temps dont vous disposez").get_by_label(f"15{NBSP}min ou moins").check()
    page.wait_for_function("() => location.search === '?minutes=15'")
    assert "tarot" in shown(page)
    assert "yahtzee" not in shown(page)
    assert log.errors() == []


@pytest.mark.parametrize(
    ("language", "params"),
    [
        ("en", {"q": "yams"}),
        ("en", {"q": "YAM'S"}),
        ("en", {"q": "heckmeck am"}),
        ("en", {"q": "aventu"}),
        ("en", {"q": "TÀRÔT"}),
        ("en", {"q": "skull-king"}),
        ("en", {"q": "s"}),
        ("en", {"q": "ß"}),
        ("en", {"q": "zzzz"}),
        ("en", {"players": "3", "minutes": "30"}),
        ("fr", {"q": "jeu de"}),
        ("fr", {"q": "french"}),
        ("fr", {"q": "7", "players": "7"}),
        ("fr", {"category": "cards", "minutes": "15"}),
        ("fr", {"q": "!?"}),
        # The search forgives: a typo, a word left out or moved, a number spelled out.
        ("en", {"q": "quixx"}),
        ("en", {"q": "seven wonders"}),
        ("fr", {"q": "aventuriers rail"}),
        ("fr", {"q": "rail aventurier"}),
        ("en", {"q": "skul kng"}),
        ("fr", {"q": "mölky"}),
        ("en", {"q": "yhatzee"}),
    ],
)
def test_the_live_filter_shows_the_same_games_as_the_server(make_page: MakePage, language: str, params: dict[str, str]):
    """The server's answer for the address, then the same choices made live on the bare page."""
    server = make_page(java_script_enabled=False)
    server.goto(f"/{language}/?{urlencode(params)}")
    expected = shown(server)
    expected_count = server.locator("#catalog-count").text_content()

    page = make_page(locale="fr-FR" if language == "fr" else "en-US")
    page.goto(f"/{language}/")
    page.locator("#catalog-search details").evaluate("(details) => { details.open = true; }")
    if "q" in params:
        page.locator("#catalog-q").fill(params["q"])
    if "players" in params:
        page.locator("#catalog-players").select_option(params["players"])
    for name in ("minutes", "category"):
        if name in params:
            page.locator(f"input[name={name}][value='{params[name]}']").check()
    assert expected_count is not None
    wait_for_count(page, expected_count)
    assert shown(page) == expected


def test_an_address_with_filters_opens_filtered_and_the_script_keeps_it(make_page: MakePage):
    page = make_page()
    page.goto("/en/?q=&players=1&minutes=&category=")
    assert "yahtzee" in shown(page)
    assert "pickomino" not in shown(page)  # 2 to 7
    expect(page.locator("#catalog-search details")).to_have_attribute("open", "")
    # The script tidies the address the form sent (the empty fields go).
    page.wait_for_function("() => location.search === '?players=1'")


@pytest.mark.parametrize(("locale", "language"), [("en-US", "en"), ("fr-FR", "fr")])
def test_without_javascript_the_form_asks_the_server(make_page: MakePage, locale: str, language: str):
    page = make_page(locale=locale, java_script_enabled=False)
    page.goto(f"/{language}/")
    labels = {
        "en": ("Find a game by its name", "Show the games", "1 game", "No game matches.", "Clear the filters"),
        "fr": (
            "Chercher un jeu par son nom",
            "Afficher les jeux",
            f"1{NBSP}jeu",
            "Aucun jeu ne correspond.",
            "Effacer les filtres",
        ),
    }[language]
    total = len(shown(page))

    search_box(page, labels[0]).fill("yatzy")
    page.get_by_role("button", name=labels[1]).click()
    expect(page).to_have_url(re.compile(rf"/{language}/\?q=yatzy&players=&minutes=&category=$"))
    assert shown(page) == ["yahtzee"]
    assert count(page).text_content() == labels[2]
    expect(search_box(page, labels[0])).to_have_value("yatzy")

    search_box(page, labels[0]).fill("zzzz")
    search_box(page, labels[0]).press("Enter")
    expect(page).to_have_url(re.compile(r"\?q=zzzz&"))
    assert shown(page) == []
    assert count(page).text_content() == labels[3]
    expect(page.locator("#catalog-empty a")).to_be_visible()
    shoot(page, f"catalog-no-js-{language}-no-match", full_page=False)

    page.get_by_role("link", name=labels[4]).click()
    expect(page).to_have_url(re.compile(rf"/{language}/$"))
    assert len(shown(page)) == total


def test_without_javascript_the_filters_are_sent_too(make_page: MakePage):
    page = make_page(java_script_enabled=False)
    page.goto("/en/")
    page.get_by_text("Players, time, category").click()
    page.get_by_label("Number of players").select_option("3")
    page.get_by_role("group", name="Time you have").get_by_label("15 min or less").check()
    page.get_by_role("button", name="Show the games").click()
    expect(page).to_have_url(re.compile(r"players=3&minutes=15"))
    assert "tarot" in shown(page)
    assert "yahtzee" not in shown(page)
    expect(page.get_by_role("group", name="Time you have").get_by_label("15 min or less")).to_be_checked()


@pytest.mark.parametrize("color_scheme", ["light", "dark"])
@pytest.mark.parametrize(("locale", "path"), [("en-US", "/en/"), ("fr-FR", "/fr/")])
def test_the_search_is_accessible_and_easy_to_tap(
    make_page: MakePage, locale: str, path: str, color_scheme: ColorScheme
):
    page = make_page(locale=locale, color_scheme=color_scheme)
    log = BrowserLog.attach(page)
    page.goto(path)
    page.locator("#catalog-search summary").click()
    expect(page.locator("#catalog-search .chips").first).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    name = f"catalog-search-{path.strip('/')}-{color_scheme}"
    assert_accessible(page, name)
    page.locator("#catalog-q").fill("zzzz")
    page.wait_for_function("() => !document.getElementById('catalog-empty').hidden")
    assert_accessible(page, f"{name}-no-match")
    shoot(page, name, full_page=False)
    assert log.mentioning("Content Security Policy") == []
    assert log.errors() == []


def test_the_keyboard_reaches_the_search_and_shows_where_it_is(make_page: MakePage):
    page = make_page(has_touch=False, is_mobile=False)
    page.goto("/en/")
    page.locator("#catalog-q").focus()
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    page.keyboard.press("Tab")  # the summary
    expect(page.locator("#catalog-search summary")).to_be_focused()
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    assert outline != "none"
