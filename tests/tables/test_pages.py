"""The score keeper's pages through Django's test client, the core's part: the set-up form, undo
and the log, double taps and stale pages, htmx, watchers and the keep-score link, CSRF, hostile
names, my matches, 404s.

Pickomino stands in for "some game", tapped as tests/keepers/pickomino/screen.py taps it; its
own screens are held by tests/keepers/pickomino/test_pages.py.
"""

from __future__ import annotations

import pytest
from django.test import Client

from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import LogEntry, Match
from tests.keepers.pickomino.screen import BUST_MENU, CLAIM_FORM, bust, claim, form_fields, match_of, start, undo

pytestmark = pytest.mark.django_db

XSS = "<script>alert(1)</script>"


def test_creating_a_match_keeps_seating_order_and_the_starter(client: Client):
    table = start(client, "Ada", "", "Ben", "Cy", first=3)
    match = match_of(table)
    assert match.players == ["Ada", "Ben", "Cy"]
    assert match.first == 2  # the empty row is left out, so Cy is the third player
    assert client.cookies[COOKIE_NAME].value


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
