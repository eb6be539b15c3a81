"""The matches a group's history held before matches said whether something follows them
(``tables`` 0007) are followed after ``groups`` 0002, and no other match is (run on SQLite and
on PostgreSQL, as the whole suite is)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from marquoir.tables.models import Match
from tests.tables.test_migrations import migrate, migrate_to_latest

BEFORE = [("tables", "0006_bounded_growth"), ("groups", "0001_initial")]
AFTER = [("groups", "0002_follow_held_matches")]


@pytest.mark.django_db(transaction=True)
def test_the_matches_a_group_held_are_followed_after_the_migration_and_no_other():
    old_apps = migrate(BEFORE)
    old_match = old_apps.get_model("tables", "Match")
    old_group = old_apps.get_model("groups", "Group")
    old_play = old_apps.get_model("groups", "Play")
    setup = {"game": "sheet", "players": ["Ada", "Ben"], "first": 0, "options": {}, "seq": 0}
    held = old_match.objects.create(id="heldheldheldheldheldhe", **setup)
    alone = old_match.objects.create(id="alonealonealonealoneal", **setup)
    group = old_group.objects.create(id="groupgroupgroupgroupgr", name="Thursday")
    now = timezone.now()
    old_play.objects.create(
        group=group,
        match=held,
        game="sheet",
        game_name="Score sheet",
        seats=[0, 1],
        started_at=now,
        ended_at=now,
        summary={},
    )

    migrate(AFTER)
    migrate_to_latest()

    assert Match.objects.get(pk=held.pk).followed is True
    assert Match.objects.get(pk=alone.pk).followed is False
