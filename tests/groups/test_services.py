"""A group's services on the database: making one, its players, attaching, refreshing and
deleting plays, deleting the group, and an export imported back as a new group."""

from __future__ import annotations

import contextlib
import json
import unicodedata
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from marquoir.groups import exchange, presenters, services
from marquoir.groups.models import DeviceGroup, Group, Member, Play
from marquoir.groups.records import PlayRecord
from marquoir.groups.selectors import members_of, plays_of, stats_of
from marquoir.tables import services as match_services
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.services import ServiceError
from tests.groups.owned import attach_owned

from .conftest import (
    BUST,
    PLAYERS,
    UNDO,
    Made,
    act,
    box,
    counts,
    finished_pickomino,
    finished_sheet,
    finished_tarot,
    finished_yahtzee,
    new_match,
    round_,
    steal,
    take,
)

pytestmark = pytest.mark.django_db


@contextlib.contextmanager
def refused(code: str, reason: str) -> Iterator[None]:
    """The block must raise a ServiceError with this code and reason."""
    with pytest.raises(ServiceError) as caught:
        yield
    assert (caught.value.code, caught.value.reason) == (code, reason)


KEEPER_DEVICE = "the-device-that-keeps-the-score"


def names(group: Group) -> list[str]:
    return [member.name for member in members_of(group)]


def member(group: Group, name: str) -> Member:
    return Member.objects.get(group=group, name=name)


# --- making a group


def test_a_new_group_has_its_name_and_players_trimmed_in_the_order_given() -> None:
    group, key = services.group_create(name="  Thursday night \n", players=[" Cy ", "Ada", "\tBen"])

    group.refresh_from_db()
    assert group.name == "Thursday night"
    assert names(group) == ["Cy", "Ada", "Ben"]
    assert list(Member.objects.filter(group=group).values_list("position", flat=True)) == [0, 1, 2]
    assert key == services.group_key_for(group.id)
    assert services.group_key_matches(group.id, key)


def test_names_are_stored_composed_nfc() -> None:
    decomposed = "Zoe\u0301"  # e + a combining acute accent
    group, _key = services.group_create(name="Cafe\u0301", players=[decomposed])

    assert Group.objects.get(pk=group.id).name == "Café"
    assert names(group) == ["Zoé"]
    assert unicodedata.is_normalized("NFC", names(group)[0])


@pytest.mark.parametrize("players", [["Ada", "ada"], ["Ada", "Ben", "ADA"], ["Zoé", "ZOÉ"], ["Ada", " ada "]])
def test_two_players_with_one_name_ignoring_case_are_refused(players: list[str]) -> None:
    with refused("invalid", "name_twice"):
        services.group_create(name="Thursday", players=players)
    assert Group.objects.count() == 0
    assert Member.objects.count() == 0


@pytest.mark.parametrize("count", [1, 30])
def test_a_group_has_one_to_thirty_players(count: int) -> None:
    players = [f"P{number}" for number in range(count)]

    group, _key = services.group_create(name="Club", players=players)

    assert names(group) == players


@pytest.mark.parametrize("count", [0, 31])
def test_no_player_or_thirty_one_are_refused(count: int) -> None:
    with refused("invalid", "player_count"):
        services.group_create(name="Club", players=[f"P{number}" for number in range(count)])
    assert Group.objects.count() == 0


@pytest.mark.parametrize("name", ["x", "é" * 60, "A²", "👩‍👩‍👧 family"], ids=["one", "sixty", "superscript", "emoji"])
def test_a_group_name_of_one_to_sixty_visible_characters_is_taken(name: str) -> None:
    group, _key = services.group_create(name=name, players=["Ada"])

    assert Group.objects.get(pk=group.id).name == name


