"""Pickomino's table screen tapped as a phone taps it, through Django's test client.

A turn is entered as the table screen enters it: a tap on a claim button of ``#claim-form``
(``claim=<total>:<source>``), on a bust button, or on Undo in the bar; each tap posts the
hidden fields of the form it belongs to (``expected_seq``, ``action_id``).

- `start(client, *names, first=0, lang="en", **options)`: a match made through the set-up
  form; the table's address.
- `claim(client, table, "27:grill")`, `bust(client, table, reason)`, `undo(client, table)`,
  `tap(client, address, marker, **fields)`: the taps.
- `form_of(html, marker)`, `form_fields(html, marker)`, `claim_values(html)`: what a page offers.
- `match_of(table)`: the match row behind a table's address.

The core's page tests (tests/tables/test_pages.py) use them too, Pickomino standing in for
"some game".
"""

from __future__ import annotations

import html as html_lib
import re
from typing import TYPE_CHECKING

from django.test import Client

from marquoir.tables.models import Match

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

__all__ = [
    "BUST_MENU",
    "BUST_NOW",
    "CLAIM_FORM",
    "UNDO_FORM",
    "bust",
    "claim",
    "claim_values",
    "form_fields",
    "form_of",
    "match_of",
    "start",
    "tap",
    "undo",
]


# What names each form of the table screen: a marker in its opening tag, or just before it.
CLAIM_FORM = 'id="claim-form"'
BUST_MENU = '<details class="bust-entry">'
BUST_NOW = 'class="bust-now"'
UNDO_FORM = 'class="bar__undo"'


def start(client: Client, *names: str, first: int = 0, lang: str = "en", **options: str) -> str:
    """Create a match through the set-up form; the table's address."""
    data = {f"name_{seat}": name for seat, name in enumerate(names)} | {"first": str(first)} | options
    response = client.post(f"/{lang}/tables/new/pickomino/" if lang == "en" else "/fr/tables/nouvelle/pickomino/", data)
    assert response.status_code == 303, response.content.decode()[:500]
    return response["Location"]


def form_of(html: str, marker: str) -> str:
    """The ``<form>…</form>`` that ``marker`` names: in its opening tag, or the next form after it."""
    at = html.index(marker)
    begin = html.rfind("<form", 0, at)
    if begin == -1 or "</form>" in html[begin:at] or ">" in html[begin:at]:
        begin = html.index("<form", at)
    return html[begin : html.index("</form>", begin)]


def form_fields(html: str, marker: str) -> dict[str, str]:
    """The hidden fields of the form ``marker`` names, as a tap on one of its buttons sends them."""
    form = form_of(html, marker)
    return {
        name: html_lib.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)
    }


def claim_values(html: str) -> set[str]:
    """The value of every claim button on the page (``27:grill``, ``30:1``)."""
    return set(re.findall(r'name="claim" value="([^"]+)"', html))


def tap(client: Client, address: str, marker: str, **fields: str) -> Response:
    """Open ``address``, then tap a button of the form ``marker`` names, its own fields plus ``fields``."""
    html = client.get(address).content.decode()
    action = re.search(r'action="([^"]+)"', form_of(html, marker))
    assert action
    return client.post(action.group(1), form_fields(html, marker) | fields)


def claim(client: Client, table: str, value: str, address: str | None = None) -> Response:
    """Tap the claim button ``value`` (``27:grill``, ``30:1``) on ``address``, the bare table by default."""
    html = client.get(address or table).content.decode()
    assert value in claim_values(html), f"no claim button {value} on {address or table}"
    return client.post(table + "act/", form_fields(html, CLAIM_FORM) | {"claim": value})


def bust(client: Client, table: str, reason: str = "no_new_face") -> Response:
    """Tap a reason in the bust menu."""
    return tap(client, table, BUST_MENU, reason=reason)


def undo(client: Client, table: str) -> Response:
    """Tap Undo in the bar."""
    return tap(client, table, UNDO_FORM)


def match_of(table: str) -> Match:
    return Match.objects.get(pk=table.rstrip("/").rsplit("/", 1)[1])
