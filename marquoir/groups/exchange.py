"""A group's plays written out for BG Stats and spreadsheets, and read back in.

``export_json`` writes the file BG Stats imports (the shape of its own backup: games,
players, plays); what Marquoir keeps that BG Stats has no field for rides along under a
``"marquoir"`` key, on the file and on each play, which BG Stats ignores and
``read_export`` reads back. ``read_export`` also takes a plain BG Stats backup, without
those keys. ``export_csv`` writes one row per player per play, for a spreadsheet.

``read_export`` reads a file somebody uploaded: everything it takes is bounded (plays,
players, games, seats, names, numbers, dates) and it refuses with ``ImportRefused`` and a
machine reason, which the caller words in the reader's language.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import unicodedata
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from marquoir.groups.records import GROUP_NAME_MAX_LENGTH, MAX_MEMBERS, Member, PlayRecord
from marquoir.tables.bgstats import PLAY_DATE_FORMAT, play_date, score_value
from marquoir.tables.keepers import ScoreKeeper, keeper_for
from marquoir.tables.names import NAME_MAX_LENGTH, name_keys, readable, too_many_marks, unprintable
from marquoir.tables.schemas import shorten
from marquoir.tables.summary import MatchSummary

FORMAT = 1
"""The version of the ``"marquoir"`` keys in an export."""
SHEET = "sheet"

MAX_PLAYS = 5_000
MAX_PLAYERS = 200
"""Players a file may list (a BG Stats backup lists everyone); at most ``MAX_MEMBERS`` of
them may sit in its plays, since they become the group's players."""
MAX_GAMES = 200
MIN_SEATS = 1
MAX_SEATS = 64
"""The most seats a play of a file may list before its game is known; each play must then
seat as many players as its own game takes (a score sheet up to 20, Yahtzee up to 8…),
so that every export, whatever the group played, imports back."""
GAME_NAME_MAX_LENGTH = 60
"""As long as a score sheet's title may be (the longest game name a play can carry)."""
"""A game's name in a file becomes a score sheet's title: 60 characters at most."""
MAX_NUMBER = 1_000_000_000
"""The largest score or figure taken, either sign."""
MAX_DURATION_MINUTES = 10_000_000
MAX_FIGURES = 32
"""The most figures a seat may carry in a file (a game has a handful)."""
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
"""Dates are taken from ``EARLIEST`` up to, not including, ``LATEST``."""

CSV_COLUMNS = (
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
)


def _minutes(seconds: float) -> int:
    # PlayRecord.duration_minutes, on a number of seconds.
    return max(1, round(seconds / 60)) if seconds > 0 else 0


def _player_uuid(member: Member) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"marquoir:member:{member.id}"))


def _game_uuid(game: str, game_name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"marquoir:game:{game}:{game_name}"))


def _exported_start(play: PlayRecord) -> datetime:
    """The start written out, to the second, chosen so the play's duration reads back the
    same: within a second of the true start (exactly it when both times are whole seconds)."""
    end = play.ended_at.astimezone(UTC).replace(microsecond=0)
    seconds = (play.ended_at - play.started_at).total_seconds()
    if seconds <= 0:
        return end
    wanted = play.duration_minutes
    for whole in (math.floor(seconds), math.ceil(seconds)):
        if _minutes(whole) == wanted:
            return end - timedelta(seconds=whole)
    return play.started_at.astimezone(UTC).replace(microsecond=0)  # pragma: no cover (one always fits)


def _seat_indexes(members: Sequence[Member], play: PlayRecord) -> list[int]:
    index = {member.id: position for position, member in enumerate(members)}
    try:
        return [index[member_id] for member_id in play.members]
    except KeyError as missing:
        raise ValueError(f"play {play.id} seats member {missing}, who is not among the members") from None


def _newest_first(plays: Sequence[PlayRecord]) -> list[PlayRecord]:
    return sorted(plays, key=lambda play: (play.ended_at, play.started_at, play.id), reverse=True)


def _score_text(score: float) -> str:
    return str(score_value(score))


