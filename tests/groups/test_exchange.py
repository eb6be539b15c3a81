"""A group's export (BG Stats-shaped JSON, CSV) and its import, hostile files included."""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import json
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from marquoir.groups import exchange
from marquoir.groups.exchange import ImportRefused, read_export
from marquoir.groups.records import Member, PlayRecord
from marquoir.tables.summary import MatchSummary

MEMBERS = [Member(11, "Ada"), Member(12, "Ben"), Member(13, "Cy"), Member(14, "Dee")]  # Dee never played
BGG_IDS = {"pickomino": 15818, "yahtzee": 2243, "tarot": None, "sheet": None}
KNOWN = {15818: ("pickomino", "Pickomino"), 2243: ("yahtzee", "Yahtzee")}
T0 = datetime(2026, 8, 1, 19, 0, 0, tzinfo=UTC)


def uid(n: int) -> str:
    return str(uuid.UUID(int=n, version=4))


PICKOMINO = PlayRecord(
    id=uid(1),
    game="pickomino",
    game_name="Pickomino",
    started_at=T0,
    ended_at=T0 + timedelta(minutes=24, seconds=58),
    members=(11, 12, 13),
    first=2,
    summary=MatchSummary(
        scores=(12.0, 12.0, 5.0),
        ranks=(1, 1, 3),
        winners=(0, 1),  # a shared win
        figures=({"busts": 2, "steals": 1, "best": 33}, {"busts": 0, "steals": 0, "best": 28}, {"busts": 4}),
        over=True,
    ),
    match_id=uid(101),
)
TAROT = PlayRecord(
    id=uid(2),
    game="tarot",
    game_name="French Tarot",
    started_at=T0 + timedelta(days=1),
    ended_at=T0 + timedelta(days=1, hours=1, minutes=2, seconds=3),
    members=(13, 11, 12),
    first=0,
    summary=MatchSummary(
        scores=(40.5, -20.5, -20.0),
        ranks=(1, 3, 2),
        winners=(0,),
        figures=({"takes": 3}, {"takes": 1}, {"takes": 0}),
        over=True,
    ),
    match_id=uid(102),
)
SKYJO = PlayRecord(
    id=uid(3),
    game="sheet",
    game_name="Skyjo",
    started_at=T0 + timedelta(days=2),
    ended_at=T0 + timedelta(days=2, minutes=40),
    members=(12, 11),
    first=1,
    summary=MatchSummary(
        scores=(30.0, 12.0), ranks=(2, 1), winners=(1,), over=True, title="Skyjo", highest_wins=False
    ),  # lowest wins
    match_id=None,  # a play imported before
    title="Skyjo",  # as kept: a sheet's title
)
UNFINISHED = PlayRecord(
    id=uid(4),
    game="yahtzee",
    game_name="Yahtzee",
    started_at=T0 + timedelta(days=3),
    ended_at=T0 + timedelta(days=3),  # nothing recorded yet: 0 minutes
    members=(11, 13),
    first=0,
    summary=MatchSummary(scores=(0.0, 0.0), ranks=(1, 1), winners=(), figures=({}, {}), over=False),
    match_id=uid(104),
)
PLAYS = [PICKOMINO, TAROT, SKYJO, UNFINISHED]


def exported(plays: list[PlayRecord] = PLAYS, members: list[Member] = MEMBERS) -> dict[str, Any]:
    # Through JSON text and back, as a file goes.
    data: dict[str, Any] = json.loads(
        json.dumps(exchange.export_json("Thursday club", members, plays, bgg_ids=BGG_IDS))
    )
    return data


def read(data: object) -> exchange.ImportedGroup:
    return read_export(data, games_by_bgg_id=KNOWN)


# --- Export as JSON and back -------------------------------------------------------------


