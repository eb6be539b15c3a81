"""The score keeper's pages through Django's test client: set-up, the table, turns, undo, the end.

A turn is entered as the table screen enters it: a tap on a claim button of ``#claim-form``
(``claim=<total>:<source>``), on a bust button, or on Undo in the bar; each tap posts the
hidden fields of the form it belongs to (``expected_seq``, ``action_id``).
"""

from __future__ import annotations

import html as html_lib
import re
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from marquoir.games.pickomino import TILES
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import LogEntry, Match

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

# What names each form of the table screen: a marker in its opening tag, or just before it.
CLAIM_FORM = 'id="claim-form"'
BUST_MENU = '<details class="bust-entry">'
BUST_NOW = 'class="bust-now"'
UNDO_FORM = 'class="bar__undo"'

XSS = "<script>alert(1)</script>"


def start(client: Client, *names: str, first: int = 0, lang: str = "en", **options: str) -> str:
    """Create a match through the set-up form; the table's address."""
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": str(first)} | options
    response = client.post(f"/{lang}/tables/new/pickomino/" if lang == "en" else "/fr/tables/nouvelle/pickomino/", data)
    assert response.status_code == 303, response.content.decode()[:500]
    return response["Location"]


def form_of(html: str, marker: str) -> str:
    """The ``<form>…</form>`` that ``marker`` names: in its opening tag, or the next form after it."""
    at = html.index(marker)
    begin = html.rfind("<form", 0, at)
    if begin == -1 or "</form>" in html[begin:at] or ">" in html[begin:at]:
        begin = html.index("<form", at)
    return html[begin : html.index("</form>", begin)]


def form_fields(html: str, marker: str) -> dict[str, str]:
    """The hidden fields of the form ``marker`` names, as a tap on one of its buttons sends them."""
    form = form_of(html, marker)
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    }


def action_fields(html: str) -> dict[str, str]:
    """The expected_seq and action_id of the claim form (the grill's buttons)."""
    fields = form_fields(html, CLAIM_FORM)
    return {"expected_seq": fields["expected_seq"], "action_id": fields["action_id"]}


def claim_values(html: str) -> set[str]:
    """The value of every claim button on the page (``27:grill``, ``30:1``)."""
    return set(re.findall(r'name="claim" value="([^"]+)"', html))


def tap(client: Client, address: str, marker: str, **fields: str) -> Response:
    """Open ``address``, then tap a button of the form ``marker`` names, its own fields plus ``fields``."""
    html = client.get(address).content.decode()
    action = re.search(r'action="([^"]+)"', form_of(html, marker))
    assert action
    return client.post(action.group(1), form_fields(html, marker) | fields)


def claim(client: Client, table: str, value: str, address: str | None = None) -> Response:
    """Tap the claim button ``value`` (``27:grill``, ``30:1``) on ``address``, the bare table by default."""
    html = client.get(address or table).content.decode()
    assert value in claim_values(html), f"no claim button {value} on {address or table}"
    return client.post(table + "act/", form_fields(html, CLAIM_FORM) | {"claim": value})


def bust(client: Client, table: str, reason: str = "no_new_face") -> Response:
    """Tap a reason in the bust menu."""
    return tap(client, table, BUST_MENU, reason=reason)


def undo(client: Client, table: str) -> Response:
    """Tap Undo in the bar."""
    return tap(client, table, UNDO_FORM)


def match_of(table: str) -> Match:
    return Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1])


def test_the_set_up_page_offers_seven_seats_who_starts_and_the_two_options(client: Client):
    html = client.get("/en/tables/new/pickomino/").content.decode()
    assert html.count('name="first"') == 7
    assert 'name="shorter_game"' in html
    assert 'name="flip_without_return"' in html
    assert "the rulebook does not" in html


