"""The table screen's turn pad: the tile pad, the dice pad, entries bound to the table's ``seq``.

Through Django's test client, as a phone taps: every claim is a button of ``#claim-form``
(``claim=<total>:<source>``), every bust a button with its reason, every step of the dice
pad a link. The address carries the turn being entered; it is dropped, and said so, once
the match has moved on.
"""

from __future__ import annotations

import html as html_lib
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils.translation import override

from marquoir.games.pickomino import TILES, TurnDice
from marquoir.games.pickomino.odds import Table, advise
from marquoir.tables import services
from marquoir.tables.formatting import percent, signed
from marquoir.tables.models import LogEntry
from marquoir.tables.selectors import match_view

from .screen import (
    BUST_MENU,
    BUST_NOW,
    CLAIM_FORM,
    bust,
    claim,
    claim_values,
    form_fields,
    match_of,
    start,
    tap,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
DROPPED = "the turn being entered here was dropped"
# An entry with no seq, or one that is not a number, was never made on this table.
NOT_FOR_THIS_TABLE = "This address holds a turn that was not entered on this table as it is now: it was dropped."
ALREADY_RECORDED = "This turn was already recorded from another device"


def state_of(client: Client, table: str) -> dict[str, Any]:
    """The match's State from the API (``GET /api/v1/matches/<id>``)."""
    response = client.get(f"/api/v1/matches/{match_of(table).id}")
    assert response.status_code == 200
    state: dict[str, Any] = response.json()
    return state


def second_phone(table: str) -> Client:
    """Another phone keeping score at the same table (joined with the edit token)."""
    phone = Client()
    match_id = match_of(table).id
    joined = phone.post(f"/en/tables/{match_id}/join/", {"key": services.edit_token_for(match_id)})
    assert joined.status_code == 303
    return phone


def page(client: Client, address: str, **headers: str) -> str:
    response = client.get(address, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


class _Links(HTMLParser):
    """The ``<a>`` of one class: (aria-label or text, href)."""

    def __init__(self, css_class: str) -> None:
        super().__init__()
        self.css_class = css_class
        self.found: list[tuple[str, str]] = []
        self._open: dict[str, str] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "a" and self.css_class in attributes.get("class", "").split():
            self._open, self._text = attributes, []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            label = self._open.get("aria-label") or "".join(self._text).strip()
            self.found.append((label, self._open["href"]))
            self._open = None


def links(html: str, css_class: str) -> dict[str, str]:
    """The links of class ``css_class`` by their aria-label or text, with their address."""
    parser = _Links(css_class)
    parser.feed(html)
    return dict(parser.found)


def prompt(html: str) -> str:
    found = re.search(r'<p class="pad__prompt[^"]*">([^<]*)</p>', html)
    assert found
    return html_lib.unescape(found.group(1))


def bare_pad_claims(state: dict[str, Any]) -> set[str]:
    """What the bare tile pad must offer: each face-up grill tile, each opponent's top tile."""
    offered = {f"{tile['tile']}:grill" for tile in state["grill"] if tile["face"] == "up"}
    for index, player in enumerate(state["players"]):
        if index != state["current"] and player["stack"]:
            offered.add(f"{player['stack'][-1]}:{index}")
    return offered


# The bare tile pad


def test_the_bare_tile_pad_offers_the_face_up_grill_tiles_and_the_opponents_top_tiles_only(client: Client):
    table = start(client, "Ada", "Ben", "Cy")
    claim(client, table, "27:grill")  # Ada
    claim(client, table, "30:grill")  # Ben
    claim(client, table, "25:grill")  # Cy
    bust(client, table, "no_worm")  # Ada gives 27 back; 36 is turned face down
    state = state_of(client, table)
    assert state["current"] == 1
    assert {"tile": 36, "worms": 4, "face": "down"} in state["grill"]

    html = page(client, table)

    offered = claim_values(html)
    assert offered == bare_pad_claims(state)
    assert "25:2" in offered  # Cy's top tile
    assert "27:grill" in offered  # back on the grill
    assert not any(value.endswith(":1") for value in offered)  # never Ben's own top tile (30)
    assert not any(value.startswith("30:") for value in offered)
    assert "36:grill" not in offered  # never a face-down tile
    assert not any(value.endswith(":0") for value in offered)  # Ada has no tile left
    assert "Steal 25 from Cy" in html
    assert prompt(html) == "Tap the tile Ben takes."


def test_one_tap_on_a_grill_tile_of_the_bare_pad_records_a_take_with_that_total(client: Client):
    table = start(client, "Ada", "Ben")
    html = page(client, table)

    response = client.post(table + "act/", form_fields(html, CLAIM_FORM) | {"claim": "30:grill"}, headers=HTMX)

    assert response.status_code == 200
    assert response["HX-Replace-Url"] == table
    assert "Ada took 30 (+3)" in response.content.decode()
    entry = LogEntry.objects.get()
    assert entry.payload == {"type": "take", "total": 30, "worm": True, "from": "grill"}
    state = state_of(client, table)
    assert state["seq"] == 1
    assert state["players"][0]["stack"] == [30]
    assert {"tile": 30, "worms": 3, "face": "up"} not in state["grill"]


def test_one_tap_on_an_opponents_top_tile_of_the_bare_pad_records_the_steal(client: Client):
    table = start(client, "Ada", "Ben")
    claim(client, table, "27:grill")
    html = page(client, table)
    assert "Steal 27 from Ada" in html

    response = client.post(table + "act/", form_fields(html, CLAIM_FORM) | {"claim": "27:0"}, headers=HTMX)

    assert response.status_code == 200
    assert "Ben stole 27 from Ada (+2)" in response.content.decode()
    assert LogEntry.objects.order_by("seq").last().payload == {  # type: ignore[union-attr]
        "type": "take",
        "total": 27,
        "worm": True,
        "from": 0,
    }
    players = state_of(client, table)["players"]
    assert (players[0]["stack"], players[1]["stack"]) == ([], [27])


# A typed total


def test_a_total_equal_to_an_opponents_top_narrows_to_the_steal_and_the_lower_grill_tile(client: Client):
    table = start(client, "Ada", "Ben", "Cy")
    claim(client, table, "27:grill")  # Ada holds 27; Ben rolls 27
    address = table + "?seq=1&total=27&worm=1"

    html = page(client, address)

    assert claim_values(html) == {"27:0", "27:grill"}
    assert "Steal 27 from Ada" in html
    assert "Take 26 from the grill" in html
    assert prompt(html) == "With 27, Ben may take one of these tiles:"
    assert html.count("slot--excluded") == len(TILES) - 2  # every other face-up tile (27 is held)
    response = claim(client, table, "27:grill", address)
    assert response.status_code == 303
    assert LogEntry.objects.order_by("seq").last().payload["total"] == 27  # type: ignore[union-attr]
    assert state_of(client, table)["players"][1]["stack"] == [26]


# Entries made on an older table

STALE_ENTRIES = [
    pytest.param("total=38&worm=1", "38:grill", id="total"),
    pytest.param("pad=dice&dice=worm:3,5:5", "40:grill", id="dice"),
]


@pytest.mark.parametrize(("entry", "entry_claim"), STALE_ENTRIES)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["reload", "htmx"])
def test_an_entry_made_on_an_older_table_is_dropped_and_said_so(client: Client, entry, entry_claim, headers):
    table = start(client, "Ada", "Ben")
    address = f"{table}?seq=0&{entry}"
    assert entry_claim in claim_values(page(client, address))
    claim(second_phone(table), table, "21:grill")  # another phone records Ada's turn

    response = client.get(address, headers=headers)

    html = response.content.decode()
    assert response.status_code == 200
    assert entry_claim not in claim_values(html)
    assert 'name="dice"' not in html
    assert DROPPED in html
    assert "The table changed on another phone (Ada took 21 (+1))" in html
    assert 'data-dropped="1"' in html
    assert response["HX-Replace-Url"] == table
    assert LogEntry.objects.count() == 1


@pytest.mark.parametrize(("entry", "entry_claim"), STALE_ENTRIES)
def test_an_entry_without_seq_counts_as_stale(client: Client, entry, entry_claim):
    table = start(client, "Ada", "Ben")

    response = client.get(f"{table}?{entry}")

    html = response.content.decode()
    assert entry_claim not in claim_values(html)
    assert NOT_FOR_THIS_TABLE in html
    assert "The table changed on another phone" not in html  # nothing changed: no false news
    assert 'data-dropped="1"' in html
    assert response["HX-Replace-Url"] == table


def test_a_total_in_the_address_is_read_on_a_device_that_remembers_the_dice_pad(client: Client):
    table = start(client, "Ada", "Ben")
    client.get(table + "?pad=dice")

    assert claim_values(page(client, table + "?seq=0&total=38&worm=1")) == {"38:grill"}
    assert "The total must be a whole number" in page(client, table + "?seq=0&total=%C2%B2")


def test_the_current_entry_is_kept_and_the_address_left_alone(client: Client):
    table = start(client, "Ada", "Ben")
    response = client.get(f"{table}?seq=0&total=38&worm=1", headers=HTMX)
    html = response.content.decode()
    assert claim_values(html) == {"38:grill"}
    assert DROPPED not in html
    assert "HX-Replace-Url" not in response
    assert "data-dropped" not in html


def test_a_page_redrawn_after_another_phone_recorded_the_steal_drops_the_total_it_held(client: Client):
    table = start(client, "Ada", "Ben", "Cy")
    claim(client, table, "26:grill")  # Ada holds 26
    phone_b = second_phone(table)
    address_b = table + "?seq=1&total=26&worm=1"  # B: Ben rolled 26
    assert claim_values(page(phone_b, address_b)) == {"26:0", "26:grill"}  # steal 26, or take 25

    claim(client, table, "26:0")  # A records it first: Ben steals 26 from Ada; Cy's turn
    html = page(phone_b, address_b, **HTMX)  # B's live redraw, with B's address

    # Had the entry survived, Cy would be offered "steal 26 from Ben" for B's total of 26.
    assert "With 26, Cy may" not in html
    assert prompt(html) == "Tap the tile Cy takes."
    assert re.search(r'<input id="total" name="total"[^>]* value=""', html)  # the total field is empty
    assert "slot--excluded" not in html
    assert claim_values(html) == bare_pad_claims(state_of(client, table)) != {"26:1", "26:grill"}
    assert "The table changed on another phone (Ben stole 26 from Ada (+2))" in html
    assert 'data-dropped="1"' in html


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_a_tap_sent_with_an_old_expected_seq_is_refused_and_records_nothing(client: Client, headers):
    table = start(client, "Ada", "Ben")
    phone_b = second_phone(table)
    old_page = page(phone_b, table)
    claim(client, table, "27:grill")  # phone A records Ada's turn first
    before = state_of(client, table)

    response = phone_b.post(table + "act/", form_fields(old_page, CLAIM_FORM) | {"claim": "30:grill"}, headers=headers)

    assert response.status_code == 409
    assert ALREADY_RECORDED in response.content.decode()
    assert response["HX-Replace-Url"] == table
    assert LogEntry.objects.count() == 1
    assert state_of(client, table) == before


# Busts


@pytest.mark.parametrize(
    ("entry", "reason"),
    [
        pytest.param("pad=dice&dice=worm:2,5:3&roll=5:2,worm:1", "no_new_face", id="roll-with-no-new-face"),
        pytest.param("total=30", "no_worm", id="total-without-worm"),
        pytest.param("pad=dice&dice=1:1,2:1,3:1,4:1,5:4", "no_worm", id="eight-dice-without-worm"),
        pytest.param("total=12&worm=1", "nothing_to_claim", id="total-below-the-grill"),
        pytest.param("pad=dice&dice=worm:1,1:7", "nothing_to_claim", id="eight-dice-below-the-grill"),
    ],
)
def test_the_one_tap_bust_records_the_reason_the_entry_knows(client: Client, entry, reason):
    table = start(client, "Ada", "Ben")
    address = f"{table}?seq=0&{entry}"
    html = page(client, address)
    assert form_fields(html, BUST_NOW)["reason"] == reason
    assert 'class="bust-entry"' not in html  # no menu: the reason is known
    assert not claim_values(html)

    response = tap(client, address, BUST_NOW)

    assert response.status_code == 303
    entry_row = LogEntry.objects.get()
    assert entry_row.payload == {"type": "bust", "reason": reason}


@pytest.mark.parametrize("reason", ["no_new_face", "no_worm", "nothing_to_claim"])
def test_the_bust_menu_offers_the_three_reasons_and_records_the_one_tapped(client: Client, reason):
    table = start(client, "Ada", "Ben")
    html = page(client, table)
    assert 'class="bust-now"' not in html
    menu = html[html.index(BUST_MENU) : html.index("</details>", html.index(BUST_MENU))]
    assert re.findall(r'name="reason" value="([^"]+)"', menu) == ["no_new_face", "no_worm", "nothing_to_claim"]

    response = bust(client, table, reason)

    assert response.status_code == 303
    assert LogEntry.objects.get().payload == {"type": "bust", "reason": reason}


# Hostile input

NOT_ASCII_DIGITS = [
    pytest.param("²", id="superscript-two"),
    pytest.param("٣", id="arabic-indic-three"),
    pytest.param("１２", id="full-width-twelve"),
]


@pytest.mark.parametrize("digits", NOT_ASCII_DIGITS)
@pytest.mark.parametrize(
    ("query", "message"),
    [
        pytest.param({"total": "{}"}, "The total must be a whole number from 5 to 40", id="total"),
        pytest.param({"pad": "dice", "dice": "worm:{}"}, "The kept dice must be given as counts per face.", id="dice"),
        pytest.param({"pad": "dice", "roll": "1:{}"}, "count must be from 0 to 8.", id="roll"),
        pytest.param({"pad": "dice", "dice": "worm:2", "roll": "5:{}"}, "count must be from 0 to 8.", id="roll-2"),
    ],
)
def test_a_page_refuses_digits_that_are_not_ascii_in_the_entry(client: Client, digits, query, message):
    table = start(client, "Ada", "Ben")

    response = client.get(table, {"seq": "0"} | {name: value.format(digits) for name, value in query.items()})

    assert response.status_code == 200
    html = response.content.decode()
    assert message in html
    assert 'class="alert alert--error"' in html
    # Nothing of the refused entry: the pad is the bare one (on the tile pad, every tile).
    assert claim_values(html) == claim_values(client.get(table).content.decode())
    assert LogEntry.objects.count() == 0


@pytest.mark.parametrize("digits", NOT_ASCII_DIGITS)
def test_a_seq_that_is_not_ascii_digits_drops_the_entry(client: Client, digits):
    table = start(client, "Ada", "Ben")

    response = client.get(table, {"seq": digits, "total": "38", "worm": "1"})

    assert response.status_code == 200
    html = response.content.decode()
    assert "38:grill" not in claim_values(html)
    assert NOT_FOR_THIS_TABLE in html
    assert response["HX-Replace-Url"] == table


@pytest.mark.parametrize("digits", NOT_ASCII_DIGITS)
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        pytest.param({"claim": "{}:grill"}, "The total must be a whole number from 5 to 40", id="claim-total"),
        pytest.param({"claim": "27:{}"}, "or the 0-based index of another player", id="claim-source"),
        pytest.param(
            {"claim": "27:grill", "expected_seq": "{}"}, "must be a whole number, 0 or more", id="expected-seq"
        ),
        pytest.param(
            {"claim": "25:grill", "dice": "worm:{}"}, "The kept dice must be given as counts per face.", id="dice"
        ),
        pytest.param({"total": "{}", "worm": "1", "from": "grill"}, "The total must be a whole number", id="total"),
    ],
)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_a_tap_refuses_digits_that_are_not_ascii_and_records_nothing(client: Client, digits, fields, message, headers):
    table = start(client, "Ada", "Ben")
    html = page(client, table)
    sent = form_fields(html, CLAIM_FORM) | {name: value.format(digits) for name, value in fields.items()}

    response = client.post(table + "act/", sent, headers=headers)

    assert response.status_code == 422
    assert message in html_lib.unescape(response.content.decode())
    assert LogEntry.objects.count() == 0
    assert match_of(table).seq == 0


