"""Reads: a group, its members, its plays as records (summaries as of their matches now), its
stats. Nothing here writes: the plays follow their matches as they are written
(``services.follow_match``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from django.db.models import Count, Max, Sum
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from marquoir.tables.keepers import ScoreKeeper, all_keepers, keeper_for
from marquoir.tables.models import Match, is_match_id
from marquoir.tables.selectors import keeper_of, match_view
from marquoir.tables.summary import MatchSummary, StatFigure, summary_from_json

from . import records
from .models import Group, Member, Play
from .stats import GroupStats, group_stats

T = TypeVar("T")


def find_group(group_id: object) -> Group | None:
    """The group with this id, or None; an id no group can have is never looked up."""
    return Group.objects.filter(pk=group_id).first() if is_match_id(group_id) else None


def members_of(group: Group) -> list[records.Member]:
    return [records.Member(member.pk, member.name) for member in Member.objects.filter(group=group)]


def game_name(game: str, stored: str) -> str:
    """The game as people name it, in the reader's language: a sheet's title, or the game's name."""
    if stored:
        return stored
    keeper = keeper_for(game)
    if keeper is None:
        return game
    return _("Score sheet") if game == "sheet" else str(keeper.name())


_RECORD_FIELDS = (
    "uuid",
    "game",
    "game_name",
    "started_at",
    "ended_at",
    "seats",
    "first",
    "summary",
    "match_id",
    "summary_seq",
    "match__seq",
)


def plays_of(group: Group) -> list[records.PlayRecord]:
    """The group's plays, newest first, each as of its match now: one query for the rows
    (plain values: model objects for a thousand plays and their matches cost several times
    the stats themselves). A play's summary follows its match as it is written; one that
    has not yet (its match moved on while it joined the group) is made from the match."""
    rows = Play.objects.filter(group=group).order_by("-ended_at", "uuid")
    found = list(rows.values_list(*_RECORD_FIELDS))
    behind = {row[8] for row in found if row[8] is not None and row[9] != row[10]}
    now = _matches_now(behind) if behind else {}
    names: dict[tuple[str, str], str] = {}
    plays: list[records.PlayRecord] = []
    for uuid, key, stored_name, started_at, ended_at, seats, first, summary, match_id, _seq, _match_seq in found:
        match_now = now.get(match_id) if match_id is not None else None
        if match_now is not None:
            match, made = match_now
            stored_name, ended_at, first = made.title or "", match.updated_at, match.first
        name = names.get((key, stored_name))
        if name is None:
            name = names[key, stored_name] = game_name(key, stored_name)
        plays.append(
            records.PlayRecord(
                id=uuid,
                game=key,
                game_name=name,
                started_at=started_at,
                ended_at=ended_at,
                members=tuple(seats),
                first=first,
                summary=match_now[1] if match_now is not None else summary_from_json(summary),
                match_id=match_id,
                title=stored_name,
            )
        )
    if now:  # a play made again may now sit elsewhere in time
        plays.sort(key=lambda play: play.id)
        plays.sort(key=lambda play: play.ended_at, reverse=True)
    return plays


def _matches_now(match_ids: set[str]) -> dict[str, tuple[Match, MatchSummary]]:
    """Each match with its summary as it now is (one query for the rows, a fold each)."""
    return {
        match.pk: (match, keeper_of(match).summarise(match_view(match)))
        for match in Match.objects.filter(pk__in=list(match_ids))
    }


class ByGame(Mapping[str, T]):
    """Something of each game, by key: the installed games', and those made since (a user's
    own, ``own.<id>``), looked up when asked for."""

    def __init__(self, read: Callable[[ScoreKeeper], T]) -> None:
        self.read = read

    def __getitem__(self, key: str) -> T:
        keeper = keeper_for(key)
        if keeper is None:
            raise KeyError(key)
        return self.read(keeper)

    def __iter__(self) -> Iterator[str]:
        return iter(all_keepers())

    def __len__(self) -> int:
        return len(all_keepers())


def figures_by_game() -> Mapping[str, Sequence[StatFigure]]:
    """Each game's own figures, by key (a sheet's plays by its title share the sheet's: none)."""
    return ByGame(lambda keeper: keeper.stat_figures)


@dataclass
class _Kept:
    """What a process keeps of one group under one fingerprint: its plays and members, and
    what was drawn from them (the stats, each export) as it was first asked for."""

    key: tuple[object, ...]
    plays: list[records.PlayRecord]
    members: list[records.Member]
    drawn: dict[str, object] = field(default_factory=dict)