def test_creating_a_match_keeps_seating_order_and_the_starter(client: Client):
    table = start(client, "Ada", "", "Ben", "Cy", first=3)
    match = match_of(table)
    assert match.players == ["Ada", "Ben", "Cy"]
    assert match.first == 2  # the empty row is left out, so Cy is the third player
    assert client.cookies[COOKIE_NAME].value


def test_creating_a_match_saves_the_table_options(client: Client):
    table = start(client, "Ada", "Ben", shorter_game="on")
    assert match_of(table).options == {"shorter_game": True, "flip_without_return": False}


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("Ada",), "2 to 7 players"),
        (("Ada", "ada"), "names must differ"),
    ],
)
def test_the_set_up_form_refuses_bad_player_lists_with_a_clear_message(client: Client, names, message):
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": "0"}
    response = client.post("/en/tables/new/pickomino/", data)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Match.objects.count() == 0


def test_the_starter_must_have_a_name(client: Client):
    response = client.post("/en/tables/new/pickomino/", {"name_0": "Ada", "name_1": "Ben", "first": "4"})
    assert response.status_code == 422
    assert "must have a name" in response.content.decode()


def test_names_used_before_on_this_device_are_offered(client: Client):
    start(client, "Ada", "Ben")
    html = client.get("/en/tables/new/pickomino/").content.decode()
    assert '<option value="Ada">' in html
    assert '<option value="Ben">' in html


def test_another_device_is_not_offered_those_names(client: Client):
    start(client, "Ada", "Ben")
    assert '<option value="Ada">' not in Client().get("/en/tables/new/pickomino/").content.decode()


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


def test_undo_takes_back_the_last_action_and_the_log_keeps_it_struck_through(client: Client):
    table = start(client, "Ada", "Ben")
    claim(client, table, "27:grill")
    undo(client, table)
    html = client.get(table).content.decode()
    assert "Ada’s turn" in html
    assert "<del>Ada took 27 from the grill (+2 worms).</del>" in html
    assert "Undone: Ada took 27" in html
    assert match_of(table).seq == 2


def test_a_double_tap_records_the_turn_once(client: Client):
    table = start(client, "Ada", "Ben")
    page = client.get(table).content.decode()
    fields = form_fields(page, CLAIM_FORM) | {"claim": "27:grill"}
    first = client.post(table + "act/", fields)
    second = client.post(table + "act/", fields)
    assert (first.status_code, second.status_code) == (303, 303)
    assert LogEntry.objects.count() == 1


def test_a_stale_page_is_told_the_turn_was_already_recorded(client: Client):
    table = start(client, "Ada", "Ben")
    stale = form_fields(client.get(table).content.decode(), BUST_MENU)
    bust(client, table)
    response = client.post(table + "act/", stale | {"reason": "no_worm", "action_id": "another-tap"})
    assert response.status_code == 409
    assert "already recorded from another device" in response.content.decode()
    assert match_of(table).seq == 1


def test_a_rule_broken_from_a_page_is_refused_in_words_and_changes_nothing(client: Client):
    table = start(client, "Ada", "Ben")
    page = client.get(table).content.decode()
    response = client.post(table + "act/", form_fields(page, CLAIM_FORM) | {"claim": "27:1"})
    assert response.status_code == 422
    assert "Ben has no tile to steal." in response.content.decode()
    assert match_of(table).seq == 0