def test_an_absurd_die_count_in_the_roll_is_refused(client: Client):
    table = start(client, "Ada", "Ben")

    html = page(client, table + "?seq=0&pad=dice&roll=1:10000000")

    assert "count must be from 0 to 8." in html_lib.unescape(html)
    assert "This roll: 0 of 8 dice" in html


@pytest.mark.parametrize("name", ["roll", "dice"])
def test_a_ten_thousand_character_roll_or_dice_is_refused(client: Client, name):
    table = start(client, "Ada", "Ben")
    value = ("1:1," * 2500)[:10_000]

    response = client.get(table, {"seq": "0", "pad": "dice", name: value})

    assert response.status_code == 200
    message = {
        "roll": "A roll must be given as counts per face, 8 dice at most.",
        "dice": "The kept dice must be given as counts per face.",
    }[name]
    assert message in response.content.decode()
    refused = client.post(
        table + "act/", form_fields(page(client, table), CLAIM_FORM) | {"claim": "25:grill", "dice": value}
    )
    assert refused.status_code == 422
    assert LogEntry.objects.count() == 0


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["form", "htmx"])
def test_a_lone_surrogate_in_action_id_is_never_a_500(client: Client, headers):
    table = start(client, "Ada", "Ben")
    body = "type=bust&reason=no_new_face&expected_seq=0&action_id=%ED%A0%80x"

    response = client.post(table + "act/", body, content_type="application/x-www-form-urlencoded", headers=headers)

    assert response.status_code in {200, 303, 422}
    for action_id in LogEntry.objects.values_list("action_id", flat=True):
        assert action_id is not None
        action_id.encode("utf-8")  # what was stored is text, not a lone surrogate


