"""The big screen of a match: every score, whose turn and the last action, for anyone with
the match's id (the watch capability), with no control at all, live-redrawn as the table is
(its htmx answer is the #table root alone), in both languages."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from .conftest import Api, Created, take

pytestmark = pytest.mark.django_db


def screen(match: Created, lang: str = "en") -> str:
    return f"/{lang}/tables/{match.id}/screen/"


def test_the_big_screen_shows_every_score_whose_turn_and_the_last_action(api: Api, match: Created, client: Client):
    api.play(match, take(27))
    html = html_lib.unescape(client.get(screen(match)).content.decode())
    assert "Ben’s turn" in html
    assert re.findall(r'<span class="screen__name">([^<]+)</span>', html) == ["Ada", "Ben", "Cy"]
    assert '<span class="screen__score">2<' in html
    assert "Ada took 27 (+2)" in html


def test_the_big_screen_has_no_control_and_no_token(api: Api, match: Created, client: Client):
    html = client.get(screen(match)).content.decode()
    table = html[html.index('<div id="table"') :]
    assert "<form" not in table
    assert "<button" not in table
    assert match.token not in html
    assert "#key=" not in html


def test_with_htmx_the_big_screen_answers_its_root_alone_for_the_live_redraw(api: Api, match: Created, client: Client):
    html = client.get(screen(match), headers={"HX-Request": "true"}).content.decode()
    assert html.lstrip().startswith('<div id="table" class="screen')
    assert f'data-home="/en/tables/{match.id}/screen/"' in html


def test_the_big_screen_in_french(api: Api, match: Created, client: Client):
    html = html_lib.unescape(client.get(screen(match, "fr")).content.decode())
    assert '<p class="screen__status" role="status">À Ada de jouer</p>' in html
    assert "Grand écran" in html


def test_the_big_screen_of_no_match_is_404(client: Client, db: None):
    assert client.get("/en/tables/nothing-here/screen/").status_code == 404


def test_the_table_s_share_panel_links_to_the_big_screen(api: Api, match: Created, client: Client):
    html = client.get(f"/en/tables/{match.id}/").content.decode()
    assert f'href="/en/tables/{match.id}/screen/"' in html