def test_the_export_is_shaped_as_a_bg_stats_backup() -> None:
    data = exported()

    assert data["marquoir"] == {"format": 1, "group": "Thursday club"}
    assert data["locations"] == []
    assert data["userInfo"] == {"meRefId": 0}
    # Newest first.
    assert [play["uuid"] for play in data["plays"]] == [uid(4), uid(3), uid(2), uid(1)]
    # One game per (game, name), numbered as the plays meet them.
    assert [(game["id"], game["name"], game["bggId"], game["highestWins"]) for game in data["games"]] == [
        (1, "Yahtzee", 2243, True),
        (2, "Skyjo", 0, False),
        (3, "French Tarot", 0, True),
        (4, "Pickomino", 15818, True),
    ]
    assert all(game["noPoints"] is False and game["cooperative"] is False for game in data["games"])
    # Every member, by member index + 1, Dee too though she has no play.
    assert [(player["id"], player["name"]) for player in data["players"]] == [
        (1, "Ada"),
        (2, "Ben"),
        (3, "Cy"),
        (4, "Dee"),
    ]
    assert len({player["uuid"] for player in data["players"]}) == 4
    again = exported()
    assert [player["uuid"] for player in again["players"]] == [player["uuid"] for player in data["players"]]

    tarot = data["plays"][2]
    assert {key: value for key, value in tarot.items() if key not in {"playerScores", "marquoir"}} == {
        "uuid": uid(2),
        "gameRefId": 3,
        "playDate": "2026-08-02 20:02:03",
        "entryDate": "2026-08-02 20:02:03",
        "durationMin": 62,
        "ignored": False,
        "manualWinner": False,
        "usesTeams": False,
        "rounds": 0,
        "board": "",
    }
    assert tarot["playerScores"] == [
        {
            "playerRefId": 3,
            "score": "40.5",
            "winner": True,
            "startPlayer": True,
            "seatOrder": 0,
            "rank": 1,
            "newPlayer": False,
        },
        {
            "playerRefId": 1,
            "score": "-20.5",
            "winner": False,
            "startPlayer": False,
            "seatOrder": 1,
            "rank": 3,
            "newPlayer": False,
        },
        {
            "playerRefId": 2,
            "score": "-20",
            "winner": False,
            "startPlayer": False,
            "seatOrder": 2,
            "rank": 2,
            "newPlayer": False,
        },
    ]
    assert tarot["marquoir"] == {
        "game": "tarot",
        "matchId": uid(102),
        "startedAt": "2026-08-02T19:00:00+00:00",
        "figures": [{"takes": 3}, {"takes": 1}, {"takes": 0}],
        "over": True,
        "highestWins": True,
        "title": "",  # named by its keeper, in the reader's language
    }
    assert data["plays"][1]["marquoir"]["title"] == "Skyjo"
    assert data["plays"][1]["marquoir"]["matchId"] is None
    assert data["plays"][0]["durationMin"] == 0


def test_a_play_seating_somebody_not_among_the_members_is_a_bug() -> None:
    with pytest.raises(ValueError, match="not among the members"):
        exchange.export_json("G", MEMBERS[:2], [PICKOMINO], bgg_ids=BGG_IDS)


def assert_same_play(imported: exchange.ImportedPlay, record: PlayRecord, members: tuple[str, ...]) -> None:
    names = {member.id: member.name for member in MEMBERS}
    assert imported.uuid == record.id
    assert imported.game == record.game
    # What was kept comes back: a sheet's title, or "" for a game that its keeper names.
    assert imported.game_name == record.title
    assert imported.started_at == record.started_at.replace(microsecond=0)
    assert imported.ended_at == record.ended_at.replace(microsecond=0)
    assert imported.started_at.tzinfo is not None
    assert imported.duration_minutes == record.duration_minutes
    assert [members[seat] for seat in imported.seats] == [names[member] for member in record.members]
    assert imported.first == record.first
    assert imported.match_id == record.match_id
    assert imported.summary == record.summary


