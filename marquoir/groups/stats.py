"""A group's stats, added up from its finished plays (pure: no Django, no clock).

``group_stats`` reads the plays once, in the order they ended, and gives one section across
every game (``GroupStats.overall``) and one per game the group plays by (``PlayRecord.stats_key``:
a Skyjo sheet and a Rummy sheet are two games). A play that is not over counts nowhere.

The numbers, for each member who played in a section:

- a win is a seat among the play's ``winners``: a shared win counts for each winner;
- the average and the best score only within a game (scores of different games do not add
  up, so the overall section has none); the best is the lowest score where the lowest wins
  (as the section's latest play keeps it);
- streaks run over the member's own plays of the section, in the order they ended (then by id);
- the game's own figures add up as their ``StatFigure.kind`` says, over the plays that
  carry the figure (an imported play may carry none): None when no play does;
- head to head, two members are compared on their ranks in each play they both sat in;
- a seat of someone not among the members counts for nobody (the play still counts), and an
  odd rank from an import is taken as the nearest from 1 to 63.

How it stays fast (a thousand plays of eight in a few milliseconds): one short Python step per
seat, the rest in C. The seats go into tables with a line per play and a column per member
(``_Tables``); a member's column of places is a row of bytes, on which ``bytes`` methods count
plays, wins and streaks, and which head to head turns into integers to compare every play of
two members at once (``_Packing``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations, compress
from operator import add, attrgetter, itemgetter

from marquoir.groups.records import Member, PlayRecord
from marquoir.tables.summary import StatFigure

OVERALL_KEY = "all"
"""The overall section's key (no game's ``stats_key`` is ``"all"``)."""

_NO_FIGURES: Mapping[str, int] = {}
_WORST_RANK = 63
_MOST_SEATS = 256
"""Past these, a rank counts as 63 and the seats count for nobody (see ``_Tables``)."""


class _Places(dict[int, int]):
    """A rank to the byte that keeps a seat's place (rank × 2, plus 1 for a win: see ``_Tables``).
    An odd rank (an import's) is taken as the nearest one from 1 to 63."""

    def __missing__(self, rank: int) -> int:
        return 2 * min(max(int(rank), 1), _WORST_RANK)


_PLACE = _Places((rank, 2 * rank) for rank in range(1, _WORST_RANK + 1))
# bytes.translate tables from a place (0: not seated): the rank; bit 7 if seated; 2 won, 1 lost.
_RANK = bytes(place // 2 for place in range(256))
_SEATED = bytes([0]) + b"\x80" * 255
_OUTCOME = bytes([0]) + bytes(2 if place % 2 else 1 for place in range(1, 256))
_WON, _LOST_BYTE = 2, b"\1"
_ID, _ENDED = attrgetter("id"), attrgetter("ended_at")


@dataclass(frozen=True, slots=True)
class FigureValue:
    """One of a game's figures, added up over a member's plays."""

    figure: StatFigure
    value: float | int | None
    """``per_game``: the mean per play; ``total``: the sum; ``best``: the highest value;
    ``rate``: the share of plays where it is 1 (0 to 1). None when no play carries it."""


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """A member's record in one section."""

    member: Member
    plays: int
    wins: int
    win_rate: float
    """``wins / plays``, 0 to 1."""
    average: float | None
    """The mean score; None in the overall section."""
    best: float | None
    """The highest score (the lowest where the lowest wins); None in the overall section."""
    longest_streak: int
    """The most wins in a row."""
    current_streak: int
    """The wins in a row up to the member's last play (0 if they did not win it)."""
    figures: tuple[FigureValue, ...]
    """The game's own figures, in the game's order (none in the overall section)."""


@dataclass(frozen=True, slots=True)
class Rivalry:
    """Two members head to head, over the plays they both sat in."""

    first: Member
    """The one listed first in the group."""
    second: Member
    played: int
    first_ahead: int
    """The plays where ``first`` ranked better than ``second``."""
    second_ahead: int
    level: int
    """The plays where both had the same rank."""


@dataclass(frozen=True, slots=True)
class Section:
    """The stats of one game, or of all of them."""

    key: str
    """The game's ``stats_key``, or ``OVERALL_KEY``."""
    game: str | None
    """The keeper's key (``"sheet"`` for every sheet); None for the overall section."""
    name: str
    """The game as the latest play names it; empty for the overall section (the page names it)."""
    plays: int
    players: tuple[PlayerLine, ...]
    """The members who played, most wins first, then the best win rate, then by name."""
    head_to_head: tuple[Rivalry, ...]
    """Each pair of members who played together, in the group's order."""
    figures: tuple[StatFigure, ...]
    last_played: datetime | None
    """When the latest play ended; None if none did."""


@dataclass(frozen=True, slots=True)
class GroupStats:
    """A group's stats: across every game, and game by game."""

    overall: Section
    games: tuple[Section, ...]
    """One section per game, the most played first, then by name."""


class _Packing:
    """Head to head over many plays at once. A member's ranks in a game's plays become one
    integer, a byte per play (0 where they did not sit), and ``above`` adds 127 to each byte.
    For two members, ``above(theirs) - mine`` has bit 7 of a byte set exactly where their rank
    is worse (greater) than mine: with ranks from 0 to 63 each byte stays between 64 and 190,
    so none borrows from the next. Masked with the plays both sat in (bit 7 of those bytes),
    ``bit_count`` counts the plays."""

    def __init__(self, size: int) -> None:
        self.lift = int.from_bytes(b"\x7f" * size, "little")

    def pack(self, places: bytes | bytearray) -> tuple[int, int, int]:
        """A member's ranks packed, ``above`` them, and bit 7 of each play they sat in."""
        ranks = int.from_bytes(places.translate(_RANK), "little")
        return ranks, ranks + self.lift, int.from_bytes(places.translate(_SEATED), "little")


@dataclass(frozen=True, slots=True)
class _Game:
    """A game's finished plays, in the order they ended: lines ``start`` to ``stop`` of the tables."""

    key: str
    latest: PlayRecord
    start: int
    stop: int


@dataclass(frozen=True, slots=True)
class _Tables:
    """What the seats hold, a line per play and a column per member (the last column takes the
    seats of people who are not in the group). The lines go game by game, each game's plays in
    the order they ended."""

    width: int
    places: bytearray
    """Each seat's place: its rank times 2, plus 1 for a win (0 where the member did not play)."""
    scores: list[float]
    figures: list[Mapping[str, int]]
    chronicle: list[int]
    """The lines, in the order their plays ended (whatever the game)."""


def group_stats(
    plays: Sequence[PlayRecord],
    members: Sequence[Member],
    figures_by_game: Mapping[str, Sequence[StatFigure]],
) -> GroupStats:
    """The group's stats over its finished plays. ``figures_by_game``: each game's own figures,
    by ``stats_key`` or else by the keeper's key (``"pickomino"``).

    Seats whose member is not in ``members`` count for nobody; the input's order does not matter.
    """
    finished = sorted((play for play in plays if play.summary.over), key=_ID)
    finished.sort(key=_ENDED)  # stable: by the time they ended, then by id
    by_game: dict[str, list[tuple[int, PlayRecord]]] = {}
    for when, play in enumerate(finished):
        by_game.setdefault(play.stats_key, []).append((when, play))
    size = len(finished)
    order: dict[int, int] = {}
    for index, member in enumerate(members):
        order.setdefault(member.id, index)
    width = nobody = len(members)
    width += 1
    tables = _Tables(
        width=width,
        places=bytearray(size * width),
        scores=[0.0] * (size * width),
        figures=[_NO_FIGURES] * (size * width),
        chronicle=[0] * size,
    )
    places, scores, figures, chronicle = tables.places, tables.scores, tables.figures, tables.chronicle
    column = order.get
    wins_by_winners: dict[tuple[int, ...], tuple[bool, ...]] = {}
    games: list[_Game] = []
    line = 0
    for key, game_plays in by_game.items():
        games.append(_Game(key, game_plays[-1][1], line, line + len(game_plays)))
        for when, play in game_plays:
            summary = play.summary
            seated = play.members
            wins = wins_by_winners.get(summary.winners)
            if wins is None:
                wins = tuple(seat in summary.winners for seat in range(_MOST_SEATS))
                wins_by_winners[summary.winners] = wins
            own_figures = summary.figures
            if len(own_figures) < len(seated):
                own_figures = (*own_figures, *(_NO_FIGURES,) * (len(seated) - len(own_figures)))
            chronicle[when] = line
            here = line * width
            for member_id, place, score, seat_figures in zip(
                seated,
                map(add, map(_PLACE.__getitem__, summary.ranks), wins),
                summary.scores,
                own_figures,
                strict=False,
            ):
                at = here + column(member_id, nobody)
                places[at] = place
                scores[at] = score
                figures[at] = seat_figures
            line += 1

    # Who played at all (a member listed twice keeps their first place in the list).
    playing = [
        index
        for index, member in enumerate(members)
        if order[member.id] == index and places[index::width].count(0) < size
    ]
    met: dict[tuple[int, int], list[int]] = {}
    sections = [_section(game, members, playing, tables, figures_by_game, met) for game in games]
    sections.sort(key=lambda section: (-section.plays, section.name.casefold(), section.name, section.key))
    in_order = itemgetter(*tables.chronicle) if size > 1 else None
    players = [
        _line(
            members[index],
            bytes(in_order(places[index::width])) if in_order else places[index::width],
            average=None,
            best=None,
            figures=(),
        )
        for index in playing
    ]
    return GroupStats(
        overall=Section(
            key=OVERALL_KEY,
            game=None,
            name="",
            plays=size,
            players=_ranked(players, order),
            head_to_head=tuple(
                Rivalry(members[first], members[second], *counts) for (first, second), counts in sorted(met.items())
            ),
            figures=(),
            last_played=finished[-1].ended_at if finished else None,
        ),
        games=tuple(sections),
    )


def _section(
    game: _Game,
    members: Sequence[Member],
    playing: list[int],
    tables: _Tables,
    figures_by_game: Mapping[str, Sequence[StatFigure]],
    met: dict[tuple[int, int], list[int]],
) -> Section:
    """A game's section, from its lines of the tables; adds its head to head to ``met`` (index pairs)."""
    latest, width = game.latest, tables.width
    found = figures_by_game.get(game.key)
    stat_figures = tuple(figures_by_game.get(latest.game, ()) if found is None else found)
    packing = _Packing(game.stop - game.start)
    players = []
    order: dict[int, int] = {}
    packed: list[tuple[int, int, int, int]] = []
    for index in playing:
        cells = slice(game.start * width + index, game.stop * width, width)
        places = tables.places[cells]
        if places.count(0) == len(places):
            continue
        own_scores = list(compress(tables.scores[cells], places))
        own_figures = list(compress(tables.figures[cells], places))
        member = members[index]
        order[member.id] = index
        players.append(
            _line(
                member,
                places,
                average=sum(own_scores) / len(own_scores),
                best=max(own_scores) if latest.summary.highest_wins else min(own_scores),
                figures=tuple(_figure(figure, own_figures) for figure in stat_figures),
            )
        )
        packed.append((index, *packing.pack(places)))
    rivalries = []
    for one, other in combinations(packed, 2):
        (first, first_ranks, first_above, first_seated), (second, second_ranks, second_above, second_seated) = (
            one,
            other,
        )
        both = first_seated & second_seated
        played = both.bit_count()
        if not played:
            continue
        first_ahead = ((second_above - first_ranks) & both).bit_count()
        second_ahead = ((first_above - second_ranks) & both).bit_count()
        level = played - first_ahead - second_ahead
        rivalries.append(Rivalry(members[first], members[second], played, first_ahead, second_ahead, level))
        total = met.get((first, second))
        if total is None:
            met[first, second] = [played, first_ahead, second_ahead, level]
        else:
            total[0] += played
            total[1] += first_ahead
            total[2] += second_ahead
            total[3] += level
    return Section(
        key=game.key,
        game=latest.game,
        name=latest.game_name,
        plays=game.stop - game.start,
        players=_ranked(players, order),
        head_to_head=tuple(rivalries),
        figures=stat_figures,
        last_played=latest.ended_at,
    )


def _line(
    member: Member,
    places: bytes | bytearray,
    *,
    average: float | None,
    best: float | None,
    figures: tuple[FigureValue, ...],
) -> PlayerLine:
    """A member's line from their places in a section's plays, in the order the plays ended."""
    played = places.translate(_OUTCOME).replace(b"\0", b"")  # the member's own plays, in order: b"\2\2\1\2"
    plays, wins = len(played), played.count(_WON)
    runs = played.split(_LOST_BYTE)  # the runs of wins: the current streak is the last one
    return PlayerLine(
        member=member,
        plays=plays,
        wins=wins,
        win_rate=wins / plays,
        average=average,
        best=best,
        longest_streak=max(map(len, runs)),
        current_streak=len(runs[-1]),
        figures=figures,
    )


def _figure(figure: StatFigure, seats: Sequence[Mapping[str, int]]) -> FigureValue:
    key = figure.key
    try:
        values = list(map(itemgetter(key), seats))
    except KeyError:  # some plays do not carry it (imported ones, say)
        values = [figures[key] for figures in seats if key in figures]
    value: float | int | None
    if not values:
        value = None
    elif figure.kind == "per_game":
        value = sum(values) / len(values)
    elif figure.kind == "total":
        value = sum(values)
    elif figure.kind == "best":
        value = max(values)
    else:
        value = values.count(1) / len(values)
    return FigureValue(figure, value)


def _ranked(players: list[PlayerLine], order: Mapping[int, int]) -> tuple[PlayerLine, ...]:
    """Most wins first, then the best win rate, then by name (then in the group's order)."""
    players.sort(
        key=lambda line: (
            -line.wins,
            -line.win_rate,
            line.member.name.casefold(),
            line.member.name,
            order[line.member.id],
        )
    )
    return tuple(players)
