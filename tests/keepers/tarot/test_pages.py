"""French Tarot's pages through Django's test client, as a phone without JavaScript uses them:
the set-up form, the deal pad step by step (each tap a link that adds a choice to the
address), the score shown before the deal is recorded, refusals in words, a stale entry
dropped, everyone passed, undo from the bar, the end by deals and by the table; in English
and in French."""

from __future__ import annotations

import html as html_lib
import re
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import pytest
from django.test import Client

from marquoir.tables.models import Match

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
MINUS = "\u2212"
NEW_TAROT = {"en": "/en/tables/new/tarot/", "fr": "/fr/tables/nouvelle/tarot/"}
RECORD_FORM = 'class="record-form"'
PASS_FORM = 'class="pass-form"'
UNDO_FORM = 'class="bar__undo"'
END_FORM = 'name="type" value="end"'


def start(client: Client, *names: str, lang: str = "en", first: int = 0, **options: str) -> str:
    """Create a match through the set-up form; the table's address."""
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": str(first)} | options
    response = client.post(NEW_TAROT[lang], data)
    assert response.status_code == 303, response.content.decode()[:800]
    return str(response["Location"])


def match_of(table: str) -> Match:
    return Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1])


def text(html: str) -> str:
    return html_lib.unescape(re.sub(r"<[^>]+>", "", html))


def form_of(html: str, marker: str) -> str:
    at = html.index(marker)
    begin = html.rfind("<form", 0, at)
    return html[begin : html.index("</form>", at)]


def hidden_fields(html: str, marker: str) -> dict[str, str]:
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form_of(html, marker))
    }


def choices(html: str) -> dict[str, str]:
    """The pad's buttons: label -> the address they lead to."""
    found = re.findall(r'<a class="choice[^"]*" href="([^"]+)"[^>]*><span class="choice__label">([^<]+)</span>', html)
    return {html_lib.unescape(label): html_lib.unescape(href) for href, label in found}


def tap(client: Client, table: str, html: str, label: str) -> str:
    """Follow the pad's button ``label``; the page it leads to."""
    href = choices(html)[label]
    assert href.startswith("?")
    return client.get(table + href).content.decode()


def prompt(html: str) -> str:
    found = re.search(r'<h2 id="deal-title"[^>]*>([^<]*)</h2>', html)
    assert found
    return html_lib.unescape(found.group(1))


def preview(html: str) -> str:
    """What the pad says of the deal as entered: its score (#deal-preview, under the points),
    then Record or the refusal (#deal-record-box, after the extras)."""
    boxes = ("deal-preview", "deal-record-box")
    found = [re.search(rf'<fieldset id="{box}".*?</fieldset>', html, re.S) for box in boxes]
    assert all(found)
    return " ".join(text(box.group(0)) for box in found if box)


def band_status(html: str) -> str:
    found = re.search(r'<p id="band-status"[^>]*>([^<]*)</p>', html)
    assert found
    return html_lib.unescape(found.group(1))


def band_scores(html: str) -> list[str]:
    scores = re.findall(r'<span class="band__score">(?:<span class="band__figure[^"]*">)?([^<]*)<', html)
    return [html_lib.unescape(score) for score in scores]


def bar_text(html: str) -> str:
    found = re.search(r'<p class="bar__text"[^>]*>([^<]*)</p>', html)
    assert found
    return html_lib.unescape(found.group(1))


def entry_page(client: Client, table: str, **entry: object) -> str:
    """The table with a deal entered in its address (as the pad's links and form build it)."""
    seq = match_of(table).seq
    return client.get(table + "?" + urlencode({"seq": seq, **entry})).content.decode()


def record(client: Client, table: str, **entry: object) -> Response:
    """Enter a deal in the address, read its preview, and tap "Record deal N"."""
    html = entry_page(client, table, **entry)
    return client.post(table + "act/", hidden_fields(html, RECORD_FORM))


def post_form(client: Client, table: str, marker: str) -> Response:
    html = client.get(table).content.decode()
    return client.post(table + "act/", hidden_fields(html, marker))


# --- the set-up page


def test_the_set_up_page_offers_five_seats_and_the_number_of_deals(client: Client):
    html = client.get(NEW_TAROT["en"]).content.decode()

    assert "<h1>New French Tarot match</h1>" in html
    assert html.count('name="first"') == 5
    assert 'name="deals"' in html
    assert "Number of deals" in html
    assert "Three, four or five players, in playing order" in html
    assert "tarot/tarot.css" in html
    assert 'name="assistant"' not in html