def test_the_export_reads_back_as_the_same_plays() -> None:
    group = read(exported())

    assert group.name == "Thursday club"
    # Every member in the group's order, Dee too (a member who has not played yet).
    assert group.members == ("Ada", "Ben", "Cy", "Dee")
    assert [play.uuid for play in group.plays] == [uid(4), uid(3), uid(2), uid(1)]
    by_id = {play.uuid: play for play in group.plays}
    for record in PLAYS:
        assert_same_play(by_id[record.id], record, group.members)
    # Each field the summary holds, spelled out for the trickiest plays.
    assert by_id[uid(1)].summary.winners == (0, 1)
    assert by_id[uid(1)].summary.figures[0] == {"busts": 2, "steals": 1, "best": 33}
    assert by_id[uid(2)].summary.scores == (40.5, -20.5, -20.0)
    assert by_id[uid(3)].summary.highest_wins is False
    assert by_id[uid(3)].summary.title == "Skyjo"
    assert by_id[uid(4)].summary.over is False
    assert by_id[uid(4)].summary.winners == ()


def test_a_round_trip_keeps_the_duration_when_times_have_fractions() -> None:
    # 1 min 29.6 s rounds to 1 minute; the seconds alone (19:00:00 to 19:01:30) would make 2.
    play = PlayRecord(
        id=uid(9),
        game="pickomino",
        game_name="Pickomino",
        started_at=T0.replace(microsecond=400_000),
        ended_at=T0 + timedelta(minutes=1, seconds=30),
        members=(11, 12),
        first=0,
        summary=MatchSummary(scores=(3.0, 1.0), ranks=(1, 2), winners=(0,), over=True),
    )
    assert play.duration_minutes == 1
    [imported] = read(exported([play])).plays
    assert imported.duration_minutes == 1
    assert abs(imported.started_at - play.started_at) <= timedelta(seconds=1)
    assert imported.ended_at == play.ended_at


def test_a_group_without_plays_exports_and_reads_back_with_its_members() -> None:
    group = read(exported([]))
    assert group == exchange.ImportedGroup(name="Thursday club", members=("Ada", "Ben", "Cy", "Dee"), plays=())


# --- CSV ----------------------------------------------------------------------------------


def test_the_csv_has_one_row_per_player_per_play() -> None:
    text = exchange.export_csv(MEMBERS, [PICKOMINO, TAROT])

    assert text.endswith("\r\n")
    assert "\n" not in text.replace("\r\n", "")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows == [
        [
            "play_id",
            "date",
            "game",
            "duration_min",
            "seat",
            "player",
            "score",
            "rank",
            "winner",
            "start_player",
        ],
        [uid(2), "2026-08-02 20:02:03", "French Tarot", "62", "1", "Cy", "40.5", "1", "1", "1"],
        [uid(2), "2026-08-02 20:02:03", "French Tarot", "62", "2", "Ada", "-20.5", "3", "0", "0"],
        [uid(2), "2026-08-02 20:02:03", "French Tarot", "62", "3", "Ben", "-20", "2", "0", "0"],
        [uid(1), "2026-08-01 19:24:58", "Pickomino", "25", "1", "Ada", "12", "1", "1", "0"],
        [uid(1), "2026-08-01 19:24:58", "Pickomino", "25", "2", "Ben", "12", "1", "1", "0"],
        [uid(1), "2026-08-01 19:24:58", "Pickomino", "25", "3", "Cy", "5", "3", "0", "1"],
    ]


def test_the_csv_headers_come_in_the_callers_words() -> None:
    text = exchange.export_csv(MEMBERS, [], names={"player": "Joueur", "score": "Score", "date": "=Date"})
    assert text == "play_id,'=Date,game,duration_min,seat,Joueur,Score,rank,winner,start_player\r\n"


def test_the_csv_guards_against_formula_injection() -> None:
    members = [
        Member(1, '=HYPERLINK("http://x")'),
        Member(2, "+1 Ann"),
        Member(3, "-Bo"),
        Member(4, "@Cy"),
        Member(5, "Dé"),
    ]
    play = PlayRecord(
        id=uid(7),
        game="sheet",
        game_name="=1+2",
        started_at=T0,
        ended_at=T0 + timedelta(minutes=10),
        members=(1, 2, 3, 4, 5),
        first=4,
        summary=MatchSummary(
            scores=(-3.0, 0.0, 2.5, -0.5, 10.0),
            ranks=(4, 3, 2, 5, 1),
            winners=(4,),
            over=True,
            title="=1+2",
        ),
    )
    tabbed = dataclasses.replace(play, id=uid(8), game_name="\tTab")
    text = exchange.export_csv(members, [play, tabbed])
    rows = list(csv.reader(io.StringIO(text, newline="")))[1:]

    assert [(row[2], row[5], row[6]) for row in rows[5:]] == [
        ("'=1+2", '\'=HYPERLINK("http://x")', "-3"),  # a negative score stays a number
        ("'=1+2", "'+1 Ann", "0"),
        ("'=1+2", "'-Bo", "2.5"),
        ("'=1+2", "'@Cy", "-0.5"),
        ("'=1+2", "Dé", "10"),
    ]
    assert {row[2] for row in rows[:5]} == {"'\tTab"}
    assert text.encode("utf-8").decode("utf-8") == text


