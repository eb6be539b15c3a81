"""French Tarot's keeper in a real phone browser (390×844) against a real server, in English
and in French: a four-player game of several deals (a pass, a failed contract, a petit au
bout, a handful, the defence's points), five players with a partner and alone, three
players; the score shown before a deal is recorded; undo; a second phone live, its stale
entry dropped; the end by the table and by the number of deals. The taps of a deal are
counted; screenshots go to test-output/tarot/."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from .helpers import OUTPUT_DIR, BrowserLog, MakePage, assert_accessible, file_name

pytestmark = pytest.mark.browser

NBSP = "\u00a0"
MINUS = "\u2212"
TABLE_ADDRESS = re.compile(r"/(en|fr)/tables/[A-Za-z0-9_-]{22}/$")
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
SHOTS = OUTPUT_DIR / "tarot"


def shoot(page: Page, name: str, *, full_page: bool = False) -> Path:
    """A PNG of the phone's screen (or the whole page) as test-output/tarot/<name>.png."""
    path = SHOTS / f"{file_name(name)}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


@dataclass(frozen=True)
class Words:
    new: str
    player: str
    start: str
    deals: str
    points: str
    record: str
    passed: str
    extras: str
    petit: str
    handfuls: str
    defence: str
    end: str


WORDS = {
    "en": Words(
        new="/en/tables/new/tarot/",
        player="Player {n}",
        start="Start the match",
        deals="Number of deals",
        points="Card points",
        record="Record deal {n}",
        passed="Everyone passed",
        extras="Petit au bout, handfuls, chelem",
        petit="Petit au bout",
        handfuls="Handfuls shown",
        defence="The defence",
        end="End the game now",
    ),
    "fr": Words(
        new="/fr/tables/nouvelle/tarot/",
        player="Joueur {n}",
        start="Commencer la partie",
        deals="Nombre de donnes",
        points="Points",
        record="Noter la donne {n}",
        passed="Tout le monde passe",
        extras="Petit au bout, poignées, chelem",
        petit="Petit au bout",
        handfuls="Poignées présentées",
        defence="Défense",
        end="Terminer la partie maintenant",
    ),
}


@dataclass
class Taps:
    """Every tap and key press made on the phone, counted."""

    page: Page
    count: int = 0
    log: list[str] = field(default_factory=list)

    def tap(self, target: Locator, what: str) -> None:
        target.click()
        self.count += 1
        self.log.append(what)

    def type(self, text: str) -> None:
        for key in text:
            self.page.keyboard.press(key)
            self.count += 1
            self.log.append(key)


def set_up(page: Page, words: Words, names: list[str], first: int = 0, deals: int | None = None) -> str:
    page.goto(words.new)
    for seat, name in enumerate(names):
        page.get_by_label(words.player.format(n=seat + 1), exact=True).fill(name)
    page.locator(f'input[name="first"][value="{first}"]').check()
    if deals is not None:
        page.get_by_label(words.deals, exact=True).fill(str(deals))
    page.get_by_role("button", name=words.start).click()
    expect(page).to_have_url(TABLE_ADDRESS)
    return page.url


def choice(page: Page, label: str) -> Locator:
    return page.locator(".choices .choice").filter(has=page.locator(f'.choice__label:text-is("{label}")'))


