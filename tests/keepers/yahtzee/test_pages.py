"""Yahtzee's pages through Django's test client, as a phone without JavaScript uses them: the
set-up form, the dice pad (each die a link), the box list (each box a button with its
points), refusals in words, undo from the bar, a stale address, the assistant, the end with
a tie; in English and in French.
"""

from __future__ import annotations

import html as html_lib
import re
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from marquoir.games.yahtzee import solver
from marquoir.tables import services
from marquoir.tables.models import Match
from marquoir.tables.selectors import match_view

from .game import TURNS, game_bodies

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
NEW = {"en": "/en/tables/new/yahtzee/", "fr": "/fr/tables/nouvelle/yahtzee/"}
BOX_FORM = 'class="yz-boxes"'
POINTS_FORM = 'class="yz-points__form"'
UNDO_FORM = 'class="bar__undo"'


def start(client: Client, *names: str, lang: str = "en", assistant: bool = False) -> str:
    """Create a match through the set-up form; the table's address."""
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": "0"}
    if assistant:
        data["assistant"] = "on"
    response = client.post(NEW[lang], data)
    assert response.status_code == 303, response.content.decode()[:800]
    return str(response["Location"])


def match_of(table: str) -> Match:
    return Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1])


def text(html: str) -> str:
    return html_lib.unescape(html)


def form_of(html: str, marker: str) -> str:
    at = html.index(marker)
    begin = html.rfind("<form", 0, at)
    return html[begin : html.index("</form>", at)]


def hidden_fields(html: str, marker: str) -> dict[str, str]:
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form_of(html, marker))
    }


def band_status(html: str) -> str:
    found = re.search(r'<p id="band-status"[^>]*>([^<]*)</p>', html)
    assert found
    return text(found.group(1))


def bar_text(html: str) -> str:
    found = re.search(r'<p class="bar__text"[^>]*>([^<]*)</p>', html)
    assert found
    return text(found.group(1))


def face_link(html: str, face: int) -> str:
    """The address of the face button for ``face`` (a link: no JavaScript needed)."""
    found = re.search(rf'<a class="face-button" href="([^"]+)"[^>]*aria-label="[^"]*{face}"', html)
    assert found, f"no link for a die showing {face}"
    return text(found.group(1))


def tap_dice(client: Client, table: str, *dice: int) -> str:
    """Tap the face buttons one die at a time, following each link as a phone would; the page."""
    html = client.get(table).content.decode()
    for die in dice:
        html = client.get(face_link(html, die)).content.decode()
    return html


def box_buttons(html: str) -> dict[str, str]:
    """The box buttons of the box list: key -> the points they show."""
    button = r'<button type="submit" name="box" value="([a-z_]+)"[^>]*>.*?<span class="yz-box__points">(\d+)</span>'
    return dict(re.findall(button, html))


def tap_box(client: Client, table: str, html: str, box: str, htmx: bool = False) -> Response:
    fields = hidden_fields(html, BOX_FORM) | {"box": box}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(table + "act/", fields, headers=headers)


def play_turn(client: Client, table: str, box: str, dice: tuple[int, ...]) -> Response:
    return tap_box(client, table, tap_dice(client, table, *dice), box)


def finish_by_services(table: str, turns: int | None = None) -> None:
    match = match_of(table)
    for body in game_bodies()[: turns if turns is not None else None]:
        services.match_act(match_id=match.id, body=body)


# --- the set-up page


def test_the_set_up_page_offers_eight_seats_and_the_assistant_off(client: Client):
    html = text(client.get(NEW["en"]).content.decode())

    assert "<h1>New Yahtzee match</h1>" in html
    assert html.count('name="first"') == 8
    assert "One to eight players" in html
    assert re.search(r'<input type="checkbox" name="assistant" id="id_assistant"[^>]*>', html)
    assert not re.search(r'name="assistant"[^>]* checked', html)
    assert "Which dice to keep and which box to score" in html


def test_the_set_up_page_in_french(client: Client):
    html = text(client.get(NEW["fr"]).content.decode())

    assert "Nouvelle partie de Yahtzee" in html
    assert "De un à huit joueurs" in html
    assert "Quels dés garder et quelle case remplir" in html


