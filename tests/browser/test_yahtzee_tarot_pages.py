"""The Yahtzee and French Tarot rules pages in a real phone browser: no serious accessibility
finding in light or dark, nothing wider than a small phone (the dice rows, the tarot tables)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import ColorScheme, MakePage, assert_accessible
from .test_rules_page import SPILLS

PAGES = [
    ("en-US", "/en/games/yahtzee/"),
    ("fr-FR", "/fr/jeux/yahtzee/"),
    ("en-US", "/en/games/tarot/"),
    ("fr-FR", "/fr/jeux/tarot/"),
]


@pytest.mark.browser
@pytest.mark.parametrize("color_scheme", ["light", "dark"])
@pytest.mark.parametrize(("locale", "path"), PAGES)
def test_the_pages_have_no_serious_accessibility_finding(
    make_page: MakePage, locale: str, path: str, color_scheme: ColorScheme
):
    page = make_page(locale=locale, color_scheme=color_scheme)
    response = page.goto(path)
    assert response is not None
    assert response.status == 200
    expect(page.get_by_role("heading", level=1)).to_be_visible()

    results = assert_accessible(page, f"{path.strip('/').replace('/', '-')}-{color_scheme}")

    assert results["passes"], "axe checked nothing: was the page empty?"


@pytest.mark.browser
@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize(("locale", "path"), PAGES)
def test_nothing_spills_out_of_its_box_on_a_small_phone(make_page: MakePage, locale: str, path: str, width: int):
    page = make_page(locale=locale, viewport={"width": width, "height": 844})
    page.goto(path)
    expect(page.get_by_role("heading", level=1)).to_be_visible()

    spills: list[str] = page.evaluate(SPILLS)
    assert not spills, "content spills out of its box:\n" + "\n".join(spills)