# --- A plain BG Stats backup -------------------------------------------------------------


def bg_stats_backup() -> dict[str, Any]:
    """What BG Stats itself writes (trimmed): many fields Marquoir ignores, no "marquoir" key."""
    return {
        "games": [
            {"id": 1, "uuid": "g1", "name": "Pickomino", "bggId": 15818, "highestWins": True, "bggYear": 2005},
            {"id": 5, "uuid": "g5", "name": "Azul", "bggId": 230802, "highestWins": True},
            {"id": 9, "uuid": "g9", "name": " Skyjo ", "bggId": 0, "highestWins": False, "cooperative": False},
        ],
        "players": [
            {"id": 7, "uuid": "p7", "name": "Ada", "isAnonymous": False},
            {"id": 9, "uuid": "p9", "name": "Ben"},
            {"id": 12, "uuid": "p12", "name": "Cy"},
            {"id": 30, "uuid": "p30", "name": "Never Played"},
        ],
        "locations": [{"id": 1, "name": "Home"}],
        "plays": [
            {
                "uuid": uid(21).upper(),
                "gameRefId": 1,
                "playDate": "2025-12-24 20:30:00",
                "entryDate": "2025-12-24 21:00:00",
                "durationMin": 30,
                "locationRefId": 1,
                "playerScores": [
                    # Seats listed out of order: seatOrder puts them back.
                    {"playerRefId": 12, "score": "4.5", "winner": False, "seatOrder": 2, "rank": 0},
                    {"playerRefId": 7, "score": "12", "winner": True, "startPlayer": True, "seatOrder": 0},
                    {"playerRefId": 9, "score": "-3", "winner": False, "seatOrder": 1, "rank": 0},
                ],
            },
            {
                "uuid": uid(22),
                "gameRefId": 5,
                "playDate": "2025-12-20 18:00:00",
                "durationMin": 0,
                "playerScores": [
                    {"playerRefId": 9, "score": "50", "winner": True, "rank": 1},
                    {"playerRefId": 7, "score": "50", "winner": True, "rank": 1},
                ],
            },
            {
                "uuid": uid(23),
                "gameRefId": 9,
                "playDate": "2025-12-19 18:00:00",
                "durationMin": 45,
                "playerScores": [
                    {"playerRefId": 7, "score": 30, "winner": False},
                    {"playerRefId": 12, "score": 12, "winner": True},
                    {"playerRefId": 9, "score": "", "winner": False},
                ],
            },
        ],
        "userInfo": {"meRefId": 7},
    }


def test_a_plain_bg_stats_backup_imports() -> None:
    group = read(bg_stats_backup())

    assert group.name == ""
    assert group.members == ("Ada", "Ben", "Cy")  # first met; "Never Played" is left out
    pickomino, azul, skyjo = group.plays

    assert pickomino.uuid == uid(21)  # lower-cased
    assert (pickomino.game, pickomino.game_name) == ("pickomino", "Pickomino")  # a game Marquoir keeps
    assert pickomino.ended_at == datetime(2025, 12, 24, 20, 30, tzinfo=UTC)
    assert pickomino.started_at == datetime(2025, 12, 24, 20, 0, tzinfo=UTC)
    assert pickomino.duration_minutes == 30
    assert pickomino.seats == (0, 1, 2)
    assert pickomino.first == 0
    assert pickomino.match_id is None
    assert pickomino.summary == MatchSummary(
        scores=(12.0, -3.0, 4.5), ranks=(1, 3, 2), winners=(0,), figures=(), over=True, title=None
    )

    assert (azul.game, azul.game_name) == ("sheet", "Azul")  # a BGG id Marquoir does not know
    assert azul.started_at == azul.ended_at
    assert azul.seats == (1, 0)
    assert azul.summary.ranks == (1, 1)
    assert azul.summary.winners == (0, 1)
    assert azul.summary.title == "Azul"

    assert (skyjo.game, skyjo.game_name) == ("sheet", "Skyjo")  # trimmed
    assert skyjo.summary.highest_wins is False
    assert skyjo.summary.scores == (30.0, 12.0, 0.0)  # no score counts 0
    assert skyjo.summary.ranks == (3, 2, 1)  # lowest wins: worked out from the scores
    assert skyjo.summary.winners == (1,)


