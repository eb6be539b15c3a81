"""Logs are JSON lines a machine can read, and never carry an edit token or a join key."""

from __future__ import annotations

import json
import logging

import pytest
from django.test import Client

from marquoir.logs import JsonFormatter


def test_a_record_becomes_one_json_line_with_its_extra_fields():
    record = logging.LogRecord("marquoir.access", logging.INFO, __file__, 1, "GET %s", ("/en/",), None)
    record.status = 200
    line = JsonFormatter().format(record)
    entry = json.loads(line)
    assert "\n" not in line
    assert (entry["level"], entry["logger"], entry["message"], entry["status"]) == (
        "INFO",
        "marquoir.access",
        "GET /en/",
        200,
    )


@pytest.mark.django_db
def test_the_access_log_keeps_tokens_and_keys_out(client: Client, caplog: pytest.LogCaptureFixture):
    created = client.post("/api/v1/matches", {"game": "pickomino", "players": ["Ada", "Ben"]}, "application/json")
    match_id, token = created.json()["id"], created.json()["edit_token"]
    with caplog.at_level(logging.INFO, logger="marquoir.access"):
        client.post(
            f"/api/v1/matches/{match_id}/actions",
            {"type": "bust"},
            "application/json",
            headers={"authorization": f"Bearer {token}"},
        )
        client.post(f"/en/tables/{match_id}/join/", {"key": token})
        client.post(f"/en/tables/{match_id}/join/", {"key": f"wrong-{token}"})
    access = [record for record in caplog.records if record.name == "marquoir.access"]
    assert len(access) == 3
    assert all(token not in JsonFormatter().format(record) for record in access)
    assert access[0].path == f"/api/v1/matches/{match_id}/actions"  # type: ignore[attr-defined]