def export_json(
    group_name: str, members: Sequence[Member], plays: Sequence[PlayRecord], *, bgg_ids: Mapping[str, int | None]
) -> dict[str, Any]:
    """The group's plays as a BG Stats backup (``json.dumps`` it), newest first.

    One game per distinct (game, game name), numbered from 1 in the order the plays meet
    them, its ``highestWins`` the newest play's; ``bggId`` from ``bgg_ids`` by the keeper's
    key (0 when None or absent). One player per member, in the group's order: ``id`` is the
    member's index in ``members`` + 1, ``uuid`` a UUID 5 of the member's id (stable across exports).
    A play is dated when it ended (UTC, to the second). Each play's ``"marquoir"`` key holds
    the game's key, the match id (or null), when it started (ISO 8601, UTC, to the second),
    the figures per seat, whether it was over and whether the highest score won (the game's
    ``highestWins`` is one for all its plays; a sheet may be kept either way).
    """
    ordered = _newest_first(plays)
    games: dict[tuple[str, str], dict[str, Any]] = {}
    written: list[dict[str, Any]] = []
    for play in ordered:
        seats = _seat_indexes(members, play)
        summary = play.summary
        game = games.get((play.game, play.game_name))
        if game is None:
            game = games[(play.game, play.game_name)] = {
                "id": len(games) + 1,
                "uuid": _game_uuid(play.game, play.game_name),
                "name": play.game_name,
                "bggId": bgg_ids.get(play.game) or 0,
                "highestWins": summary.highest_wins,
                "noPoints": False,
                "cooperative": False,
            }
        date = play_date(play.ended_at)
        written.append(
            {
                "uuid": play.id,
                "gameRefId": game["id"],
                "playDate": date,
                "entryDate": date,
                "durationMin": play.duration_minutes,
                "ignored": False,
                "manualWinner": False,
                "usesTeams": False,
                "rounds": 0,
                "board": "",
                "playerScores": [
                    {
                        "playerRefId": member + 1,
                        "score": _score_text(summary.scores[seat]),
                        "winner": seat in summary.winners,
                        "startPlayer": seat == play.first,
                        "seatOrder": seat,
                        "rank": summary.ranks[seat],
                        "newPlayer": False,
                    }
                    for seat, member in enumerate(seats)
                ],
                "marquoir": {
                    "game": play.game,
                    "matchId": play.match_id,
                    "startedAt": _exported_start(play).isoformat(),
                    "figures": [dict(figures) for figures in summary.figures],
                    "over": summary.over,
                    "highestWins": summary.highest_wins,
                    # The title as kept ("" for a game's own name or an untitled sheet, which
                    # each reader's language names), so an import keeps it as it was.
                    "title": play.title,
                },
            }
        )
    # Every member, in the group's order (one who has not played yet is still of the group).
    players = [
        {"id": index + 1, "uuid": _player_uuid(member), "name": member.name, "isAnonymous": False}
        for index, member in enumerate(members)
    ]
    return {
        "games": list(games.values()),
        "players": players,
        "locations": [],
        "plays": written,
        "userInfo": {"meRefId": 0},
        "marquoir": {"format": FORMAT, "group": group_name},
    }


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text_cell(text: str) -> str:
    """A text cell a spreadsheet will not run: one that could start a formula gets a ``'``."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def export_csv(
    members: Sequence[Member], plays: Sequence[PlayRecord], *, names: Mapping[str, str] | None = None
) -> str:
    """One row per player per play, newest play first, seats in order, after a header row.

    ``names`` gives each column's header by its key in ``CSV_COLUMNS`` (the caller's
    language; without it, or for a column it leaves out, the header is the key). The date is when the play ended
    (``YYYY-MM-DD HH:MM:SS``, UTC), the seat counts from 1, winner and start player are
    ``1`` or ``0``. Scores are numbers (``-3``, ``4.5``); a text cell (a header, a game's or
    a player's name) that a spreadsheet would read as a formula is prefixed with ``'``.
    Lines end with CRLF; encode the text as UTF-8.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    headers = names or {}
    writer.writerow([_text_cell(headers.get(column, column)) for column in CSV_COLUMNS])
    for play in _newest_first(plays):
        seats = _seat_indexes(members, play)
        summary = play.summary
        date = play_date(play.ended_at)
        for seat, member in enumerate(seats):
            writer.writerow(
                [
                    _text_cell(play.id),
                    date,
                    _text_cell(play.game_name),
                    play.duration_minutes,
                    seat + 1,
                    _text_cell(members[member].name),
                    score_value(summary.scores[seat]),
                    summary.ranks[seat],
                    "1" if seat in summary.winners else "0",
                    "1" if seat == play.first else "0",
                ]
            )
    return buffer.getvalue()


# --- Reading a file back -------------------------------------------------------------------


class ImportRefused(Exception):
    """A file ``read_export`` will not take: ``reason`` says why, ``params`` the details
    (see ``read_export`` for each reason's params)."""

    def __init__(self, reason: str, **params: Any) -> None:
        self.reason = reason
        self.params = params
        super().__init__(reason)


@dataclass(frozen=True, slots=True)
class ImportedPlay:
    """One play read from a file, in seat order; seats name the group's members by their
    index in ``ImportedGroup.members``."""

    uuid: str
    game: str
    game_name: str
    started_at: datetime
    ended_at: datetime
    seats: tuple[int, ...]
    first: int
    summary: MatchSummary
    match_id: str | None
    """The match the play was kept on, as the file says: information only, never trusted."""

    @property
    def duration_minutes(self) -> int:
        return _minutes((self.ended_at - self.started_at).total_seconds())


@dataclass(frozen=True, slots=True)
class ImportedGroup:
    name: str
    """The group's name as the file gives it ("" for a plain BG Stats backup)."""
    members: tuple[str, ...]
    """The names of the players who played, in the order the plays meet them."""
    plays: tuple[ImportedPlay, ...]
    """In the file's order (newest first for an export)."""


class _In(BaseModel):
    # BG Stats writes many fields Marquoir has no use for: they are let through unread.
    model_config = ConfigDict(extra="ignore", strict=True)


_Text = Annotated[str, Field(max_length=1_000)]
_Number = Annotated[int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]
_FigureKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9_]{1,40}$")]


