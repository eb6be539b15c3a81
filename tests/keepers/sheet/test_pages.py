"""The score sheet's pages through Django's test client, as a phone without JavaScript uses
them: the set-up form, the table screen, a round typed into its form, refusals in words,
undo from the bar, the end; in English and in French.

A round is sent as the table screen's round form sends it: its hidden fields
(``type=round``, ``expected_seq``, ``action_id``) and ``score_0`` … ``score_{n-1}`` as typed,
with ``minus_<i>`` for a ticked "−" switch.
"""

from __future__ import annotations

import html as html_lib
import re
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from marquoir.tables.models import LogEntry, Match

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
MINUS = "\u2212"
NEW_SHEET = {"en": "/en/tables/new/sheet/", "fr": "/fr/tables/nouvelle/sheet/"}
ROUND_FORM = 'class="round-form"'
END_FORM = 'name="type" value="end"'
UNDO_FORM = 'class="bar__undo"'


def start(client: Client, *names: str, lang: str = "en", **options: str) -> str:
    """Create a sheet through the set-up form; the table's address."""
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": "0"} | options
    response = client.post(NEW_SHEET[lang], data)
    assert response.status_code == 303, response.content.decode()[:800]
    return str(response["Location"])


def form_of(html: str, marker: str) -> str:
    """The ``<form>…</form>`` holding ``marker`` (in its opening tag or inside it)."""
    at = html.index(marker)
    begin = html.rfind("<form", 0, at)
    return html[begin : html.index("</form>", at)]


def hidden_fields(html: str, marker: str) -> dict[str, str]:
    form = form_of(html, marker)
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    }


def send_round(client: Client, table: str, *typed: str, minus: tuple[int, ...] = (), htmx: bool = False) -> Response:
    """Type ``typed`` into the round form of ``table`` (one per player) and tap "Record round N"."""
    html = client.get(table).content.decode()
    fields = hidden_fields(html, ROUND_FORM)
    assert fields["type"] == "round"
    fields |= {f"score_{index}": value for index, value in enumerate(typed)}
    fields |= {f"minus_{index}": "1" for index in minus}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(table + "act/", fields, headers=headers)


def tap(client: Client, table: str, marker: str) -> Response:
    """Tap the button of the form ``marker`` names (the end, or Undo in the bar)."""
    html = client.get(table).content.decode()
    return client.post(table + "act/", hidden_fields(html, marker))


def match_of(table: str) -> Match:
    return Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1])


def grid_row(html: str, header: str) -> list[str]:
    """The cells of the grid's row whose header is ``header`` (a round number, Total, Rank; a
    round's number is a link that corrects it, on a device keeping score)."""
    row = re.search(
        rf'<tr[^>]*><th scope="row">(?:<a class="grid__correct"[^>]*>)?{re.escape(header)}(?:</a>)?</th>(.*?)</tr>',
        html,
        re.S,
    )
    assert row, f"no row {header!r} in the grid"
    return [html_lib.unescape(cell) for cell in re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))]


def bar_text(html: str) -> str:
    found = re.search(r'<p class="bar__text"[^>]*>([^<]*)</p>', html)
    assert found
    return html_lib.unescape(found.group(1))


def band_status(html: str) -> str:
    found = re.search(r'<p id="band-status"[^>]*>([^<]*)</p>', html)
    assert found
    return html_lib.unescape(found.group(1))


# --- the set-up page


def test_the_set_up_page_offers_twenty_seats_and_the_four_options(client: Client):
    html = client.get(NEW_SHEET["en"]).content.decode()

    assert "<h1>New score sheet</h1>" in html
    assert html.count('name="first"') == 20
    for name in ("title", "lowest_wins", "target", "rounds"):
        assert f'name="{name}"' in html
    assert "One to twenty players" in html
    assert "The lowest total wins" in html
    assert 'name="assistant"' not in html  # a sheet has no turn assistant
    assert "sheet/sheet.css" in html


def test_the_set_up_page_in_french(client: Client):
    html = client.get(NEW_SHEET["fr"]).content.decode()

    assert "Feuille de scores" in html
    assert "Nom du jeu" in html
    assert "Le plus petit total gagne" in html
    assert "Fin quand un total atteint" in html
    assert "Nombre de manches" in html
    assert "De un à vingt joueurs" in html


