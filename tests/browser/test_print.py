"""A game's rules page on paper (marquoir/static/css/print.css): no site chrome, every FAQ
answer shown though its question is folded on the screen, and the title with the quick
reference on the first page. Printed to a PDF by the real browser, A4, in both languages; the
page counts are printed for the closing note."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from .helpers import MakePage

GAMES = ["pickomino", "yahtzee", "tarot", "skyjo", "papayoo"]
# An A4 sheet at 96 px an inch, less print.css's margins (1.2 cm a side): the page the print
# layout is measured on, as wide as the paper's printable width.
PRINTABLE = {"width": round((210 - 24) / 25.4 * 96), "height": round((297 - 24) / 25.4 * 96)}
PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?!s)")


def rules_page(page: Page, lang: str, game: str) -> None:
    path = f"/{lang}/games/{game}/" if lang == "en" else f"/{lang}/jeux/{game}/"
    response = page.goto(path)
    assert response is not None
    assert response.ok, path


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_prints_every_answer_and_the_quick_reference_on_its_first_page(
    make_page: MakePage, lang: str, game: str
):
    page = make_page(locale="fr-FR" if lang == "fr" else "en-US", viewport=PRINTABLE)
    rules_page(page, lang, game)
    page.emulate_media(media="print")
    chrome = page.locator(".site-header, .toc, .skip-link").evaluate_all(
        "els => els.filter(e => e.getClientRects().length).map(e => e.className)"
    )
    assert chrome == []
    answers = page.locator(".faq__answer")
    shown = answers.evaluate_all("els => els.filter(e => e.getBoundingClientRect().height > 0).length")
    assert answers.count() > 0
    assert shown == answers.count()
    reference = page.locator("#reference")
    first_page = page.evaluate(
        """() => { const r = document.querySelector('#reference').getBoundingClientRect();
           return {bottom: r.bottom + scrollY, height: r.height}; }"""
    )
    pdf = page.pdf(format="A4", print_background=False)
    pages = len(PAGE_OBJECT.findall(pdf))
    print(
        f"\nprint · {game} ({lang}): {pages} A4 pages; title and quick reference"
        f" {first_page['bottom']:.0f} px high, {shown} FAQ answers shown"
    )
    assert reference.count() == 1
    # The title and the quick reference fit the first page (the reference is held together
    # and followed by a page break), so the table's side of the game is one sheet.
    assert first_page["bottom"] <= PRINTABLE["height"]
    assert pages >= 2
