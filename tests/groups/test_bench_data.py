"""The data of benchmarks/bench_groups.py is what it claims: real matches of three games,
played to their end by legal actions (some undone), stored as logs and attached to a group."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from benchmarks import bench_groups
from marquoir.groups.models import Play
from marquoir.groups.selectors import stats_of
from marquoir.tables.models import LogEntry, Match
from marquoir.tables.selectors import fold_cache, in_force, match_view


@pytest.mark.django_db
def test_the_bench_group_holds_real_finished_matches_with_undos(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every match takes back its first three actions: the undos are sure to be there.
    monkeypatch.setattr(bench_groups, "UNDO_MATCH_RATE", 1.0)
    monkeypatch.setattr(bench_groups, "UNDO_ACTION_RATE", 1.0)
    built = bench_groups.build_group(9, seed=5)

    assert built.by_game() == {"pickomino": 3, "yahtzee": 3, "tarot": 3}
    assert Play.objects.filter(group=built.group).count() == 9
    fold_cache.clear()
    now = timezone.now()
    for planned in built.matches:
        row = Match.objects.get(pk=planned.row.pk)
        low, high = bench_groups.TABLE_SIZES[row.game]
        assert low <= len(row.players) <= high
        assert set(row.players) <= set(bench_groups.PLAYERS)
        assert now - timedelta(days=366) < row.created_at < row.updated_at < now
        entries = list(LogEntry.objects.filter(match=row).order_by("seq"))
        assert [entry.seq for entry in entries] == list(range(1, row.seq + 1))
        undos = [entry for entry in entries if entry.kind == LogEntry.Kind.UNDO]
        assert len(undos) == bench_groups.MAX_UNDOS
        for undo in undos:
            assert undo.undoes is not None
            assert entries[undo.undoes - 1].undone_by == undo.seq
        view = match_view(row)
        assert row.over
        assert view.engine.state.over
        assert len(in_force(view.log)) == len(entries) - 2 * len(undos)

    stats, _plays = stats_of(built.group)
    assert stats.overall.plays == 9
    assert {section.key: section.plays for section in stats.games} == {"pickomino": 3, "yahtzee": 3, "tarot": 3}