def test_the_set_up_form_keeps_the_options(client: Client):
    table = start(client, "Ada", "", "Ben", title="  Skyjo ", lowest_wins="on", target="100", rounds="")

    match = match_of(table)
    assert match.game == "sheet"
    assert match.players == ["Ada", "Ben"]
    assert match.options == {"title": "Skyjo", "lowest_wins": True, "target": 100, "rounds": None}


def test_one_player_is_enough_for_a_sheet(client: Client):
    assert match_of(start(client, "Ada")).players == ["Ada"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"target": "0"}, "whole number from 1 to 10,000,000"),
        ({"target": "cent"}, "whole number from 1 to 10,000,000"),
        ({"target": "１００"}, "whole number from 1 to 10,000,000"),
        ({"rounds": "٣"}, "whole number from 1 to 200"),
        ({"rounds": "2.5"}, "whole number from 1 to 200"),
        ({"title": "x" * 61}, "at most 60 characters"),
        ({"title": "Sky\x07jo"}, "one line of visible characters"),
    ],
)
def test_the_set_up_form_refuses_bad_options_in_words_and_creates_nothing(client: Client, options, message):
    response = client.post(NEW_SHEET["en"], {"name_0": "Ada", "name_1": "Ben", "first": "0", **options})

    assert response.status_code == 422
    html = html_lib.unescape(response.content.decode())
    assert message in html
    assert 'aria-invalid="true"' in html
    assert Match.objects.count() == 0


def test_a_rematch_offers_the_same_players_and_options(client: Client):
    table = start(client, "Ada", "Ben", title="Skyjo", lowest_wins="on", target="100")

    html = client.get(NEW_SHEET["en"] + f"?from={match_of(table).id}").content.decode()
    assert 'value="Ada"' in html
    assert 'value="Skyjo"' in html
    assert re.search(r'name="target" id="id_target" value="100"', html)
    assert re.search(r'name="lowest_wins" id="id_lowest_wins"[^>]* checked', html)


# --- the table screen


def test_a_new_sheet_shows_round_one_a_field_per_player_and_a_blank_grid(client: Client):
    table = start(client, "Ada", "Ben", "Cy", title="Skyjo", lowest_wins="on", target="100")
    html = client.get(table).content.decode()

    assert band_status(html) == "Round 1"
    assert '<h1 class="sheet-title">Skyjo</h1>' in html
    assert "Lowest total wins · ends when a total reaches 100" in html
    assert html.count('class="round-field__input"') == 3
    assert html.count('inputmode="numeric"') == 3
    assert "Record round 1" in html
    assert "data-outbox" in form_of(html, ROUND_FORM)
    assert "No round yet." in html
    assert grid_row(html, "Total") == ["0", "0", "0"]
    assert END_FORM not in html  # nothing to end before a round
    assert "Keep score too" in html


def test_a_round_typed_in_is_recorded_and_the_grid_shows_totals_and_ranks(client: Client):
    table = start(client, "Ada", "Ben", "Cy")

    response = send_round(client, table, "12", "-3", " 40 ")
    assert response.status_code == 303
    assert response["Location"] == table
    response = send_round(client, table, "8", f"{MINUS}2", "0")
    assert response.status_code == 303
    html = client.get(table).content.decode()

    assert grid_row(html, "1") == ["12", f"{MINUS}3", "40"]
    assert grid_row(html, "2") == ["8", f"{MINUS}2", "0"]
    assert grid_row(html, "Total") == ["20", f"{MINUS}5", "40"]
    assert grid_row(html, "Rank") == ["2", "3", "1"]
    assert band_status(html) == "Round 3"
    assert "Record round 3" in html
    assert bar_text(html) == "Round 2 · Cy leads with 40"
    assert f"Round 1: Ada 12, Ben {MINUS}3, Cy 40." in html  # the log


