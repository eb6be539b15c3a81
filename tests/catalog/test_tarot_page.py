"""The French Tarot page: its parts in both languages, the deck's facts, the quick reference's
numbers, the rules' worked examples as the engine scores them, links that lead somewhere."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.urls import Resolver404, resolve, reverse
from django.utils import translation

from marquoir.games import tarot
from marquoir.games.content import SECTION_KEYS, content_path, load_content
from marquoir.games.tarot import Contract, Deal, Poignee, PoigneeSize, Side, score_deal

from .pages import Page

ENGLISH, FRENCH = "/en/games/tarot/", "/fr/jeux/tarot/"
PAGE_ORDER = ["category-link", "h1", "pitch", "facts", "note", "toc", *SECTION_KEYS, "reference", "box"]


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


def table_rows(page: Page, cls: str) -> list[list[str]]:
    """Each row of the table ``cls`` as its cells' texts (``page`` is the whole page)."""
    table = page.within(page.one("table", cls=cls))
    return [[cell.text for cell in page.within(row).all() if cell.tag in ("th", "td")] for row in table.all("tr")]


def page_text(page: Page, key: str) -> str:
    return " ".join(element.text for element in section(page, key).all("p"))


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
    content = load_content("tarot", language)
    assert [page.one("h2", id=f"{key}-title").text for key in SECTION_KEYS] == [s.title for s in content.sections]
    for key in SECTION_KEYS[:-1]:
        assert section(page, key).all("p"), key
    faq = section(page, "faq")
    assert [summary.text for summary in faq.all("summary")] == [entry.question for entry in content.faq]
    assert len(content.faq) >= 6


def test_the_english_page_files_tarot_under_card_games(english: Page):
    assert english.one("h1").text == "French Tarot"
    link = english.within(english.one(cls="category-link")).one("a")
    assert (link.text, link.attrs["href"]) == ("Card games", "/en/#category-cards")
    # Its score keeper is registered: the page offers to keep score, and says it does.
    (button,) = english.all("a", cls="button")
    assert button.text == "Keep score"
    assert button.attrs["href"] == "/en/tables/new/tarot/"
    assert "keeps the score for you" in english.one(cls="note").text
    assert "cannot keep its score yet" not in english.one(cls="note").text


def test_the_french_page_files_tarot_under_jeux_de_cartes(french: Page):
    assert french.one("h1").text == "Tarot"
    link = french.within(french.one(cls="category-link")).one("a")
    assert (link.text, link.attrs["href"]) == ("Jeux de cartes", "/fr/#category-cards")
    (button,) = french.all("a", cls="button")
    assert (button.text, button.attrs["href"]) == ("Tenir le score", "/fr/tables/nouvelle/tarot/")
    assert "ne sait pas encore" not in french.one(cls="note").text


def test_the_home_page_lists_tarot_under_card_games(get_page: Callable[[str], Page]):
    for url, label, href in (("/en/", "Card games", ENGLISH), ("/fr/", "Jeux de cartes", FRENCH)):
        page = get_page(url)
        assert page.one("h2", id="category-cards").text == label
        cards = page.within(page.one("section", cls="category", aria_labelledby="category-cards"))
        assert next(link.attrs["href"] for link in cards.all("a")) == href


def test_the_quick_facts_give_players_time_and_age(english: Page, french: Page):
    # A deal's time, not a game's: the players agree how many deals they play.
    english_facts = [dd.text for dd in english.within(english.one(cls="facts")).all("dd")]
    assert english_facts == ["3–5", "about 10 minutes a deal", "10+"]
    assert [dd.text for dd in french.within(french.one(cls="facts")).all("dd")] == [
        "3 à 5",
        "une dizaine de minutes par donne",
        "dès 10\u00a0ans",
    ]
    assert "ten minutes a deal" in english.one("p", cls="pitch").text
    assert "minutes par donne" in french.one("p", cls="pitch").text


def test_the_box_gives_the_deck_and_the_fft_and_no_designer(english: Page):
    # A traditional game: where and since when it is played, and whose rules are kept, in
    # place of a release year, a publisher and an original name.
    assert box_facts(english) == {
        "Origin": (
            "Played in France since the 16th century; the rules kept here are the Fédération Française de "
            "Tarot’s, official since 1973."
        ),
        "Players": "3 to 5 players",
        "Ages": "10 and up",
        "Mechanics": "trick-taking, bidding, a secret partner at five",
        "In the box": (
            "A tarot deck of 78 cards: 21 trumps numbered 1 to 21, the Excuse, and four suits of 14 cards "
            "(king, queen, knight, jack, then 10 down to 1)."
        ),
    }
    assert "founded in 1973" in page_text(english, "setup")


def test_the_deck_in_the_box_adds_up_to_78_cards():
    assert 21 + 1 + 4 * 14 == 78
    assert "78" in load_content("tarot", "fr").contents
    assert "21 atouts" in load_content("tarot", "fr").contents


