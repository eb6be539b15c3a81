"""The API probed as an attacker would: every odd request gets the contract's error shape, in
the client's language, with the state unchanged and bounded work; never a 500, never a
traceback, never an echo of what was sent. (Pickomino's own endpoints and fields probed so:
tests/keepers/pickomino/test_api_hostile.py.)"""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from marquoir.tables import api as api_module
from marquoir.tables import services
from marquoir.tables.device import COOKIE_NAME
from marquoir.tables.models import LogEntry, Match

from .conftest import MATCHES, Api, Created, error_of

pytestmark = pytest.mark.django_db


def test_an_action_id_with_a_lone_surrogate_is_invalid(api: Api, match: Created):
    body = '{"type": "bust", "action_id": "\\ud800x"}'  # valid JSON, not storable as UTF-8
    message = api.refused(match, body, "invalid", 422)
    assert "action_id" in message
    assert LogEntry.objects.count() == 0


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_body_over_the_limit_is_refused_unread_with_413(api: Api, match: Created, language: str):
    body = '{"type": "bust", "note": "' + "a" * 3_000_000 + '"}'
    message = api.refused(match, body, "too_large", 413, language=language)
    assert str(api_module.MAX_BODY_BYTES) in message.replace("\u202f", "").replace(" ", "")
    assert ("trop" in message) == (language == "fr")


def test_a_creation_over_the_size_limit_is_refused_too(api: Api):
    players = ["x" * 30] * 1000
    error_of(api.create({"game": "pickomino", "players": players}), "too_large", 413)
    assert Match.objects.count() == 0


def test_a_key_given_twice_is_refused_rather_than_taken_last(api: Api, match: Created):
    message = api.refused(match, '{"type": "take", "total": 27, "worm": true, "type": "bust"}', "invalid", 422)
    assert message == 'The field "type" is given twice.'
    error_of(api.create('{"game": "pickomino", "players": ["Ada", "Ben"], "players": ["Cy", "Dee"]}'), "invalid", 422)
    assert Match.objects.count() == 1  # the fixture's own


def test_a_body_that_does_not_say_it_is_json_is_refused_with_415(client: Client, match: Created):
    response = client.post(
        f"{MATCHES}/{match.id}/actions",
        data=json.dumps({"type": "bust"}),
        content_type="text/plain",
        headers={"Authorization": f"Bearer {match.token}", "Accept-Language": "fr"},
    )
    message = error_of(response, "unsupported_media_type", 415)
    assert "application/json" in message
    assert LogEntry.objects.count() == 0


def test_json_with_a_charset_or_a_json_suffix_is_json(client: Client, match: Created):
    for content_type in ("application/json; charset=utf-8", "application/merge-patch+json"):
        response = client.post(
            f"{MATCHES}/{match.id}/actions",
            data=json.dumps({"type": "bust"}),
            content_type=content_type,
            headers={"Authorization": f"Bearer {match.token}"},
        )
        assert response.status_code == 200, response.content


def test_an_unknown_field_with_a_huge_name_is_not_echoed_whole(api: Api, match: Created):
    name = "f" * 10_000
    message = api.refused(match, json.dumps({"type": "bust", name: 1}), "invalid", 422)
    assert len(message) < 120
    assert "f" * 40 + "…" in message


@pytest.mark.parametrize(
    "name", ["\u200d", "\u0301", "\u200d\u200c", " \u0301 "], ids=["joiner", "combining", "two joiners", "spaced mark"]
)
def test_a_name_nobody_could_read_is_refused(api: Api, name: str):
    message = error_of(api.create({"game": "pickomino", "players": [name, "Ben"]}), "invalid", 422)
    assert "visible" in message
    assert Match.objects.count() == 0


@pytest.mark.parametrize("name", ["a\u0301", "👩\u200d👩\u200d👧", "ناهید", "李", "9", "!"])
def test_names_of_any_script_still_pass(api: Api, name: str):
    assert api.create({"game": "pickomino", "players": [name, "Ben"]}).status_code == 201


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_a_method_an_address_does_not_serve_answers_405_in_the_contract_s_shape(client: Client, method: str):
    response = getattr(client, method)(MATCHES, data="{}", content_type="application/json")
    message = error_of(response, "method_not_allowed", 405)
    assert "POST" in response["Allow"]
    assert method.upper() in message


