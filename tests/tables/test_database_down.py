"""A database that does not answer (restarting, failing over, its pool spent) is said as
such on the API: 503 with Retry-After, in the caller's language, nothing written; any other
error stays a 500 in the contract's shape."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client

from marquoir.tables import services
from marquoir.tables.models import LogEntry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("failure", [OperationalError("the server closed the connection"), InterfaceError("gone")])
def test_an_action_while_the_database_is_away_is_503_with_retry_after(
    client: Client, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    match, token = services.match_create(game="sheet", players=["Ada", "Ben"])

    def down(**_kwargs: object) -> None:
        raise failure

    monkeypatch.setattr(services, "match_act", down)
    response = client.post(
        f"/api/v1/matches/{match.id}/actions",
        {"type": "round", "scores": [1, 2]},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}", "Accept-Language": "fr"},
    )

    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    error = response.json()["error"]
    assert error["code"] == "unavailable"
    assert error["message"].startswith("Le serveur ne joint pas sa base de données")
    assert LogEntry.objects.count() == 0


def test_any_other_error_is_still_a_500_in_the_contracts_shape(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    match, token = services.match_create(game="sheet", players=["Ada", "Ben"])

    def broken(**_kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "match_act", broken)
    response = Client(raise_request_exception=False).post(
        f"/api/v1/matches/{match.id}/actions",
        {"type": "round", "scores": [1, 2]},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )

    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"
