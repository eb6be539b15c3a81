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


def _record(play: Play) -> records.PlayRecord:
    return records.PlayRecord(
        id=play.uuid,
        game=play.game,
        game_name=game_name(play.game, play.game_name),
        started_at=play.started_at,
        ended_at=play.ended_at,
        members=tuple(play.seats),
        first=play.first,
        summary=summary_from_json(play.summary),
        match_id=play.match_id,
    )


def plays_of(group: Group, *, game: str | None = None) -> list[records.PlayRecord]:
    """The group's plays, newest first, their summaries brought up to date with their
    matches (one query; a summary is only made again for a match that moved on)."""
    rows = Play.objects.filter(group=group).select_related("match").order_by("-ended_at", "uuid")
    plays = list(rows)
    refresh_plays(plays)
    found = [_record(play) for play in plays]
    if game:
        found = [play for play in found if play.stats_key == game]
    return found


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
