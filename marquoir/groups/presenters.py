"""A group as the API answers and the pages show it: its players, plays, stats and files."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from marquoir.tables.charts import BarRow, bar_chart
from marquoir.tables.formatting import decimal
from marquoir.tables.keepers import all_keepers
from marquoir.tables.services import ServiceError

from . import exchange, services
from .models import Group, Play
from .records import Member, PlayRecord
from .selectors import ByGame, drawn_from, members_of
from .stats import GroupStats, Section

MAX_IMPORT_BYTES: int = settings.GROUP_IMPORT_MAX_BYTES
"""The largest file an import reads: the largest export a group can make (5,000 plays of
20-player score sheets, 12.7 MB) fits."""


def group_json(group: Group) -> dict[str, Any]:
    return {
        "id": group.id,
        "name": group.name,
        "players": [{"id": member.id, "name": member.name} for member in members_of(group)],
        "matches": Play.objects.filter(group=group).count(),
    }


def _iso(play_time: datetime) -> str:
    return play_time.astimezone(UTC).isoformat().replace("+00:00", "Z")


def play_json(play: PlayRecord, names: Mapping[int, str]) -> dict[str, Any]:
    summary = play.summary
    return {
        "id": play.id,
        "match_id": play.match_id,
        "game": play.game,
        "game_name": play.game_name,
        "started_at": _iso(play.started_at),
        "ended_at": _iso(play.ended_at),
        "duration_min": play.duration_minutes,
        "over": summary.over,
        "players": [
            {
                "player_id": member,
                "name": names.get(member, "?"),
                "score": summary.scores[seat],
                "rank": summary.ranks[seat],
                "winner": seat in summary.winners,
                "starts": seat == play.first,
            }
            for seat, member in enumerate(play.members)
        ],
    }


def _section_json(section: Section) -> dict[str, Any]:
    return {
        "key": section.key,
        "game": section.game,
        "name": section.name,
        "plays": section.plays,
        "players": [
            {
                "player_id": line.member.id,
                "name": line.member.name,
                "plays": line.plays,
                "wins": line.wins,
                "win_rate": line.win_rate,
                "average": line.average,
                "best": line.best,
                "longest_streak": line.longest_streak,
                "current_streak": line.current_streak,
                "figures": [
                    {
                        "key": value.figure.key,
                        "label": str(value.figure.label),
                        "kind": value.figure.kind,
                        "value": value.value,
                    }
                    for value in line.figures
                ],
            }
            for line in section.players
        ],
        "head_to_head": [
            {
                "first": rivalry.first.id,
                "second": rivalry.second.id,
                "played": rivalry.played,
                "first_ahead": rivalry.first_ahead,
                "second_ahead": rivalry.second_ahead,
                "level": rivalry.level,
            }
            for rivalry in section.head_to_head
        ],
    }


def stats_json(stats: GroupStats) -> dict[str, Any]:
    return {"overall": _section_json(stats.overall), "games": [_section_json(section) for section in stats.games]}


def bgg_ids() -> Mapping[str, int | None]:
    """Each game's BoardGameGeek id, by key (a user's own game: its file's, if it gives one)."""
    return ByGame(lambda keeper: keeper.bgg_id)


def _games_by_bgg_id() -> dict[int, tuple[str, str]]:
    return {
        keeper.bgg_id: (key, str(keeper.name())) for key, keeper in all_keepers().items() if keeper.bgg_id is not None
    }


