"""Reads for the way back to a match: this device's latest matches, whose turn, who won.

Bounded on purpose: one query for the device's latest links, then the folds of the few
matches shown, from this process's fold cache or from one query for all of their logs.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .capabilities import device_matches
from .fold import LOG_ROW_FIELDS, Folded, LogRow, MatchView, fold_cache, ledger_of
from .models import LogEntry, Match
from .selectors import keeper_of

# How many of the device's latest matches are read, and how many of each kind are shown.
SCANNED = 20
SHOWN = 3


@dataclass(frozen=True)
class RecentMatch:
    """A match as the way back lists it."""

    id: str
    game: str  # the game's name, in the reader's language
    players: tuple[str, ...]
    updated_at: datetime.datetime
    can_edit: bool
    current: str | None  # whose turn it is, in a match in progress
    winners: tuple[str, ...]  # who won, once it is over

    @property
    def result(self) -> str:
        return winners_text(self.winners)


@dataclass(frozen=True)
class RecentMatches:
    """A few matches in progress and a few finished ones, most recently played first."""

    in_progress: tuple[RecentMatch, ...] = ()
    finished: tuple[RecentMatch, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.in_progress or self.finished)


def winners_text(names: Sequence[str]) -> str:
    """``Ada won.``, or ``Ada and Ben share the win.`` (``Ada, Ben and Cy`` for three)."""
    if not names:
        return ""
    if len(names) == 1:
        return _("%(name)s won.") % {"name": names[0]}
    # Translators: tied winners; "others" is every name but the last, joined by commas.
    return _("%(others)s and %(last)s share the win.") % {"others": ", ".join(names[:-1]), "last": names[-1]}


def views_of(rows: Sequence[Match]) -> dict[str, MatchView]:
    """Each match folded at its row's seq: from the fold cache, else from one query for the
    logs of every match missing there (rather than one query per match)."""
    views: dict[str, MatchView] = {}
    missing: dict[str, Match] = {}
    for row in rows:
        held = fold_cache.get(row)
        if held is not None:
            views[row.pk] = held.view(row)
        else:
            missing[row.pk] = row
    if not missing:
        return views
    logs: dict[str, list[LogRow]] = {pk: [] for pk in missing}
    entries = LogEntry.objects.filter(match_id__in=list(missing)).order_by("match_id", "seq")
    for match_id, *values in entries.values_list("match_id", *LOG_ROW_FIELDS):
        entry = LogRow(*values)
        if entry.seq <= missing[match_id].seq:  # later entries were committed after the row was read
            logs[match_id].append(entry)
    for pk, row in missing.items():
        fresh = Folded(
            ledger_of(row, logs[pk], keeper_of(row)),
            {entry.action_id: entry.seq for entry in logs[pk] if entry.action_id},
        )
        fold_cache.put(row, fresh)
        views[pk] = fresh.view(row)
    return views


def winner_names(view: MatchView) -> tuple[str, ...]:
    """The names of the winners, in seating order; none while the match goes on."""
    return tuple(view.row.players[player] for player in keeper_of(view.row).winners(view))


def _recent(row: Match, can_edit: bool, view: MatchView) -> RecentMatch:
    state = view.engine.state
    return RecentMatch(
        id=row.pk,
        game=str(keeper_of(row).name()),
        players=tuple(row.players),
        updated_at=row.updated_at,
        can_edit=can_edit,
        # Games where nobody acts in turn (a score sheet) have no current player.
        current=None if state.over or state.current is None else row.players[state.current],
        winners=winner_names(view),
    )


def recent_matches(device_secret: str | None, *, shown: int = SHOWN, scanned: int = SCANNED) -> RecentMatches:
    """Up to ``shown`` matches in progress and ``shown`` finished ones among this device's
    ``scanned`` most recently played (nothing, without a query, for a device with no cookie)."""
    rows = device_matches(device_secret=device_secret, limit=scanned)
    in_progress = [(row, edit) for row, edit in rows if not row.over][:shown]
    finished = [(row, edit) for row, edit in rows if row.over][:shown]
    views = views_of([row for row, _edit in in_progress + finished])
    return RecentMatches(
        in_progress=tuple(_recent(row, edit, views[row.pk]) for row, edit in in_progress),
        finished=tuple(_recent(row, edit, views[row.pk]) for row, edit in finished),
    )


def with_winners(rows: Iterable[tuple[Match, bool]]) -> list[tuple[Match, bool, str]]:
    """Finished matches with whether this device may edit each and the sentence naming the
    winners (for "my matches": its rows are already limited by ``device_matches``)."""
    listed = list(rows)
    views = views_of([row for row, _edit in listed])
    return [(row, edit, winners_text(winner_names(views[row.pk]))) for row, edit in listed]