def test_sixty_characters_are_counted_once_composed() -> None:
    group, _key = services.group_create(name="e\u0301" * 60, players=["Ada"])  # 120 code points, 60 once NFC

    assert Group.objects.get(pk=group.id).name == "é" * 60


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "group_name_empty"),
        ("   \t ", "group_name_empty"),
        (None, "group_name_empty"),
        (12, "group_name_empty"),
        ("x" * 61, "group_name_too_long"),
        ("Thurs\x00day", "group_name_characters"),
        ("Thurs\x1bday", "group_name_characters"),
        ("\u202eyadsruhT", "group_name_characters"),
        ("\u0301\u0301", "group_name_characters"),  # nothing visible: only combining marks
    ],
    ids=["empty", "blank", "none", "number", "61", "nul", "escape", "bidi-override", "invisible"],
)
def test_a_group_name_that_is_not_one_to_sixty_visible_characters_is_refused(name: object, reason: str) -> None:
    with refused("invalid", reason):
        services.group_create(name=name, players=["Ada"])
    assert Group.objects.count() == 0


@pytest.mark.parametrize("hidden", ["\x00", "\u202e"], ids=["nul", "bidi-override"])
def test_a_control_character_past_the_fortieth_character_of_a_group_name_is_refused_too(hidden: str) -> None:
    with refused("invalid", "group_name_characters"):
        services.group_create(name="x" * 45 + hidden + "y", players=["Ada"])
    assert Group.objects.count() == 0


# --- players


def test_renaming_a_player_keeps_their_plays_and_stats(made: Made) -> None:
    group = made.group
    ada = member(group, "Ada")
    attach_owned(group=group, match_id=finished_sheet(scores=(10, 7, 3)).id)

    services.member_rename(group=group, member_id=ada.pk, name="  Adèle ")

    assert names(group) == ["Adèle", "Ben", "Cy"]
    [play] = plays_of(group)
    assert play.members[0] == ada.pk  # the seat still points at the member
    stats, _plays = stats_of(group)
    best = stats.overall.players[0]
    assert (best.member.id, best.member.name, best.wins) == (ada.pk, "Adèle", 1)
    named = presenters.play_json(play, {m.id: m.name for m in members_of(group)})
    assert [(seat["player_id"], seat["name"]) for seat in named["players"]] == [
        (ada.pk, "Adèle"),
        (member(group, "Ben").pk, "Ben"),
        (member(group, "Cy").pk, "Cy"),
    ]


def test_a_player_may_change_the_case_of_their_own_name(made: Made) -> None:
    ada = member(made.group, "Ada")

    services.member_rename(group=made.group, member_id=ada.pk, name="ADA")

    assert names(made.group) == ["ADA", "Ben", "Cy"]


def test_renaming_to_another_players_name_ignoring_case_is_refused(made: Made) -> None:
    ada = member(made.group, "Ada")

    with refused("invalid", "name_twice"):
        services.member_rename(group=made.group, member_id=ada.pk, name="bEN")
    assert names(made.group) == ["Ada", "Ben", "Cy"]


@pytest.mark.parametrize(
    ("name", "reason"), [("", "name_empty"), ("x" * 41, "name_too_long"), ("A\x07", "name_characters")]
)
def test_a_new_name_follows_the_rules_of_a_players_name(made: Made, name: str, reason: str) -> None:
    ada = member(made.group, "Ada")

    with refused("invalid", reason):
        services.member_rename(group=made.group, member_id=ada.pk, name=name)
    assert names(made.group) == ["Ada", "Ben", "Cy"]


def test_renaming_a_player_of_another_group_is_not_found(made: Made) -> None:
    other, _key = services.group_create(name="Other", players=["Zed"])
    zed = member(other, "Zed")

    for member_id in (zed.pk, 999_999, "1", None, True):
        with refused("not_found", "no_such_member"):
            services.member_rename(group=made.group, member_id=member_id, name="Eve")
    assert names(other) == ["Zed"]


def test_a_new_player_joins_at_the_end(made: Made) -> None:
    added = services.member_add(group=made.group, name=" Dee ")

    assert added.name == "Dee"
    assert added.position == 3
    assert names(made.group) == ["Ada", "Ben", "Cy", "Dee"]


def test_a_new_player_with_a_name_taken_ignoring_case_is_refused(made: Made) -> None:
    with refused("invalid", "name_twice"):
        services.member_add(group=made.group, name="cy")
    assert Member.objects.filter(group=made.group).count() == 3


