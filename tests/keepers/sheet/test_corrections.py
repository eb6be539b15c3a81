"""Correcting a past round of a score sheet from its page, as a phone without JavaScript
does: the round's number in the grid opens the pad on its scores, a change and one tap on
"Save round N" replace it in place; the log says so in words; Undo and Redo name what they
take back or do again; no Undo beside a refusal; in English and in French."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from marquoir.tables.models import LogEntry

from .test_pages import ROUND_FORM, UNDO_FORM, bar_text, form_of, grid_row, hidden_fields, match_of, send_round, start

pytestmark = pytest.mark.django_db

REDO_FORM = 'class="bar__redo"'


def correct_link(html: str, round_number: int) -> str:
    found = re.search(rf'<a class="grid__correct" href="([^"]+)"[^>]*>{round_number}</a>', html)
    assert found, f"no link to correct round {round_number}"
    return html_lib.unescape(found.group(1))


def field_values(html: str) -> dict[str, str]:
    form = form_of(html, ROUND_FORM)
    return dict(re.findall(r'name="(score_\d+)" type="text"[^>]*value="([^"]*)"', form))


def four_rounds(client: Client, lang: str = "en") -> str:
    table = start(client, "Ada", "Ben", lang=lang)
    for typed in (("10", "2"), ("3", "4"), ("5", "5"), ("1", "0")):
        assert send_round(client, table, *typed).status_code == 303
    return table


def test_round_two_is_corrected_after_round_four_in_two_taps_and_the_new_values(client: Client):
    table = four_rounds(client)
    html = client.get(table).content.decode()

    # Tap 1: round 2's number in the grid opens the pad on its scores.
    opened = client.get(table + correct_link(html, 2)).content.decode()
    assert "Correcting entry 2: Round 2: Ada 3, Ben 4." in html_lib.unescape(opened)
    assert "Correct round 2" in opened
    assert field_values(opened) == {"score_0": "3", "score_1": "4"}
    fields = hidden_fields(opened, ROUND_FORM)
    assert fields["correct"] == "2"

    # The new value typed, then tap 2: "Save round 2".
    assert "Save round 2" in form_of(opened, ROUND_FORM)
    response = client.post(table + "act/", {**fields, "score_0": "30", "score_1": "4"})
    assert response.status_code == 303

    after = client.get(table).content.decode()
    assert grid_row(after, "2") == ["30", "4"]
    assert grid_row(after, "Total") == ["46", "11"]
    assert "Correcting entry" not in after
    assert bar_text(after) == "Corrected: Round 2 · Ada leads with 40"
    entries = LogEntry.objects.filter(match=match_of(table)).order_by("seq")
    assert [entry.kind for entry in entries] == ["action"] * 4 + ["correct"]


def test_the_corrected_round_is_struck_in_the_log_and_undo_names_the_correction(client: Client):
    table = four_rounds(client)
    html = client.get(table).content.decode()
    opened = client.get(table + correct_link(html, 2)).content.decode()
    client.post(table + "act/", {**hidden_fields(opened, ROUND_FORM), "score_0": "30", "score_1": "4"})

    after = html_lib.unescape(client.get(table).content.decode())
    assert "<del>Round 2: Ada 3, Ben 4.</del>" in after
    assert "(corrected)" in after
    assert "Entry 2 corrected: Round 2: Ada 30, Ben 4." in after
    undo = form_of(after, UNDO_FORM)
    assert '<span class="bar__what">correction of entry 2: Round 2 · Ada leads with 40</span>' in undo

    client.post(table + "act/", hidden_fields(after, UNDO_FORM))
    undone = client.get(table).content.decode()
    assert grid_row(undone, "2") == ["3", "4"]
    redo = html_lib.unescape(form_of(undone, REDO_FORM))
    assert "Redo" in redo
    assert "correction of entry 2: Round 2 · Ada leads with 40" in redo

    client.post(table + "act/", hidden_fields(undone, REDO_FORM))
    assert grid_row(client.get(table).content.decode(), "2") == ["30", "4"]


def test_a_refused_correction_keeps_the_pad_open_on_it_with_no_undo_beside_the_refusal(client: Client):
    table = four_rounds(client)
    html = client.get(table).content.decode()
    opened = client.get(table + correct_link(html, 2)).content.decode()

    response = client.post(table + "act/", {**hidden_fields(opened, ROUND_FORM), "score_0": "", "score_1": "4"})

    assert response.status_code == 422
    page = response.content.decode()
    assert "Correct round 2" in page
    assert hidden_fields(page, ROUND_FORM)["correct"] == "2"
    # Undo would take back round 4, someone else's entry: not offered beside the refusal.
    assert re.search(r'<button type="submit" class="button button--quiet bar__button" hidden', form_of(page, UNDO_FORM))
    assert REDO_FORM not in page
    assert grid_row(page, "2") == ["3", "4"]


def test_a_finished_sheet_reopens_on_a_past_round_and_the_winner_follows(client: Client):
    table = start(client, "Ada", "Ben", rounds="2")
    send_round(client, table, "10", "2")
    send_round(client, table, "1", "1")
    finished = client.get(table).content.decode()
    assert "Final standings" in finished

    opened = client.get(table + correct_link(finished, 1)).content.decode()
    assert "Final standings" not in opened
    client.post(table + "act/", {**hidden_fields(opened, ROUND_FORM), "score_0": "0", "score_1": "20"})

    after = html_lib.unescape(client.get(table).content.decode())
    assert "Final standings" in after
    assert "Ben wins with 21." in after


def test_a_watcher_has_no_correction_link_and_an_address_asking_for_one_shows_the_table(client: Client):
    table = four_rounds(client)
    watcher = Client()
    html = watcher.get(table).content.decode()
    assert 'class="grid__correct"' not in html
    opened = watcher.get(table + "?correct=2").content.decode()
    assert "Correcting entry" not in opened
    assert ROUND_FORM not in opened


@pytest.mark.parametrize("asked", ["0", "99", "x", "²", "1" * 40, "-1"])
def test_an_address_that_names_no_round_in_force_opens_the_table_as_it_is(client: Client, asked: str):
    table = four_rounds(client)
    response = client.get(table, {"correct": asked})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Correcting entry" not in page
    assert "Scores of round 5" in page


def test_the_correction_in_french(client: Client):
    table = four_rounds(client, lang="fr")
    html = client.get(table).content.decode()
    opened = html_lib.unescape(client.get(table + correct_link(html, 2)).content.decode())
    assert "Correction de l’entrée 2\u00a0: " in opened
    assert "Corriger la manche 2" in opened
    assert "Enregistrer la manche 2" in opened