def test_with_htmx_an_action_answers_with_the_table_partial_only(client: Client):
    table = start(client, "Ada", "Ben")
    page = client.get(table).content.decode()
    fields = form_fields(page, BUST_MENU) | {"reason": "no_new_face"}
    response = client.post(table + "act/", fields, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="table"')
    assert "<html" not in html
    assert "Ben’s turn" in html
    assert "Ada: bust, no tile to give back" in html  # the bar says what was just recorded
    assert response["HX-Replace-Url"] == table


def test_a_watcher_sees_the_table_but_no_controls_and_cannot_act(client: Client):
    table = start(client, "Ada", "Ben")
    watcher = Client()
    html = watcher.get(table).content.decode()
    assert "You are watching this match" in html
    assert 'name="action_id"' not in html
    response = watcher.post(table + "act/", {"type": "bust", "expected_seq": "0", "action_id": "x"})
    assert response.status_code == 401
    assert match_of(table).seq == 0


def test_the_edit_secret_lets_another_device_keep_score(client: Client):
    from marquoir.tables import services

    match, token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    other = Client()
    assert other.get(f"/en/tables/{match.id}/join/").status_code == 200
    refused = other.post(f"/en/tables/{match.id}/join/", {"key": "wrong"})
    assert refused.status_code == 401
    assert "edit token is missing or wrong" in refused.content.decode()
    response = other.post(f"/en/tables/{match.id}/join/", {"key": token})
    assert response.status_code == 303
    assert response["Location"] == f"/en/tables/{match.id}/"
    assert 'name="action_id"' in other.get(response["Location"]).content.decode()


def test_the_keep_score_link_carries_the_token_only_in_its_fragment(client: Client):
    from marquoir.tables import services

    table = start(client, "Ada", "Ben")
    match = match_of(table)
    html = client.get(table).content.decode()
    token = services.edit_token_for(match.id)
    assert f'href="http://testserver/en/tables/{match.id}/join/#key={token}"' in html
    assert html.count('<svg viewBox="0 0 ') >= 2  # the two QR codes
    assert token not in Client().get(table).content.decode()  # a watcher never sees it


def test_forms_need_the_csrf_token(client: Client):
    table = start(client, "Ada", "Ben")
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    response = strict.post(table + "act/", {"type": "bust"})
    assert response.status_code == 403
    assert match_of(table).seq == 0


def test_a_hostile_name_is_shown_as_text_everywhere(client: Client):
    table = start(client, XSS, "Ben")
    claim(client, table, "27:grill")
    pages = [
        client.get(table).content.decode(),
        client.get(table + "?seq=1&total=27&worm=1").content.decode(),
        client.get("/en/tables/").content.decode(),
        client.get("/en/tables/new/pickomino/").content.decode(),
    ]
    for html in pages:
        assert XSS not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0]
    assert "Steal 27 from &lt;script&gt;alert(1)&lt;/script&gt;" in pages[1]  # the entry was shown


def test_my_matches_lists_this_devices_matches_in_progress_and_finished(client: Client):
    start(client, "Ada", "Ben")
    html = client.get("/en/tables/").content.decode()
    assert "Ada, Ben" in html
    assert "No finished match yet." in html
    assert "Ada, Ben" not in Client().get("/en/tables/").content.decode()


def test_an_unknown_match_is_a_404(client: Client):
    assert client.get("/en/tables/not-a-match/").status_code == 404
    assert client.post("/en/tables/not-a-match/act/", {"type": "bust"}).status_code == 404


@pytest.mark.parametrize("match_id", ["%00", "a%00b", "a%20b", "x" * 65])
def test_a_malformed_match_id_is_a_404_on_every_page(client: Client, match_id: str):
    for path in ["", "act/", "join/", "assistant/"]:
        response = client.post(f"/en/tables/{match_id}/{path}") if path else client.get(f"/en/tables/{match_id}/")
        assert response.status_code == 404, path


def test_a_rematch_from_a_malformed_id_starts_an_empty_set_up(client: Client):
    response = client.get("/en/tables/new/pickomino/?from=%00")
    assert response.status_code == 200
    assert 'value="Ada"' not in response.content.decode()


def test_an_unknown_game_has_no_set_up_page(client: Client):
    assert client.get("/en/tables/new/chess/").status_code == 404


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
    # A mistake in the last turn can still be taken back: Undo stays in the bar, shown.
    assert '<button type="submit" class="button button--quiet">Undo</button>' in form_of(html, UNDO_FORM)
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
