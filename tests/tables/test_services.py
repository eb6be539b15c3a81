"""The one write path, called directly: match_create, match_act, the log, the device links."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from marquoir.games.pickomino import TILES
from marquoir.keepers.pickomino.keeper import KEEPER
from marquoir.keepers.pickomino.state import state_json
from marquoir.tables import live, services
from marquoir.tables.actions import ActionRequest
from marquoir.tables.actions import parse_action as parse_request
from marquoir.tables.capabilities import device_can_edit, device_link, device_matches, edit_token_matches
from marquoir.tables.models import DeviceMatch, LogEntry, Match
from marquoir.tables.outcome import ServiceError
from marquoir.tables.selectors import match_view
from marquoir.tables.services import match_create

from .conftest import BUST, UNDO, act_on, create_row, take, take_dice


def parse_action(body: object) -> ActionRequest:
    """The core's parser, for a Pickomino match (a game of the core's tests)."""
    return parse_request(body, KEEPER)


DEVICE = "device-secret-of-ada-phone-0123456789"
OTHER_DEVICE = "device-secret-of-ben-phone-9876543210"


def refusal(row: Match, body: object) -> ServiceError:
    with pytest.raises(ServiceError) as refused:
        act_on(row, body)
    return refused.value


def entries(row: Match) -> list[LogEntry]:
    return list(LogEntry.objects.filter(match=row).order_by("seq"))


def replayed_state(row: Match) -> dict[str, Any]:
    return state_json(match_view(Match.objects.get(pk=row.id)))


# match_create


def test_match_create_stores_the_players_who_starts_and_the_options(db):
    row, _token = create_row(["Ada", " Ben "], first=1, options={"shorter_game": True})
    stored = Match.objects.get(pk=row.id)
    assert stored.game == "pickomino"
    assert stored.players == ["Ada", "Ben"]
    assert stored.first == 1
    assert stored.options == {"shorter_game": True, "flip_without_return": False}
    assert (stored.seq, stored.over) == (0, False)


def test_match_create_starts_an_empty_log(row):
    assert entries(row) == []
    assert replayed_state(row)["seq"] == 0


def test_match_create_stores_nothing_of_the_token(db):
    row, token = create_row()
    stored = [str(getattr(row, field.attname)) for field in Match._meta.concrete_fields]
    assert all(token not in value for value in stored)
    assert token == services.edit_token_for(row.id)


def test_the_edit_token_depends_on_the_site_secret_and_survives_its_rotation(db, settings):
    row, token = create_row()
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = "a-new-secret-key-for-this-test-only-0123456789abcdef"
    assert edit_token_matches(row, token) is False
    settings.SECRET_KEY_FALLBACKS = [old_key]
    assert edit_token_matches(row, token) is True


def test_match_create_stores_names_in_composed_form(db):
    row, _token = create_row(["Zoe\u0308", "Ben"])
    assert row.players == ["Zo\u00eb", "Ben"]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        pytest.param({"game": "chess"}, "unknown_game", id="unknown game"),
        pytest.param({"players": "Ada"}, "bad_players", id="players as text"),
        pytest.param({"players": {"Ada": 1, "Ben": 2}}, "bad_players", id="players as an object"),
        pytest.param({"players": ["Ada", None]}, "bad_players", id="a name not text"),
        pytest.param({"players": ["Ada"]}, "player_count", id="one player"),
        pytest.param({"players": [f"P{i}" for i in range(8)]}, "player_count", id="eight players"),
        pytest.param({"players": ["Ada", " "]}, "name_empty", id="blank name"),
        pytest.param({"players": ["Ada", "x" * 41]}, "name_too_long", id="41 characters"),
        pytest.param({"players": ["Ada", "ADA"]}, "name_twice", id="same name in capitals"),
        pytest.param({"players": ["Zo\u00eb", "Zoe\u0308"]}, "name_twice", id="same name decomposed"),
        pytest.param({"players": ["Ada", "B\nen"]}, "name_characters", id="line break in a name"),
        pytest.param({"first": 3}, "first_player", id="first beyond the players"),
        pytest.param({"first": False}, "first_player", id="first as a boolean"),
        pytest.param({"options": {"house_rule": True}}, "unknown_option", id="unknown option"),
        pytest.param({"options": {"shorter_game": 1}}, "bad_options", id="option as a number"),
        pytest.param({"options": "shorter_game"}, "bad_options", id="options as text"),
    ],
)
def test_match_create_refuses_a_bad_match_saying_why(db, fields, reason):
    arguments: dict[str, Any] = {"game": "pickomino", "players": ["Ada", "Ben", "Cy"], **fields}
    with pytest.raises(ServiceError) as refused:
        match_create(**arguments)
    assert (refused.value.code, refused.value.reason) == ("invalid", reason)
    assert Match.objects.count() == 0


# match_act and the log


@pytest.mark.parametrize(
    ("prepare", "body", "code"),
    [
        pytest.param([], take(27, False), "no_worm", id="no_worm"),
        pytest.param([], take(20), "nothing_to_take", id="nothing_to_take"),
        pytest.param([take(27)], take(26, True, 0), "not_stealable", id="not_stealable"),
        pytest.param([], take(27, True, 1), "not_stealable", id="steal from an empty stack"),
        pytest.param([], UNDO, "nothing_to_undo", id="nothing_to_undo"),
        pytest.param([take(27), UNDO], UNDO, "nothing_to_undo", id="nothing left to undo"),
        pytest.param([take(27)], {**BUST, "expected_seq": 0}, "conflict", id="conflict"),
        pytest.param([], take(41), "invalid", id="total out of range"),
        pytest.param([], take(27, True, 5), "invalid", id="no such player"),
    ],
)
def test_a_refused_action_leaves_no_log_entry_and_the_seq_as_it_was(row, prepare, body, code):
    for earlier in prepare:
        act_on(row, earlier)
    before = entries(row)
    seq = Match.objects.get(pk=row.id).seq
    assert refusal(row, body).code == code
    assert entries(row) == before
    assert [entry.undone_by for entry in entries(row)] == [entry.undone_by for entry in before]
    assert Match.objects.get(pk=row.id).seq == seq


def test_an_action_after_the_end_is_match_over_and_leaves_no_entry(db):
    row, _token = create_row(["Ada", "Ben"])
    for tile in reversed(TILES):
        act_on(row, take(tile))
    assert Match.objects.get(pk=row.id).over is True
    for body in (take(27), BUST):
        assert refusal(row, body).code == "match_over"
    assert len(entries(row)) == 16


def test_acting_on_an_unknown_match_is_not_found(db):
    with pytest.raises(ServiceError) as refused:
        act_on(Match(id="no-such-match"), BUST)
    assert refused.value.code == "not_found"


def test_an_accepted_action_appends_one_entry_with_its_payload(row):
    result = act_on(row, take_dice({"worm": 2, "5": 3, "3": 1}, action_id="turn-1"))
    [entry] = entries(row)
    assert entry == result.entry
    assert (entry.seq, entry.kind, entry.payload["type"], entry.action_id) == (1, "action", "take", "turn-1")
    assert entry.payload == {
        "type": "take",
        "total": 28,
        "worm": True,
        "from": "grill",
        "dice": {"3": 1, "5": 3, "worm": 2},
    }
    assert (entry.undone_by, entry.undoes) == (None, None)
    assert result.replayed is False


def test_each_entry_keeps_no_state_yet_gives_back_the_state_it_answered(row):
    # Issue 18: a whole State per entry grew the log without bound; the answer is folded again.
    answered = []
    for body in (take(27), BUST, UNDO):
        result = act_on(row, body)
        answered.append((result.entry.pk, result.state))
    row.refresh_from_db()
    for pk, state in answered:
        stored = LogEntry.objects.get(pk=pk)
        assert stored.response is None
        assert services.answer_of(row, stored) == state


def test_undo_marks_the_entry_undone_and_appends_an_undo_entry(row):
    act_on(row, take(27))
    act_on(row, UNDO)
    take_entry, undo_entry = entries(row)
    assert (take_entry.kind, take_entry.payload["type"], take_entry.undone_by) == ("action", "take", 2)
    assert (undo_entry.kind, undo_entry.seq, undo_entry.undoes, undo_entry.undone_by) == ("undo", 2, 1, None)


def test_undo_takes_back_the_last_entry_still_in_force(row):
    for body in (take(27), take(30), UNDO, BUST, UNDO, UNDO):
        act_on(row, body)
    marks = [(entry.seq, entry.kind, entry.undoes, entry.undone_by) for entry in entries(row)]
    assert marks == [
        (1, "action", None, 6),
        (2, "action", None, 3),
        (3, "undo", 2, None),
        (4, "action", None, 5),
        (5, "undo", 4, None),
        (6, "undo", 1, None),
    ]
    assert replayed_state(row)["players"] == [
        {"name": "Ada", "stack": [], "worms": 0, "score": 0},
        {"name": "Ben", "stack": [], "worms": 0, "score": 0},
        {"name": "Cy", "stack": [], "worms": 0, "score": 0},
    ]


def test_history_is_never_deleted_and_only_grows(row):
    counts = []
    for body in (take(27), UNDO, take(27), take(27, True, 0), UNDO, UNDO, BUST):
        act_on(row, body)
        counts.append(LogEntry.objects.filter(match=row).count())
    assert counts == [1, 2, 3, 4, 5, 6, 7]
    assert [entry.seq for entry in entries(row)] == [1, 2, 3, 4, 5, 6, 7]
    assert entries(row)[0].payload == {"type": "take", "total": 27, "worm": True, "from": "grill"}


def test_replaying_the_log_gives_the_state_each_answer_gave(row):
    bodies = [take(27), take(27, True, 0), BUST, UNDO, take(30), BUST, BUST, UNDO, UNDO, take(33), BUST]
    for body in bodies:
        result = act_on(row, body)
        assert replayed_state(row) == result.state
        assert result.view is not None
        assert state_json(result.view) == result.state


def test_the_match_row_follows_the_seq_and_the_end(db):
    row, _token = create_row(["Ada", "Ben"])
    for tile in reversed(TILES):
        act_on(row, take(tile))
    assert (Match.objects.get(pk=row.id).seq, Match.objects.get(pk=row.id).over) == (16, True)
    act_on(row, UNDO)
    assert (Match.objects.get(pk=row.id).seq, Match.objects.get(pk=row.id).over) == (17, False)


def test_a_stale_expected_seq_is_a_conflict_saying_the_current_seq(row):
    act_on(row, take(27))
    error = refusal(row, {**BUST, "expected_seq": 0})
    assert error.code == "conflict"
    assert error.params == {"expected": 0, "seq": 1}


def test_a_retried_action_id_is_answered_as_a_replay_of_the_first_entry(row):
    first = act_on(row, {**take(27), "action_id": "turn-1"})
    again = act_on(row, {**take(27), "action_id": "turn-1"})
    assert again.replayed is True
    assert again.entry.pk == first.entry.pk
    assert again.state == first.state
    assert len(entries(row)) == 1


def another_phone_writes_between_read_and_write(monkeypatch, body: dict[str, Any]) -> list[str]:
    """Make the next action's unlocked reading go stale: right after it, another request
    records ``body`` on the same match (as a second phone would). Returns the calls seen:
    each working out of an action, outside the write's transaction (unlocked) or inside it,
    the row locked."""
    real_prepare = services._prepare
    calls: list[str] = []
    outside = len(connection.atomic_blocks)  # the test's own transaction, if any

    def prepare(row: Match, *args: Any) -> Any:
        prepared = real_prepare(row, *args)
        calls.append("locked" if len(connection.atomic_blocks) > outside else "unlocked")
        if calls == ["unlocked"]:
            services.match_act(match_id=row.pk, request=parse_action(body)).or_raise()
        return prepared

    monkeypatch.setattr(services, "_prepare", prepare)
    return calls


def test_an_action_read_before_another_write_is_worked_out_again_on_the_new_state(row, monkeypatch):
    calls = another_phone_writes_between_read_and_write(monkeypatch, take(27))
    result = act_on(row, BUST)  # no expected_seq: it applies to the match as it now is
    assert calls == ["unlocked", "unlocked", "locked"]
    assert [(entry.seq, entry.payload["type"]) for entry in entries(row)] == [(1, "take"), (2, "bust")]
    assert result.state["seq"] == 2
    assert result.state == replayed_state(row)
    assert result.state["players"][0]["stack"] == [27]
    assert result.state["current"] == 2  # Ada took 27, Ben busted: Cy's turn


def test_an_action_read_before_another_write_with_its_expected_seq_is_a_conflict(row, monkeypatch):
    another_phone_writes_between_read_and_write(monkeypatch, take(27))
    error = refusal(row, {**BUST, "expected_seq": 0})
    assert error.code == "conflict"
    assert error.params == {"expected": 0, "seq": 1}
    assert [(entry.seq, entry.payload["type"]) for entry in entries(row)] == [(1, "take")]


def test_a_retry_read_before_its_first_attempt_was_written_is_a_replay(row, monkeypatch):
    another_phone_writes_between_read_and_write(monkeypatch, {**take(27), "action_id": "turn-1"})
    again = act_on(row, {**take(27), "action_id": "turn-1"})
    assert again.replayed is True
    assert len(entries(row)) == 1


def test_watchers_are_nudged_with_the_new_seq_once_an_action_is_committed(
    row, monkeypatch, django_capture_on_commit_callbacks
):
    nudged: list[tuple[str, int]] = []
    monkeypatch.setattr(live, "nudge_after_commit", lambda match_id, seq: nudged.append((match_id, seq)))
    with django_capture_on_commit_callbacks(execute=True):
        act_on(row, take(27))
        assert nudged == [], "nobody hears of an action before it is committed"
    with django_capture_on_commit_callbacks(execute=True):
        act_on(row, BUST)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(ServiceError):
        act_on(row, take(27, False))
    assert nudged == [(row.id, 1), (row.id, 2)]


# The edit token


def test_edit_token_matches_the_right_token_only(db):
    row, token = create_row()
    other, other_token = create_row()
    assert edit_token_matches(row, token) is True
    assert edit_token_matches(row, token + "x") is False
    assert edit_token_matches(row, token.upper() if token.upper() != token else token.lower()) is False
    assert edit_token_matches(row, other_token) is False
    assert edit_token_matches(other, token) is False
    assert edit_token_matches(row, row.id) is False


@pytest.mark.parametrize("token", ["", None])
def test_edit_token_matches_no_empty_token(row, token):
    assert edit_token_matches(row, token) is False


# This device and its matches


def test_a_device_linked_to_keep_score_can_edit(row):
    device_link(device_secret=DEVICE, match=row, can_edit=True)
    assert device_can_edit(device_secret=DEVICE, match=row) is True


def test_a_device_linked_to_watch_cannot_edit(row):
    device_link(device_secret=DEVICE, match=row, can_edit=False)
    assert device_can_edit(device_secret=DEVICE, match=row) is False


def test_linking_again_grants_edit_but_never_takes_it_away(row):
    device_link(device_secret=DEVICE, match=row, can_edit=False)
    device_link(device_secret=DEVICE, match=row, can_edit=True)
    assert device_can_edit(device_secret=DEVICE, match=row) is True
    device_link(device_secret=DEVICE, match=row, can_edit=False)
    assert device_can_edit(device_secret=DEVICE, match=row) is True
    assert DeviceMatch.objects.filter(match=row).count() == 1


def test_another_device_cannot_edit(row):
    device_link(device_secret=DEVICE, match=row, can_edit=True)
    assert device_can_edit(device_secret=OTHER_DEVICE, match=row) is False


def test_the_edit_right_is_for_the_linked_match_only(db):
    row, other = create_row()[0], create_row()[0]
    device_link(device_secret=DEVICE, match=row, can_edit=True)
    assert device_can_edit(device_secret=DEVICE, match=other) is False


@pytest.mark.parametrize("secret", ["", None])
def test_a_device_without_a_secret_can_edit_nothing_and_has_no_matches(row, secret):
    device_link(device_secret=DEVICE, match=row, can_edit=True)
    assert device_can_edit(device_secret=secret, match=row) is False
    assert device_matches(device_secret=secret) == []


def test_the_device_secret_is_stored_as_a_digest(row):
    device_link(device_secret=DEVICE, match=row, can_edit=True)
    link = DeviceMatch.objects.get(match=row)
    assert link.device_digest == services.digest(DEVICE)
    assert DEVICE not in link.device_digest


def test_device_matches_lists_the_most_recently_played_first_with_the_edit_right(db):
    older, newer = create_row()[0], create_row()[0]
    device_link(device_secret=DEVICE, match=older, can_edit=True)
    device_link(device_secret=DEVICE, match=newer, can_edit=False)
    Match.objects.filter(pk=older.id).update(updated_at=timezone.now() - datetime.timedelta(hours=1))
    assert [(match.id, can_edit) for match, can_edit in device_matches(device_secret=DEVICE)] == [
        (newer.id, False),
        (older.id, True),
    ]
    act_on(older, take(27))
    assert [match.id for match, _ in device_matches(device_secret=DEVICE)] == [older.id, newer.id]


def test_device_matches_lists_only_this_devices_matches(db):
    mine, theirs = create_row()[0], create_row()[0]
    device_link(device_secret=DEVICE, match=mine, can_edit=True)
    device_link(device_secret=OTHER_DEVICE, match=theirs, can_edit=True)
    assert [match.id for match, _ in device_matches(device_secret=DEVICE)] == [mine.id]


def test_device_matches_stops_at_the_limit(db):
    for _ in range(4):
        device_link(device_secret=DEVICE, match=create_row()[0], can_edit=True)
    assert len(device_matches(device_secret=DEVICE, limit=3)) == 3
    assert len(device_matches(device_secret=DEVICE)) == 4