def test_a_lone_surrogate_or_a_nul_in_a_field_is_refused_in_words(client: Client):
    table = start(client, "Ada", "Ben")
    for body in [
        "type=take&claim=%ED%A0%80:grill&expected_seq=0&action_id=a",
        "type=take&claim=27:%ED%A0%80&expected_seq=0&action_id=b",
        "type=bust&reason=%ED%A0%80&expected_seq=0&action_id=c",
        "type=bust&reason=no_worm&expected_seq=0&action_id=%00d",
    ]:
        response = client.post(table + "act/", body, content_type="application/x-www-form-urlencoded")
        assert response.status_code == 422, body
        assert 'role="alert"' in response.content.decode()
    assert LogEntry.objects.count() == 0


# The pad this device uses


def test_choosing_the_dice_pad_is_remembered_for_the_bare_address(client: Client):
    table = start(client, "Ada", "Ben")

    chosen = client.get(table + "?pad=dice")

    assert chosen.cookies["marquoir_pad"].value == "dice"
    html = page(client, table)
    assert 'aria-current="page">Dice, roll by roll</a>' in html
    assert 'class="face-pad"' in html
    assert not claim_values(html)
    assert client.get(table + "?pad=tiles").cookies["marquoir_pad"].value == "tiles"
    assert 'aria-current="page">Tiles</a>' in page(client, table)