def play_deal(
    page: Page,
    words: Words,
    taps: Taps,
    *,
    taker: str,
    contract: str,
    bouts: int,
    points: str,
    partner: str | None = None,
    defence: bool = False,
    petit: str | None = None,
    handfuls: dict[str, str] | None = None,
    preview: str,
    number: int,
) -> None:
    """Enter a deal tap by tap, check the score shown before it is recorded, record it."""
    taps.tap(choice(page, taker), taker)
    taps.tap(choice(page, contract), contract)
    if partner is not None:
        taps.tap(choice(page, partner), partner)
    taps.tap(choice(page, str(bouts)), f"{bouts} bouts")
    field_ = page.get_by_label(words.points, exact=True)
    expect(field_).to_be_focused()  # the number pad comes up by itself where the phone allows it
    if defence:
        taps.tap(page.locator(".counted .segment").filter(has_text=words.defence), "the defence's points")
    taps.tap(field_, "the points field")
    taps.type(points)
    if petit is not None or handfuls:
        taps.tap(page.locator("#deal-extras > summary"), "the extras")
        if petit is not None:
            extra = page.locator(".extra").filter(has=page.locator(f'legend:text-is("{words.petit}")'))
            taps.tap(extra.locator(".segment").filter(has_text=petit), f"petit au bout: {petit}")
        for name, size in (handfuls or {}).items():
            row = page.locator(".handful").filter(has=page.locator(f'legend:has-text("{name}")'))
            taps.tap(row.locator(".segment").filter(has_text=size), f"{name}: {size}")
    expect(page.locator(".preview__sentence")).to_have_text(preview)
    record = page.get_by_role("button", name=words.record.format(n=number), exact=True)
    expect(record).to_be_enabled()
    taps.tap(record, "record")
    expect(page.locator(".bar__text")).to_contain_text(preview)


def band_scores(page: Page) -> list[str]:
    return [text.split()[0] for text in page.locator(".band__score").all_inner_texts()]


