"""What Django refuses as suspicious gets a short answer of ours, never its debug page: a host
name we do not serve (DNS rebinding onto `HOST=127.0.0.1 make run`), a form over its limits.
On /api/ in the contract's JSON, on pages as plain text, in the reader's language. (The same
against real server processes: tests/test_server_process.py.)"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

FOREIGN = "rebound.attacker.example"
TOO_MANY_FIELDS = {f"f{number}": "x" for number in range(1200)}  # Django's limit: 1,000


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
@pytest.mark.parametrize("path", ["/en/", "/en/tables/no-such-match-0123456789/", "/static/css/site.css"])
def test_a_foreign_host_never_gets_the_debug_page_whatever_debug_says(client: Client, debug: bool, path: str):
    with override_settings(DEBUG=debug):
        response = client.get(path, HTTP_HOST=FOREIGN)
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == "Bad request: this server does not answer for that host name.\n"


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
def test_a_foreign_host_on_the_api_gets_the_contracts_json(client: Client, debug: bool):
    with override_settings(DEBUG=debug):
        response = client.get("/api/v1/matches/no-such-match", HTTP_HOST=FOREIGN, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert response.json() == {"error": {"code": "invalid", "message": "Ce serveur ne répond pas pour ce nom d’hôte."}}


@pytest.mark.parametrize("debug", [False, True], ids=["DEBUG off", "DEBUG on"])
@pytest.mark.django_db
def test_a_form_with_too_many_fields_on_the_api_is_refused_in_json(client: Client, debug: bool):
    with override_settings(DEBUG=debug):
        response = client.post("/api/v1/matches", TOO_MANY_FIELDS)
    assert response.status_code == 413
    assert response.json() == {"error": {"code": "too_large", "message": "The form has too many fields: 1000 at most."}}


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
@pytest.mark.django_db
def test_a_form_too_large_on_the_api_is_refused_in_json_in_french(client: Client):
    response = client.post("/api/v1/groups", {"name": "x" * 2000}, HTTP_ACCEPT_LANGUAGE="fr-FR")
    assert response.status_code == 413
    assert response.json() == {
        "error": {"code": "too_large", "message": "Le formulaire est trop lourd\u00a0: 1000 octets au plus."}
    }


@pytest.mark.django_db
def test_a_form_with_too_many_fields_on_a_page_gets_a_short_page_in_its_language(client: Client):
    # DEBUG off (production): Django's 400 handler, ours. The French address answers in French.
    response = client.post("/fr/tables/nouvelle/pickomino/", TOO_MANY_FIELDS)
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == "Le formulaire a trop de champs\u00a0: 1000 au plus.\n"