def test_an_unknown_pad_is_ignored(client: Client):
    table = start(client, "Ada", "Ben")
    response = client.get(table + "?pad=bogus")
    assert "marquoir_pad" not in response.cookies
    assert 'aria-current="page">Tiles</a>' in response.content.decode()

    client.get(table + "?pad=dice")
    response = client.get(table + "?pad=bogus")
    assert "marquoir_pad" not in response.cookies
    assert 'aria-current="page">Dice, roll by roll</a>' in response.content.decode()


# The dice pad


def test_each_face_button_adds_exactly_one_die_to_the_roll(client: Client):
    table = start(client, "Ada", "Ben")
    html = page(client, table + "?pad=dice")
    assert "This roll: 0 of 8 dice" in html
    for shown, label in enumerate(["A die shows 5", "A die shows 5", "A die shows a worm", "A die shows 1"], 1):
        html = page(client, table + links(html, "face-button")[label])
        assert f"This roll: {shown} of 8 dice" in html
    rolled = html[html.index('aria-label="Dice rolled"') :]
    rolled = rolled[: rolled.index("</ul>")]
    assert re.findall(r"<li><span class=\"dice-row__count\">(\d) ×</span> ", rolled) == [
        "1",
        "2",
        "1",
    ]  # one 1, two 5s, one worm
    assert not links(html, "button")  # no keep before the whole roll is in
    assert prompt(html) == "Tap each die of the roll: 4 dice to enter."