def test_the_set_up_page_in_french(client: Client):
    html = client.get(NEW_TAROT["fr"]).content.decode()

    assert "Nouvelle partie de tarot" in html
    assert "Nombre de donnes" in html
    assert "Trois, quatre ou cinq joueurs" in html


def test_the_set_up_form_keeps_the_first_dealer_and_the_deals(client: Client):
    match = match_of(start(client, "Ada", "Ben", "", "Cy", first=3, deals="12"))

    assert match.game == "tarot"
    assert match.players == ["Ada", "Ben", "Cy"]
    assert match.first == 2
    assert match.options == {"deals": 12}


@pytest.mark.parametrize("deals", ["0", "301", "٣", "ten"])
def test_a_bad_number_of_deals_is_refused_on_the_form(client: Client, deals: str):
    response = client.post(NEW_TAROT["en"], {"name_0": "Ada", "name_1": "Ben", "name_2": "Cy", "deals": deals})

    assert response.status_code == 422
    assert "whole number of deals from 1 to 300" in response.content.decode()
    assert Match.objects.count() == 0


def test_two_players_are_too_few(client: Client):
    response = client.post(NEW_TAROT["fr"], {"name_0": "Ada", "name_1": "Ben", "first": "0"})

    assert response.status_code == 422
    assert "Le tarot se joue à 3, 4 ou 5 joueurs." in response.content.decode()


# --- a deal, tap by tap