def test_the_card_points_table_adds_up_to_the_engine_s_91(english: Page, french: Page):
    assert table_rows(english, "tarot-cards") == [
        ["Card", "Points", "With a low card"],
        ["Bout (the 21, the Petit, the Excuse)", "4.5", "5"],
        ["King", "4.5", "5"],
        ["Queen", "3.5", "4"],
        ["Knight", "2.5", "3"],
        ["Jack", "1.5", "2"],
        ["Any other card", "0.5", "two make 1"],
    ]
    assert table_rows(french, "tarot-cards")[1] == ["Bout (le 21, le Petit, l’Excuse)", "4,5", "5"]
    # 3 bouts, 4 of each court card, and the 59 other cards (40 in the suits, 19 trumps).
    assert 3 * 4.5 + 4 * (4.5 + 3.5 + 2.5 + 1.5) + 59 * 0.5 == tarot.CARD_POINTS == 91
    assert 3 + 4 * 4 + 59 == 78


def test_the_points_needed_are_the_engine_s(english: Page):
    assert table_rows(english, "tarot-needed") == [["Bouts", "0", "1", "2", "3"], ["Points", "56", "51", "41", "36"]]
    assert [tarot.points_needed(bouts) for bouts in range(4)] == [56, 51, 41, 36]


def test_the_contracts_and_their_multipliers(english: Page, french: Page):
    assert [row[:2] for row in table_rows(english, "tarot-contracts")] == [
        ["Contract", "Multiplier"],
        ["Petite (or prise)", "×1"],
        ["Garde", "×2"],
        ["Garde sans", "×4"],
        ["Garde contre", "×6"],
    ]
    assert [row[0] for row in table_rows(french, "tarot-contracts")[1:]] == [
        "Petite (ou prise)",
        "Garde",
        "Garde sans le chien",
        "Garde contre le chien",
    ]
    assert [contract.multiplier for contract in Contract] == [1, 2, 4, 6]


def test_the_handfuls_by_number_of_players(english: Page, french: Page):
    assert table_rows(english, "tarot-handfuls") == [
        ["Handful", "3", "4", "5", "Bonus"],
        ["Simple", "13", "10", "8", "20"],
        ["Double", "15", "13", "10", "30"],
        ["Triple", "18", "15", "13", "40"],
    ]
    assert english.one("caption").text == "Trumps to show at 3, 4 and 5 players, and the bonus"
    assert table_rows(french, "tarot-handfuls")[0] == ["Poignée", "3", "4", "5", "Prime"]
    sizes = (PoigneeSize.SIMPLE, PoigneeSize.DOUBLE, PoigneeSize.TRIPLE)
    assert [[size.trumps(players) for players in (3, 4, 5)] for size in sizes] == [
        [13, 10, 8],
        [15, 13, 10],
        [18, 15, 13],
    ]
    assert [size.bonus for size in sizes] == [20, 30, 40]


def test_the_shares_the_reference_gives_are_how_the_engine_splits_a_deal(english: Page):
    lines = [item.text for item in section(english, "reference").all("li")]
    assert "Chelem: +400 announced and made, +200 made without announcing, −200 announced and failed." in lines
    assert "4 players: the taker scores 3A, each defender −A." in lines
    assert "3 players: the taker scores 2A, each defender −A." in lines
    assert "5 players: the taker scores 2A, the partner A, each defender −A. A taker alone scores 4A." in lines

    def petite(partner: int | None = None) -> Deal:
        return Deal(taker=0, contract=Contract.PETITE, bouts=1, points=55, partner=partner)

    assert score_deal(petite(), 4).scores == (87, -29, -29, -29)
    assert score_deal(petite(), 3).scores == (58, -29, -29)
    assert score_deal(petite(partner=1), 5).scores == (58, 29, -29, -29, -29)
    assert score_deal(petite(partner=0), 5).scores == (116, -29, -29, -29, -29)


