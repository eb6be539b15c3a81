"""The Yahtzee page: its parts in both languages, the box facts, every box drawn with a roll and
its points, the rules' worked examples as the engine scores them, links that lead somewhere."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from marquoir.games.content import SECTION_KEYS, content_path, load_content
from marquoir.games.yahtzee import Box, joker_points, plain_points

from .pages import Element, Page

ENGLISH, FRENCH = "/en/games/yahtzee/", "/fr/jeux/yahtzee/"
PAGE_ORDER = ["category-link", "h1", "pitch", "facts", "note", "toc", *SECTION_KEYS, "reference", "box"]
PIPS = "#yz-pip"

# Each box's example on the quick reference, and its points by docs/rules-yahtzee.md.
EXAMPLES = [
    ("Ones", "As", (1, 1, 1, 4, 6), 3),
    ("Twos", "Deux", (2, 2, 3, 4, 5), 4),
    ("Threes", "Trois", (3, 3, 3, 3, 6), 12),
    ("Fours", "Quatre", (1, 4, 4, 5, 6), 8),
    ("Fives", "Cinq", (3, 3, 5, 5, 5), 15),
    ("Sixes", "Six", (2, 6, 6, 6, 6), 24),
    ("Three of a kind", "Brelan", (2, 4, 4, 4, 6), 20),
    ("Four of a kind", "Carré", (1, 4, 4, 4, 4), 17),
    ("Full house", "Full", (3, 3, 5, 5, 5), 25),
    ("Small straight", "Petite suite", (1, 2, 3, 4, 6), 30),
    ("Large straight", "Grande suite", (2, 3, 4, 5, 6), 40),
    ("Yahtzee", "Yahtzee", (2, 2, 2, 2, 2), 50),
    ("Chance", "Chance", (2, 3, 5, 6, 6), 22),
]


@pytest.fixture
def english(get_page: Callable[[str], Page]) -> Page:
    return get_page(ENGLISH)


@pytest.fixture
def french(get_page: Callable[[str], Page]) -> Page:
    return get_page(FRENCH)


def section(page: Page, key: str) -> Page:
    return page.within(page.one("section", id=key))


def box_facts(page: Page) -> dict[str, str]:
    box = section(page, "box")
    return dict(zip([dt.text for dt in box.all("dt")], [dd.text for dd in box.all("dd")], strict=True))


def pips_per_die(page: Page, hand: Element) -> list[int]:
    """The pips on each die of the roll ``hand`` (``page`` is the whole page: ``within`` counts
    positions from its start)."""
    return [len(page.within(die).all("use", href=PIPS)) for die in page.within(hand).all("g", cls="yz-dice__die")]


@pytest.mark.parametrize("url", [ENGLISH, FRENCH])
def test_the_page_shows_its_parts_in_the_documented_order(get_page: Callable[[str], Page], url: str):
    page = get_page(url)
    found = {
        "h1": page.one("h1").position,
        **{cls: page.one(cls=cls).position for cls in ("category-link", "pitch", "facts", "note", "toc")},
        **{key: page.one("section", id=key).position for key in (*SECTION_KEYS, "reference", "box")},
    }
    assert sorted(found, key=found.__getitem__) == PAGE_ORDER


@pytest.mark.parametrize(("url", "language"), [(ENGLISH, "en"), (FRENCH, "fr")])
def test_every_section_carries_the_content_s_heading_and_text(get_page: Callable[[str], Page], url: str, language: str):
    page = get_page(url)
    content = load_content("yahtzee", language)
    assert [page.one("h2", id=f"{key}-title").text for key in SECTION_KEYS] == [s.title for s in content.sections]
    for key in SECTION_KEYS[:-1]:
        assert section(page, key).all("p") or section(page, key).all("li"), key
    faq = section(page, "faq")
    assert [summary.text for summary in faq.all("summary")] == [entry.question for entry in content.faq]
    assert len(content.faq) >= 6


def test_the_english_page_files_yahtzee_under_dice_games(english: Page):
    assert english.one("h1").text == "Yahtzee"
    assert english.one("p", cls="pitch").text == load_content("yahtzee", "en").pitch
    link = english.within(english.one(cls="category-link")).one("a")
    assert (link.text, link.attrs["href"]) == ("Dice games", "/en/#category-dice")
    assert english.all(cls="reviewed") == []
    # Marquoir keeps Yahtzee's score: the page offers it.
    assert "keeps the score for you, a sheet per player" in english.one(cls="note").text
    button = english.one("a", cls="button")
    with translation.override("en"):
        assert (button.text, button.attrs["href"]) == ("Keep score", reverse("tables:new", kwargs={"game": "yahtzee"}))


def test_the_french_page_says_the_game_is_known_as_yams(french: Page):
    link = french.within(french.one(cls="category-link")).one("a")
    assert (link.text, link.attrs["href"]) == ("Jeux de dés", "/fr/#category-dice")
    assert "Yam’s" in french.one("p", cls="pitch").text
    # Marquoir tient le score du Yahtzee : la page le dit et propose de le tenir.
    button = french.one("a", cls="button")
    with translation.override("fr"):
        assert (button.text, button.attrs["href"]) == (
            "Tenir le score",
            reverse("tables:new", kwargs={"game": "yahtzee"}),
        )
    assert "tient le score pour vous, une feuille par joueur" in french.one(cls="note").text


def test_the_quick_facts_give_players_time_and_age(english: Page, french: Page):
    assert [dd.text for dd in english.within(english.one(cls="facts")).all("dd")] == ["1–8", "about 30 minutes", "8+"]
    assert [dd.text for dd in french.within(french.one(cls="facts")).all("dd")] == [
        "1 à 8",
        "environ 30\u00a0minutes",
        "dès 8\u00a0ans",
    ]


def test_the_box_gives_the_year_the_publishers_and_what_is_in_it(english: Page):
    assert box_facts(english) == {
        "Released": "1956",
        "Players": "1 to 8 players",
        "Ages": "8 and up",
        "Publisher": "Milton Bradley / Hasbro (original: E. S. Lowe)",
        "Mechanics": "dice rolling, re-rolling and keeping, combinations",
        "In the box": "5 six-sided dice and a pad of score sheets; most boxes add a shaker cup.",
        "Original name": "Yahtzee",
    }


def test_the_french_box_speaks_french_and_credits_no_designer(french: Page):
    facts = box_facts(french)
    assert facts["Sortie"] == "1956"
    assert facts["Éditeur"] == "Milton Bradley / Hasbro (édition originale\u00a0: E. S. Lowe)"
    assert facts["Contenu"].startswith("5 dés à six faces")
    assert not {"Auteur", "Auteurs"} & set(facts)


def test_the_quick_reference_draws_every_box_with_a_roll_and_its_points(english: Page):
    boxes = section(english, "reference").all("li", cls="yz-box")
    assert [english.within(box).one(cls="yz-box__name").text for box in boxes] == [name for name, *_ in EXAMPLES]
    for box, (name, _french, dice, points) in zip(boxes, EXAMPLES, strict=True):
        item = english.within(box)
        hand = item.one("svg", cls="yz-dice")
        assert hand.attrs["aria-label"] == "Dice: " + ", ".join(map(str, dice)), name
        assert pips_per_die(english, hand) == list(dice), name
        assert item.one(cls="yz-box__points").text == f"{points} points", name


def test_the_reference_s_points_are_the_engine_s():
    for name, _french, dice, points in EXAMPLES:
        assert plain_points(Box(name.lower().replace(" ", "_")), dice) == points, name


def test_in_an_upper_box_the_dice_of_other_numbers_are_drawn_faded(english: Page):
    ones = english.within(english.one("li", id="box-ones"))
    dice = ones.all("g", cls="yz-dice__die")
    assert ["yz-dice__die--idle" in die.classes for die in dice] == [False, False, False, True, True]
    assert [die.attrs.get("opacity") for die in dice][3:] == ["0.35", "0.35"]
    straight = english.within(english.one("li", id="box-small_straight"))
    assert ["yz-dice__die--idle" in die.classes for die in straight.all("g", cls="yz-dice__die")] == [
        False,
        False,
        False,
        False,
        True,
    ]


def test_the_quick_reference_gives_the_bonuses_and_the_two_jokers(english: Page):
    reference = section(english, "reference")
    assert reference.one("p", cls="yz-bonus").text == (
        "Upper bonus: 35 points when the six boxes add up to 63 or more (three of each number make 63)."
    )
    jokers = reference.all("li", cls="yz-joker")
    assert [english.within(joker).one(cls="yz-joker__score").text for joker in jokers] == [
        "Fours still open: Fours scores 20, plus the 100 bonus",
        "Sixes already filled: Large straight scores 40, plus the 100 bonus",
    ]
    assert [english.within(joker).one("svg").attrs["aria-label"] for joker in jokers] == [
        "Dice: 4, 4, 4, 4, 4",
        "Dice: 6, 6, 6, 6, 6",
    ]
    assert joker_points(Box.FOURS, (4, 4, 4, 4, 4)) == 20
    assert joker_points(Box.LARGE_STRAIGHT, (6, 6, 6, 6, 6)) == 40


def test_the_french_quick_reference_names_the_boxes_as_the_french_sheet_does(french: Page):
    reference = section(french, "reference")
    boxes = reference.all("li", cls="yz-box")
    assert [french.within(box).one(cls="yz-box__name").text for box in boxes] == [fr for _en, fr, *_ in EXAMPLES]
    assert reference.all("svg", cls="yz-dice")[0].attrs["aria-label"] == "Dés\u00a0: 1, 1, 1, 4, 6"
    assert french.within(boxes[0]).one(cls="yz-box__points").text == "3 points"
    assert reference.one("p", cls="yz-bonus").text.startswith("Prime\u00a0: 35 points")
    assert reference.all(cls="yz-joker__score")[1].text == (
        "Case Six déjà remplie\u00a0: Grande suite, 40 points, plus la prime de 100"
    )


@pytest.mark.parametrize(
    ("language", "sentence", "box", "dice", "points"),
    [
        ("en", "With 3 3 5 5 5, Fives scores 15", Box.FIVES, (3, 3, 5, 5, 5), 15),
        ("en", "3 3 5 5 5 scores 21", Box.THREE_OF_A_KIND, (3, 3, 5, 5, 5), 21),
        ("en", "1 2 3 4 6 scores 30", Box.SMALL_STRAIGHT, (1, 2, 3, 4, 6), 30),
        ("en", "1 2 3 4 6 scores 0 here", Box.LARGE_STRAIGHT, (1, 2, 3, 4, 6), 0),
        ("en", "so 4 4 4 4 4 scores 0 there", Box.FULL_HOUSE, (4, 4, 4, 4, 4), 0),
        ("fr", "la case Cinq rapporte 15", Box.FIVES, (3, 3, 5, 5, 5), 15),
        ("fr", "3 3 5 5 5 rapporte 21", Box.THREE_OF_A_KIND, (3, 3, 5, 5, 5), 21),
        ("fr", "1 2 3 4 6 y vaut 0", Box.LARGE_STRAIGHT, (1, 2, 3, 4, 6), 0),
    ],
)
def test_the_worked_examples_in_the_text_are_what_the_engine_scores(
    language: str, sentence: str, box: Box, dice: tuple[int, ...], points: int
):
    content = load_content("yahtzee", language)
    text = "\n".join(s.markdown for s in content.sections) + "\n".join(e.answer for e in content.faq)
    assert sentence in text
    assert plain_points(box, dice) == points


def test_the_joker_example_in_the_text_is_what_the_engine_scores():
    scoring = load_content("yahtzee", "en").section("scoring").markdown
    assert "4 4 4 4 4 with Fours still open: Fours takes 20, plus the 100 bonus" in scoring
    assert "6 6 6 6 6 with Sixes filled: Large straight takes 40, plus another 100" in scoring
    assert joker_points(Box.FOURS, (4, 4, 4, 4, 4)) == 20
    assert joker_points(Box.LARGE_STRAIGHT, (6, 6, 6, 6, 6)) == 40
    assert joker_points(Box.FULL_HOUSE, (5, 5, 5, 5, 5)) == 25


@pytest.mark.parametrize("url", [ENGLISH, FRENCH])
def test_every_link_in_the_page_leads_somewhere(get_page: Callable[[str], Page], url: str):
    page = get_page(url)
    article = page.within(page.one("article", cls="game"))
    hrefs = [link.attrs["href"] for link in article.all("a")]
    assert "#reference" in hrefs
    for href in hrefs:
        if href.startswith("#"):
            assert page.all(id=href[1:]), href
        else:
            try:
                resolve(href.split("#")[0])
            except Resolver404:
                pytest.fail(f"{href} leads nowhere")
    language = url.split("/")[1]
    with translation.override(language):
        assert reverse("tables:new", kwargs={"game": "yahtzee"}) in hrefs  # Keep score
        assert reverse("catalog:home") + "#category-dice" in hrefs


@pytest.mark.parametrize("url", [ENGLISH, FRENCH])
def test_the_page_carries_its_own_sprites_once_and_uses_no_other(get_page: Callable[[str], Page], url: str):
    page = get_page(url)
    sprites = page.one("svg", cls="sprites")
    assert {symbol.attrs["id"] for symbol in page.within(sprites).all("symbol")} == {"yz-pip"}
    assert {use.attrs["href"] for use in page.all("use")} == {PIPS}


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_a_die_shows_as_many_pips_as_its_value(value: int):
    die = Page(render_to_string("yahtzee/die.html", {"value": value}))
    assert die.one("svg").attrs["aria-label"] == f"Die showing {value}"
    assert len(die.all("use", href=PIPS)) == value


def test_a_roll_is_one_picture_labelled_with_its_five_dice():
    roll = Page(render_to_string("yahtzee/dice.html", {"dice": (6, 5, 4, 3, 2)}))
    svg = roll.one("svg")
    assert (svg.attrs["role"], svg.attrs["aria-label"]) == ("img", "Dice: 6, 5, 4, 3, 2")
    assert pips_per_die(roll, svg) == [6, 5, 4, 3, 2]
    assert not re.search(r"\sstyle=", roll.html)
    with translation.override("fr"):
        assert Page(render_to_string("yahtzee/dice.html", {"dice": (1, 1, 2, 2, 3)})).one("svg").attrs[
            "aria-label"
        ] == ("Dés\u00a0: 1, 1, 2, 2, 3")


def test_the_french_text_keeps_french_typography(french: Page):
    """A no-break space before : ; ? ! and inside « », in the content file and the drawn reference."""
    texts = [content_path("yahtzee", "fr").read_text(encoding="utf-8"), french.one("section", id="reference").text]
    for text in texts:
        assert not re.findall(r"[^\u00a0\u202f][:;?!»]|«[^\u00a0\u202f]", text)