def test_options_says_which_methods_an_address_serves(client: Client, match: Created):
    response = client.options(f"{MATCHES}/{match.id}")
    assert response.status_code == 204
    assert set(response["Allow"].replace(" ", "").split(",")) >= {"GET", "OPTIONS"}


@override_settings(DEBUG=True)
def test_an_unexpected_error_is_answered_without_its_traceback_even_under_debug(
    client: Client, match: Created, monkeypatch: pytest.MonkeyPatch
):
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("secret internals: /srv/marquoir/settings.py")

    monkeypatch.setattr(api_module, "match_view", broken)
    response = client.get(f"{MATCHES}/{match.id}", headers={"Accept-Language": "fr"})
    message = error_of(response, "server_error", 500)
    assert "secret internals" not in response.content.decode()
    assert "Traceback" not in response.content.decode()
    assert "serveur" in message


# --- the creation limit -------------------------------------------------------------------

BODY = {"game": "pickomino", "players": ["Ada", "Ben"]}


def create(client: Client, body: object = None) -> int:
    return client.post(MATCHES, body or BODY, content_type="application/json").status_code


@override_settings(MATCH_CREATION_LIMIT=2)
def test_refused_creations_do_not_count_toward_the_limit(client: Client):
    for _ in range(5):
        assert create(client, {"game": "pickomino", "players": ["Ada"]}) == 422
    assert [create(client), create(client), create(client)] == [201, 201, 429]


@override_settings(MATCH_CREATION_LIMIT=1, MATCH_CREATION_WINDOW_SECONDS=600)
@pytest.mark.parametrize(("language", "words"), [("en", "10 minutes"), ("fr", "10 minutes")])
def test_the_429_says_the_wait_that_retry_after_gives(client: Client, language: str, words: str):
    assert create(client) == 201
    response = client.post(MATCHES, BODY, content_type="application/json", headers={"Accept-Language": language})
    message = error_of(response, "rate_limited", 429)
    retry_after = int(response["Retry-After"])
    assert 590 <= retry_after <= 600
    assert words in message


@override_settings(MATCH_CREATION_LIMIT=1, MATCH_CREATION_ADDRESS_LIMIT=3)
def test_each_phone_of_a_cafe_behind_one_address_has_its_own_allowance_up_to_the_address_ceiling():
    # Phones that have kept score here before (a device some match knows): each its own
    # allowance. A phone's very first match is counted by the address (see test_ratelimit).
    phones = [Client() for _ in range(4)]
    for number, phone in enumerate(phones):
        secret = f"cafe-phone-{number:02d}-" + "x" * 20
        phone.cookies[COOKIE_NAME] = secret
        services.device_link(
            device_secret=secret, match=services.match_create(game="sheet", players=["A"])[0], can_edit=True
        )
    before = Match.objects.count()
    codes = []
    for phone in phones:  # four new phones, one address (Django's test client: 127.0.0.1)
        form = {"name_0": "Ada", "name_1": "Ben", "first": "0"}
        codes.append(phone.post("/en/tables/new/pickomino/", form).status_code)
    assert codes[:3] == [303, 303, 303]
    assert codes[3] == 429  # the address's ceiling: three matches from here in this window
    # The first phone again: over its own allowance (and the address's).
    again = phones[0].post("/en/tables/new/pickomino/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    assert again.status_code == 429
    assert "try again in 10 minutes" in again.content.decode()
    assert again["Retry-After"]
    assert Match.objects.count() == before + 3


def test_a_lone_surrogate_quoted_back_in_a_refusal_becomes_a_replacement_character(api):
    created = api.new_match()
    response = api.act(created, {"type": "bust", "colour\ud800": 1})
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert message == 'Unknown field "colour\ufffd".'  # named, its lone surrogate replaced
    raw = response.content.decode("utf-8")  # valid UTF-8 JSON, no lone surrogate escaped in it
    assert "\\ud800" not in raw.lower()


def test_a_creation_with_a_key_that_is_no_text_names_it_as_an_unknown_field(api):
    response = api.create({"game": "sheet", "players": ["Ada"], "colour\ud800": 1})
    assert response.status_code == 422
    assert response.json()["error"]["message"] == 'Unknown field "colour\ufffd".'
