"""The "Send to BG Stats" link: one match as BG Stats' createPlay JSON, URL-encoded."""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest

from marquoir.tables import bgstats
from marquoir.tables.summary import MatchSummary

START = datetime(2026, 8, 6, 18, 52, 0, tzinfo=UTC)
END = datetime(2026, 8, 6, 19, 16, 58, tzinfo=UTC)
MATCH_ID = "0b6c7d3e-8f1a-4c2b-9d5e-6f7a8b9c0d1e"


def decoded(link: str) -> dict[str, Any]:
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == bgstats.PUSH_URL
    assert not parts.fragment
    query = parse_qs(parts.query, strict_parsing=True)
    assert list(query) == ["data"]
    [data] = query["data"]
    play: dict[str, Any] = json.loads(data)
    return play


def link(**changes: Any) -> str:
    arguments: dict[str, Any] = {
        "match_id": MATCH_ID,
        "game_key": "pickomino",
        "game_name": "Pickomino",
        "bgg_id": 15818,
        "players": ["Ada", "Ben", "Cy"],
        "summary": MatchSummary(
            scores=(12.0, 7.0, 12.0),
            ranks=(1, 3, 1),
            winners=(0, 2),
            figures=({"busts": 1}, {"busts": 3}, {"busts": 0}),
            over=True,
        ),
        "first": 1,
        "started_at": START,
        "ended_at": END,
    }
    arguments.update(changes)
    return bgstats.push_link(**arguments)


def test_the_link_holds_the_play_field_by_field() -> None:
    play = decoded(link())

    assert play == {
        "sourceName": "Marquoir",
        "sourcePlayId": bgstats.play_id(MATCH_ID),
        "playDate": "2026-08-06 19:16:58",
        "durationMin": 25,  # 24 min 58 s
        "game": {"name": "Pickomino", "sourceGameId": "pickomino", "bggId": 15818, "highestWins": True},
        "players": [
            {
                "name": "Ada",
                "sourcePlayerId": bgstats.player_id("Ada"),
                "score": 12,
                "winner": True,
                "startPlayer": False,
                "seatOrder": 0,
                "rank": 1,
            },
            {
                "name": "Ben",
                "sourcePlayerId": bgstats.player_id("Ben"),
                "score": 7,
                "winner": False,
                "startPlayer": True,
                "seatOrder": 1,
                "rank": 3,
            },
            {
                "name": "Cy",
                "sourcePlayerId": bgstats.player_id("Cy"),
                "score": 12,
                "winner": True,
                "startPlayer": False,
                "seatOrder": 2,
                "rank": 1,
            },
        ],
    }
    # Whole scores go as JSON integers, not 12.0.
    assert all(type(player["score"]) is int for player in play["players"])
    assert "location" not in play


def test_the_play_date_is_utc_in_bg_stats_format() -> None:
    paris = END.astimezone(ZoneInfo("Europe/Paris"))
    assert bgstats.play_date(paris) == "2026-08-06 19:16:58"
    assert bgstats.play_date(END.replace(microsecond=999_999)) == "2026-08-06 19:16:58"
    with pytest.raises(ValueError, match="aware"):
        bgstats.play_date(datetime(2026, 8, 6, 19, 16, 58))


def test_a_tarot_half_point_score_goes_as_a_float() -> None:
    summary = MatchSummary(
        scores=(40.5, -20.5, -20.0, 0.0), ranks=(1, 4, 3, 2), winners=(0,), over=True, highest_wins=True
    )
    play = decoded(
        link(game_key="tarot", game_name="French Tarot", bgg_id=None, players=["A", "B", "C", "D"], summary=summary)
    )

    scores = [player["score"] for player in play["players"]]
    assert scores == [40.5, -20.5, -20, 0]
    assert [type(score) for score in scores] == [float, float, int, int]
    assert "bggId" not in play["game"]


def test_a_sheet_has_no_bgg_id_and_is_a_game_of_its_own_title() -> None:
    summary = MatchSummary(
        scores=(30.0, 12.0), ranks=(2, 1), winners=(1,), over=True, title="Skyjo", highest_wins=False
    )
    skyjo = decoded(link(game_key="sheet", game_name="Skyjo", bgg_id=None, players=["Ada", "Ben"], summary=summary))
    rummy = decoded(link(game_key="sheet", game_name="Rummy", bgg_id=None, players=["Ada", "Ben"], summary=summary))
    skyjo_again = decoded(
        link(game_key="sheet", game_name=" SKYJO ", bgg_id=None, players=["Ada", "Ben"], summary=summary)
    )

    assert skyjo["game"] == {"name": "Skyjo", "sourceGameId": skyjo["game"]["sourceGameId"], "highestWins": False}
    assert skyjo["game"]["sourceGameId"].startswith("sheet:")
    assert skyjo["game"]["sourceGameId"] != rummy["game"]["sourceGameId"]
    assert skyjo["game"]["sourceGameId"] == skyjo_again["game"]["sourceGameId"]