class _Game(_In):
    id: int
    name: _Text
    bggId: int | None = 0
    highestWins: bool = True


class _Player(_In):
    id: int
    name: _Text


class _Score(_In):
    playerRefId: int
    score: Annotated[str, Field(max_length=40)] | int | float | None = None
    winner: bool = False
    startPlayer: bool = False
    seatOrder: int | None = None
    rank: int | None = None


class _PlayExtra(_In):
    game: Annotated[str, Field(max_length=40)]
    matchId: Annotated[str, Field(max_length=64)] | None = None
    startedAt: Annotated[str, Field(max_length=64)]
    figures: list[Annotated[dict[_FigureKey, _Number], Field(max_length=MAX_FIGURES)]] = Field(
        default_factory=list, max_length=MAX_SEATS
    )
    over: bool = True
    highestWins: bool | None = None
    title: _Text | None = None


class _Play(_In):
    uuid: Annotated[str, Field(max_length=64)]
    gameRefId: int
    playDate: Annotated[str, Field(max_length=64)]
    durationMin: int = Field(0, ge=0, le=MAX_DURATION_MINUTES)
    playerScores: list[_Score] = Field(min_length=MIN_SEATS, max_length=MAX_SEATS)
    marquoir: _PlayExtra | None = None


class _GroupExtra(_In):
    format: int
    group: _Text


class _File(_In):
    games: list[_Game] = Field(max_length=MAX_GAMES)
    players: list[_Player] = Field(max_length=MAX_PLAYERS)
    plays: list[_Play] = Field(max_length=MAX_PLAYS)
    marquoir: _GroupExtra | None = None


_LIMITS = {
    "plays": ("too_many_plays", MAX_PLAYS),
    "players": ("too_many_players", MAX_PLAYERS),
    "games": ("too_many_games", MAX_GAMES),
}