def test_a_backup_without_any_score_ranks_by_the_winners() -> None:
    data = bg_stats_backup()
    for score in data["plays"][0]["playerScores"]:
        del score["score"]
    assert read(data).plays[0].summary.ranks == (1, 2, 2)


def test_a_file_of_5000_plays_is_read_in_bounded_time() -> None:
    data = exported([PICKOMINO])
    template = data["plays"][0]
    data["plays"] = [{**template, "uuid": uid(1000 + n)} for n in range(exchange.MAX_PLAYS)]

    began = time.perf_counter()
    group = read(data)
    elapsed = time.perf_counter() - began

    assert len(group.plays) == 5000
    assert elapsed < 10  # about a tenth of a second; generous for a busy machine


# --- Refusals -----------------------------------------------------------------------------


def refused(data: object) -> ImportRefused:
    with pytest.raises(ImportRefused) as caught:
        read(data)
    return caught.value


@pytest.mark.parametrize("data", [[], "{}", None, 3, ["games"], b"{}"])
def test_not_an_object_is_refused(data: object) -> None:
    assert refused(data).reason == "not_json_object"


def test_5001_plays_are_refused_before_any_is_read() -> None:
    play = exported([PICKOMINO])["plays"][0]
    data = {"games": [], "players": [], "plays": [play] * 5001}  # one dict, 5,001 times: cheap

    began = time.perf_counter()
    refusal = refused(data)
    assert time.perf_counter() - began < 1

    assert (refusal.reason, refusal.params) == ("too_many_plays", {"count": 5001, "limit": 5000})


def test_too_many_players_and_games_are_refused() -> None:
    data = exported([PICKOMINO])
    data["players"] = [{"id": n, "name": f"P{n}"} for n in range(201)]
    assert (refused(data).reason, refused(data).params) == ("too_many_players", {"count": 201, "limit": 200})
    data = exported([PICKOMINO])
    data["games"] = [{"id": n, "name": f"G{n}"} for n in range(201)]
    assert (refused(data).reason, refused(data).params) == ("too_many_games", {"count": 201, "limit": 200})


Change = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        *parents, last = (int(part) if part.isdigit() else part for part in path.split("."))
        target: Any = data
        for part in parents:
            target = target[part]
        target[last] = value

    return change


def _lone_surrogate() -> str:
    name: str = json.loads('"Ada\\ud800"')
    return name


def _append_to_plays(data: dict[str, Any]) -> None:
    data["plays"].append(copy.deepcopy(data["plays"][0]))


def _eight_seats(data: dict[str, Any]) -> None:
    """Eight players at Pickomino, which takes seven at most."""
    data["players"] += [{"id": n, "name": f"P{n}"} for n in range(5, 9)]
    data["plays"][0]["playerScores"] = [
        dict(data["plays"][0]["playerScores"][0], playerRefId=n, seatOrder=n) for n in range(1, 9)
    ]
    data["plays"][0]["marquoir"]["figures"] = []


def _sixty_five_seats(data: dict[str, Any]) -> None:
    data["plays"][0]["playerScores"] = [dict(data["plays"][0]["playerScores"][0], playerRefId=n) for n in range(65)]


def _same_player_twice(data: dict[str, Any]) -> None:
    data["plays"][0]["playerScores"][1]["playerRefId"] = data["plays"][0]["playerScores"][0]["playerRefId"]