def test_a_thirty_first_player_is_refused(made: Made) -> None:
    for number in range(27):
        services.member_add(group=made.group, name=f"P{number}")
    assert Member.objects.filter(group=made.group).count() == 30

    with refused("invalid", "too_many_members"):
        services.member_add(group=made.group, name="One more")
    assert Member.objects.filter(group=made.group).count() == 30


# --- attaching matches


def test_an_attached_match_seats_the_members_by_name_ignoring_case(made: Made) -> None:
    group = made.group
    match = finished_sheet(players=("cy", "ADA"), scores=(4, 9))

    play = attach_owned(group=group, match_id=match.id)

    assert play.seats == [member(group, "Cy").pk, member(group, "Ada").pk]
    assert names(group) == ["Ada", "Ben", "Cy"]  # the group's spelling stays
    [record] = plays_of(group)
    assert record.match_id == match.id
    assert record.summary.scores == (4, 9)
    assert record.summary.winners == (1,)
    assert record.game == "sheet"
    assert record.game_name == "Skyjo"


def test_a_name_the_group_does_not_know_becomes_a_member(made: Made) -> None:
    group = made.group
    match = finished_sheet(players=("Ben", "Dee", "Eve"), scores=(1, 2, 3))

    play = attach_owned(group=group, match_id=match.id)

    assert names(group) == ["Ada", "Ben", "Cy", "Dee", "Eve"]
    assert list(Member.objects.filter(group=group).values_list("position", flat=True)) == [0, 1, 2, 3, 4]
    assert play.seats == [member(group, name).pk for name in ("Ben", "Dee", "Eve")]


def test_newcomers_past_thirty_members_are_refused_and_nothing_is_added(made: Made) -> None:
    for number in range(26):
        services.member_add(group=made.group, name=f"P{number}")  # 29 members
    match = finished_sheet(players=("Ada", "New 1", "New 2"), scores=(1, 2, 3))

    with refused("invalid", "too_many_members"):
        attach_owned(group=made.group, match_id=match.id)
    assert Member.objects.filter(group=made.group).count() == 29
    assert Play.objects.count() == 0


def test_a_match_is_in_one_group_at_most(made: Made) -> None:
    other, _key = services.group_create(name="Other", players=["Ada"])
    match = finished_sheet()
    attach_owned(group=made.group, match_id=match.id)
    before = counts()

    with refused("conflict", "already_in_group"):
        attach_owned(group=other, match_id=match.id)
    with refused("conflict", "already_in_group"):
        attach_owned(group=made.group, match_id=match.id)
    assert counts() == before
    assert Play.objects.get().group_id == made.group.id


@pytest.mark.parametrize(
    "proof",
    [
        {},
        {"match_token": "not-the-token"},
        {"match_token": ""},
        {"device_secret": "a-device-that-only-watches-it"},
        {"device_secret": "a-device-nobody-knows-of-enough-length"},
        {"other_match_token": True},
        {"group_key": True},
    ],
)
def test_a_watch_id_alone_never_attaches_a_match(made: Made, proof: dict[str, Any]) -> None:
    match = finished_sheet()
    other = finished_sheet()
    match_services.device_link(device_secret="a-device-that-only-watches-it", match=match, can_edit=False)
    if proof.pop("other_match_token", False):
        proof["match_token"] = match_services.edit_token_for(other.id)
    if proof.pop("group_key", False):
        proof["match_token"] = made.key
    before = counts()

    with refused("forbidden", "match_write_needed"):
        services.play_attach(group=made.group, match_id=match.id, **proof)
    assert counts() == before
    # Nor is the match squatted: its owners' own group can still take it.
    attach_owned(group=made.group, match_id=match.id)


def test_a_phone_that_keeps_the_score_attaches_the_match_by_its_id(made: Made) -> None:
    match = finished_sheet()
    match_services.device_link(device_secret=KEEPER_DEVICE, match=match, can_edit=True)

    play = services.play_attach(group=made.group, match_id=match.id, device_secret=KEEPER_DEVICE)

    assert play.match_id == match.id


