"""The matches a group's history holds are followed (``tables`` 0007): their writes bring the
summary of their play up to date as they are made (``services.follow_match``)."""

from typing import Any

from django.db import migrations


def follow_held_matches(apps: Any, schema_editor: Any) -> None:
    match = apps.get_model("tables", "Match")
    match.objects.filter(group_play__isnull=False).update(followed=True)


class Migration(migrations.Migration):
    dependencies = [("groups", "0001_initial"), ("tables", "0007_match_followed")]

    operations = [migrations.RunPython(follow_held_matches, migrations.RunPython.noop)]
