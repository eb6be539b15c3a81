"""Pickomino's pages through Django's test client: its set-up (seats, options), its table (the
grill, the claims a total offers, a take, a bust, the dice kept), and its end (standings, the
winner, the tie-break, the chart, the rematch).

The core's part of the pages (set-up form, undo, double taps, watchers, tokens, 404s) is held
by tests/tables/test_pages.py.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from marquoir.games.pickomino import TILES
from marquoir.tables.models import LogEntry

from .screen import BUST_NOW, CLAIM_FORM, UNDO_FORM, bust, claim, claim_values, form_fields, form_of, match_of, start

pytestmark = pytest.mark.django_db


def test_the_set_up_page_offers_seven_seats_who_starts_and_the_two_options(client: Client):
    html = client.get("/en/tables/new/pickomino/").content.decode()
    assert html.count('name="first"') == 7
    assert 'name="shorter_game"' in html
    assert 'name="flip_without_return"' in html
    assert "the rulebook does not" in html


def test_creating_a_match_saves_the_table_options(client: Client):
    table = start(client, "Ada", "Ben", shorter_game="on")
    assert match_of(table).options == {"shorter_game": True, "flip_without_return": False}


def test_the_table_shows_sixteen_grill_tiles_every_player_and_whose_turn_it_is(client: Client):
    table = start(client, "Ada", "Ben", "Cy", first=1)
    html = client.get(table).content.decode()
    assert html.count('class="slot slot--up') == len(TILES)
    assert "Ben’s turn" in html
    for name in ("Ada", "Ben", "Cy"):
        assert f'<span class="player__name">{name}</span>' in html


def test_a_total_with_a_worm_offers_exactly_what_the_rules_allow(client: Client):
    table = start(client, "Ada", "Ben")
    claim(client, table, "27:grill")  # Ada takes 27
    html = client.get(table + "?seq=1&total=27&worm=1").content.decode()  # Ben rolls 27
    assert "Steal 27 from Ada" in html
    assert "Take 26 from the grill" in html
    assert claim_values(html) == {"27:0", "27:grill"}  # both recorded with the total typed
    assert "With 27, Ben may take one of these tiles:" in html


def test_a_total_without_a_worm_is_a_bust_and_says_why(client: Client):
    table = start(client, "Ada", "Ben")
    html = client.get(table + "?seq=0&total=30").content.decode()
    assert "no worm was kept" in html
    assert form_fields(html, BUST_NOW)["reason"] == "no_worm"
    assert not claim_values(html)


def test_a_total_below_every_face_up_tile_is_a_bust(client: Client):
    table = start(client, "Ada", "Ben")
    html = client.get(table + "?seq=0&total=12&worm=1").content.decode()
    assert "at or below 12" in html
    assert form_fields(html, BUST_NOW)["reason"] == "nothing_to_claim"
    assert not claim_values(html)


def test_taking_a_tile_records_it_and_tells_what_happened(client: Client):
    table = start(client, "Ada", "Ben")
    response = claim(client, table, "27:grill")
    assert response.status_code == 303
    html = client.get(table).content.decode()
    assert "Ada took 27 from the grill (+2 worms)." in html
    assert "Ben’s turn" in html
    assert match_of(table).seq == 1


def test_a_bust_returns_the_top_tile_and_turns_the_highest_face_down(client: Client):
    table = start(client, "Ada", "Ben")
    claim(client, table, "27:grill")
    bust(client, table, "no_new_face")
    bust(client, table, "no_worm")  # Ada busts and gives 27 back
    html = client.get(table).content.decode()
    assert "27 goes back to the grill (−2 worms)." in html
    assert "36 is turned face down." in html
    assert html.count('class="slot slot--down"') == 1


def test_kept_dice_build_the_total_and_refuse_a_face_kept_twice(client: Client):
    table = start(client, "Ada", "Ben")
    html = client.get(table + "?seq=0&pad=dice&dice=worm:2&roll=1:1,2:2,5:3&keep=5").content.decode()
    assert "Kept: 25 · 3 dice left" in html
    refused = client.get(table + "?seq=0&pad=dice&dice=worm:2,5:3&roll=1:2,5:1&keep=5").content.decode()
    assert "already kept" in refused
    refused = client.get(table + "?seq=0&pad=dice&dice=worm:2,5:3,5:1").content.decode()
    assert "already kept" in refused


def test_kept_dice_refuse_more_than_eight_dice(client: Client):
    table = start(client, "Ada", "Ben")
    html = client.get(table + "?seq=0&pad=dice&dice=worm:5,5:4").content.decode()
    assert "only 8 dice" in html


def test_kept_dice_with_a_worm_offer_the_claims_and_a_claim_records_the_dice(client: Client):
    table = start(client, "Ada", "Ben")
    address = table + "?seq=0&pad=dice&dice=worm:2,5:3"
    html = client.get(address).content.decode()
    assert "Take 25 from the grill" in html
    assert claim_values(html) == {"25:grill"}
    assert form_fields(html, CLAIM_FORM)["dice"] == "worm:2,5:3"
    response = claim(client, table, "25:grill", address)
    assert response.status_code == 303
    entry = LogEntry.objects.get()
    assert entry.payload["dice"] == {"5": 3, "worm": 2}
    assert entry.payload["total"] == 25


def test_eight_dice_kept_end_the_turn_by_themselves(client: Client):
    table = start(client, "Ada", "Ben")
    html = client.get(table + "?seq=0&pad=dice&dice=worm:3&roll=5:5&keep=5").content.decode()
    assert "Kept: 40 · 0 dice left" in html
    assert 'class="face-pad"' not in html  # no roll left to enter
    assert "With 40, Ada may take this tile:" in html
    assert "Take 36 from the grill" in html
    assert claim_values(html) == {"40:grill"}


def play_to_the_end(client: Client, table: str) -> None:
    """Ada and Ben take every tile in turn from the top: 20 worms each, Ada with 36, 34, …"""
    for tile in reversed(TILES):
        claim(client, table, f"{tile}:grill")


def test_the_end_shows_standings_the_winner_a_chart_and_a_rematch(client: Client):
    table = start(client, "Ada", "Ben")
    play_to_the_end(client, table)
    html = client.get(table).content.decode()
    assert match_of(table).over
    assert "Ada wins with 20 worms." in html
    assert html.count('class="chart__line') == 2
    assert "Worms of each player over 16 turns" in html
    assert 'name="type" value="take"' not in html
    assert 'name="type" value="bust"' not in html
    # A mistake in the last turn can still be taken back: Undo stays in the bar, shown, and
    # names the turn it takes back.
    undo = form_of(html, UNDO_FORM)
    assert '<button type="submit" class="button button--quiet bar__button">' in undo
    assert '<span class="bar__verb">Undo</span> <span class="bar__what">Ben took 21 (+1)</span>' in undo
    rematch = re.search(r'href="(/en/tables/new/pickomino/\?from=[^"]+)"', html)
    assert rematch
    form = client.get(rematch.group(1)).content.decode()
    assert 'value="Ada"' in form
    assert 'value="Ben"' in form


def test_the_end_explains_the_tie_break_when_it_decided(client: Client):
    table = start(client, "Ada", "Ben")
    play_to_the_end(client, table)  # 20 worms each; Ada holds 36
    html = client.get(table).content.decode()
    assert "Ada and Ben are tied on worms; Ada holds the highest tile, 36, and wins the tie-break." in html


def test_tied_players_with_no_tile_share_the_win(client: Client):
    table = start(client, "Ada", "Ben", flip_without_return="on")
    for _ in TILES:
        bust(client, table)
    html = client.get(table).content.decode()
    assert "Ada and Ben share the win." in html
    assert "Tied players with no tile share the win." in html
