"""Every page's frame: its language, the same page in the other language, landmarks, no inline code."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from .pages import Page

PAGES = [
    ("/en/", "en"),
    ("/fr/", "fr"),
    ("/en/games/pickomino/", "en"),
    ("/fr/jeux/pickomino/", "fr"),
]
SAME_PAGE = [
    ("/en/", "/fr/"),
    ("/en/games/pickomino/", "/fr/jeux/pickomino/"),
]


def language_links(page: Page) -> dict[str, str]:
    switch = page.within(page.one("nav", cls="lang-switch"))
    return {link.attrs["hreflang"]: link.attrs["href"] for link in switch.all("a")}


@pytest.mark.parametrize(("url", "language"), PAGES)
def test_the_html_element_carries_the_page_s_language(get_page: Callable[[str], Page], url: str, language: str):
    assert get_page(url).one("html").attrs["lang"] == language


@pytest.mark.parametrize(("english", "french"), SAME_PAGE)
def test_the_language_switch_leads_to_the_same_page_in_the_other_language(
    get_page: Callable[[str], Page], english: str, french: str
):
    assert language_links(get_page(english)) == {"en": english, "fr": french}
    assert language_links(get_page(french)) == {"en": english, "fr": french}


@pytest.mark.parametrize(("url", "language"), PAGES)
def test_the_language_switch_marks_the_current_language_and_names_each_in_its_own(
    get_page: Callable[[str], Page], url: str, language: str
):
    page = get_page(url)
    links = page.within(page.one("nav", cls="lang-switch")).all("a")
    assert [(link.attrs["lang"], link.attrs["hreflang"], link.text) for link in links] == [
        ("en", "en", "English"),
        ("fr", "fr", "Français"),
    ]
    assert [link.attrs["hreflang"] for link in links if link.attrs.get("aria-current") == "true"] == [language]


def test_the_language_switch_keeps_the_query_string(get_page: Callable[[str], Page]):
    assert language_links(get_page("/en/games/pickomino/?from=home"))["fr"] == "/fr/jeux/pickomino/?from=home"


@pytest.mark.parametrize(("english", "french"), SAME_PAGE)
def test_alternates_name_each_language_and_english_as_the_default(
    get_page: Callable[[str], Page], english: str, french: str
):
    for url in (english, french):
        alternates = {link.attrs["hreflang"]: link.attrs["href"] for link in get_page(url).all("link", rel="alternate")}
        assert alternates == {
            "en": f"http://testserver{english}",
            "fr": f"http://testserver{french}",
            "x-default": f"http://testserver{english}",
        }
        assert settings.LANGUAGE_CODE == "en"


@pytest.mark.parametrize(("url", "_language"), PAGES)
def test_a_skip_link_leads_to_the_main_landmark(get_page: Callable[[str], Page], url: str, _language: str):
    page = get_page(url)
    skip = page.one("a", cls="skip-link")
    assert skip.attrs["href"] == "#main"
    assert skip.position < page.one("header", cls="site-header").position
    assert page.one("main").attrs["id"] == "main"


@pytest.mark.parametrize(("url", "language"), PAGES)
def test_the_skip_link_and_the_switch_are_translated(get_page: Callable[[str], Page], url: str, language: str):
    page = get_page(url)
    expected = {"en": ("Skip to main content", "Language"), "fr": ("Aller au contenu", "Langue")}[language]
    assert (page.one("a", cls="skip-link").text, page.one("nav", cls="lang-switch").attrs["aria-label"]) == expected


@pytest.mark.parametrize(("url", "_language"), PAGES)
def test_pages_carry_no_inline_script_or_style(client: Client, url: str, _language: str):
    html = client.get(url).content.decode()
    # Scripts come from our own files (src=…), never written into the page.
    assert not re.search(r"<script(?![^>]*\ssrc=)", html)
    assert "<style" not in html
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)


def test_pages_link_the_site_stylesheet_which_exists(get_page: Callable[[str], Page]):
    stylesheet = get_page("/en/").one("link", rel="stylesheet")
    assert stylesheet.attrs["href"] == "/static/css/site.css"
    assert finders.find("css/site.css")


def test_the_home_title_is_the_site_name_and_the_game_s_title_names_the_game(get_page: Callable[[str], Page]):
    assert get_page("/en/").one("title").text == "Marquoir"
    assert get_page("/fr/jeux/pickomino/").one("title").text == "Pickomino · Marquoir"