@pytest.mark.parametrize("match_id", ["A" * 22, "no such match", "", None, 12, ["x"]])
def test_a_missing_match_is_not_found(made: Made, match_id: object) -> None:
    before = counts()

    with refused("invalid", "no_such_match"):
        services.play_attach(group=made.group, match_id=match_id, match_token="x")
    assert counts() == before


def test_a_match_deleted_since_is_not_found(made: Made) -> None:
    match = finished_sheet()
    Match.objects.filter(pk=match.id).delete()

    with refused("invalid", "no_such_match"):
        attach_owned(group=made.group, match_id=match.id)
    assert Play.objects.count() == 0


# --- the summary follows the match


def test_a_round_played_after_attaching_shows_at_the_next_read(made: Made) -> None:
    match = new_match("sheet", PLAYERS, {"title": "Rummy", "rounds": 2})
    act(match, round_(5, 1, 1))
    attach_owned(group=made.group, match_id=match.id)
    [before] = plays_of(made.group)
    assert before.summary.over is False
    assert before.summary.winners == ()

    act(match, round_(0, 9, 1))  # totals 5, 10, 2: the second round ends it, Ben wins

    [after] = plays_of(made.group)
    assert after.summary.over is True
    assert after.summary.scores == (5, 10, 2)
    assert after.summary.winners == (1,)
    assert after.ended_at == Match.objects.get(pk=match.id).updated_at
    assert Play.objects.get().over is True  # written back, not only read
    stats, _plays = stats_of(made.group)
    assert stats.overall.plays == 1


def test_undoing_the_last_round_of_a_finished_sheet_takes_the_play_out_of_the_stats(made: Made) -> None:
    match = finished_sheet(scores=(10, 7, 3))
    attach_owned(group=made.group, match_id=match.id)
    stats, _plays = stats_of(made.group)
    assert stats.overall.plays == 1
    assert [(line.member.name, line.wins) for line in stats.overall.players] == [("Ada", 1), ("Ben", 0), ("Cy", 0)]

    act(match, UNDO)

    [play] = plays_of(made.group)
    assert play.summary.over is False
    assert play.summary.scores == (0, 0, 0)
    assert play.summary.winners == ()
    assert Play.objects.get().over is False
    stats, plays = stats_of(made.group)
    assert len(plays) == 1  # still in the history…
    assert stats.overall.plays == 0  # …but no longer counted
    assert stats.overall.players == ()
    assert stats.games == ()


def test_an_undone_steal_after_attaching_leaves_the_figures(made: Made) -> None:
    match = new_match("pickomino", ("Ada", "Ben"))
    attach_owned(group=made.group, match_id=match.id)
    act(match, take(30), steal(30, 0))
    [stolen] = plays_of(made.group)
    assert stolen.summary.figures[1]["steals"] == 1

    act(match, UNDO, BUST)  # Ben's steal taken back; he busts instead

    [play] = plays_of(made.group)
    assert play.summary.figures == (
        {"busts": 0, "steals": 0, "best_tile": 30},
        {"busts": 1, "steals": 0, "best_tile": 0},
    )
    assert play.summary.scores == (3, 0)


# --- deleting


def test_deleting_a_play_by_the_phone_that_keeps_its_score_deletes_its_match_and_its_log(made: Made) -> None:
    kept = finished_sheet(scores=(1, 2, 3))
    gone = finished_pickomino()  # 16 actions
    attach_owned(group=made.group, match_id=kept.id)
    play = attach_owned(group=made.group, match_id=gone.id)
    match_services.device_link(device_secret=KEEPER_DEVICE, match=gone, can_edit=True)
    assert LogEntry.objects.filter(match_id=gone.id).count() == 16
    before = counts()

    assert services.play_delete(group=made.group, play_id=play.uuid, device_secret=KEEPER_DEVICE) is True

    assert counts() == before | {
        "plays": before["plays"] - 1,
        "matches": before["matches"] - 1,
        "log": before["log"] - 16,
    }
    assert not Play.objects.filter(pk=play.pk).exists()
    assert not Match.objects.filter(pk=gone.id).exists()
    assert not LogEntry.objects.filter(match_id=gone.id).exists()
    assert [record.match_id for record in plays_of(made.group)] == [kept.id]