def test_no_duration_before_anything_was_recorded_and_a_location_when_given() -> None:
    play = decoded(link(ended_at=START, location="Le Dé Pipé"))
    assert "durationMin" not in play
    assert play["location"] == "Le Dé Pipé"
    assert decoded(link(ended_at=START + timedelta(seconds=5)))["durationMin"] == 1


def test_winners_only_once_the_match_is_over() -> None:
    summary = MatchSummary(scores=(3.0, 5.0, 1.0), ranks=(2, 1, 3), winners=(), over=False)
    assert [player["winner"] for player in decoded(link(summary=summary))["players"]] == [False, False, False]


def test_player_ids_are_stable_across_matches() -> None:
    first = decoded(link(match_id="m1", players=["Ada", "Ben", "José"]))
    second = decoded(link(match_id="m2", players=[" josé ", "ADA", "Ben"]))

    ids_first = {player["name"].strip().casefold(): player["sourcePlayerId"] for player in first["players"]}
    ids_second = {player["name"].strip().casefold(): player["sourcePlayerId"] for player in second["players"]}
    assert ids_first == ids_second
    # The same name written decomposed (e + combining accent) is the same player.
    assert bgstats.player_id(unicodedata.normalize("NFD", "José")) == bgstats.player_id("José")
    assert bgstats.player_id("Ada") != bgstats.player_id("Ben")
    assert len(bgstats.player_id("Ada")) == 16
    assert int(bgstats.player_id("Ada"), 16) >= 0


def test_a_name_with_url_and_script_characters_survives_the_round_trip() -> None:
    names = ["Ada & Ben #1 %20?x=y", "😀 Zoë 👩‍👩‍👧", "عليّ بن خالد", "שָׁלוֹם"]
    summary = MatchSummary(scores=(1.0, 2.0, 3.0, 4.0), ranks=(4, 3, 2, 1), winners=(3,), over=True)
    sent = link(players=names, summary=summary, game_key="sheet", game_name="Café & Co #2", bgg_id=None)

    assert sent.isascii()
    query = sent.split("?", 1)[1]
    assert "#" not in sent
    assert query.count("&") == 0  # one parameter: the & of a name is encoded
    assert query.count("=") == 1
    play = decoded(sent)
    assert [player["name"] for player in play["players"]] == names
    assert play["game"]["name"] == "Café & Co #2"


def test_the_link_stays_bounded_at_its_worst() -> None:
    """The worst case: 8 players with 40-character names and a sheet with a 60-character
    title, every character an emoji (4 bytes of UTF-8, 12 characters percent-encoded; a
    ``"`` costs 6, anything else less), every score -999,999,999.5, a 36-character match id,
    a match of three days: 6,483 characters, under the 8,000 that browsers and BG Stats take
    (a ``location``, which Marquoir does not send, is not counted)."""
    names = [chr(0x1F600 + seat) * 40 for seat in range(8)]
    summary = MatchSummary(
        scores=tuple(-999_999_999.5 for _ in range(8)),
        ranks=tuple(range(1, 9)),
        winners=tuple(range(8)),
        over=True,
        title="😀" * 60,
        highest_wins=False,
    )
    worst = link(
        game_key="sheet",
        game_name="😀" * 60,
        bgg_id=None,
        players=names,
        summary=summary,
        first=7,
        ended_at=START + timedelta(days=3),
    )

    assert len(worst) == 6483  # the play id is 32 hex digits, as long as a UUID less its dashes
    assert len(worst) < 8000
    assert [player["name"] for player in decoded(worst)["players"]] == names
    # A name of quotes is cheaper than one of emoji.
    quotes = link(players=['"' * 40] * 8, summary=summary, game_key="sheet", game_name='"' * 60, bgg_id=None)
    assert len(quotes) < len(worst)


def test_the_link_never_carries_the_match_id() -> None:
    sent = link()

    assert MATCH_ID not in sent
    assert decoded(sent)["sourcePlayId"] == decoded(link())["sourcePlayId"]  # stable: re-sent, updated
    assert bgstats.play_id(MATCH_ID) != bgstats.play_id(MATCH_ID[:-1] + "x")
