"""Reads: a group, its members, its plays as records (summaries brought up to date), its stats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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


def plays_of(group: Group, *, game: str | None = None) -> list[records.PlayRecord]:
    """The group's plays, newest first, their summaries brought up to date with their
    matches: one query for the rows (plain values: model objects for a thousand plays and
    their matches cost several times the stats themselves), and a summary is made again
    only for a match that moved on since (an action, an undo)."""
    rows = Play.objects.filter(group=group).order_by("-ended_at", "uuid")
    found = list(rows.values_list(*_RECORD_FIELDS))
    stale = [row[0] for row in found if row[8] is not None and row[9] != row[10]]
    if stale:
        refresh_plays(list(Play.objects.filter(group=group, uuid__in=stale).select_related("match")))
        found = list(rows.values_list(*_RECORD_FIELDS))
    names: dict[tuple[str, str], str] = {}
    plays = []
    for uuid, key, stored_name, started_at, ended_at, seats, first, summary, match_id, _seq, _match_seq in found:
        name = names.get((key, stored_name))
        if name is None:
            name = names[key, stored_name] = game_name(key, stored_name)
        play = records.PlayRecord(
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
        if game is None or play.stats_key == game:
            plays.append(play)
    return plays


def figures_by_game() -> Mapping[str, Sequence[StatFigure]]:
    """Each game's own figures, by key (a sheet's plays by its title share the sheet's: none)."""
    return {key: keeper.stat_figures for key, keeper in all_keepers().items()}


def stats_of(group: Group) -> tuple[GroupStats, list[records.PlayRecord]]:
    """The group's stats, overall and per game, with the plays they were drawn from."""
    plays = plays_of(group)
    members = members_of(group)
    figures = figures_by_game()
    by_key = {play.stats_key: figures.get(play.game, ()) for play in plays}
    return group_stats(plays, members, by_key), plays