def test_a_four_player_game_in_english(make_page: MakePage):
    words = WORDS["en"]
    page = make_page()
    log = BrowserLog.attach(page)
    names = ["Ada", "Ben", "Cy", "Dee"]
    set_up(page, words, names)
    expect(page.locator(".band__status")).to_have_text("Deal 1 · Ada deals")
    shoot(page, "en-01-new-table")
    assert_accessible(page, "tarot-new-table")

    # Deal 1: Ada's garde, 2 bouts, 47 points — the example, with its taps counted.
    taps = Taps(page)
    taps.tap(choice(page, "Ada"), "Ada")
    expect(page.locator("#deal-title")).to_have_text("Ada took: which contract?")
    shoot(page, "en-02-contract")
    taps.tap(choice(page, "Garde"), "Garde")
    shoot(page, "en-03-bouts")
    taps.tap(choice(page, "2"), "2 bouts")
    points = page.get_by_label(words.points, exact=True)
    expect(points).to_be_focused()
    taps.tap(points, "the points field")
    taps.type("47")
    preview = "Ada’s garde made by 6: +186; Ben, Cy, Dee −62"
    expect(page.locator(".preview__sentence")).to_have_text(preview)
    assert page.evaluate("window.scrollY") == 0, "the pad did not scroll"
    shoot(page, "en-04-preview")
    record = page.get_by_role("button", name="Record deal 1")
    box = record.bounding_box()
    assert box
    assert box["y"] + box["height"] < 844 - 60, "the record button sits above the bar, in the thumb's reach"
    taps.tap(record, "record")
    expect(page.locator(".bar__text")).to_have_text(preview)
    expect(page.locator(".bar__undo button")).to_be_visible()
    assert band_scores(page) == ["186", f"{MINUS}62", f"{MINUS}62", f"{MINUS}62"]
    expect(page.locator(".band__status")).to_have_text("Deal 2 · Ben deals")
    assert taps.count == 7, taps.log  # taker, contract, bouts, the field, 4, 7, record
    print(f"\ntaps for a four-player deal: {taps.count} ({', '.join(taps.log)})")
    shoot(page, "en-05-recorded")

    # Deal 2: everyone passed, in one tap; the deal passes on.
    passed = Taps(page)
    passed.tap(page.get_by_role("button", name="Everyone passed · Ben dealt"), "everyone passed")
    expect(page.locator(".bar__text")).to_have_text("Everyone passed · Cy deals")
    expect(page.locator(".band__status")).to_have_text("Deal 3 · Cy deals")
    assert passed.count == 1

    # Deal 3: Cy's garde sans fails, the defence takes the Petit au bout, Ben shows a handful.
    extras = Taps(page)
    play_deal(
        page,
        words,
        extras,
        taker="Cy",
        contract="Garde sans",
        bouts=1,
        points="48",
        petit="The defence",
        handfuls={"Ben": "Simple"},
        preview="Cy’s garde sans failed by 3: −516; Ada, Ben, Dee +172",
        number=3,
    )
    print(f"taps for a deal with a petit au bout and a handful: {extras.count}")
    assert band_scores(page) == ["358", "110", f"{MINUS}578", "110"]

    # Deal 4: Dee counted the defence's points (35): Dee's side has 56.
    defence = Taps(page)
    play_deal(
        page,
        words,
        defence,
        taker="Dee",
        contract="Petite",
        bouts=1,
        points="35",
        defence=True,
        preview="Dee’s petite made by 5: +90; Ada, Ben, Cy −30",
        number=4,
    )
    shoot(page, "en-06-four-deals", full_page=True)
    assert_accessible(page, "tarot-mid-game")
    rows = page.locator(".grid tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(1)).to_contain_text("Everyone passed")

    # An impossible deal is refused before it is recorded, with the reason.
    page.locator(".choices .choice").first.click()
    choice(page, "Garde").click()
    choice(page, "3").click()
    points = page.get_by_label(words.points, exact=True)
    # The field is focused once the new step is in place and wired (as in play_deal): typed
    # before, the input would go to a form that asks for no preview yet.
    expect(points).to_be_focused()
    points.fill("10")
    expect(page.locator(".preview__refusal")).to_have_text(
        "With 3 bouts the taker’s side has 13.5 to 91 points, not 10: each bout counts 4.5."
    )
    expect(page.locator(".record-form")).to_have_count(0)
    shoot(page, "en-07-refused")
    page.locator(".chip--clear").click()
    expect(page.locator("#deal-title")).to_have_text("Who took?")

    # Undo the last deal, then end the game on the totals.
    page.locator(".bar__undo").get_by_role("button", name="Undo").click()
    expect(page.locator(".bar__text")).to_have_text("Deal 4 taken back")
    assert band_scores(page) == ["358", "110", f"{MINUS}578", "110"]
    page.locator(".end-entry summary").click()
    expect(page.locator(".end-entry__result")).to_have_text("On the totals as they stand: Ada wins with 358.")
    page.get_by_role("button", name=words.end).click()
    expect(page.locator(".band__status")).to_have_text("Ada wins with 358.")
    expect(page.locator(".standings tbody tr")).to_have_count(4)
    expect(page.locator(".chart__line")).to_have_count(4)
    shoot(page, "en-08-the-end", full_page=True)
    assert_accessible(page, "tarot-the-end")
    assert page.evaluate(OVERFLOW) <= 0
    assert log.mentioning("Content Security Policy") == []
    assert log.errors() == [], "\n".join(log.errors() + log.failed_requests)


def test_five_players_in_french_with_a_partner_and_alone_end_by_the_deals(make_page: MakePage):
    words = WORDS["fr"]
    page = make_page(locale="fr-FR")
    log = BrowserLog.attach(page)
    names = ["Aïcha", "Bruno", "Chloé", "Denis", "Élise"]
    set_up(page, words, names, first=4, deals=2)
    expect(page.locator(".band__status")).to_have_text("Donne 1 · Élise distribue · encore 2")
    expect(page.locator("#deal-title")).to_have_text(f"Qui a pris{NBSP}?")

    taps = Taps(page)
    taps.tap(choice(page, "Chloé"), "Chloé")
    taps.tap(choice(page, "Garde"), "Garde")
    expect(page.locator("#deal-title")).to_have_text(f"Qui avait le roi appelé par Chloé{NBSP}?")
    shoot(page, "fr-01-partner")
    taps.tap(choice(page, "Aïcha"), "Aïcha")
    taps.tap(choice(page, "2"), "2 bouts")
    taps.tap(page.get_by_label(words.points, exact=True), "the points field")
    taps.type("47")
    preview = f"Chloé et Aïcha passent de 6 en garde{NBSP}: Chloé +124, Aïcha +62{NBSP}; Bruno, Denis, Élise {MINUS}62"
    expect(page.locator(".preview__sentence")).to_have_text(preview)
    shoot(page, "fr-02-preview")
    taps.tap(page.get_by_role("button", name="Noter la donne 1"), "record")
    expect(page.locator(".bar__text")).to_have_text(preview)
    assert taps.count == 8, taps.log  # the partner is one tap more at five
    print(f"\ntaps for a five-player deal: {taps.count}")

    play_deal(
        page,
        words,
        Taps(page),
        taker="Denis",
        contract="Petite",
        partner="Denis, sans partenaire",
        bouts=1,
        points="55",
        preview=f"Denis passe de 4 en petite, sans partenaire{NBSP}: +116{NBSP}; Aïcha, Bruno, Chloé, Élise {MINUS}29",
        number=2,
    )
    expect(page.locator(".band__status")).to_have_text("Chloé gagne avec 95.")
    expect(page.locator(".bar__text")).to_contain_text("Partie finie")
    expect(page.get_by_role("heading", name="Classement final")).to_be_visible()
    expect(page.locator(".chart__line")).to_have_count(5)
    expect(page.locator("#chart-caption")).to_have_text("Totaux donne après donne, sur 2 donnes")
    shoot(page, "fr-03-the-end", full_page=True)
    assert_accessible(page, "tarot-the-end-fr")
    assert page.evaluate(OVERFLOW) <= 0
    assert log.errors() == []


def test_three_players_and_a_second_phone_live_its_stale_entry_dropped(make_page: MakePage):
    words = WORDS["en"]
    ada = make_page()
    names = ["Ada", "Ben", "Cy"]
    set_up(ada, words, names, first=1)
    link = ada.get_by_role("link", name="Keep score too").get_attribute("href")
    assert link
    ben = make_page(locale="fr-FR")
    ben.goto(link.replace("/en/", "/fr/"))
    expect(ben.locator("#deal-title")).to_have_text(f"Qui a pris{NBSP}?")

    # Ben starts entering a deal while Ada records one: Ben's half entry is dropped, and said so.
    choice(ben, "Cy").click()
    expect(ben.locator("#deal-title")).to_have_text(f"Cy a pris{NBSP}: quel contrat{NBSP}?")
    play_deal(
        ada,
        words,
        Taps(ada),
        taker="Ada",
        contract="Garde contre",
        bouts=3,
        points="36",
        preview="Ada’s garde contre just made: +300; Ben, Cy −150",
        number=1,
    )
    expect(ben.locator(".bar__text")).to_contain_text("la donne en cours de saisie ici est abandonnée")
    expect(ben.locator("#deal-title")).to_have_text(f"Qui a pris{NBSP}?")
    assert band_scores(ben) == ["300", f"{MINUS}150", f"{MINUS}150"]
    assert "taker" not in ben.url
    shoot(ben, "fr-04-second-phone-dropped")

    # Ben records the next deal; Ada's phone follows; Ada undoes it from the bar.
    play_deal(
        ben,
        WORDS["fr"],
        Taps(ben),
        taker="Ben",
        contract="Petite",
        bouts=0,
        points="60",
        preview=f"Ben passe de 4 en petite{NBSP}: +58{NBSP}; Ada, Cy {MINUS}29",
        number=2,
    )
    expect(ada.locator(".band__status")).to_have_text("Deal 3 · Ada deals")
    ada.locator(".bar__undo").get_by_role("button", name="Undo").click()
    expect(ada.locator(".bar__text")).to_have_text("Deal 2 taken back")
    expect(ben.locator(".band__status")).to_have_text("Donne 2 · Cy distribue")
    shoot(ada, "en-09-three-players-undo")


def test_the_tarot_table_in_dark_mode_has_no_serious_accessibility_finding(make_page: MakePage):
    page = make_page(color_scheme="dark")
    log = BrowserLog.attach(page)
    words = WORDS["en"]
    set_up(page, words, ["Ada", "Ben", "Cy", "Dee"])
    assert_accessible(page, "tarot-table-dark")
    play_deal(
        page, words, Taps(page), taker="Ada", contract="Garde", bouts=2, points="47",
        preview="Ada’s garde made by 6: +186; Ben, Cy, Dee −62", number=1,
    )  # fmt: skip
    assert_accessible(page, "tarot-after-a-deal-dark")
    shoot(page, "en-10-dark")
    assert log.mentioning("Content Security Policy") == []
