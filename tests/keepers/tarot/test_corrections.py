"""Correcting a past Tarot deal from its page: the deal's number in the grid opens the pad
on the deal as it stands (its taker, contract, bouts, points and extras), as the table was
before it (its dealer); a change of one choice and one tap on "Save deal N" replace it in
place, and every later deal keeps its own score."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from marquoir.tables.models import LogEntry

from .test_pages import PASS_FORM, RECORD_FORM, band_scores, choices, hidden_fields, match_of, prompt, record, start

pytestmark = pytest.mark.django_db


def correct_link(html: str, number: int) -> str:
    found = re.search(rf'<a class="grid__correct" href="([^"]+)"[^>]*>{number}</a>', html)
    assert found, f"no link to correct deal {number}"
    return html_lib.unescape(found.group(1))


def three_deals(client: Client) -> str:
    table = start(client, "Ada", "Ben", "Cy", "Dee")
    assert record(client, table, taker=0, contract="garde", bouts=2, points="47", poignee_2="simple").status_code == 303
    assert record(client, table, taker=1, contract="petite", bouts=1, points="50").status_code == 303
    assert record(client, table, taker=2, contract="garde", bouts=3, points="40").status_code == 303
    return table


def test_a_past_deal_opens_on_its_choices_and_one_tap_saves_a_changed_one(client: Client):
    table = three_deals(client)
    before = band_scores(client.get(table).content.decode())

    opened = client.get(table + correct_link(client.get(table).content.decode(), 1)).content.decode()
    assert "Correcting entry 1" in opened
    assert "How many card points did Ada’s side take?" in prompt(opened)
    fields = hidden_fields(opened, RECORD_FORM)
    assert fields["correct"] == "1"
    assert (fields["taker"], fields["contract"], fields["bouts"], fields["points"]) == ("0", "garde", "2", "47")
    assert fields["poignee_1"] == "simple"  # the defence's handful, given to its first defender
    assert "Save deal 1" in opened

    # Change the bouts from the chip, keeping the rest: 3 bouts need 36, so 47 makes it by 11.
    chip = re.search(r'<a class="chip" href="([^"]+)"[^>]*><span>2 bouts</span>', opened)
    assert chip
    bouts_step = client.get(table + html_lib.unescape(chip.group(1))).content.decode()
    three = client.get(table + choices(bouts_step)["3"]).content.decode()
    fields = hidden_fields(three, RECORD_FORM)
    assert fields["correct"] == "1"
    assert fields["bouts"] == "3"
    assert client.post(table + "act/", fields).status_code == 303

    after = band_scores(client.get(table).content.decode())
    assert after != before
    assert [entry.kind for entry in LogEntry.objects.filter(match=match_of(table)).order_by("seq")] == [
        "action",
        "action",
        "action",
        "correct",
    ]
    assert sum(int(score.replace("\u2212", "-")) for score in after) == 0  # Tarot is zero-sum


def test_a_deal_corrected_into_a_pass_from_its_first_step(client: Client):
    table = three_deals(client)
    opened = client.get(table + correct_link(client.get(table).content.decode(), 2)).content.decode()
    start_over = re.search(r'<a class="chip chip--clear" href="([^"]+)"', opened)
    assert start_over
    first_step = client.get(table + html_lib.unescape(start_over.group(1))).content.decode()
    assert prompt(first_step) == "Who took?"
    fields = hidden_fields(first_step, PASS_FORM)
    assert fields["correct"] == "2"
    assert "Everyone passed · Ben dealt" in html_lib.unescape(first_step)
    assert client.post(table + "act/", fields).status_code == 303

    grid = html_lib.unescape(client.get(table).content.decode())
    assert "Everyone passed" in grid