def _given(value: object) -> str:
    """What the file gave, to quote back: text cut short, a number as written, else its kind
    (never a whole array turned into text)."""
    if isinstance(value, str):
        return shorten(value)
    if value is None or isinstance(value, bool | int | float):
        return shorten(json.dumps(value))
    return "array" if isinstance(value, list) else "object"


# Where a name sits in the file, by (the list, the field): what it names, its length limit.
_NAMED = {
    ("players", "name"): ("player", NAME_MAX_LENGTH),
    ("games", "name"): ("game", GAME_NAME_MAX_LENGTH),
    ("marquoir", "group"): ("group", GROUP_NAME_MAX_LENGTH),
}

# pydantic's complaints about a name's text, as bad_name's problems (a lone surrogate is
# no character pydantic can read: "string_unicode").
_NAME_PROBLEMS = {"string_too_long": "too_long", "string_unicode": "characters"}


def _refusal(error: ErrorDetails) -> ImportRefused:
    """The refusal for pydantic's first complaint, by where it is."""
    location = error["loc"]
    given = error.get("input")
    if len(location) == 1 and location[0] in _LIMITS and error["type"] == "too_long":
        reason, limit = _LIMITS[str(location[0])]
        return ImportRefused(reason, count=len(given) if isinstance(given, Sequence) else 0, limit=limit)
    play = int(location[1]) + 1 if len(location) > 1 and location[0] == "plays" else None
    seat_count = error["type"] in {"too_long", "too_short"} and location[2:] == ("playerScores",)
    if play is not None and seat_count:
        count = len(given) if isinstance(given, Sequence) else 0
        return ImportRefused("bad_seat_count", play=play, count=count, least=MIN_SEATS, most=MAX_SEATS)
    if play is not None and "figures" in location:
        return ImportRefused("bad_figures", play=play)
    if play is not None and "score" in location:
        return ImportRefused("bad_score", play=play, given=_given(given))
    if play is not None and ("playDate" in location or "startedAt" in location):
        return ImportRefused("bad_date", play=play, given=_given(given))
    named = _NAMED.get((str(location[0]), str(location[-1]))) if len(location) in {2, 3} else None
    if named is not None and error["type"] in _NAME_PROBLEMS:
        of, limit = named
        problem = _NAME_PROBLEMS[error["type"]]
        return ImportRefused("bad_name", of=of, name=_given(given), problem=problem, limit=limit)
    field = ".".join(str(part) for part in location)
    return ImportRefused("bad_field", field=shorten(field, 80), given=_given(given))


def _clean_name(raw: str, *, of: str, limit: int = NAME_MAX_LENGTH) -> str:
    """A name as ``clean_player_names`` takes it: NFC, trimmed, 1 to ``limit`` characters, no
    control or format character but the joiners, something visible."""
    name = unicodedata.normalize("NFC", raw).strip()
    problem = None
    if not name:
        problem = "empty"
    elif len(name) > limit:
        problem = "too_long"
    elif any(unprintable(char) for char in name):
        problem = "characters"
    elif not readable(name):
        problem = "invisible"
    elif too_many_marks(name):
        problem = "marks"
    if problem:
        raise ImportRefused("bad_name", of=of, name=shorten(name), problem=problem, limit=limit)
    return name


_PLAY_DATE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", re.ASCII)
_NUMBER_TEXT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?", re.ASCII)
_CANONICAL_UUID = re.compile(r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}", re.ASCII)


def _in_range(when: datetime) -> bool:
    return EARLIEST <= when < LATEST


def _play_date(text: str, play: int) -> datetime:
    if _PLAY_DATE.fullmatch(text):
        try:
            when = datetime.strptime(text, PLAY_DATE_FORMAT).replace(tzinfo=UTC)
        except ValueError:
            pass
        else:
            if _in_range(when):
                return when
    raise ImportRefused("bad_date", play=play, given=shorten(text))


def _started_at(text: str, ended_at: datetime, play: int) -> datetime:
    if text.isascii():
        try:
            when = datetime.fromisoformat(text)
        except ValueError:
            pass
        else:
            if when.tzinfo is not None and _in_range(when) and when <= ended_at:
                return when.astimezone(UTC)
    raise ImportRefused("bad_date", play=play, given=shorten(text))


