"""Your own game in a real phone browser against a real server, in English and in French: a
new user goes from the home page to the editor, declares "Skyjo with doubling" from nothing
(two inputs, a formula with a condition checked as it is typed, names offered under it, a
rule, the end, who wins, a tie-break), tries a round and keeps it as an example, saves it,
plays two rounds on two phones, changes the game and sees the running match keep its
version while a new one takes the change, and shares it: the play link opens the game on a
third phone, which may copy it and not change it. The same game from a copy of the
catalog's Skyjo, for the figures. Taps and characters are counted and printed.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import BrowserLog, MakePage, assert_accessible, shoot
from .test_declared import OVERFLOW, TABLE_ADDRESS, Taps, keep_score_link

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "card": "Your own game",
        "nothing": "From nothing",
        "unknown": "“two” is not a name this formula knows.",
        "saved": "Saved as version 1.",
        "saved_2": "Saved as version 2.",
        "new_match": "New match",
        "start": "Start the match",
        "player": "Player {n}",
        "record": "Record round {n}",
        "change": "Change the game",
        "copy": "Make a copy of your own",
        "play": "Play it",
        "rule": "The cards add up to at most 200.",
        "name": "Skyjo with doubling",
        "label": "Cards left",
        "who": "Who ended",
        "tie": "Fewest cards",
        "points_p2": "Player 1",
    },
    "fr": {
        "card": "Votre propre jeu",
        "nothing": "À partir de rien",
        "unknown": "«\u00a0two\u00a0» n’est pas un nom que cette formule connaît.",
        "saved": "Enregistré en version 1.",
        "saved_2": "Enregistré en version 2.",
        "new_match": "Nouvelle partie",
        "start": "Commencer la partie",
        "player": "Joueur {n}",
        "record": "Noter la manche {n}",
        "change": "Modifier le jeu",
        "copy": "En faire votre copie",
        "play": "Y jouer",
        "rule": "Les cartes font 200 au plus.",
        "name": "Skyjo avec doublement",
        "label": "Cartes restantes",
        "who": "Qui a fini",
        "tie": "Le moins de cartes",
        "points_p2": "Joueur 1",
    },
}
OTHER = {"en": "fr", "fr": "en"}


def declare_skyjo_with_doubling(page: Page, taps: Taps, language: str) -> None:
    """The editor, from nothing to saved, as a player would fill it in."""
    words = WORDS[language]
    name_field = "#name_en" if language == "en" else "#name_fr"
    label_field = "label_en" if language == "en" else "label_fr"
    taps.type(page.locator(name_field), words["name"])
    # The first input: each player's cards left, named "cards" in the formulas.
    taps.type(page.locator(f"#input-0-{label_field}"), words["label"])
    taps.type(page.locator("#input-0-key"), "cards")
    taps.type(page.locator("#input-0-min"), "-17")
    taps.type(page.locator("#input-0-max"), "140")
    # The second: who ended the round, a player.
    taps.tap(page.locator("button[value=add-input]"))
    taps.type(page.locator(f"#input-1-{label_field}"), words["who"])
    taps.type(page.locator("#input-1-key"), "ender")
    page.locator("#input-1-kind").select_option("player")
    taps.taps += 2  # open the menu, choose
    # The formula, with a mistake first: the fault is said under it as it is typed.
    formula = page.locator("#point-0-formula")
    taps.type(formula, "cards * two")
    expect(page.locator("#err-point-0-formula")).to_have_text(words["unknown"])
    expect(formula).to_have_attribute("aria-invalid", "true")
    # Typed again with the names offered: "se" offers seat, a tap writes it in.
    formula.fill("")
    formula.press_sequentially("se")
    taps.keys += 2
    offered = page.locator('[data-names-for="point-0-formula"] [data-name="seat"]')
    expect(offered).to_be_visible()
    taps.tap(offered)
    expect(formula).to_have_value("seat")
    formula.press_sequentially(" == ender && cards > 0 ? 2 * cards : cards")
    taps.keys += len(" == ender && cards > 0 ? 2 * cards : cards")
    expect(page.locator("#err-point-0-formula")).to_be_hidden()
    expect(formula).not_to_have_attribute("aria-invalid", "true")
    # A rule across players.
    taps.tap(page.locator("button[value=add-check]"))
    taps.type(page.locator("#check-0-holds"), "sum(all.cards) <= 200")
    message = "#check-0-message_en" if language == "en" else "#check-0-message_fr"
    taps.type(page.locator(message), words["rule"])
    # The end: at 100, the lowest total wins; not when the table says.
    taps.type(page.locator("#end_target"), "100")
    taps.tap(page.locator("input[name=end_table]"))
    taps.tap(page.locator("input[name=winner][value=lowest]"))
    # A tie-break: the fewest cards.
    taps.tap(page.locator("button[value=add-tiebreak]"))
    tie = "#tiebreak-0-label_en" if language == "en" else "#tiebreak-0-label_fr"
    taps.type(page.locator(tie), words["tie"])
    taps.type(page.locator("#tiebreak-0-value"), "cards")
    taps.tap(page.locator("input[name=tiebreak-0-higher]"))


def try_a_round(page: Page, taps: Taps, language: str) -> None:
    """Ada ends with 10 in cards, Ben has 4: she is doubled; kept as an example."""
    taps.type(page.locator("#try-cards-0"), "10")
    taps.type(page.locator("#try-cards-1"), "4")
    page.locator("#try-ender").select_option("0")
    taps.taps += 2
    taps.tap(page.locator("button[value=try]"))
    trial = page.locator("#trial")
    expect(trial).to_contain_text("20")
    expect(trial.locator("tr")).to_have_text([re.compile(r"1\s*20"), re.compile(r"2\s*4")])
    taps.tap(page.locator("button[value=keep-example]"))
    expect(page.locator(".editor__examples li")).to_have_count(1)


def set_up(page: Page, language: str, names: list[str]) -> None:
    words = WORDS[language]
    page.get_by_role("link", name=words["new_match"]).click()
    for seat, name in enumerate(names):
        page.get_by_label(words["player"].format(n=seat + 1), exact=True).fill(name)
    page.get_by_role("button", name=words["start"]).click()
    expect(page).to_have_url(TABLE_ADDRESS)


def record(page: Page, language: str, number: int, ender: str, cards: list[str]) -> None:
    page.locator(".choices--names .choice").filter(has_text=ender).click()
    for seat, value in enumerate(cards):
        page.locator(f"#f-in-cards-{seat}").fill(value)
    page.get_by_role("button", name=WORDS[language]["record"].format(n=number)).click()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_new_user_declares_plays_changes_and_shares_their_own_game(make_page: MakePage, language: str):
    words = WORDS[language]
    ada = make_page(locale="fr-FR" if language == "fr" else "en-US")
    log = BrowserLog.attach(ada)
    taps = Taps(ada)
    ada.goto(f"/{language}/")
    taps.tap(ada.get_by_role("link", name=words["card"], exact=True))
    taps.tap(ada.get_by_role("link", name=words["nothing"]))
    expect(ada.locator("#editor")).to_be_visible()
    declare_skyjo_with_doubling(ada, taps, language)
    try_a_round(ada, taps, language)
    assert ada.evaluate(OVERFLOW) <= 0
    shoot(ada, f"own-game-01-editor-{language}")
    assert_accessible(ada, f"own-game-editor-{language}")
    declared = (taps.taps, taps.keys)
    taps.tap(ada.locator("button[value=save]"))
    expect(ada.get_by_role("status")).to_contain_text(words["saved"])
    print(f"own game from nothing ({language}): {declared[0] + 1} taps, {declared[1]} characters to declare and save")
    shoot(ada, f"own-game-02-page-{language}")
    assert_accessible(ada, f"own-game-page-{language}")
    game_page = ada.url.split("?")[0]

    # Two phones: Ada's, and Ben's in the other language by the "keep score too" link.
    set_up(ada, language, ["Ada", "Ben"])
    ben = make_page(locale="en-US" if language == "fr" else "fr-FR")
    other = OTHER[language]
    ben.goto(keep_score_link(ada).replace(f"/{language}/", f"/{other}/"))
    expect(ben).to_have_url(TABLE_ADDRESS)
    record(ada, language, 1, "Ada", ["10", "4"])
    expect(ben.locator(".band__score")).to_have_text([re.compile(r"^20\b"), re.compile(r"^4\b")])
    record(ben, other, 2, "Ben", ["30", "2"])
    expect(ada.locator(".band__score")).to_have_text([re.compile(r"^50\b"), re.compile(r"^8\b")])
    shoot(ada, f"own-game-03-table-{language}")
    assert_accessible(ada, f"own-game-table-{language}")
    table = ada.url

    # The rule of the game refuses a round whose cards add up past 200, and says it.
    record(ada, language, 3, "Ada", ["140", "140"])
    expect(ada.locator(".bar__text")).to_contain_text(words["rule"])
    record(ada, language, 3, "Ada", ["20", "14"])
    expect(ada.locator(".band__score")).to_have_text([re.compile(r"^90\b"), re.compile(r"^22\b")])

    # Change the game: the ender now trebles. The running match keeps version 1.
    ada.goto(game_page)
    ada.get_by_role("link", name=words["change"]).click()
    formula = ada.locator("#point-0-formula")
    formula.fill("seat == ender && cards > 0 ? 3 * cards : cards")
    # The example kept from the trial no longer holds: it is said, and removed.
    ada.locator("button[value=save]").click()
    expect(ada.locator("#editor-summary")).to_be_visible()
    ada.locator("button[value^=remove-example-]").click()
    ada.locator("button[value=save]").click()
    expect(ada.get_by_role("status")).to_contain_text(words["saved_2"])
    ada.goto(table)
    record(ada, language, 4, "Ben", ["5", "3"])
    expect(ada.locator(".band__score")).to_have_text([re.compile(r"^95\b"), re.compile(r"^28\b")])  # doubled
    # A new match takes version 2.
    ada.goto(game_page)
    set_up(ada, language, ["Ada", "Ben"])
    record(ada, language, 1, "Ada", ["10", "4"])
    expect(ada.locator(".band__score")).to_have_text([re.compile(r"^30\b"), re.compile(r"^4\b")])

    # Shared: the play link on a third phone opens the game, to play and copy, not to change.
    cy = make_page()
    cy.goto(game_page)
    expect(cy.get_by_role("heading", level=1)).to_have_text(words["name"])
    expect(cy.get_by_role("link", name=words["change"])).to_have_count(0)
    expect(cy.get_by_role("link", name=words["play"])).to_have_attribute("href", re.compile(re.escape(game_page) + "$"))
    cy.get_by_role("link", name=words["copy"]).click()
    expect(cy.locator("#name_en")).to_have_value(re.compile(r"\(copy\)$"))
    assert [line for line in log.errors() if "status of 422" not in line] == []


def test_the_same_game_from_a_copy_of_skyjo_takes_a_few_taps(make_page: MakePage):
    """The catalog's Skyjo already doubles the ender: its house rules are a name and a number."""
    page = make_page()
    taps = Taps(page)
    page.goto("/en/own-games/")
    taps.tap(page.get_by_role("link", name="Skyjo", exact=True))
    expect(page.locator("#name_en")).to_have_value("Skyjo (house rules)")
    taps.type(page.locator("#name_en"), "Skyjo trebled")
    formula = page.locator("#point-0-formula")
    expect(formula).to_have_value("doubled ? 2 * cards : cards")
    taps.type(formula, "doubled ? 3 * cards : cards")
    taps.tap(page.locator("button[value=save]"))
    expect(page.get_by_role("status")).to_contain_text("Saved as version 1.")
    print(f"own game from a copy of Skyjo: {taps.taps} taps, {taps.keys} characters to declare and save")
    set_up(page, "en", ["Ada", "Ben", "Cy"])
    record(page, "en", 1, "Ada", ["15", "10", "22"])
    expect(page.locator(".band__score")).to_have_text(
        [re.compile(r"^45\b"), re.compile(r"^10\b"), re.compile(r"^22\b")]
    )


def test_the_editor_fits_a_small_phone_and_a_tablet_side_by_side(make_page: MakePage):
    small = make_page(viewport={"width": 320, "height": 640})
    small.goto("/fr/jeux-maison/nouveau/?from=kingdomino")
    expect(small.locator("#editor")).to_be_visible()
    assert small.evaluate(OVERFLOW) <= 0
    shoot(small, "own-game-04-editor-320-fr")
    tablet = make_page(viewport={"width": 1024, "height": 768}, is_mobile=False, has_touch=False)
    tablet.goto("/en/own-games/new/?from=skyjo")
    main = tablet.locator(".editor__main").bounding_box()
    trial = tablet.locator(".editor__try").bounding_box()
    assert main is not None
    assert trial is not None
    assert trial["x"] > main["x"] + main["width"] - 1  # the trial beside the form, not under it
    assert tablet.evaluate(OVERFLOW) <= 0
    shoot(tablet, "own-game-05-editor-tablet-en", full_page=False)
    dark = make_page(color_scheme="dark")
    dark.goto("/en/own-games/new/")
    assert_accessible(dark, "own-game-editor-dark-en")