def test_one_player_may_play_alone_and_nine_cannot_sit(client: Client):
    assert match_of(start(client, "Ada")).players == ["Ada"]


# --- the table screen, a turn


def test_a_new_table_shows_the_round_whose_turn_the_face_pad_and_the_blank_sheets(client: Client):
    table = start(client, "Ada", "Ben")
    html = text(client.get(table).content.decode())

    assert band_status(html) == "Ada’s turn · round 1 of 13"
    assert "Ada: tap the five dice of the last roll." in html
    assert html.count('class="face-button"') == 6
    assert box_buttons(html) == {}
    assert html.count('<li class="yz-slot">') == 5
    assert "Upper section 0: needs 63 more for the 35 bonus." in html
    assert "The sheets" in html
    assert "Keep score too" in html


def test_each_tap_adds_a_die_to_the_address_bound_to_the_table_s_seq(client: Client):
    table = start(client, "Ada", "Ben")

    html = tap_dice(client, table, 3, 3, 5)

    assert face_link(html, 5) == f"{table}?seq=0&dice=3355"
    assert html.count('class="yz-slot yz-slot--filled"') == 3
    assert "Ada: 2 more dice to tap." in html
    assert f'href="{table}?seq=0&amp;dice=33"' in html  # remove the last die


def test_five_dice_make_every_open_box_a_button_with_its_points(client: Client):
    table = start(client, "Ada", "Ben")

    html = tap_dice(client, table, 3, 3, 5, 5, 5)

    assert box_buttons(html) == {
        "ones": "0",
        "twos": "0",
        "threes": "6",
        "fours": "0",
        "fives": "15",
        "sixes": "0",
        "three_of_a_kind": "21",
        "four_of_a_kind": "0",
        "full_house": "25",
        "small_straight": "0",
        "large_straight": "0",
        "yahtzee": "0",
        "chance": "21",
    }
    assert hidden_fields(html, BOX_FORM)["dice"] == "33555"
    assert 'class="face-button"' not in html  # no sixth die
    assert "Ada: 3 3 5 5 5. Tap the box to score them in." in text(html)


def test_a_box_tapped_records_the_turn_and_the_next_player_plays(client: Client):
    table = start(client, "Ada", "Ben")

    response = play_turn(client, table, "full_house", (3, 3, 5, 5, 5))

    assert response.status_code == 303
    assert response["Location"] == table
    html = text(client.get(table).content.decode())
    assert band_status(html) == "Ben’s turn · round 1 of 13"
    assert bar_text(html) == "Ada · Full house 25 · total 25"
    assert "Round 1: Ada scores 25 in Full house with 3 3 5 5 5. Total: 25." in html
    # The box just filled, marked; its points open the pad on that turn to correct it.
    assert re.search(r'<td class=" yz-grid__fresh"><a class="yz-grid__correct" [^>]*>25</a></td>', html)


def test_a_box_tapped_with_htmx_answers_the_table_in_place(client: Client):
    table = start(client, "Ada", "Ben")
    html = tap_dice(client, table, 1, 2, 3, 4, 6)

    response = tap_box(client, table, html, "small_straight", htmx=True)

    assert response.status_code == 200
    assert response["HX-Replace-Url"] == table
    page = text(response.content.decode())
    assert page.lstrip().startswith('<div id="table"')
    assert "Ada · Small straight 30 · total 30" in page


def test_the_joker_refuses_boxes_on_the_pad_and_says_why(client: Client):
    table = start(client, "Ada", "Ben")
    play_turn(client, table, "yahtzee", (2, 2, 2, 2, 2))
    play_turn(client, table, "chance", (1, 2, 3, 4, 5))

    html = text(tap_dice(client, table, 4, 4, 4, 4, 4))

    assert box_buttons(html) == {"fours": "20"}
    assert html.count("joker: Fours first") == 11
    assert "Ada: 4 4 4 4 4. Joker rule: Fours only." in html
    assert "Joker rule: with the Yahtzee box filled, five 4s must go in Fours while it is open." in html
    assert "Yahtzee bonus: +100." in html
    assert '<span class="yz-chip">+100</span>' in html


