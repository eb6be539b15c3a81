"""What a review of the table screen and the core found, each held by a test: a page kept on
the phone cannot have another action answered as its first one, the API never answers an
HTML page, a game's endpoint on another game's match says so, and a made-up device cookie
buys no creation allowance on the API."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client, override_settings

from marquoir.games.sheet import MAX_ROUNDS, Options, Round
from marquoir.games.sheet import Match as SheetMatch
from marquoir.games.sheet import Setup as SheetSetup
from marquoir.rules import RuleError
from marquoir.tables.models import LogEntry

from .conftest import MATCHES, error_of

pytestmark = pytest.mark.django_db


def start(client: Client) -> str:
    form = {"name_0": "Ada", "name_1": "Ben", "first": "0"}
    response = client.post("/en/tables/new/pickomino/", form)
    assert response.status_code == 303
    return str(response["Location"])


def form_of(html: str, marker: str) -> dict[str, str]:
    """The hidden fields of the form holding ``marker``."""
    form = next(part for part in html.split("<form")[1:] if marker in part)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_each_form_of_a_page_has_its_own_action_id(client: Client):
    html = client.get(start(client)).content.decode()
    ids = {form_of(html, marker)["action_id"] for marker in ('id="claim-form"', 'value="no_new_face"', "bar__undo")}
    assert len(ids) == 3


def test_a_kept_page_cannot_have_another_action_answered_as_its_first(client: Client):
    table = start(client)
    page = client.get(table).content.decode()
    claim = form_of(page, 'id="claim-form"')
    assert client.post(table + "act/", {**claim, "claim": "27:grill"}).status_code == 303
    # The same page, kept on the phone (a reload offline, Back), taps another tile with the
    # same form: not "recorded" as the first tap's answer, but told the page is old.
    response = client.post(table + "act/", {**claim, "claim": "30:grill"}, headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert "already recorded from another device" in response.content.decode()
    assert LogEntry.objects.count() == 1


def test_an_api_address_that_does_not_exist_answers_json(client: Client):
    error_of(client.get("/api/v1/nope"), "not_found", 404)


def test_a_pickomino_endpoint_on_a_sheet_says_the_match_is_another_game(client: Client):
    created = client.post(
        MATCHES, json.dumps({"game": "sheet", "players": ["Ada"]}), content_type="application/json"
    ).json()
    message = error_of(
        client.get(f"{MATCHES}/{created['id']}/claims", {"total": "27", "worm": "true"}), "not_found", 404
    )
    assert "Pickomino" in message


@override_settings(MATCH_CREATION_LIMIT=2, MATCH_CREATION_ADDRESS_LIMIT=300)
def test_a_made_up_device_cookie_buys_no_allowance_on_the_api():
    body = json.dumps({"game": "pickomino", "players": ["Ada", "Ben"]})
    codes = []
    for index in range(3):
        script = Client()
        script.cookies["marquoir_device"] = f"made-up-device-number-{index:04d}"
        codes.append(script.post(MATCHES, body, content_type="application/json").status_code)
    assert codes == [201, 201, 429]


def test_a_sheet_holds_a_bounded_number_of_rounds():
    match = SheetMatch.start(SheetSetup(1, 0, Options()))
    for _ in range(MAX_ROUNDS):
        match = match.apply(Round((1,)))
    with pytest.raises(RuleError) as refused:
        match.apply(Round((1,)))
    assert refused.value.reason == "too_many_rounds"
