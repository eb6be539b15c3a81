"""Reads: a group, its members, its plays as records (summaries brought up to date), its stats."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from django.db.models import Count, Max, Sum
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from marquoir.tables.keepers import all_keepers, keeper_for
from marquoir.tables.models import is_match_id
from marquoir.tables.summary import StatFigure, summary_from_json

from . import records
from .models import Group, Member, Play
from .services import refresh_plays
from .stats import GroupStats, group_stats


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


def plays_of(group: Group, *, refreshed: list[str] | None = None) -> list[records.PlayRecord]:
    """The group's plays, newest first, their summaries brought up to date with their
    matches: one query for the rows (plain values: model objects for a thousand plays and
    their matches cost several times the stats themselves), and a summary is made again
    only for a match that moved on since (an action, an undo): those plays' ids are added
    to ``refreshed``."""
    rows = Play.objects.filter(group=group).order_by("-ended_at", "uuid")
    found = list(rows.values_list(*_RECORD_FIELDS))
    stale = [row[0] for row in found if row[8] is not None and row[9] != row[10]]
    if stale:
        if refreshed is not None:
            refreshed.extend(stale)
        refresh_plays(list(Play.objects.filter(group=group, uuid__in=stale).select_related("match")))
        found = list(rows.values_list(*_RECORD_FIELDS))
    names: dict[tuple[str, str], str] = {}
    plays: list[records.PlayRecord] = []
    for uuid, key, stored_name, started_at, ended_at, seats, first, summary, match_id, _seq, _match_seq in found:
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
                summary=summary_from_json(summary),
                match_id=match_id,
            )
        )
    return plays


def figures_by_game() -> Mapping[str, Sequence[StatFigure]]:
    """Each game's own figures, by key (a sheet's plays by its title share the sheet's: none)."""
    return {key: keeper.stat_figures for key, keeper in all_keepers().items()}


def stats_of(group: Group) -> tuple[GroupStats, list[records.PlayRecord]]:
    """The group's stats, overall and per game, with the plays they were drawn from.

    Reading and decoding a thousand plays is most of the cost of the stats (see `make
    bench`), and a group's stats are read far more often than it changes: each process
    keeps the last stats of the groups it served, under a fingerprint of the group read in
    one aggregate query (see ``_fingerprint``). Any change to the group, its members or
    its plays, or any action on one of its matches, changes the fingerprint."""
    key = _fingerprint(group)
    with _stats_lock:
        kept = _stats_cache.get(group.pk)
        if kept is not None and kept[0] == key:
            _stats_cache.move_to_end(group.pk)
            return kept[1], kept[2]
    refreshed: list[str] = []
    plays = plays_of(group, refreshed=refreshed)
    if refreshed:  # stale summaries were made again: that moved the fingerprint
        key = _fingerprint(group)
    members = members_of(group)
    stats = group_stats(plays, members, figures_by_game())
    with _stats_lock:
        _stats_cache[group.pk] = (key, stats, plays)
        _stats_cache.move_to_end(group.pk)
        while len(_stats_cache) > STATS_KEPT:
            _stats_cache.popitem(last=False)
    return stats, plays


STATS_KEPT = 32
"""Groups whose stats a process keeps (about a megabyte for a group of a thousand plays)."""
_stats_cache: OrderedDict[str, tuple[tuple[object, ...], GroupStats, list[records.PlayRecord]]] = OrderedDict()
_stats_lock = threading.Lock()


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