def test_a_whole_roll_offers_one_keep_link_per_new_face(client: Client):
    table = start(client, "Ada", "Ben")
    html = page(client, table + "?pad=dice")
    for face in ["1", "3", "3", "5", "5", "5", "a worm", "a worm"]:
        html = page(client, table + links(html, "face-button")[f"A die shows {face}"])
    assert not links(html, "face-button")  # the roll is whole
    assert set(links(html, "button")) == {
        "Keep 1 die showing 1",
        "Keep 2 dice showing 3",
        "Keep 3 dice showing 5",
        "Keep 2 worms",
    }
    assert prompt(html) == "Tap the face Ada keeps."
    # Later in the turn, a face already kept is not offered again.
    html = page(client, table + "?seq=0&pad=dice&dice=worm:2&roll=1:1,5:3,worm:2")
    assert set(links(html, "button")) == {"Keep 1 die showing 1", "Keep 3 dice showing 5"}


def test_keeping_a_face_keeps_all_its_dice(client: Client):
    table = start(client, "Ada", "Ben")
    html = page(client, table + "?seq=0&pad=dice&roll=1:1,3:2,5:3,worm:2")

    html = page(client, table + links(html, "button")["Keep 3 dice showing 5"])

    assert "Kept: 15 · 5 dice left" in html
    assert "This roll: 0 of 5 dice" in html
    # The next roll starts from the three 5s kept, one die per tap.
    next_tap = parse_qs(urlsplit(links(html, "face-button")["A die shows 2"]).query)
    assert next_tap == {"seq": ["0"], "pad": ["dice"], "dice": ["5:3"], "roll": ["2:1"]}


