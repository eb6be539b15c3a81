"""The rules pages in a real phone browser: both languages, the switch between them, a11y, CSP."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from .helpers import BrowserLog, ColorScheme, MakePage, assert_accessible, shoot

PICKOMINO_FR = "/fr/jeux/pickomino/"
PICKOMINO_EN = "/en/games/pickomino/"

# Block boxes whose content is wider than the box and spills out of it (overflow left visible),
# plus the page itself when it scrolls sideways.
SPILLS = r"""() => {
    const describe = (element) => {
        const text = element.innerText.replace(/\s+/g, " ").trim().slice(0, 40);
        return `<${element.localName} class="${element.className}"> ${text}`
            + ` (content ${element.scrollWidth}px in a ${element.clientWidth}px box)`;
    };
    const spills = [...document.body.querySelectorAll("*")].filter((element) => {
        const style = getComputedStyle(element);
        return !style.display.startsWith("inline") && style.overflowX === "visible"
            && element.scrollWidth > element.clientWidth + 1;
    }).map(describe);
    const page = document.documentElement;
    if (page.scrollWidth > page.clientWidth) spills.push(`the page scrolls sideways: ${page.scrollWidth}px`);
    return spills;
}"""


def language_switch(page: Page, language: str) -> Locator:
    """The header's link to the same page in another language, found by its hreflang."""
    return page.get_by_role("banner").locator(f'a[hreflang="{language}"]')


@pytest.mark.browser
def test_a_french_reader_reads_pickomino_then_switches_to_english(make_page: MakePage):
    page = make_page(locale="fr-FR")
    response = page.goto(PICKOMINO_FR)
    assert response is not None
    assert response.status == 200

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1, name="Pickomino")).to_be_visible()
    for section in ("Mise en place", "Déroulement", "Fin de partie"):
        expect(page.get_by_role("heading", level=2, name=section, exact=True)).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("brochette")
    shoot(page, "pickomino-fr")
    shoot(page, "pickomino-fr-first-screen", full_page=False)

    language_switch(page, "en").click()

    expect(page).to_have_url(re.compile(re.escape(PICKOMINO_EN) + "$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1, name="Pickomino")).to_be_visible()
    for section in ("Setup", "How to play", "End of the game"):
        expect(page.get_by_role("heading", level=2, name=section, exact=True)).to_be_visible()
    expect(page.get_by_role("main")).not_to_contain_text("brochette")
    expect(language_switch(page, "fr")).to_have_attribute("href", PICKOMINO_FR)
    shoot(page, "pickomino-en")
    shoot(page, "pickomino-en-first-screen", full_page=False)


@pytest.mark.browser
@pytest.mark.parametrize(("locale", "home"), [("fr-FR", "/fr/"), ("en-US", "/en/")])
def test_the_bare_root_follows_the_browser_language(make_page: MakePage, locale: str, home: str):
    page = make_page(locale=locale)
    page.goto("/")

    expect(page).to_have_url(re.compile(re.escape(home) + "$"))
    expect(page.locator("html")).to_have_attribute("lang", home.strip("/"))


@pytest.mark.browser
@pytest.mark.parametrize("color_scheme", ["light", "dark"])
@pytest.mark.parametrize(
    ("locale", "path"),
    [("en-US", PICKOMINO_EN), ("fr-FR", PICKOMINO_FR), ("en-US", "/en/"), ("fr-FR", "/fr/")],
)
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


# Every game's page, in one language each (the other is Pickomino's and the home page's above):
# the shelf's pages carry tables (Papayoo's deals, Qwixx's sheet) and long source addresses.
EVERY_GAME = [
    ("en-US" if index % 2 else "fr-FR", f"/en/games/{slug}/" if index % 2 else f"/fr/jeux/{slug}/")
    for index, slug in enumerate(
        [
            "yahtzee",
            "tarot",
            "skyjo",
            "skull_king",
            "seven_wonders",
            "ticket_to_ride",
            "flip_7",
            "kingdomino",
            "molkky",
            "papayoo",
            "qwixx",
            "six_nimmt",
            "uno",
            "wingspan",
            "belote",
            "coinche",
            "canasta",
            "rami",
            "rummikub",
            "scrabble",
            "phase_10",
            "oh_hell",
            "mille_bornes",
            "farkle",
            "azul",
            "cascadia",
            "terraforming_mars",
            "sushi_go",
            "everdell",
            "catan",
            "carcassonne",
            "splendor",
            "akropolis",
            "seven_wonders_duel",
            "codenames",
            "dixit",
            "just_one",
            "the_crew",
            "love_letter",
        ]
    )
]


@pytest.mark.browser
@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize(
    ("locale", "path"),
    [("en-US", PICKOMINO_EN), ("fr-FR", PICKOMINO_FR), ("en-US", "/en/"), ("fr-FR", "/fr/"), *EVERY_GAME],
)
def test_nothing_spills_out_of_its_box_on_a_small_phone(make_page: MakePage, locale: str, path: str, width: int):
    # WCAG 1.4.10 (reflow): readable at 320 CSS pixels wide without losing content.
    page = make_page(locale=locale, viewport={"width": width, "height": 844})
    page.goto(path)
    expect(page.get_by_role("heading", level=1)).to_be_visible()

    spills: list[str] = page.evaluate(SPILLS)
    assert not spills, "content spills out of its box:\n" + "\n".join(spills)


@pytest.mark.browser
@pytest.mark.parametrize("path", [PICKOMINO_EN, PICKOMINO_FR, "/en/", "/fr/"])
def test_the_page_loads_cleanly_under_its_content_security_policy(page: Page, path: str):
    log = BrowserLog.attach(page)
    response = page.goto(path, wait_until="load")

    assert response is not None
    assert response.status == 200
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate("document.styleSheets.length") >= 1
    assert log.mentioning("Content Security Policy") == []
    assert log.page_errors == []
    assert log.failed_requests == []


@pytest.mark.browser
@pytest.mark.parametrize("path", [PICKOMINO_EN, "/fr/"])
def test_every_asset_the_page_names_is_served(page: Page, path: str):
    # Headless Chromium never fetches the icon: only a request of our own proves it is served.
    page.goto(path)
    assets: list[str] = page.evaluate(
        """() => [...document.querySelectorAll("link[rel~=icon], link[rel=stylesheet], script[src], img[src]")]
            .map((element) => element.href || element.src)"""
    )

    assert any(asset.endswith(".css") for asset in assets)
    answers = {asset: page.request.get(asset).status for asset in assets}
    assert {asset: status for asset, status in answers.items() if status != 200} == {}


@pytest.mark.browser
def test_the_browser_enforces_the_policy_by_refusing_an_inline_script(page: Page):
    # Without this, the test above would also pass if the policy never reached the browser.
    page.goto("/en/")

    with page.expect_console_message(lambda m: "Content Security Policy" in m.text) as refusal:
        outcome = page.evaluate(
            """() => new Promise((resolve) => {
                document.addEventListener("securitypolicyviolation", (event) =>
                    resolve({ran: false, directive: event.effectiveDirective}));
                const script = document.createElement("script");
                script.textContent = "window.inlineRan = true";
                document.head.append(script);  // an allowed inline script runs right here
                if (window.inlineRan === true) resolve({ran: true, directive: null});
            })"""
        )
        assert outcome == {"ran": False, "directive": "script-src-elem"}
    assert refusal.value.type == "error"
