"""The turn assistant on the table screen and in the API: off by default, exact, in words."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from marquoir.games.pickomino import Face, TurnDice
from marquoir.games.pickomino.odds import Table, advise
from marquoir.tables import services
from marquoir.tables.models import Match

pytestmark = pytest.mark.django_db


def start(client: Client, *, assistant: bool) -> str:
    data = {"name_0": "Ada", "name_1": "Ben", "first": "0"} | ({"assistant": "on"} if assistant else {})
    return client.post("/en/tables/new/pickomino/", data)["Location"]


def test_the_assistant_is_off_unless_the_table_turns_it_on(client: Client):
    table = start(client, assistant=False)
    for pad in ("tiles", "dice"):
        html = client.get(table + f"?pad={pad}").content.decode()
        assert "advice__headline" not in html
        assert "Turn the assistant on (odds and advice)" in html


def test_with_the_assistant_a_fresh_turn_tells_its_worth_and_bust_chance(client: Client):
    table = start(client, assistant=True)
    html = client.get(table + "?pad=dice").content.decode()
    expected = advise(Table(frozenset(range(21, 37))), TurnDice())
    assert f"Roll all 8 dice: this turn is worth {expected.value:+.2f} worms on average" in html
    assert f"with a {round(expected.bust_chance * 100)}% chance of a bust" in html


def test_a_roll_gets_the_best_keep_and_every_choice_with_its_worth(client: Client):
    table = start(client, assistant=True)
    html = client.get(table + "?seq=0&pad=dice&roll=1:1,3:2,5:3,worm:2").content.decode()
    roll = (Face.ONE, Face.THREE, Face.THREE, Face.FIVE, Face.FIVE, Face.FIVE, Face.WORM, Face.WORM)
    expected = advise(Table(frozenset(range(21, 37))), TurnDice(), roll)
    assert expected.best_face is Face.FIVE
    assert "Keep the 3 dice showing 5, then roll again." in html
    assert len(re.findall(r"<li>Keep the [^<]+: worth [+\u2212]\d\.\d\d worms, bust \d+%\.</li>", html)) == 4
    assert "Keep 3 dice showing 5 · advised" in html


def test_keeping_a_face_from_the_roll_keeps_all_its_dice(client: Client):
    table = start(client, assistant=False)
    html = client.get(table + "?seq=0&pad=dice&roll=1:1,3:2,5:3,worm:2&keep=worm").content.decode()
    assert "Kept: 10 · 6 dice left" in html


def test_a_roll_with_no_new_face_is_a_bust(client: Client):
    table = start(client, assistant=True)
    html = client.get(table + "?seq=0&pad=dice&dice=worm:2,5:3&roll=5:2,worm:1").content.decode()
    # Said once, above the pad: with the bust certain, the assistant has nothing to add.
    assert html.count("No new face in this roll: the turn is a bust.") == 1
    assert "advice__headline" not in html
    assert 'class="bust-now"' in html
    assert 'name="reason" value="no_new_face"' in html


def test_a_roll_of_more_dice_than_are_left_is_refused(client: Client):
    table = start(client, assistant=True)
    html = client.get(table + "?seq=0&pad=dice&dice=worm:2&roll=5:7").content.decode()
    assert "A roll throws every die not yet kept." in html


def test_a_face_is_kept_only_from_a_roll_of_every_die_left(client: Client):
    table = start(client, assistant=True)
    partial = client.get(table + "?seq=0&pad=dice&dice=worm:2&roll=5:2").content.decode()
    assert "This roll: 2 of 6 dice" in partial  # entered so far, not refused
    assert "keep=" not in partial
    html = client.get(table + "?seq=0&pad=dice&dice=worm:2&roll=5:2&keep=5").content.decode()
    assert "A roll throws every die not yet kept." in html


def test_only_a_device_keeping_score_can_switch_the_assistant(client: Client):
    table = start(client, assistant=False)
    match = Match.objects.get()
    assert Client().post(table + "assistant/", {"on": "1"}).status_code == 401
    assert client.post(table + "assistant/", {"on": "1"}).status_code == 303
    match.refresh_from_db()
    assert match.assistant
    assert match.seq == 0  # not a game action


def test_the_api_gives_the_same_advice_for_a_described_roll(client: Client):
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    answer = client.get(f"/api/v1/matches/{match.id}/advice?dice=worm:2&roll=1:1,3:2,5:3").json()
    expected = advise(
        Table(frozenset(range(21, 37))),
        TurnDice().keep(Face.WORM, 2),
        (Face.ONE, Face.THREE, Face.THREE, Face.FIVE, Face.FIVE, Face.FIVE),
    )
    assert answer["best_face"] == "5"
    assert answer["value"] == pytest.approx(expected.value)
    assert [keep["face"] for keep in answer["keeps"]] == [keep.face.key for keep in expected.keeps]
    assert answer["total"] == 10
    assert answer["dice_left"] == 6


def test_the_api_advice_refuses_bad_dice_in_the_readers_language(client: Client):
    match, _token = services.match_create(game="pickomino", players=["Ada", "Ben"])
    response = client.get(f"/api/v1/matches/{match.id}/advice?dice=worm:2,worm:1", headers={"accept-language": "fr"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid"
    assert "face" in response.json()["error"]["message"]


def test_the_advice_is_in_the_openapi_schema(client: Client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert "get" in paths["/api/v1/matches/{match_id}/advice"]