def test_with_its_upper_box_filled_a_joker_offers_the_lower_boxes_in_full(client: Client):
    table = start(client, "Ada", "Ben")
    finish_by_services(table, 6)  # Yahtzee, Fours and Sixes for both

    html = text(tap_dice(client, table, 6, 6, 6, 6, 6))

    assert box_buttons(html) == {
        "three_of_a_kind": "30",
        "four_of_a_kind": "30",
        "full_house": "25",
        "small_straight": "30",
        "large_straight": "40",
        "chance": "30",
    }
    assert html.count("joker: a lower box first") == 4  # the four open upper boxes
    assert "Ada: 6 6 6 6 6. Joker rule: a lower box, in full." in html
    assert "the full house and the straights count in full. Yahtzee bonus: +100." in html


def test_a_refused_box_sent_anyway_is_refused_in_the_bar(client: Client):
    table = start(client, "Ada", "Ben")
    play_turn(client, table, "yahtzee", (2, 2, 2, 2, 2))
    play_turn(client, table, "chance", (1, 2, 3, 4, 5))
    html = tap_dice(client, table, 4, 4, 4, 4, 4)

    response = tap_box(client, table, html, "full_house")

    assert response.status_code == 422
    assert bar_text(response.content.decode()).startswith("Joker rule: with the Yahtzee box filled, five 4s")
    assert match_of(table).seq == 2


def test_points_typed_instead_of_dice_are_recorded_or_refused_in_words(client: Client):
    table = start(client, "Ada", "Ben")
    html = client.get(table).content.decode()
    fields = hidden_fields(html, POINTS_FORM)

    refused = client.post(table + "act/", fields | {"box": "full_house", "points": "7"})
    assert refused.status_code == 422
    assert bar_text(refused.content.decode()) == "No five dice give 7 in Full house: check the points."
    accepted = client.post(table + "act/", fields | {"box": "full_house", "points": "25"})
    assert accepted.status_code == 303
    assert bar_text(client.get(table).content.decode()) == "Ada · Full house 25 · total 25"


@pytest.mark.parametrize(("typed", "words"), [("", "even 0"), ("2٥", "digits 0 to 9"), ("x", "digits 0 to 9")])
def test_points_typed_wrong_are_refused_in_words(client: Client, typed: str, words: str):
    table = start(client, "Ada", "Ben")
    fields = hidden_fields(client.get(table).content.decode(), POINTS_FORM)

    response = client.post(table + "act/", fields | {"box": "chance", "points": typed})

    assert response.status_code == 422
    assert words in bar_text(response.content.decode())


def test_undo_in_the_bar_takes_the_turn_back(client: Client):
    table = start(client, "Ada", "Ben")
    play_turn(client, table, "chance", (6, 6, 5, 5, 4))
    html = client.get(table).content.decode()

    response = client.post(table + "act/", hidden_fields(html, UNDO_FORM))

    assert response.status_code == 303
    html = text(client.get(table).content.decode())
    assert band_status(html) == "Ada’s turn · round 1 of 13"
    assert bar_text(html) == "Ada’s Chance taken back"
    assert "<del>Round 1: Ada scores 26 in Chance" in html


def test_dice_entered_on_an_older_table_are_dropped_not_shown_to_the_next_player(client: Client):
    table = start(client, "Ada", "Ben")
    stale = face_link(client.get(table).content.decode(), 6)
    play_turn(client, table, "chance", (6, 6, 5, 5, 4))

    response = client.get(stale)

    html = text(response.content.decode())
    assert "the dice entered here were dropped" in html
    assert html.count('<li class="yz-slot">') == 5
    assert response["HX-Replace-Url"] == table


def test_an_address_with_dice_that_cannot_be_read_shows_a_bare_pad(client: Client):
    table = start(client, "Ada", "Ben")

    html = text(client.get(table + "?seq=0&dice=3739").content.decode())

    assert "This address holds dice that cannot be read" in html
    assert html.count('<li class="yz-slot">') == 5