def _kept(group: Group) -> _Kept:
    """The group's plays and members as this process keeps them, read again only when the
    group's fingerprint moved (one aggregate query when nothing did).

    Reading and decoding a thousand plays is most of the cost of the stats, the history and
    the exports (see `make bench`), and a group is read far more often than it changes:
    each process keeps the last groups it served. Any change to the group, its members or
    its plays, or any action on one of its matches, changes the fingerprint."""
    key = _fingerprint(group)
    found = _kept_now(group.pk, key)
    if found is not None:
        return found
    # One thread reads the group while the others asking for it wait for its reading:
    # twenty phones opening a big group's export at once read its plays once, not twenty
    # times over (make bench-abuse).
    with _building(group.pk):
        found = _kept_now(group.pk, key)
        if found is not None:
            return found
        kept = _Kept(key, plays_of(group), members_of(group))
        with _kept_lock:
            _kept_groups[group.pk] = kept
            _kept_groups.move_to_end(group.pk)
            while len(_kept_groups) > STATS_KEPT:
                _kept_groups.popitem(last=False)
        return kept


def _kept_now(group_id: str, key: tuple[object, ...]) -> _Kept | None:
    with _kept_lock:
        kept = _kept_groups.get(group_id)
        if kept is not None and kept.key == key:
            _kept_groups.move_to_end(group_id)
            return kept
    return None


def _building(name: str) -> threading.Lock:
    """The lock of one thing being drawn (a group's plays, one of its drawings): at most
    ``STATS_KEPT`` × a few are kept, the oldest forgotten (a lock forgotten while held
    only lets a second thread draw the same thing once)."""
    with _kept_lock:
        lock = _build_locks.get(name)
        if lock is None:
            lock = _build_locks[name] = threading.Lock()
            while len(_build_locks) > 8 * STATS_KEPT:
                _build_locks.popitem(last=False)
        _build_locks.move_to_end(name)
        return lock


def drawn_from(group: Group, what: str, draw: Callable[[list[records.PlayRecord], list[records.Member]], T]) -> T:
    """``draw(plays, members)`` for the group as it is now, kept with its plays until the
    group changes: the second read of the stats or of an export costs one query. ``what``
    names the drawing (``"stats"``, ``"export:json"``…); it must depend on nothing else
    (the reader's language is in the fingerprint)."""
    return _draw(_kept(group), what, draw)


def _draw(kept: _Kept, what: str, draw: Callable[[list[records.PlayRecord], list[records.Member]], T]) -> T:
    with _kept_lock:
        if what in kept.drawn:
            return kept.drawn[what]  # type: ignore[return-value]
    with _building(f"{id(kept)}:{what}"):  # drawn once, however many ask at once
        with _kept_lock:
            if what in kept.drawn:
                return kept.drawn[what]  # type: ignore[return-value]
        value = draw(kept.plays, kept.members)
        with _kept_lock:
            kept.drawn.setdefault(what, value)
        return value


def history_of(group: Group) -> list[records.PlayRecord]:
    """The group's plays, newest first, as ``plays_of`` reads them, kept by the process."""
    return _kept(group).plays


def stats_of(group: Group) -> tuple[GroupStats, list[records.PlayRecord]]:
    """The group's stats, overall and per game, with the plays they were drawn from (kept
    by the process until the group changes)."""
    kept = _kept(group)
    return _draw(kept, "stats", lambda plays, members: group_stats(plays, members, figures_by_game())), kept.plays


STATS_KEPT = 32
"""Groups a process keeps (about a megabyte for a group of a thousand plays, and its exports
when asked for: a few megabytes for the largest groups)."""
_kept_groups: OrderedDict[str, _Kept] = OrderedDict()
_build_locks: OrderedDict[str, threading.Lock] = OrderedDict()
_kept_lock = threading.Lock()


def _fingerprint(group: Group) -> tuple[object, ...]:
    """What the stats of ``group`` depend on, in one query: when the group or its members
    last changed, and its plays' count, summaries and matches (a match's seq grows with
    every action and undo; a summary's seq follows it when it is made again). With the
    reader's language, which names the games."""
    found = (
        Group.objects.filter(pk=group.pk)
        .annotate(
            play_count=Count("plays"),
            summaries=Sum("plays__summary_seq"),
            matches=Sum("plays__match__seq"),
            last_ended=Max("plays__ended_at"),
        )
        .values_list("updated_at", "play_count", "summaries", "matches", "last_ended")
        .first()
    )
    return (get_language(), *(found or ()))