# The assistant on the tile pad


def test_the_assistant_on_the_bare_tile_pad_tells_the_turns_worth(client: Client):
    table = start(client, "Ada", "Ben", assistant="on")
    expected = advise(Table(frozenset(TILES)), TurnDice())

    html = page(client, table)

    assert (
        f"This turn is worth {signed(expected.value)} worms on average, "
        f"with a {percent(expected.bust_chance)} chance of a bust."
    ) in html


def test_the_assistant_names_the_best_claim_for_a_total_offering_a_steal_and_a_grill_tile(client: Client):
    table = start(client, "Ada", "Ben", assistant="on")
    claim(client, table, "27:grill")  # Ada holds 27
    best = Table.of(match_view(match_of(table)).engine.state).claim(27)
    assert best is not None
    tile, steals, value = best
    assert (tile, steals) == (27, True)  # a steal counts twice: 4 against 26's 2 worms

    html = page(client, table + "?seq=1&total=27&worm=1")

    assert claim_values(html) == {"27:0", "27:grill"}
    assert f"Best with 27: steal 27 from Ada (worth {signed(value)} worms)." in html
    assert "A steal counts twice" in html


def test_the_assistant_writes_french_numbers_with_a_decimal_comma(client: Client):
    table = start(client, "Ada", "Ben", lang="fr", assistant="on")
    expected = advise(Table(frozenset(TILES)), TurnDice())
    with override("fr"):
        worth = signed(expected.value)
        steal_worth = signed(4.0)
    assert "," in worth

    html = page(client, table)
    assert f"{worth} vers en moyenne" in html
    assert f"{expected.value:+.2f}" not in html  # no decimal point

    claim(client, table, "27:grill")
    html = page(client, table + "?seq=1&total=27&worm=1")
    assert f"voler le 27 à Ada (vaut {steal_worth} vers)" in html