@pytest.mark.parametrize("device", [None, "a-device-that-only-watches-it", "a-device-that-keeps-another-one"])
def test_deleting_a_play_without_the_matchs_write_right_only_takes_it_out_of_the_history(
    made: Made, device: str | None
) -> None:
    match = finished_pickomino()
    play = attach_owned(group=made.group, match_id=match.id)
    match_services.device_link(device_secret="a-device-that-only-watches-it", match=match, can_edit=False)
    match_services.device_link(device_secret="a-device-that-keeps-another-one", match=finished_sheet(), can_edit=True)
    before = counts()

    assert services.play_delete(group=made.group, play_id=play.uuid, device_secret=device) is False

    assert counts() == before | {"plays": before["plays"] - 1}
    assert LogEntry.objects.filter(match_id=match.id).count() == 16
    assert match_services.match_act(match_id=match.id, body={"type": "undo"}).applied  # the owners still keep score


def test_deleting_a_play_of_another_group_or_no_play_is_not_found(made: Made) -> None:
    other, _key = services.group_create(name="Other", players=["Ada"])
    theirs = attach_owned(group=other, match_id=finished_sheet(players=("Ada",), scores=(3,)).id)
    before = counts()

    for play_id in (theirs.uuid, "00000000-0000-4000-8000-000000000000", "", None, 3):
        with refused("not_found", "no_such_play"):
            services.play_delete(group=made.group, play_id=play_id)
    assert counts() == before


def test_deleting_the_group_deletes_its_members_plays_device_links_and_the_matches_this_phone_keeps(
    made: Made,
) -> None:
    group = made.group
    other, _key = services.group_create(name="Other", players=["Ada", "Ben"])
    attach_owned(group=other, match_id=finished_sheet(players=("Ada", "Ben"), scores=(1, 2)).id)
    services.device_group_link(device_secret="a-device-secret-of-enough-length", group=other, can_edit=True)
    theirs = counts()
    ours = [finished_sheet(), finished_pickomino(), finished_yahtzee()]
    for match in ours:
        attach_owned(group=group, match_id=match.id)
        match_services.device_link(device_secret=KEEPER_DEVICE, match=match, can_edit=True)
    services.device_group_link(device_secret="a-device-secret-of-enough-length", group=group, can_edit=True)
    services.device_group_link(device_secret="another-device-secret-here", group=group, can_edit=False)
    assert counts()["log"] == theirs["log"] + 1 + 16 + 13

    assert services.group_delete(group=group, device_secret=KEEPER_DEVICE) == 3

    # Exactly the other group's rows are left (Thursday's own row and three members were
    # counted in ``theirs`` too).
    assert counts() == theirs | {"groups": theirs["groups"] - 1, "members": theirs["members"] - 3}
    assert not Group.objects.filter(pk=group.id).exists()
    assert not Member.objects.filter(group_id=group.id).exists()
    assert not Play.objects.filter(group_id=group.id).exists()
    assert not DeviceGroup.objects.filter(group_id=group.id).exists()
    assert not Match.objects.filter(pk__in=[match.id for match in ours]).exists()
    assert not LogEntry.objects.filter(match_id__in=[match.id for match in ours]).exists()


def test_a_match_deleted_elsewhere_takes_its_play_with_it(made: Made) -> None:
    match = finished_sheet()
    attach_owned(group=made.group, match_id=match.id)

    Match.objects.filter(pk=match.id).delete()

    assert plays_of(made.group) == []
    assert Play.objects.count() == 0


# --- export, then import


T0 = datetime(2026, 3, 5, 19, 0, 0, 654_321, tzinfo=UTC)


def dated(match: Match, hours: int, minutes: float) -> Match:
    """The match set ``hours`` after T0 and lasting ``minutes`` (microseconds kept, as a real
    match's times have them): plays that end seconds apart keep their order once exported."""
    start = T0 + timedelta(hours=hours)
    Match.objects.filter(pk=match.id).update(created_at=start, updated_at=start + timedelta(minutes=minutes))
    return Match.objects.get(pk=match.id)


