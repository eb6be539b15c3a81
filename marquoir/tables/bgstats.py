"""BG Stats, the app people log their plays in: the link that sends it one match.

BG Stats takes one play through a push link, ``https://app.bgstatsapp.com/createPlay.html?data=``
followed by the play as URL-encoded JSON (``push_link``). It recognises Marquoir's players
from one push to the next by ``(sourceName, sourcePlayerId)``, so a player's id comes from
their name alone (``player_id``): the same name gives the same id in every match.

A group's whole history goes to BG Stats as a file instead (``marquoir.groups.exchange``);
both write dates as ``play_date`` does.
"""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from django.utils import timezone

from marquoir.tables.summary import MatchSummary

SOURCE_NAME = "Marquoir"
PUSH_URL = "https://app.bgstatsapp.com/createPlay.html"
PLAY_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
"""How BG Stats writes a play's date: ``2026-08-06 19:16:58``, in UTC."""
PLAYER_ID_LENGTH = 16
SHEET = "sheet"


def play_date(when: datetime) -> str:
    """``when`` as BG Stats dates a play (UTC, to the second); a naive datetime is refused."""
    if timezone.is_naive(when):
        raise ValueError("play_date needs an aware datetime")
    return when.astimezone(UTC).strftime(PLAY_DATE_FORMAT)


def _fingerprint(text: str) -> str:
    key = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).strip().casefold())
    return hashlib.sha256(key.encode()).hexdigest()[:PLAYER_ID_LENGTH]


def player_id(name: str) -> str:
    """The player's ``sourcePlayerId``: 16 hex digits of the SHA-256 of the name trimmed,
    NFC-normalised and casefolded, so "Ada", " ada " and "ADA" are one player for BG Stats."""
    return _fingerprint(name)


PLAY_ID_DOMAIN = b"marquoir.bgstats.play:"


def play_id(match_id: str) -> str:
    """The play's ``sourcePlayId``: 32 hex digits of the SHA-256 of the match id. The same
    match gives the same id every time (BG Stats updates the play it already has), and the
    id tells the third party nothing: the match id is the right to watch the match, and
    128 random bits cannot be found again from their digest."""
    return hashlib.sha256(PLAY_ID_DOMAIN + match_id.encode()).hexdigest()[:32]


def game_id(game_key: str, game_name: str) -> str:
    """The game's ``sourceGameId``: the keeper's key (``"pickomino"``); for a score sheet,
    ``"sheet:"`` and a fingerprint of its title, since a Skyjo sheet and a Rummy sheet are
    two games (a fingerprint, not the title, keeps the link short)."""
    if game_key == SHEET:
        return f"{SHEET}:{_fingerprint(game_name)}"
    return game_key


def score_value(score: float) -> int | float:
    """A score as JSON writes it: an int when whole (12), a float otherwise (Tarot's 4.5)."""
    if not math.isfinite(score):
        raise ValueError("a score is a finite number")
    return int(score) if float(score).is_integer() else float(score)


def push_link(
    *,
    match_id: str,
    game_key: str,
    game_name: str,
    bgg_id: int | None,
    players: Sequence[str],
    summary: MatchSummary,
    first: int,
    started_at: datetime,
    ended_at: datetime,
    location: str | None = None,
) -> str:
    """The ``createPlay`` link that adds this match to BG Stats.

    The play is dated when it ended (``ended_at``, UTC); ``durationMin`` is left out when it
    comes to 0 minutes (nothing recorded yet), ``bggId`` when the game has none (a score
    sheet) and ``location`` when None. A seat is a winner when ``summary.winners`` holds it,
    so a match not over yet goes with no winner.

    The JSON is compact and its text is not escaped to ASCII before it is percent-encoded (a
    ``\\ud83d\\ude00`` escape would cost 16 characters where the emoji's UTF-8 costs 12):
    eight players with 40-character names and a sheet titled with 60 characters, every one
    an emoji, make a link of 6,483 characters (``tests/groups/test_bgstats_link.py``
    holds it under 8,000).
    """
    seats = len(players)
    if not (len(summary.scores) == len(summary.ranks) == seats):
        raise ValueError("the summary has one score and one rank per player")
    seconds = (ended_at - started_at).total_seconds()
    duration = max(1, round(seconds / 60)) if seconds > 0 else 0
    game: dict[str, Any] = {"name": game_name, "sourceGameId": game_id(game_key, game_name)}
    if bgg_id is not None:
        game["bggId"] = bgg_id
    game["highestWins"] = summary.highest_wins
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(match_id),
        "playDate": play_date(ended_at),
    }
    if duration:
        play["durationMin"] = duration
    play["game"] = game
    play["players"] = [
        {
            "name": name,
            "sourcePlayerId": player_id(name),
            "score": score_value(summary.scores[seat]),
            "winner": seat in summary.winners,
            "startPlayer": seat == first,
            "seatOrder": seat,
            "rank": summary.ranks[seat],
        }
        for seat, name in enumerate(players)
    ]
    if location is not None:
        play["location"] = location
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return f"{PUSH_URL}?data={quote(data, safe='')}"