def _duplicate_name(data: dict[str, Any]) -> None:
    data["players"][1]["name"] = " ADA "


def _duplicate_player_id(data: dict[str, Any]) -> None:
    data["players"][1]["id"] = data["players"][0]["id"]


def _no_plays_key(data: dict[str, Any]) -> None:
    del data["plays"]


# Each hostile change to a valid one-play export (Pickomino: Ada, Ben, Cy, player ids 1 to 3,
# game id 1), with the reason and params it must be refused with.
HOSTILE: list[tuple[str, Change, str, dict[str, Any]]] = [
    ("lone surrogate", _set("players.0.name", _lone_surrogate()), "bad_name", {"problem": "characters"}),
    ("control character", _set("players.1.name", "Be\x07n"), "bad_name", {"of": "player", "problem": "characters"}),
    ("bidi override", _set("players.1.name", "\u202eneB"), "bad_name", {"problem": "characters"}),
    ("blank name", _set("players.2.name", " \u200d "), "bad_name", {"problem": "invisible"}),
    ("empty name", _set("players.2.name", "   "), "bad_name", {"problem": "empty"}),
    ("41 characters", _set("players.2.name", "C" * 41), "bad_name", {"problem": "too_long", "limit": 40}),
    ("a megabyte of name", _set("players.2.name", "C" * 2_000_000), "bad_name", {"problem": "too_long"}),
    ("long title", _set("plays.0.marquoir.title", "G" * 61), "bad_name", {"of": "game", "limit": 60}),
    ("blank title", _set("plays.0.marquoir.title", "\u3164"), "bad_name", {"of": "game"}),
    ("bad group name", _set("marquoir.group", "\x00"), "bad_name", {"of": "group"}),
    ("name not text", _set("players.0.name", 3), "bad_field", {"field": "players.0.name", "given": "3"}),
    ("superscript two", _set("plays.0.playerScores.0.score", "²"), "bad_score", {"play": 1, "given": "²"}),
    ("nan", _set("plays.0.playerScores.0.score", "nan"), "bad_score", {"given": "nan"}),
    ("infinite", _set("plays.0.playerScores.1.score", "1e400"), "bad_score", {"given": "1e400"}),
    ("huge", _set("plays.0.playerScores.1.score", "1000000001"), "bad_score", {}),
    ("huge integer", _set("plays.0.playerScores.1.score", 10**30), "bad_score", {}),
    ("float nan", _set("plays.0.playerScores.1.score", float("nan")), "bad_score", {}),
    ("boolean score", _set("plays.0.playerScores.1.score", True), "bad_score", {"given": "true"}),
    ("arabic digits", _set("plays.0.playerScores.1.score", "١٢"), "bad_score", {}),
    ("two numbers", _set("plays.0.playerScores.1.score", "1 2"), "bad_score", {}),
    ("missing player", _set("plays.0.playerScores.2.playerRefId", 99), "unknown_player", {"play": 1, "ref": 99}),
    ("missing game", _set("plays.0.gameRefId", 42), "unknown_game", {"play": 1, "ref": 42}),
    ("game not kept", _set("plays.0.marquoir.game", "chess"), "unsupported_game", {"game": "chess"}),
    ("year 9999", _set("plays.0.playDate", "9999-12-31 23:59:59"), "bad_date", {"play": 1}),
    ("year 1", _set("plays.0.playDate", "0001-01-01 00:00:00"), "bad_date", {}),
    ("30 February", _set("plays.0.playDate", "2026-02-30 10:00:00"), "bad_date", {}),
    ("ISO play date", _set("plays.0.playDate", "2026-08-06T19:16:58"), "bad_date", {}),
    ("date not text", _set("plays.0.playDate", 20260806), "bad_date", {}),
    ("naive start", _set("plays.0.marquoir.startedAt", "2026-08-01T19:00:00"), "bad_date", {}),
    ("start after end", _set("plays.0.marquoir.startedAt", "2026-08-01T20:00:00+00:00"), "bad_date", {}),
    ("start in 9999", _set("plays.0.marquoir.startedAt", "9999-01-01T00:00:00+00:00"), "bad_date", {}),
    ("negative duration", _set("plays.0.durationMin", -5), "bad_field", {"field": "plays.0.durationMin"}),
    ("figures for 2 of 3", _set("plays.0.marquoir.figures", [{}, {}]), "bad_figures", {"play": 1}),
    ("figure key", _set("plays.0.marquoir.figures", [{"b\x00": 1}, {}, {}]), "bad_figures", {}),
    ("huge figure", _set("plays.0.marquoir.figures", [{"b": 10**12}, {}, {}]), "bad_figures", {}),
    ("play id", _set("plays.0.uuid", "../../etc/passwd"), "bad_play_id", {"play": 1}),
    ("same play twice", _append_to_plays, "duplicate_play", {"play": 2, "uuid": uid(1)}),
    ("eight at Pickomino", _eight_seats, "bad_seat_count", {"play": 1, "count": 8, "least": 2, "most": 7}),
    ("65 seats", _sixty_five_seats, "bad_seat_count", {"play": 1, "count": 65, "least": 1, "most": 64}),
    ("no seat", _set("plays.0.playerScores", []), "bad_seat_count", {"count": 0}),
    ("same player twice", _same_player_twice, "player_twice", {"play": 1, "ref": 1}),
    ("names one ignoring case", _duplicate_name, "duplicate_name", {"name": "ADA"}),
    ("ids one", _duplicate_player_id, "duplicate_id", {"kind": "player", "id": 1}),
    ("format 2", _set("marquoir.format", 2), "unsupported_format", {"format": 2}),
    ("no plays", _no_plays_key, "bad_field", {"field": "plays"}),
    ("id as text", _set("plays.0.gameRefId", "1"), "bad_field", {"field": "plays.0.gameRefId", "given": "1"}),
    ("match id", _set("plays.0.marquoir.matchId", "m\x00"), "bad_field", {}),
]