def test_a_watcher_sees_the_sheets_but_no_pad(client: Client):
    table = start(client, "Ada", "Ben")
    html = text(Client().get(table).content.decode())

    assert "You are watching this match" in html
    assert 'class="face-button"' not in html
    assert "The sheets" in html


# --- the assistant


def test_the_assistant_off_says_nothing_and_on_values_the_sheet_before_the_roll(client: Client):
    table = start(client, "Ada", "Ben")
    assert 'class="advice"' not in client.get(table).content.decode()
    client.post(table + "assistant/", {"on": "1"})

    html = text(client.get(table).content.decode())

    value = f"{solver.EMPTY_SHEET_VALUE_FORCED:.1f}"
    assert f"Ada’s sheet is worth {value} points on average at the end, played well from here." in html
    assert "Ada, roll 1 of 3: tap the dice shown (0 of 5)." in html


def test_the_assistant_advises_the_keep_and_following_it_enters_the_next_roll(client: Client):
    table = start(client, "Ada", "Ben", assistant=True)
    html = tap_dice(client, table, 1, 3, 3, 4, 6)

    match = match_of(table)
    best = solver.best_keeps(match_view(match).engine.state.sheet(0), (1, 3, 3, 4, 6), 2)[0]
    assert best.keep == (3, 3)
    found = re.search(r'<a class="button button--advice yz-keep__button" href="([^"]+)"[^>]*>([^<]+)</a>', html)
    assert found
    assert text(found.group(2)) == f"Advised: keep 3 3 and roll 3 dice · {round(best.value, 1)} points"
    assert text(found.group(1)) == f"{table}?seq=0&dice=33&roll=2"

    html = text(client.get(text(found.group(1))).content.decode())
    assert html.count('class="yz-slot yz-slot--filled"') == 2
    assert "Ada, roll 2 of 3: tap the dice shown (2 of 5)." in html


def test_on_the_last_roll_the_assistant_marks_the_best_box(client: Client):
    table = start(client, "Ada", "Ben", assistant=True)
    html = text(client.get(table + "?seq=0&dice=33555&roll=3").content.decode())

    assert "Score Full house: " in html
    assert re.search(r'<li class="yz-box yz-box--choice yz-box--advised"><button[^>]*value="full_house"', html)


# --- the end


def test_the_end_shows_the_standings_with_the_tie_shared_and_the_chart(client: Client):
    table = start(client, "Ada", "Ben")
    finish_by_services(table, len(TURNS) * 2 - 1)
    play_turn(client, table, "chance", (6, 6, 5, 5, 4))

    html = text(client.get(table).content.decode())

    assert band_status(html) == "Ada and Ben share the win with 528."
    ranks = re.findall(r"<tr class=\"winner\"><td>(\d)</td><th scope=\"row\">(\w+)", html)
    assert ranks == [("1", "Ada"), ("1", "Ben")]
    assert html.count('class="chart__line chart__line--') == 2
    assert "Totals round by round, over 13 rounds" in html
    assert "That was the last turn: the game is over." in html
    assert 'class="face-button"' not in html
    assert "New match with the same players" in html


# --- in French


def test_the_table_speaks_french(client: Client):
    table = start(client, "Ada", "Ben", lang="fr")
    play_turn(client, table, "yahtzee", (2, 2, 2, 2, 2))
    play_turn(client, table, "chance", (1, 2, 3, 4, 5))

    html = text(tap_dice(client, table, 4, 4, 4, 4, 4))

    assert band_status(html) == "À Ada · manche 2 sur 13"
    assert f"Ben{NBSP}: touchez" not in html
    assert f"joker{NBSP}: Quatre d’abord" in html
    assert f"Règle du joker{NBSP}: la case Yahtzee remplie, cinq 4 doivent aller en Quatre" in html
    assert "Brelan" in html
    assert f"Haut de la feuille 0{NBSP}: encore 63 pour la prime de 35." in html
    assert bar_text(html) == "Ben · Chance 15 · total 15"
