"""Correcting a past Yahtzee box from its page: the box on the sheets opens the pad on the
turn that filled it, as that player's sheet was then, the turn's five dice tapped in; a die
changed and the box tapped again replace it in place (one tap to open, the dice changed,
one tap on the box); the turns after it stay theirs."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client

from marquoir.tables.models import LogEntry, Match

pytestmark = pytest.mark.django_db


def start(client: Client, *names: str) -> str:
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": "0"}
    response = client.post("/en/tables/new/yahtzee/", data)
    assert response.status_code == 303, response.content.decode()[:600]
    return str(response["Location"])


def hidden(form: str) -> dict[str, str]:
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    }


def boxes_form(html: str) -> str:
    at = html.index('class="yz-boxes"')
    return html[html.rfind("<form", 0, at) : html.index("</form>", at)]


def score(client: Client, table: str, page: str, box: str) -> int:
    return client.post(table + "act/", {**hidden(boxes_form(page)), "box": box}).status_code


def with_dice(client: Client, table: str, dice: str, **extra: str) -> str:
    seq = Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1]).seq
    query = "&".join(f"{name}={value}" for name, value in {"seq": seq, "dice": dice, **extra}.items())
    return client.get(f"{table}?{query}").content.decode()


def test_a_filled_box_opens_on_its_dice_and_a_changed_die_is_saved_in_place(client: Client):
    table = start(client, "Ada", "Ben")
    assert score(client, table, with_dice(client, table, "22256"), "twos") == 303  # Ada: Twos 6
    assert score(client, table, with_dice(client, table, "11111"), "yahtzee") == 303  # Ben: Yahtzee 50

    page = client.get(table).content.decode()
    link = re.search(r'<a class="yz-grid__correct" href="([^"]+)"[^>]*aria-label="Correct Ada’s Twos: 6"', page)
    assert link
    opened = client.get(table + html_lib.unescape(link.group(1))).content.decode()  # tap 1
    assert "Correcting entry 1" in opened
    fields = hidden(boxes_form(opened))
    assert (fields["dice"], fields["correct"]) == ("22256", "1")

    # The dice as they were: 2 2 2 2 6 (remove the 5 and the 6, tap 2 and 6), then Twos.
    changed = with_dice(client, table, "2222", correct="1")
    six = re.search(r'<a class="face-button" href="([^"]+)"[^>]*aria-label="[^"]*6', changed)
    assert six
    five_dice = client.get(html_lib.unescape(six.group(1))).content.decode()
    assert hidden(boxes_form(five_dice))["dice"] == "22226"
    assert score(client, table, five_dice, "twos") == 303

    after = client.get(table).content.decode()
    assert "Ada’s Twos: 8" in html_lib.unescape(after)
    entries = LogEntry.objects.filter(match__id=table.rstrip("/").rsplit("/", 1)[1]).order_by("seq")
    assert [entry.kind for entry in entries] == ["action", "action", "correct"]
    assert entries[2].payload["action"] == {"type": "score", "box": "twos", "dice": [2, 2, 2, 2, 6]}


def test_a_correction_into_a_box_a_later_turn_filled_is_refused_with_the_reason(client: Client):
    table = start(client, "Ada")
    assert score(client, table, with_dice(client, table, "22256"), "twos") == 303
    assert score(client, table, with_dice(client, table, "33356"), "threes") == 303

    page = with_dice(client, table, "33312", correct="1")
    response = client.post(table + "act/", {**hidden(boxes_form(page)), "box": "threes"})
    assert response.status_code == 422
    assert "With this correction, entry 2 would break a rule" in html_lib.unescape(response.content.decode())


def test_a_refused_typed_entry_keeps_its_panel_open_with_what_was_typed(client: Client):
    table = start(client, "Ada", "Ben")
    page = client.get(table).content.decode()
    at = page.index('class="yz-points__form"')
    form = page[page.rfind("<form", 0, at) : page.index("</form>", at)]
    response = client.post(table + "act/", {**hidden(form), "box": "full_house", "points": "24"})
    assert response.status_code == 422
    html = response.content.decode()
    assert '<details class="yz-points" open>' in html
    assert 'name="points" type="text" inputmode="numeric" maxlength="2" autocomplete="off" value="24"' in html
    assert '<option value="full_house" selected>' in html