def test_the_minus_switch_makes_a_score_negative(client: Client):
    table = start(client, "Ada", "Ben")

    send_round(client, table, "7", "5", minus=(1,))
    assert grid_row(client.get(table).content.decode(), "1") == ["7", f"{MINUS}5"]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("²", "The score of Ada is not a number: write it with the digits 0 to 9"),
        ("٣", "The score of Ada is not a number"),
        ("１", "The score of Ada is not a number"),
        ("+5", "The score of Ada is not a number"),
        ("1 000", "The score of Ada is not a number"),
        ("", "Write a score for Ada, even 0."),
        ("100001", "The score of Ada is out of range"),
        ("9" * 40, "The score of Ada is out of range"),
    ],
)
def test_a_score_that_is_not_a_number_is_refused_in_words_and_nothing_is_recorded(client: Client, typed, message):
    table = start(client, "Ada", "Ben")

    response = send_round(client, table, typed, "5")

    assert response.status_code == 422
    html = html_lib.unescape(response.content.decode())
    assert bar_text(html).startswith(message)
    assert LogEntry.objects.count() == 0
    # The form comes back as it was sent, the field in fault marked.
    assert re.search(r'name="score_0"[^>]*aria-invalid="true"', html)
    assert re.search(r'name="score_1"[^>]* value="5"', html)


def test_with_htmx_a_refused_round_answers_the_table_only_with_the_message(client: Client):
    table = start(client, "Ada", "Ben")

    response = send_round(client, table, "²", "5", htmx=True)

    assert response.status_code == 422
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="table"')
    assert "<html" not in html
    assert "The score of Ada is not a number" in html
    assert response["HX-Replace-Url"] == table


def test_undo_in_the_bar_takes_the_round_back(client: Client):
    table = start(client, "Ada", "Ben")
    send_round(client, table, "3", "4")
    send_round(client, table, "30", "40")

    assert tap(client, table, UNDO_FORM).status_code == 303
    html = client.get(table).content.decode()
    assert grid_row(html, "Total") == ["3", "4"]
    assert band_status(html) == "Round 2"
    assert bar_text(html) == "Round 2 taken back"
    assert '<li class="undone"><span class="log__text"><del>Round 2: Ada 30, Ben 40.</del>' in html


def test_a_form_from_an_older_sheet_is_dropped_and_the_screen_says_so(client: Client):
    table = start(client, "Ada", "Ben")
    stale = client.get(table).content.decode()
    send_round(client, table, "3", "4")

    fields = hidden_fields(stale, ROUND_FORM) | {"score_0": "9", "score_1": "9"}
    response = client.post(table + "act/", fields, headers={"HX-Request": "true"})

    assert response.status_code == 409
    html = response.content.decode()
    assert "Another device changed the sheet first: nothing was recorded from here." in html
    assert 'value="9"' not in html  # what was typed for the older sheet is not offered again
    assert match_of(table).seq == 1


def test_ending_the_game_shows_the_standings_the_winners_and_a_chart(client: Client):
    table = start(client, "Ada", "Ben", "Cy")
    send_round(client, table, "10", "30", "30")
    html = client.get(table).content.decode()
    assert "End the game now" in html
    assert "On the totals as they stand: Ben and Cy share the win with 30." in html

    assert tap(client, table, END_FORM).status_code == 303
    html = client.get(table).content.decode()

    assert band_status(html) == "Ben and Cy share the win with 30."
    assert "Final standings" in html
    assert html.count('<tr class="winner">') == 2
    assert html.count('class="chart__line chart__line--') == 3
    assert ROUND_FORM not in html
    assert "New match with the same players" in html
    assert bar_text(html) == "Game over · Ben and Cy share the win with 30"
    # Undo reopens the game.
    tap(client, table, UNDO_FORM)
    assert band_status(client.get(table).content.decode()) == "Round 2"


def test_a_watcher_sees_the_sheet_but_no_form(client: Client):
    table = start(client, "Ada", "Ben")
    send_round(client, table, "3", "4")

    html = Client().get(table).content.decode()
    assert "You are watching this match" in html
    assert ROUND_FORM not in html
    assert UNDO_FORM not in html
    assert grid_row(html, "Total") == ["3", "4"]