# The worked examples of docs/rules-tarot.md as the page words them, with the deal that the
# engine scores: (English, French, players, deal, A, taker's score).
WORKED = [
    (
        "Garde, 2 bouts, 47 points: 41 needed, made by 6. A = (25 + 6) × 2 = 62. The taker scores +186",
        "Garde, 2 bouts, 47 points\u00a0: il en fallait 41, fait de 6. A = (25 + 6) × 2 = 62. Le preneur marque +186",
        4,
        Deal(taker=0, contract=Contract.GARDE, bouts=2, points=47),
        62,
        186,
    ),
    (
        "the defence took the Petit au bout: A = 62 − 20 = 42. The taker scores +126.",
        "la défense a mené le petit au bout\u00a0: A = 62 − 20 = 42. Le preneur marque +126.",
        4,
        Deal(taker=0, contract=Contract.GARDE, bouts=2, points=47, petit_au_bout=Side.DEFENCE),
        42,
        126,
    ),
    (
        "Garde sans, 1 bout, 48 points: 51 needed, failed by 3. A = −(25 + 3) × 4 = −112. The taker scores −336",
        "Garde sans, 1 bout, 48 points\u00a0: il en fallait 51, chute de 3. A = −(25 + 3) × 4 = −112. "
        "Le preneur marque −336",
        4,
        Deal(taker=0, contract=Contract.GARDE_SANS, bouts=1, points=48),
        -112,
        -336,
    ),
    (
        "A = 62 + 20 = 82. The taker scores +246.",
        "A = 62 + 20 = 82. Le preneur marque +246.",
        4,
        Deal(
            taker=0,
            contract=Contract.GARDE,
            bouts=2,
            points=47,
            poignees=(Poignee(Side.DEFENCE, PoigneeSize.SIMPLE),),
        ),
        82,
        246,
    ),
    (
        "5 players, petite, 1 bout, 55 points: made by 4, A = 25 + 4 = 29. The taker scores +58, the partner +29",
        "À 5 joueurs, petite, 1 bout, 55 points\u00a0: fait de 4, A = 25 + 4 = 29. Le preneur marque +58, "
        "son partenaire +29",
        5,
        Deal(taker=0, partner=1, contract=Contract.PETITE, bouts=1, points=55),
        29,
        58,
    ),
    (
        "Alone, the taker would score +116",
        "Seul, le preneur aurait marqué +116",
        5,
        Deal(taker=0, partner=0, contract=Contract.PETITE, bouts=1, points=55),
        29,
        116,
    ),
    (
        "3 players, garde contre, 3 bouts, 36 points, made exactly: A = 25 × 6 = 150. The taker scores +300",
        "À 3 joueurs, garde contre, 3 bouts, 36 points, fait tout juste\u00a0: A = 25 × 6 = 150. "
        "Le preneur marque +300",
        3,
        Deal(taker=0, contract=Contract.GARDE_CONTRE, bouts=3, points=36),
        150,
        300,
    ),
]


@pytest.mark.parametrize(("english_text", "french_text", "players", "deal", "per_defender", "taker"), WORKED)
def test_each_worked_example_is_on_the_page_and_is_what_the_engine_scores(
    english: Page,
    french: Page,
    english_text: str,
    french_text: str,
    players: int,
    deal: Deal,
    per_defender: int,
    taker: int,
):
    english_scoring = " ".join(item.text for item in section(english, "scoring").all("li"))
    french_scoring = " ".join(item.text for item in section(french, "scoring").all("li"))
    assert english_text in english_scoring
    assert french_text in french_scoring
    score = score_deal(deal, players)
    assert score.per_defender == per_defender
    assert score.scores[0] == taker
    assert sum(score.scores) == 0


def test_the_faq_s_half_points_are_the_engine_s():
    assert "with 2 bouts, 40.5 fails by 1 and 41.5 makes it by 1" in load_content("tarot", "en").faq[7].answer
    failed = score_deal(Deal(taker=0, contract=Contract.PETITE, bouts=2, points=40.5), 3)
    made = score_deal(Deal(taker=0, contract=Contract.PETITE, bouts=2, points=41.5), 3)
    assert (failed.made, failed.gap, made.made, made.gap) == (False, 1, True, 1)


def test_the_french_page_speaks_the_fft_s_words(french: Page):
    text = french.one("article").text
    for word in (
        "preneur",
        "contrat",
        "bouts",
        "chien",
        "écart",
        "poignée",
        "petit au bout",
        "chelem",
        "l’appel au roi",
    ):
        assert word in text, word


def test_the_english_page_keeps_the_french_terms_english_players_use(english: Page):
    text = english.one("article").text
    for word in (
        "bouts",
        "oudlers",
        "the Excuse",
        "Petit au bout",
        "garde sans",
        "chelem",
        "the dog",
        "the called king",
    ):
        assert word in text, word


@pytest.mark.parametrize("url", [ENGLISH, FRENCH])
def test_every_link_in_the_page_leads_somewhere(get_page: Callable[[str], Page], url: str):
    page = get_page(url)
    article = page.within(page.one("article", cls="game"))
    hrefs = [link.attrs["href"] for link in article.all("a")]
    assert "#play" in hrefs
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
        assert reverse("tables:new", kwargs={"game": "tarot"}) in hrefs  # its keeper is registered
        assert reverse("catalog:home") + "#category-cards" in hrefs


def test_the_page_draws_nothing_so_carries_no_sprites(english: Page):
    assert english.all("svg", cls="sprites") == []


def test_the_french_text_keeps_french_typography(french: Page):
    """A no-break space before : ; ? ! and inside « », in the content file and the drawn reference."""
    texts = [content_path("tarot", "fr").read_text(encoding="utf-8"), french.one("section", id="reference").text]
    for text in texts:
        assert not re.findall(r"[^\u00a0\u202f][:;?!»]|«[^\u00a0\u202f]", text)