@pytest.mark.parametrize(("change", "reason", "params"), [case[1:] for case in HOSTILE], ids=[c[0] for c in HOSTILE])
def test_a_hostile_file_is_refused_with_its_reason(change: Change, reason: str, params: dict[str, Any]) -> None:
    data = exported([PICKOMINO])
    read(data)  # the file is fine before the change
    change(data)

    refusal = refused(data)

    assert refusal.reason == reason
    assert refusal.params.items() >= params.items()
    for value in refusal.params.values():
        # What is quoted back is short and holds no unpaired surrogate (it must encode).
        if isinstance(value, str):
            assert len(value) <= 81
            value.encode("utf-8")


def test_an_export_of_another_group_refuses_in_the_same_words() -> None:
    refusal = ImportRefused("bad_score", play=3, given="x")
    assert (refusal.reason, refusal.params, str(refusal)) == ("bad_score", {"play": 3, "given": "x"}, "bad_score")


def test_the_largest_export_a_group_can_make_imports_back() -> None:
    """5,000 plays (a group's most) of 20-player score sheets (the most seats of any game),
    with 40-character names: the file stays under the import's limit and reads back whole."""
    from marquoir.groups.presenters import MAX_IMPORT_BYTES
    from marquoir.groups.services import MAX_PLAYS

    members = [Member(number, f"{number:02d}" + "n" * 38) for number in range(20)]
    plays = [
        dataclasses.replace(
            SKYJO,
            id=uid(number + 1),
            members=tuple(member.id for member in members),
            summary=MatchSummary(
                scores=tuple(-999_999.5 for _ in members),
                ranks=tuple(range(1, 21)),
                winners=(0,),
                over=True,
                title="S" * 60,
                highest_wins=False,
            ),
            title="S" * 60,
        )
        for number in range(MAX_PLAYS)
    ]
    text = json.dumps(
        exchange.export_json("G" * 60, members, plays, bgg_ids=BGG_IDS), ensure_ascii=False, separators=(",", ":")
    ).encode()

    assert len(text) < MAX_IMPORT_BYTES
    again = read(json.loads(text))
    assert len(again.plays) == MAX_PLAYS
    assert again.plays[0].game_name == "S" * 60