def history_group(made: Made) -> Group:
    """Thursday with plays of three games (and a fourth), one still going, sheets kept both ways."""
    group = made.group
    unfinished = new_match("yahtzee", ("Ben", "Ada"), first=1)
    act(unfinished, box("chance", 6, 6, 6, 5, 5), box("yahtzee", 2, 2, 2, 2, 2))
    matches = [
        dated(finished_sheet(scores=(10, 10, 4), title="Rummy", first=2), 0, 31.4),
        dated(finished_pickomino(("Cy", "Ada")), 1, 24.97),
        dated(finished_sheet(scores=(12, 30, 5), title="Skyjo", lowest_wins=True), 2, 0.2),
        dated(finished_yahtzee("Ben"), 3, 18),
        dated(finished_pickomino(("Ada", "Ben")), 4, 22.5),
        dated(finished_tarot(("Ada", "Ben", "Cy", "Dee")), 5, 40),
        dated(unfinished, 6, 3),
    ]
    for match in matches:
        attach_owned(group=group, match_id=match.id)
    return group


def by_name(group: Group, play: PlayRecord) -> dict[str, Any]:
    """A play as names see it: everything but the member ids and the match."""
    named = {m.id: m.name for m in members_of(group)}
    return {
        "id": play.id,
        "game": play.game,
        "game_name": play.game_name,
        "players": [named[member_id] for member_id in play.members],
        "first": play.first,
        "scores": play.summary.scores,
        "ranks": play.summary.ranks,
        "winners": play.summary.winners,
        "figures": tuple(dict(figures) for figures in play.summary.figures),
        "over": play.summary.over,
        "title": play.summary.title,
        "highest_wins": play.summary.highest_wins,
        "ended_at": play.ended_at.replace(microsecond=0),
        "duration": play.duration_minutes,
        "stats_key": play.stats_key,
    }


def stats_by_name(group: Group) -> dict[str, Any]:
    """``stats_json`` with every member id replaced by the member's name."""
    named = {m.id: m.name for m in members_of(group)}
    stats = presenters.stats_json(stats_of(group)[0])
    for section in [stats["overall"], *stats["games"]]:
        for line in section["players"]:
            line["player_id"] = named[line["player_id"]]
        # Head to head, each pair by name in alphabetical order (the imported group lists
        # its members in the order the plays meet them, so "first" may be the other one).
        pairs = []
        for rivalry in section["head_to_head"]:
            first, second = named[rivalry["first"]], named[rivalry["second"]]
            ahead = (rivalry["first_ahead"], rivalry["second_ahead"])
            if first > second:
                first, second, ahead = second, first, ahead[::-1]
            pairs.append((first, second, rivalry["played"], *ahead, rivalry["level"]))
        section["head_to_head"] = sorted(pairs)
    return stats


def exported(group: Group) -> object:
    """The group's export as a file would carry it: JSON text, read back."""
    data = exchange.export_json(group.name, members_of(group), plays_of(group), bgg_ids=presenters.bgg_ids())
    return json.loads(json.dumps(data))


def test_an_export_imported_back_is_the_same_history(made: Made) -> None:
    original = history_group(made)

    imported, key = presenters.import_file(exported(original))

    assert imported.id != original.id
    assert imported.name == "Thursday"
    assert key == services.group_key_for(imported.id)
    old, new = plays_of(original), plays_of(imported)
    assert len(new) == len(old) == 7
    assert [by_name(imported, play) for play in new] == [by_name(original, play) for play in old]
    for before, after in zip(old, new, strict=True):
        assert after.match_id is None  # an imported play is kept without a match
        assert after.ended_at == before.ended_at.replace(microsecond=0)  # to the second
        assert abs((after.started_at - before.started_at).total_seconds()) < 1
    assert stats_by_name(imported) == stats_by_name(original)


