"""The log's kinds become a game's action or an undo (every game shares undo; what the
action was is already in the payload's ``type``, so every existing match folds as before)."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

GAME_ACTION_KINDS = ("take", "bust")  # Pickomino's, the only game before this migration


def to_action(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    entries = apps.get_model("tables", "LogEntry")
    entries.objects.filter(kind__in=GAME_ACTION_KINDS).update(kind="action")


def back_to_game_kinds(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    entries = apps.get_model("tables", "LogEntry")
    for kind in GAME_ACTION_KINDS:
        entries.objects.filter(kind="action", payload__type=kind).update(kind=kind)


class Migration(migrations.Migration):
    dependencies = [("tables", "0004_match_assistant")]

    operations = [
        migrations.AlterField(
            model_name="logentry",
            name="kind",
            field=models.CharField(choices=[("action", "Action"), ("undo", "Undo")], max_length=8),
        ),
        migrations.RunPython(to_action, back_to_game_kinds),
    ]
