"""Correcting a past round or throw of a declared game from its page, without JavaScript:
the round's number in the grid opens the pad as it was for that round, refilled with it;
one tap saves it in place (Skyjo, by rounds: its doubling follows; Mölkky, by turns: the
thrower of that turn, and every later throw played again)."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.test import Client

from marquoir.tables.models import Match
from marquoir.tables.selectors import keeper_of, match_view

pytestmark = pytest.mark.django_db


def start(client: Client, game: str, *names: str, **options: str) -> str:
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": "0"} | options
    response = client.post(f"/en/tables/new/{game}/", data)
    assert response.status_code == 303, response.content.decode()[:600]
    return str(response["Location"])


def form_fields(html: str) -> dict[str, str]:
    """The round form's fields as the page fills them (hidden, typed and ticked)."""
    begin = html.index('class="round-form')
    form = html[html.rfind("<form", 0, begin) : html.index("</form>", begin)]
    fields: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name:
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if kind and kind.group(1) in {"checkbox", "radio"} and " checked" not in tag:
            continue
        fields[name.group(1)] = html_lib.unescape(value.group(1)) if value else ""
    for select in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', select[1])
        fields[select[0]] = chosen.group(1) if chosen else ""
    return fields


def send(client: Client, table: str, **typed: str) -> Any:
    fields = form_fields(client.get(table).content.decode()) | typed
    return client.post(table + "act/", fields)


def totals(table: str) -> list[int]:
    row = Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1])
    return [player["score"] for player in keeper_of(row).state_json(match_view(row))["players"]]


def correct_link(html: str, number: int) -> str:
    found = re.search(rf'<a class="grid__correct" href="([^"]+)"[^>]*>{number}</a>', html)
    assert found, f"no link to correct {number}"
    return html_lib.unescape(found.group(1))


def test_a_skyjo_round_is_corrected_in_place_and_the_doubling_follows(client: Client):
    table = start(client, "skyjo", "Ada", "Ben", target="100")
    assert send(client, table, in_cards_0="5", in_cards_1="9", in_ended_by="0").status_code == 303
    assert send(client, table, in_cards_0="3", in_cards_1="4", in_ended_by="1").status_code == 303
    assert totals(table) == [8, 17]  # Ben ended round 2 with 4, not the fewest (Ada's 3): doubled

    opened = client.get(table + correct_link(client.get(table).content.decode(), 1)).content.decode()
    assert "Correct round 1" in opened
    fields = form_fields(opened)
    assert (fields["in_cards_0"], fields["in_cards_1"], fields["in_ended_by"], fields["correct"]) == (
        "5",
        "9",
        "0",
        "1",
    )

    # Ada ended round 1 with 12, more than Ben's 9: doubled to 24.
    response = client.post(table + "act/", fields | {"in_cards_0": "12"})
    assert response.status_code == 303
    assert totals(table) == [27, 17]


def test_a_molkky_throw_is_corrected_with_its_thrower_and_the_later_throws_replayed(client: Client):
    table = start(client, "molkky", "Ada", "Ben")
    assert send(client, table, in_pins_5="1").status_code == 303  # Ada knocks pin 5 alone: 5
    assert send(client, table, in_pins_3="1", in_pins_4="1").status_code == 303  # Ben: two pins, 2
    assert totals(table) == [5, 2]

    page = client.get(table).content.decode()
    opened = client.get(table + correct_link(page, 1)).content.decode()
    assert "Correct the turn: Ada" in html_lib.unescape(opened)
    fields = form_fields(opened)
    assert fields["in_pins_5"] == "1"
    fields.pop("in_pins_5")
    response = client.post(table + "act/", fields | {"in_pins_12": "1"})
    assert response.status_code == 303
    assert totals(table) == [12, 2]