def _score(raw: str | int | float | None, play: int) -> float | None:
    """A score as a number, None when the file gives none (a game without points)."""
    if raw is None:
        return None
    number: float
    if isinstance(raw, str):
        text = raw.strip()
        if not text:
            return None
        number = float(text) if _NUMBER_TEXT.fullmatch(text) else math.nan
    elif isinstance(raw, int):
        number = float(raw) if abs(raw) <= MAX_NUMBER else math.nan
    else:
        number = raw
    if math.isfinite(number) and abs(number) <= MAX_NUMBER:
        return number + 0.0  # -0.0 reads 0
    raise ImportRefused("bad_score", play=play, given=_given(raw))


def _ranks(scores: Sequence[float | None], winners: Sequence[int], highest_wins: bool) -> tuple[int, ...]:
    """Places from the scores (ties share a place); without any score, winners first."""
    if all(score is None for score in scores):
        return tuple(1 if seat in winners else len(winners) + 1 for seat in range(len(scores)))
    values = [score or 0.0 for score in scores]
    if not highest_wins:
        values = [-value for value in values]
    return tuple(1 + sum(other > value for other in values) for value in values)


def _by_id(items: Sequence[_Game] | Sequence[_Player], kind: str) -> dict[int, Any]:
    found: dict[int, Any] = {}
    for item in items:
        if item.id in found:
            raise ImportRefused("duplicate_id", kind=kind, id=item.id)
        found[item.id] = item
    return found


_NO_GAMES: Mapping[int, tuple[str, str]] = MappingProxyType({})


def read_export(data: object, *, games_by_bgg_id: Mapping[int, tuple[str, str]] = _NO_GAMES) -> ImportedGroup:
    """The group in ``data`` (decoded JSON): a file ``export_json`` wrote, or a BG Stats backup.

    A play without the ``"marquoir"`` key is a BG Stats play: its game is the one
    ``games_by_bgg_id`` gives for its ``bggId`` (``{15818: ("pickomino", "Pickomino")}``),
    else a score sheet titled with the game's name; it started ``durationMin`` before its
    date, is over, has no figures. A seat's score that the file leaves out (a game without
    points) counts 0. Ranks are the file's when every seat has one from 1 to the seat
    count, else worked out from the scores (from the winners when there are none); the
    winners are the seats flagged so; the start seat is the first flagged (else seat 0).
    Seats follow ``seatOrder`` when every seat has a distinct one, else the file's order.
    From a group's own export every player is read, in the file's order (the group's);
    from a BG Stats backup only the players and games that plays refer to.

    Refused with ``ImportRefused(reason, **params)``; ``play`` is a play's position in the
    file, counting from 1; ``given`` is the offending text, cut short. Reasons:

    - ``not_json_object``: ``data`` is not an object.
    - ``too_many_plays``, ``too_many_players``, ``too_many_games``: ``count``, ``limit``
      (5,000 plays, 200 players, 200 games).
    - ``bad_field``: a field missing or of the wrong type; ``field`` (``plays.3.gameRefId``), ``given``.
    - ``unsupported_format``: the ``"marquoir"`` key's format is not 1; ``format``.
    - ``bad_name``: ``of`` (``player``, ``game`` or ``group``), ``name``, ``problem``
      (``empty``, ``too_long``, ``characters``: a control, format or unpaired surrogate
      character; ``invisible``: nothing readable), ``limit`` (40, 60 for a game).
    - ``duplicate_name``: two players of the file share a name, ignoring case; ``name``.
    - ``duplicate_id``: two games or two players share an id; ``kind`` (``game``/``player``), ``id``.
    - ``bad_play_id``: a play's ``uuid`` is not a UUID; ``play``, ``given``.
    - ``duplicate_play``: two plays share a ``uuid``; ``play`` (the second), ``uuid``.
    - ``unknown_game``: a play's ``gameRefId`` names no game; ``play``, ``ref``.
    - ``unsupported_game``: a play's ``"marquoir"`` game is none Marquoir keeps score for; ``play``, ``game``.
    - ``bad_seat_count``: ``play``, ``count``, ``least``, ``most`` (the play's game's
      bounds; 1 and 64 before the game is known).
    - ``too_many_members``: more than 30 players sit in the plays; ``count``, ``limit``.
    - ``unknown_player``: a seat's ``playerRefId`` names no player; ``play``, ``ref``.
    - ``player_twice``: a player sits twice in one play; ``play``, ``ref``.
    - ``bad_score``: not a finite number within ±1,000,000,000 (``"12"``, ``"-3"``, ``"4.5"`` are); ``play``, ``given``.
    - ``bad_date``: a ``playDate`` not ``YYYY-MM-DD HH:MM:SS``, a ``startedAt`` not ISO 8601
      with its offset or after the play's date, either out of 1900–2199; ``play``, ``given``.
    - ``bad_figures``: figures not one set per seat, keys not ``[A-Za-z0-9_]{1,40}``, values
      not whole numbers within ±1,000,000,000, more than 32 a seat; ``play``.
    """
    if not isinstance(data, Mapping):
        raise ImportRefused("not_json_object")
    try:
        parsed = _File.model_validate(data)
    except ValidationError as failure:
        raise _refusal(failure.errors()[0]) from None
    if parsed.marquoir is not None and parsed.marquoir.format != FORMAT:
        raise ImportRefused("unsupported_format", format=parsed.marquoir.format)
    group = (
        _clean_name(parsed.marquoir.group, of="group", limit=GROUP_NAME_MAX_LENGTH)
        if parsed.marquoir is not None
        else ""
    )
    games: dict[int, _Game] = _by_id(parsed.games, "game")
    players: dict[int, _Player] = _by_id(parsed.players, "player")
    reader = _Reader(games, players, games_by_bgg_id)
    if parsed.marquoir is not None:
        # A group's own export: every player is a member, in the file's order (the group's).
        for player in parsed.players:
            reader.member(player.id)
    plays = tuple(reader.play(play, position) for position, play in enumerate(parsed.plays, start=1))
    if len(reader.members) > MAX_MEMBERS:
        # A BG Stats backup lists everyone its owner ever played with; those who sat down
        # become the group's players, and a group holds at most MAX_MEMBERS.
        raise ImportRefused("too_many_members", count=len(reader.members), limit=MAX_MEMBERS)
    return ImportedGroup(name=group, members=tuple(reader.members), plays=plays)


