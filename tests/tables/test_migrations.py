"""The log's kinds became a game's action or an undo: every match logged before folds to the
same table after the migration (run on SQLite and on PostgreSQL, as the whole suite is)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from marquoir.games.pickomino import GRILL, Bust, BustReason, Match, Setup, Take
from marquoir.keepers.pickomino.state import state_json
from marquoir.tables.models import LogEntry
from marquoir.tables.models import Match as MatchRow
from marquoir.tables.selectors import fold_cache, match_view

BEFORE = [("tables", "0004_match_assistant")]
AFTER = [("tables", "0005_log_kinds_action_and_undo")]

# A match as the old log held it: kinds take, bust and undo.
OLD_LOG: list[tuple[str, dict[str, Any], int | None]] = [
    ("take", {"type": "take", "total": 27, "worm": True, "from": "grill"}, None),
    ("take", {"type": "take", "total": 27, "worm": True, "from": 0}, None),
    ("undo", {"type": "undo"}, 2),
    ("bust", {"type": "bust", "reason": "no_new_face"}, None),
    ("take", {"type": "take", "total": 31, "worm": True, "from": "grill", "dice": {"worm": 3, "4": 4}}, None),
]


def migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> None:
    """Every app's latest migration again: the migrations since the one under test (and the
    apps that depend on it) are back, as the rest of the suite expects."""
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_match_logged_with_the_old_kinds_folds_to_the_same_table_after_the_migration():
    old_apps = migrate(BEFORE)
    old_match = old_apps.get_model("tables", "Match")
    old_entry = old_apps.get_model("tables", "LogEntry")
    row = old_match.objects.create(game="pickomino", players=["Ada", "Ben"], first=0, options={}, seq=len(OLD_LOG))
    undone_by = {2: 3}
    for seq, (kind, payload, undoes) in enumerate(OLD_LOG, start=1):
        old_entry.objects.create(
            match=row, seq=seq, kind=kind, payload=payload, undoes=undoes, undone_by=undone_by.get(seq)
        )

    migrate(AFTER)
    migrate_to_latest()  # what came since changes no kind
    fold_cache.clear()

    entries = list(LogEntry.objects.filter(match_id=row.pk).order_by("seq"))
    assert [entry.kind for entry in entries] == ["action", "action", "undo", "action", "action"]
    assert [entry.payload["type"] for entry in entries] == ["take", "take", "undo", "bust", "take"]
    expected = Match.replay(Setup(2), [Take(27, True, GRILL), Bust(BustReason.NO_NEW_FACE), Take(31, True, GRILL)])
    view = match_view(MatchRow.objects.get(pk=row.pk))
    assert view.engine.state == expected.state
    assert state_json(view)["players"][0]["stack"] == [27, 31]  # the steal undone, Ben busted, Ada took 31
    assert [logged.undone for logged in view.log] == [False, True, False, False, False]


@pytest.mark.django_db(transaction=True)
def test_the_migration_goes_back_to_the_game_kinds():
    migrate_to_latest()
    row = MatchRow.objects.create(game="pickomino", players=["Ada", "Ben"], seq=2)
    LogEntry.objects.create(match=row, seq=1, kind="action", payload={"type": "take", "total": 27, "worm": True})
    LogEntry.objects.create(match=row, seq=2, kind="action", payload={"type": "bust", "reason": "declared"})

    old_apps = migrate(BEFORE)

    kinds = old_apps.get_model("tables", "LogEntry").objects.filter(match_id=row.pk).order_by("seq")
    assert [entry.kind for entry in kinds] == ["take", "bust"]
    migrate_to_latest()