def export_response(group: Group, file_format: str) -> HttpResponse:
    """The group's history as a file to download: BG Stats-shaped JSON, or CSV. The file is
    kept by the process until the group changes (the largest groups' take half a second to
    write, and a link to it is easily shared)."""
    stem = slugify(group.name) or "group"
    if file_format == "csv":
        content = drawn_from(group, "export:csv", lambda plays, members: exchange.export_csv(members, plays).encode())
        response = HttpResponse(content, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="marquoir-{stem}.csv"'
    else:

        def write_json(plays: list[PlayRecord], members: list[Member]) -> bytes:
            data = exchange.export_json(group.name, members, plays, bgg_ids=bgg_ids())
            return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()

        response = HttpResponse(drawn_from(group, "export:json", write_json), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="marquoir-{stem}.json"'
    return response


def import_file(data: object, *, before_writing: Callable[[], None] | None = None) -> tuple[Group, str]:
    """A new group from an export's decoded JSON; ServiceError saying what is wrong.
    ``before_writing`` runs once the file is read and found good (the rate limit: a
    refused file costs nothing)."""
    try:
        imported = exchange.read_export(data, games_by_bgg_id=_games_by_bgg_id())
    except exchange.ImportRefused as refused:
        raise ServiceError("invalid", "import_" + refused.reason, **refused.params) from None
    services.check_new_group(name=imported.name or "-", players=imported.members)
    if before_writing is not None:
        before_writing()
    return services.import_group(
        # A BG Stats backup names no group.
        name=imported.name or _("Imported from BG Stats"),
        members=imported.members,
        plays=[
            (
                play.uuid,
                play.game,
                play.game_name if play.game == "sheet" else "",  # the others are named in the reader's language
                play.started_at,
                play.ended_at,
                play.seats,
                play.first,
                play.summary,
            )
            for play in imported.plays
        ],
    )


# --- the stats page


def _rate(rate: float) -> str:
    # Translators: a share of matches as a whole percentage; French puts a narrow no-break
    # space before the sign.
    return _("%(value)s%%") % {"value": round(rate * 100)}


def figure_text(value: float | None, places: int = 1) -> str:
    """A figure as the page writes it: whole when whole, else one decimal; a dash for none."""
    return _column_text(value, column_places([value], places))


def column_places(values: Sequence[float | None], places: int) -> int:
    """The decimals a column of figures is written with, the same for every line: none when
    every figure is whole, else ``places`` ("1.00 · 1.50 · 2.25", never "1 · 1.50 · 1")."""
    return 0 if all(value is None or float(value).is_integer() for value in values) else places


def _column_text(value: float | None, places: int) -> str:
    return "–" if value is None else decimal(value, places)


def stats_table(section: Section) -> list[dict[str, Any]]:
    """Each player's line of the section, written out for the page; each column of figures
    with one number of decimals for all its lines."""
    lines = section.players
    average_places = column_places([line.average for line in lines], 1)
    best_places = column_places([line.best for line in lines], 1)
    figure_places = [
        column_places([line.figures[at].value for line in lines], 2 if figure.kind == "per_game" else 1)
        for at, figure in enumerate(section.figures)
    ]
    return [
        {
            "name": line.member.name,
            "plays": line.plays,
            "wins": line.wins,
            "win_rate": _rate(line.win_rate),
            "average": _column_text(line.average, average_places),
            "best": _column_text(line.best, best_places),
            "streaks": _("%(longest)s · now %(current)s")
            % {"longest": line.longest_streak, "current": line.current_streak},
            "figures": [
                _rate(value.value)
                if value.figure.kind == "rate" and value.value is not None
                else _column_text(value.value, places)
                for value, places in zip(line.figures, figure_places, strict=True)
            ],
        }
        for line in lines
    ]


def stats_charts(section: Section) -> list[dict[str, Any]]:
    """The section's charts: wins, win rate, and (in a game's section) the average score."""
    lines = section.players
    charts = [
        (_("Wins"), "wins", [BarRow(line.member.name, line.wins, str(line.wins)) for line in lines], None),
        (
            _("Win rate"),
            "rate",
            [BarRow(line.member.name, line.win_rate, _rate(line.win_rate)) for line in lines],
            1.0,
        ),
    ]
    if section.game is not None and any(line.average is not None for line in lines):
        charts.append(
            (
                _("Average score"),
                "average",
                [BarRow(line.member.name, line.average or 0.0, figure_text(line.average)) for line in lines],
                None,
            )
        )
    return [
        {
            "caption": caption,
            "caption_id": f"chart-{key}",
            "svg": bar_chart(rows, title_id=f"chart-{key}", max_value=top),
        }
        for caption, key, rows, top in charts
    ]