def test_a_deal_is_entered_tap_by_tap_shown_before_it_is_recorded_and_told_after(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee", first=1)
    html = client.get(table).content.decode()
    assert band_status(html) == "Deal 1 · Ben deals"
    assert prompt(html) == "Who took?"
    assert list(choices(html)) == ["Ada", "Ben", "Cy", "Dee"]
    assert "Everyone passed · Ben dealt" in html

    html = tap(client, table, html, "Ada")
    assert prompt(html) == "Ada took: which contract?"
    assert list(choices(html)) == ["Petite", "Garde", "Garde sans", "Garde contre"]
    html = tap(client, table, html, "Garde")
    assert prompt(html) == "How many bouts did Ada’s side take?"  # no partner at 4 players
    html = tap(client, table, html, "2")
    assert prompt(html) == "How many card points did Ada’s side take?"
    assert "With 2 bouts the taker’s side needs 41." in preview(html)
    assert 'id="points"' in html
    assert 'inputmode="decimal"' in html

    # The points form sends what it holds to the table's address: the preview comes back.
    form = form_of(html, 'id="deal-entry"')
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    html = client.get(table, {**fields, "counted": "taker", "points": "47"}).content.decode()
    assert "Ada’s garde made by 6: +186; Ben, Cy, Dee −62" in preview(html)
    assert "Each defender pays 62." in preview(html)
    assert "Record deal 1" in html

    response = client.post(table + "act/", hidden_fields(html, RECORD_FORM))
    assert response.status_code == 303
    html = client.get(table).content.decode()
    assert bar_text(html) == "Ada’s garde made by 6: +186; Ben, Cy, Dee −62"
    assert band_scores(html) == ["186", f"{MINUS}62", f"{MINUS}62", f"{MINUS}62"]
    assert band_status(html) == "Deal 2 · Cy deals"
    assert prompt(html) == "Who took?"  # the pad is bare again, for the next deal


def test_the_defence_s_points_and_the_extras_are_shown_and_recorded(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")

    html = entry_page(
        client,
        table,
        taker=0,
        contract="garde",
        bouts=2,
        counted="defence",
        points="44",
        petit="defence",
        poignee_2="simple",
    )

    words = preview(html)
    assert "Ada’s garde made by 6: +166; Ben, Cy, Dee −62" not in words
    assert "The defence took 44, so Ada’s side has 91 − 44 = 47." in words
    assert "Petit au bout: −20" in words
    assert "Handfuls: +20" in words
    assert "With petit au bout for the defence, a simple handful by the defence." in words
    assert "Ada’s garde made by 6: +186; Ben, Cy, Dee −62" in words
    assert client.post(table + "act/", hidden_fields(html, RECORD_FORM)).status_code == 303
    assert match_of(table).seq == 1
    assert band_scores(client.get(table).content.decode())[0] == "186"


def test_half_points_are_typed_with_a_comma_or_a_point(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")

    for typed in ("40,5", "40.5"):
        words = preview(entry_page(client, table, taker=0, contract="garde", bouts=2, points=typed))
        assert "Ada’s garde failed by 1: −156; Ben, Cy, Dee +52" in words


@pytest.mark.parametrize(
    ("entry", "english", "french"),
    [
        ({"bouts": 2, "points": "4"}, "With 2 bouts the taker’s side has 9 to 86.5 points, not 4", "de 9 à 86,5"),
        ({"bouts": 2, "points": "92"}, "Card points are from 0 to 91", "Les points vont de 0 à 91"),
        ({"bouts": 2, "points": "47x"}, "Write the points with digits", "Écrivez les points en chiffres"),
        ({"bouts": 0, "points": "30", "petit": "taker"}, "does not hold the Petit", "donc pas le Petit"),
        ({"bouts": 1, "points": "30", "chelem": "made"}, "cannot have failed", "ne peut pas avoir chuté"),
    ],
)
def test_an_impossible_deal_is_refused_in_the_preview_with_the_reason(
    client: Client, entry: dict[str, object], english: str, french: str
):
    table = start(client, "Ada", "Ben", "Cy", "Dee")

    html = entry_page(client, table, taker=0, contract="garde", **entry)
    assert english in preview(html)
    assert RECORD_FORM not in html
    client.cookies["django_language"] = "fr"
    french_table = table.replace("/en/", "/fr/")
    assert french in preview(entry_page(client, french_table, taker=0, contract="garde", **entry))


def test_a_refused_deal_posted_anyway_is_said_in_words_and_kept_on_the_pad(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    html = entry_page(client, table, taker=0, contract="garde", bouts=2, points="47")
    fields = hidden_fields(html, RECORD_FORM) | {"points": "95"}

    response = client.post(table + "act/", fields, headers={"HX-Request": "true"})

    assert response.status_code == 422
    page = response.content.decode()
    assert "Card points are from 0 to 91 (not 95)." in bar_text(page)
    assert 'value="95"' in page  # the entry is shown again, to be corrected
    assert match_of(table).seq == 0


def test_five_players_name_the_called_partner_or_the_taker_alone(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee", "Eve")
    html = tap(client, table, tap(client, table, client.get(table).content.decode(), "Cy"), "Petite")

    assert prompt(html) == "Which player did Cy call? (the king’s holder)"
    assert list(choices(html)) == ["Ada", "Ben", "Dee", "Eve", "Cy alone"]
    html = tap(client, table, html, "Eve")
    assert prompt(html) == "How many bouts did Cy’s side take?"
    with_partner = preview(entry_page(client, table, taker=2, contract="petite", partner=4, bouts=1, points="55"))
    assert "Cy’s petite with Eve made by 4: Cy +58, Eve +29; Ada, Ben, Dee −29" in with_partner
    alone = preview(entry_page(client, table, taker=2, contract="petite", partner=2, bouts=1, points="55"))
    assert "Cy’s petite alone made by 4: +116; Ada, Ben, Dee, Eve −29" in alone


def test_three_players_have_no_partner_step(client: Client):
    table = start(client, "Ada", "Ben", "Cy")

    words = preview(entry_page(client, table, taker=0, contract="garde_contre", bouts=3, points="36"))

    assert "Ada’s garde contre just made: +300; Ben, Cy −150" in words


def test_a_choice_is_changed_from_its_chip_keeping_the_others(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    html = entry_page(client, table, taker=0, contract="garde", bouts=2, points="47")

    chips = {
        html_lib.unescape(label): html_lib.unescape(href)
        for href, label in re.findall(r'<a class="chip" href="([^"]+)"[^>]*><span>([^<]+)</span>', html)
    }
    assert list(chips) == ["Ada", "Garde", "2 bouts"]
    html = client.get(table + chips["Garde"]).content.decode()
    assert prompt(html) == "Ada took: which contract?"
    html = tap(client, table, html, "Garde sans")
    assert "Ada’s garde sans made by 6: +372" in preview(html)  # the bouts and points were kept


# --- never a stale entry


def test_an_entry_made_before_another_phone_recorded_is_dropped_and_said(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    stale = table + "?" + urlencode({"seq": 0, "taker": 1, "contract": "garde", "bouts": 2, "points": "47"})
    record(client, table, taker=0, contract="petite", bouts=1, points="51")

    response = client.get(stale, headers={"HX-Request": "true"})

    page = response.content.decode()
    assert response["HX-Replace-Url"] == table
    assert prompt(page) == "Who took?"
    assert 'data-dropped="1"' in page
    assert "the deal being entered here was dropped" in bar_text(page)


def test_a_reload_keeps_an_entry_of_the_table_as_it_is(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    address = table + "?" + urlencode({"seq": 0, "taker": 1, "contract": "garde"})

    page = client.get(address).content.decode()

    assert prompt(page) == "How many bouts did Ben’s side take?"
    assert [chip for chip in ("Ben", "Garde") if f"<span>{chip}</span>" in page] == ["Ben", "Garde"]
    assert "dropped" not in bar_text(page)


# --- pass, undo, the end


def test_everyone_passed_in_one_tap_and_the_deal_passes_on(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee", first=3)

    assert post_form(client, table, PASS_FORM).status_code == 303

    html = client.get(table).content.decode()
    assert bar_text(html) == "Everyone passed · Ada deals"
    assert band_status(html) == "Deal 2 · Ada deals"
    grid = re.search(r'<table class="grid">.*?</table>', html, re.S)
    assert grid
    assert "Everyone passed" in text(grid.group(0))


def test_undo_from_the_bar_takes_the_deal_back(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    record(client, table, taker=0, contract="garde", bouts=2, points="47")

    assert post_form(client, table, UNDO_FORM).status_code == 303

    html = client.get(table).content.decode()
    assert bar_text(html) == "Deal 1 taken back"
    assert band_scores(html) == ["0", "0", "0", "0"]
    assert band_status(html) == "Deal 1 · Ada deals"


def test_the_table_ends_the_game_with_standings_and_a_chart(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    html = client.get(table).content.decode()
    assert END_FORM not in html  # nothing to end before a scored deal
    record(client, table, taker=0, contract="petite", bouts=1, points="51")
    record(client, table, taker=1, contract="petite", bouts=1, points="51")
    html = client.get(table).content.decode()
    assert "On the totals as they stand: Ada and Ben share the win with 50." in text(html)

    assert post_form(client, table, END_FORM).status_code == 303

    html = client.get(table).content.decode()
    assert band_status(html) == "Ada and Ben share the win with 50."
    ranks = re.findall(r"<tr(?: class=\"winner\")?><td>(\d)</td><th scope=\"row\">([^<]+)", html)
    assert ranks == [("1", "Ada "), ("1", "Ben "), ("3", "Cy"), ("3", "Dee")]
    assert html.count('class="chart__line') == 4
    assert "Totals deal by deal, over 2 deals" in html
    assert 'id="deal-title"' not in html


def test_the_game_ends_by_itself_after_the_agreed_deals(client: Client):
    table = start(client, "Ada", "Ben", "Cy", lang="fr", deals="1")
    html = client.get(table).content.decode()
    assert band_status(html) == "Donne 1 · Ada distribue · encore 1"
    assert prompt(html) == f"Qui a pris{NBSP}?"

    record(client, table, taker=2, contract="garde", bouts=2, points="47")

    html = client.get(table).content.decode()
    assert band_status(html) == "Cy gagne avec 124."
    assert bar_text(html) == f"Cy passe de 6 en garde{NBSP}: +124{NBSP}; Ada, Ben {MINUS}62 · Partie finie"
    assert "Classement final" in html
    assert "Totaux donne après donne, sur 1 donne" in html


def test_the_pad_in_french(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee", lang="fr")

    html = entry_page(client, table, taker=0, contract="garde_sans", bouts=1, points="48")

    assert prompt(html) == f"Combien de points{NBSP}?"
    words = preview(html)
    assert f"Ada chute de 3 en garde sans{NBSP}: {MINUS}336{NBSP}; Ben, Cy, Dee +112" in words
    assert "Chaque défenseur reçoit 112." in words
    assert "Noter la donne 1" in html
    assert "Petit au bout, poignées, chelem" in html


def test_a_device_that_only_watches_sees_no_pad(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    record(client, table, taker=0, contract="garde", bouts=2, points="47")

    html = Client().get(table).content.decode()

    assert 'id="deal-title"' not in html
    assert "Only the devices keeping score can record deals." in html
    assert band_scores(html)[0] == "186"
    assert "Ada leads with 186" in html


def test_the_table_page_carries_no_inline_script_or_style(client: Client):
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    html = entry_page(client, table, taker=0, contract="garde", bouts=2, points="47")

    assert re.search(r"<script(?![^>]*\bsrc=)", html) is None
    assert " style=" not in html