def test_many_players_get_the_dense_band_and_names_that_wrap(client: Client):
    names = [f"Player with a long name {index:02}" for index in range(12)]
    html = client.get(start(client, *names)).content.decode()

    assert 'class="table sheet sheet--many"' in html
    assert html.count('class="grid__name-text"') == 12


def test_a_hostile_name_and_title_are_shown_as_text(client: Client):
    xss = "<script>alert(1)</script>"
    table = start(client, xss, "Ben", title=xss)
    send_round(client, table, "1", "2")

    html = client.get(table).content.decode()
    assert xss not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- in French


def test_the_whole_flow_in_french(client: Client):
    table = start(client, "Ada", "Ben", "Chloé", lang="fr", rounds="2")
    assert table.startswith("/fr/tables/")
    html = client.get(table).content.decode()
    assert band_status(html) == "Manche 1 sur 2"
    assert "Noter la manche 1" in html
    assert "Scores de la manche 1" in html
    assert "Aucune manche pour l’instant." in html

    refused = html_lib.unescape(send_round(client, table, "²", "2", "3").content.decode())
    assert bar_text(refused).startswith(
        f"Le score de Ada n’est pas un nombre{NBSP}: écrivez-le avec les chiffres 0 à 9"
    )
    assert LogEntry.objects.count() == 0

    send_round(client, table, "5", "-2", "7")
    html = client.get(table).content.decode()
    assert grid_row(html, "Total") == ["5", f"{MINUS}2", "7"]
    assert grid_row(html, "Rang") == ["2", "3", "1"]
    assert bar_text(html) == "Manche 1 · Chloé est en tête avec 7"

    tap(client, table, UNDO_FORM)
    assert bar_text(client.get(table).content.decode()) == "Manche 1 annulée"

    send_round(client, table, "5", "-2", "7")
    send_round(client, table, "10", "0", "1")
    html = client.get(table).content.decode()
    assert band_status(html) == "Ada gagne avec 15."
    assert "Classement final" in html
    assert "Nouvelle partie avec les mêmes joueurs" in html


# --- the way in, and the way back


@pytest.mark.parametrize(
    ("lang", "words", "address"),
    [("en", "Any other game", "/en/tables/new/sheet/"), ("fr", "Un autre jeu", "/fr/tables/nouvelle/sheet/")],
)
def test_the_home_page_has_a_card_for_any_other_game(client: Client, lang, words, address):
    html = client.get(f"/{lang}/").content.decode()

    assert f'<a href="{address}"><strong>{words}</strong></a>' in html
    line = "A score sheet for any game" if lang == "en" else "Une feuille de scores pour n’importe quel jeu"
    assert line in html


def test_my_matches_lists_a_sheet_in_progress_and_finished(client: Client):
    table = start(client, "Ada", "Ben")
    html = client.get("/en/tables/").content.decode()
    assert "Ada, Ben" in html
    assert "New score sheet" in html

    send_round(client, table, "3", "4")
    tap(client, table, END_FORM)
    html = client.get("/en/tables/").content.decode()
    assert "Ben won." in html


def test_the_home_page_lists_a_sheet_in_progress(client: Client):
    start(client, "Ada", "Ben")

    html = client.get("/en/").content.decode()
    assert "Resume a match" in html


@pytest.mark.parametrize("typed", ["0" * 5000 + "1", "9" * 5000, "-" + "0" * 4400 + "7"])
def test_a_score_of_thousands_of_digits_is_refused_in_words_not_a_server_error(client: Client, typed: str):
    table = start(client, "Ada", "Ben")

    response = send_round(client, table, typed, "4")

    assert response.status_code == 422
    assert "out of range" in html_lib.unescape(response.content.decode())
    assert LogEntry.objects.count() == 0


@pytest.mark.parametrize("field", ["target", "rounds"])
def test_a_set_up_number_of_thousands_of_digits_is_refused_in_words(client: Client, field: str):
    form = {"name_0": "Ada", "name_1": "Ben", "first": "0", field: "1" * 5000}
    response = client.post("/en/tables/new/sheet/", form)

    assert response.status_code == 422
    assert "whole number from 1 to" in html_lib.unescape(response.content.decode())
    assert Match.objects.count() == 0
