"""The way back to a match: the home page offers this device's matches (whose turn, who won),
and "my matches" names the winners; in English and in French."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from marquoir.games.pickomino import TILES
from marquoir.tables import services
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import Match
from marquoir.tables.recent import recent_matches, views_of, winners_text
from marquoir.tables.selectors import fold_cache

from .conftest import BUST, act_on, create_row, take

pytestmark = pytest.mark.django_db

DEVICE = "device-secret-of-ada-phone-0123456789"
OTHER_DEVICE = "device-secret-of-ben-phone-9876543210"


def linked(players: Sequence[str] = ("Ada", "Ben"), device: str = DEVICE, **options: bool) -> Match:
    row, _token = create_row(players, options=options or None)
    services.device_link(device_secret=device, match=row, can_edit=True)
    return row


def won_by_ada() -> Match:
    """Ada and Ben take the tiles from the top down: 20 worms each, Ada holds 36 and wins."""
    row = linked()
    for tile in reversed(TILES):
        act_on(row, take(tile))
    return row


def shared(players: Sequence[str] = ("Ada", "Ben")) -> Match:
    """Every turn a bust, each turning a tile face down for good: nobody holds a tile, all win."""
    row = linked(players, flip_without_return=True)
    for _turn in TILES:
        act_on(row, BUST)
    return row


def page(client: Client, path: str, device: str | None = DEVICE) -> str:
    if device:
        client.cookies[COOKIE_NAME] = device
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_the_home_page_offers_this_devices_match_in_progress_and_not_anothers(client: Client):
    mine = linked(["Ada", "Ben"])
    act_on(mine, take(27))
    theirs = linked(["Zoe", "Yan"], device=OTHER_DEVICE)
    html = page(client, "/en/")
    assert "Resume a match" in html
    assert f'href="/en/tables/{mine.id}/">Ada, Ben</a>' in html
    assert "Ben’s turn" in html
    assert theirs.id not in html
    assert "Zoe" not in html
    assert 'href="/en/tables/"' in html  # all my matches


def test_the_home_page_shows_nothing_to_a_device_without_matches(client: Client):
    linked(device=OTHER_DEVICE)
    for device in (None, DEVICE):
        html = page(client, "/en/", device)
        assert 'class="recent"' not in html
        assert "Resume a match" not in html


def test_the_home_page_names_the_winner_of_a_finished_match(client: Client):
    row = won_by_ada()
    html = page(client, "/en/")
    assert f'href="/en/tables/{row.id}/">Ada, Ben</a>' in html
    assert "Ada won." in html
    assert "Resume a match" not in html  # nothing in progress


def test_tied_winners_are_joined_with_and_not_commas(client: Client):
    shared(["Ada", "Ben"])
    shared(["Ada", "Ben", "Cy"])
    html = page(client, "/en/")
    assert "Ada and Ben share the win." in html
    assert "Ada, Ben and Cy share the win." in html


def test_the_home_page_in_french(client: Client):
    act_on(linked(["Ada", "Ben"]), take(27))
    won_by_ada()
    shared(["Ada", "Ben"])
    html = page(client, "/fr/")
    assert "Vos parties sur cet appareil" in html
    assert "Reprendre une partie" in html
    assert "À Ben de jouer" in html
    assert "Ada a gagné." in html
    assert "Ada et Ben se partagent la victoire." in html
    assert 'href="/fr/tables/"' in html


def test_my_matches_names_the_winners(client: Client):
    won_by_ada()
    shared(["Ada", "Ben", "Cy"])
    html = page(client, "/en/tables/")
    assert "Ada won." in html
    assert "Ada, Ben and Cy share the win." in html
    french = page(client, "/fr/tables/")
    assert "Ada a gagné." in french
    assert "Ada, Ben et Cy se partagent la victoire." in french


def test_a_hostile_name_is_text_on_the_home_page(client: Client):
    act_on(linked(["<script>alert(1)</script>", "Ben"]), take(27))
    html = page(client, "/en/")
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_few_of_each_are_shown_most_recently_played_first():
    in_progress = [linked([f"P{n}", "Ben"]) for n in range(5)]
    finished = [shared([f"W{n}", "Ben"]) for n in range(4)]
    recent = recent_matches(DEVICE)
    assert [m.id for m in recent.in_progress] == [row.id for row in reversed(in_progress)][:3]
    assert [m.id for m in recent.finished] == [row.id for row in reversed(finished)][:3]
    assert recent.in_progress[0].current == "P4"
    assert recent.finished[0].winners == ("W3", "Ben")
    assert not recent_matches(None)
    assert not recent_matches(OTHER_DEVICE)


def test_the_logs_of_matches_not_folded_lately_are_read_in_one_query():
    rows = [won_by_ada(), shared(), linked()]
    fold_cache.clear()
    fresh = list(Match.objects.filter(pk__in=[row.id for row in rows]))
    with CaptureQueriesContext(connection) as queries:
        views = views_of(fresh)
    assert len(queries) == 1
    assert {view.row.pk: view.engine.state.over for view in views.values()} == {
        rows[0].id: True,
        rows[1].id: True,
        rows[2].id: False,
    }
    with CaptureQueriesContext(connection) as queries:
        views_of(fresh)
    assert len(queries) == 0  # folded now: from the cache


def test_winners_text_in_both_languages():
    assert winners_text([]) == ""
    assert winners_text(["Ada"]) == "Ada won."
    assert winners_text(["Ada", "Ben"]) == "Ada and Ben share the win."
    with translation.override("fr"):
        assert winners_text(["Ada", "Ben", "Cy"]) == "Ada, Ben et Cy se partagent la victoire."


def test_the_home_page_and_my_matches_name_each_matchs_game_in_the_readers_language(client: Client):
    pickomino = linked(["Ada", "Ben"])
    sheet, _token = services.match_create(game="sheet", players=["Cy", "Dee"])
    services.device_link(device_secret=DEVICE, match=sheet, can_edit=True)
    won = won_by_ada()
    home = page(client, "/en/")
    mine = page(client, "/en/tables/")
    for html in (home, mine):
        assert "Pickomino · " in html
        assert "Score sheet · " in html
    assert "Feuille de scores · " in page(client, "/fr/tables/")
    for row in (pickomino, won, sheet):
        assert row.pk in mine