def test_the_import_keeps_every_member_in_the_groups_order_and_seats_by_name(made: Made) -> None:
    services.member_add(group=made.group, name="Never")
    attach_owned(group=made.group, match_id=finished_sheet(players=("Cy", "Ada"), scores=(1, 2)).id)

    imported, _key = presenters.import_file(exported(made.group))

    # Everyone of the group, who played or not, in the group's order.
    assert names(imported) == ["Ada", "Ben", "Cy", "Never"]
    [play] = plays_of(imported)
    assert [Member.objects.get(pk=member_id).name for member_id in play.members] == ["Cy", "Ada"]


def test_importing_one_file_twice_makes_two_groups(made: Made) -> None:
    original = history_group(made)
    data = exported(original)

    first, first_key = presenters.import_file(data)
    second, second_key = presenters.import_file(data)

    assert len({original.id, first.id, second.id}) == 3
    assert first_key != second_key
    ids = [play.id for play in plays_of(original)]
    assert [play.id for play in plays_of(first)] == ids
    assert [play.id for play in plays_of(second)] == ids
    assert Play.objects.filter(uuid=ids[0]).count() == 3
    assert stats_by_name(first) == stats_by_name(second)


def test_a_refused_import_creates_nothing(made: Made) -> None:
    history_group(made)
    data = exported(made.group)
    assert isinstance(data, dict)
    data["plays"][-1]["playerScores"][0]["playerRefId"] = 999
    before = counts()

    with refused("invalid", "import_unknown_player"):
        presenters.import_file(data)
    assert counts() == before


def test_a_group_with_a_sixty_character_name_imports_back(made: Made) -> None:
    group, _key = services.group_create(name="Les joueurs du jeudi soir, salle du fond, près du bar", players=["Ada"])
    assert len(group.name) > 40
    attach_owned(group=group, match_id=finished_sheet(players=("Ada",), scores=(7,)).id)

    imported, _key = presenters.import_file(exported(group))

    assert imported.name == group.name


def test_adding_a_player_is_a_change_of_the_group(made: Made) -> None:
    other, _key = services.group_create(name="Other", players=["Zed"])
    for group in (made.group, other):
        services.device_group_link(device_secret="a-device-secret-of-enough-length", group=group, can_edit=True)
    assert services.device_groups(device_secret="a-device-secret-of-enough-length")[0][0] == other

    services.member_add(group=made.group, name="Dee")

    assert services.device_groups(device_secret="a-device-secret-of-enough-length")[0][0] == made.group


def test_renaming_a_player_is_a_change_of_the_group(made: Made) -> None:
    other, _key = services.group_create(name="Other", players=["Zed"])
    for group in (made.group, other):
        services.device_group_link(device_secret="a-device-secret-of-enough-length", group=group, can_edit=True)
    assert services.device_groups(device_secret="a-device-secret-of-enough-length")[0][0] == other

    services.member_rename(group=made.group, member_id=member(made.group, "Ada").pk, name="Eve")

    assert services.device_groups(device_secret="a-device-secret-of-enough-length")[0][0] == made.group


def test_a_player_whose_name_looks_like_a_members_is_refused(made: Made) -> None:
    with refused("invalid", "name_lookalike"):
        services.member_add(group=made.group, name="\u0410da")  # a Cyrillic А
    assert names(made.group) == ["Ada", "Ben", "Cy"]


def test_a_match_seat_that_looks_like_a_member_sits_as_that_member(made: Made) -> None:
    match = finished_sheet(players=("\u0410da", "\u0412en"), scores=(3, 4))  # Cyrillic А and В

    play = attach_owned(group=made.group, match_id=match.id)

    members = dict(Member.objects.filter(group=made.group).values_list("name", "pk"))
    assert play.seats == [members["Ada"], members["Ben"]]
    assert names(made.group) == ["Ada", "Ben", "Cy"]


def test_a_full_history_refuses_another_match_saying_so(made: Made, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "MAX_PLAYS", 2)
    for _play in range(2):
        attach_owned(group=made.group, match_id=finished_sheet().id)
    before = counts()

    with refused("invalid", "history_full"):
        attach_owned(group=made.group, match_id=finished_sheet().id)
    assert counts() == before | {"matches": before["matches"] + 1, "log": before["log"] + 1}
