"""Correcting a past Pickomino turn from its page: the log's "Correct" opens the tile pad on
the table as it was before that turn, the turn's total typed in and the tiles it could claim
offered; one tap on another tile replaces the turn in place, and every later turn is played
again (a steal the correction leaves nothing to steal from is refused with the reason)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from marquoir.tables.models import LogEntry, Match
from marquoir.tables.selectors import keeper_of, match_view

from .screen import claim, start

pytestmark = pytest.mark.django_db


def hidden(form: str) -> dict[str, str]:
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    }


def claim_form(html: str) -> str:
    at = html.index('id="claim-form"')
    return html[html.rfind("<form", 0, at) : html.index("</form>", at)]


def log_link(html: str, seq: int) -> str:
    found = re.search(rf'<a class="log__correct" href="(\?correct={seq})"', html)
    assert found, f"no link to correct entry {seq}"
    return found.group(1)


def stacks(table: str) -> list[list[int]]:
    row = Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1])
    return [player["stack"] for player in keeper_of(row).state_json(match_view(row))["players"]]


def test_a_past_turn_reopens_on_its_total_and_one_tap_takes_another_tile(client: Client):
    table = start(client, "Ada", "Ben")
    claim(client, table, "25:grill")  # Ada takes 25
    claim(client, table, "30:grill")  # Ben takes 30

    page = client.get(table).content.decode()
    opened = client.get(table + log_link(page, 1)).content.decode()
    assert "Correcting entry 1" in opened
    assert 'value="25"' in opened  # the total typed in
    assert hidden(claim_form(opened))["correct"] == "1"
    assert 'value="25:grill"' in claim_form(opened)  # with 25, the 25 on the grill

    # The total was 24: typed into the total form (which carries the correction), then tap 24.
    total_form = opened[opened.index('class="total-form"') :]
    carried = hidden(total_form[: total_form.index("</form>")])
    assert carried == {"seq": "2", "correct": "1"}
    retyped = client.get(table, {**carried, "total": "24", "worm": "1"}).content.decode()
    form = claim_form(retyped)
    assert 'value="24:grill"' in form
    response = client.post(table + "act/", {**hidden(form), "claim": "24:grill"})
    assert response.status_code == 303

    assert stacks(table) == [[24], [30]]
    entries = LogEntry.objects.filter(match__id=table.rstrip("/").rsplit("/", 1)[1]).order_by("seq")
    assert [entry.kind for entry in entries] == ["action", "action", "correct"]


def test_a_correction_that_leaves_a_later_steal_nothing_to_steal_is_refused(client: Client):
    table = start(client, "Ada", "Ben")
    claim(client, table, "25:grill")  # Ada takes 25
    claim(client, table, "25:0")  # Ben steals it

    opened = client.get(table, {"correct": "1", "seq": "2", "total": "24", "worm": "1"}).content.decode()
    response = client.post(table + "act/", {**hidden(claim_form(opened)), "claim": "24:grill"})
    assert response.status_code == 422
    words = html_lib.unescape(response.content.decode())
    assert "With this correction, entry 2 would break a rule" in words
    assert stacks(table) == [[], [25]]