class _Reader:
    """What reading the plays one by one keeps: members met, names taken, uuids seen."""

    def __init__(
        self, games: dict[int, _Game], players: dict[int, _Player], games_by_bgg_id: Mapping[int, tuple[str, str]]
    ) -> None:
        self.games = games
        self.players = players
        self.games_by_bgg_id = games_by_bgg_id
        self.members: list[str] = []
        self.member_of: dict[int, int] = {}  # player id -> index in members
        self.names: set[str] = set()
        self.game_names: dict[int, str] = {}
        self.uuids: set[str] = set()
        self.keepers: dict[str, ScoreKeeper | None] = {}

    def keeper(self, key: str) -> ScoreKeeper | None:
        """The keeper of a game key, looked up once an import: a user's own game's version is
        compiled on a lookup the process has not made lately (a few milliseconds)."""
        if key not in self.keepers:
            self.keepers[key] = keeper_for(key)
        return self.keepers[key]

    def member(self, player_id: int) -> int:
        if player_id not in self.member_of:
            name = _clean_name(self.players[player_id].name, of="player")
            keys = name_keys(name)
            if self.names.intersection(keys):  # the same, or one that looks the same
                raise ImportRefused("duplicate_name", name=shorten(name))
            self.names.update(keys)
            self.member_of[player_id] = len(self.members)
            self.members.append(name)
        return self.member_of[player_id]

    def title(self, extra: _PlayExtra, game: _Game) -> str:
        """What a play of Marquoir's own export keeps as its game's name: the title it was
        kept under ("" for a game's own name and for an untitled sheet, which the reader's
        language names), or, from an export that says none, the game's name for a sheet."""
        if extra.title is not None:
            return _clean_name(extra.title, of="game", limit=GAME_NAME_MAX_LENGTH) if extra.title.strip() else ""
        return self.game_name(game) if extra.game == SHEET else ""

    def game_name(self, game: _Game) -> str:
        if game.id not in self.game_names:
            self.game_names[game.id] = _clean_name(game.name, of="game", limit=GAME_NAME_MAX_LENGTH)
        return self.game_names[game.id]

    def play(self, play: _Play, position: int) -> ImportedPlay:
        if not _CANONICAL_UUID.fullmatch(play.uuid):
            raise ImportRefused("bad_play_id", play=position, given=shorten(play.uuid))
        play_uuid = str(uuid.UUID(play.uuid))
        if play_uuid in self.uuids:
            raise ImportRefused("duplicate_play", play=position, uuid=play_uuid)
        self.uuids.add(play_uuid)
        game = self.games.get(play.gameRefId)
        if game is None:
            raise ImportRefused("unknown_game", play=position, ref=play.gameRefId)
        ended_at = _play_date(play.playDate, position)

        scores = list(play.playerScores)
        orders = [score.seatOrder for score in scores]
        if None not in orders and len(set(orders)) == len(orders):
            scores.sort(key=lambda score: score.seatOrder or 0)
        refs: set[int] = set()
        for score in scores:
            if score.playerRefId not in self.players:
                raise ImportRefused("unknown_player", play=position, ref=score.playerRefId)
            if score.playerRefId in refs:
                raise ImportRefused("player_twice", play=position, ref=score.playerRefId)
            refs.add(score.playerRefId)
        values = [_score(score.score, position) for score in scores]
        seats = tuple(self.member(score.playerRefId) for score in scores)

        extra = play.marquoir
        if extra is not None:
            if self.keeper(extra.game) is None:
                raise ImportRefused("unsupported_game", play=position, game=shorten(extra.game))
            key, name = extra.game, self.title(extra, game)
            started_at = _started_at(extra.startedAt, ended_at, position)
            if extra.figures and len(extra.figures) != len(scores):
                raise ImportRefused("bad_figures", play=position)
            figures: tuple[Mapping[str, int], ...] = tuple(extra.figures)
            over = extra.over
            highest_wins = game.highestWins if extra.highestWins is None else extra.highestWins
            match_id = extra.matchId
            if match_id is not None and any(unprintable(char) for char in match_id):
                raise ImportRefused(
                    "bad_field", field=f"plays.{position - 1}.marquoir.matchId", given=shorten(match_id)
                )
        else:
            known = self.games_by_bgg_id.get(game.bggId) if game.bggId else None
            key, name = known if known is not None else (SHEET, self.game_name(game))
            started_at = ended_at - timedelta(minutes=play.durationMin)
            if not _in_range(started_at):
                raise ImportRefused("bad_date", play=position, given=shorten(play.playDate))
            figures, over, highest_wins, match_id = (), True, game.highestWins, None

        keeper = self.keeper(key)
        if keeper is not None and not keeper.min_players <= len(scores) <= keeper.max_players:
            raise ImportRefused(
                "bad_seat_count", play=position, count=len(scores), least=keeper.min_players, most=keeper.max_players
            )
        winners = tuple(seat for seat, score in enumerate(scores) if score.winner)
        given_ranks = [score.rank for score in scores]
        if all(rank is not None and 1 <= rank <= len(scores) for rank in given_ranks):
            ranks = tuple(rank for rank in given_ranks if rank is not None)
        else:
            ranks = _ranks(values, winners, highest_wins)
        first = next((seat for seat, score in enumerate(scores) if score.startPlayer), 0)
        summary = MatchSummary(
            scores=tuple(value or 0.0 for value in values),
            ranks=ranks,
            winners=winners,
            figures=figures,
            over=over,
            title=(name or None) if key == SHEET else None,
            highest_wins=highest_wins,
        )
        return ImportedPlay(
            uuid=play_uuid,
            game=key,
            game_name=name,
            started_at=started_at,
            ended_at=ended_at,
            seats=seats,
            first=first,
            summary=summary,
            match_id=match_id,
        )
