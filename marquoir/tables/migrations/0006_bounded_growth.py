"""Log entries stop storing the whole State they answered (issue 18: a 20-player sheet's
round/undo grew the database by ~34 kB an action). A retried ``action_id`` is answered by
folding the log up to its entry (``services.answer_of``).

Existing entries keep the State they stored, on purpose: it is the answer exactly as it
was sent, by the code of its day (a State folded again by today's code could carry keys
added since), and a phone's queued action can be retried long after. Only new entries
store nothing; the column stays, nullable, for those old answers. No data is changed.

Rate buckets get an index on their window's start: creations now delete expired buckets,
oldest first, a few at a time (ratelimit._purge_expired).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_log_kinds_action_and_undo")]

    operations = [
        migrations.AlterField(
            model_name="logentry",
            name="response",
            field=models.JSONField(
                blank=True, help_text="Entries before 0006 only: the State first answered.", null=True
            ),
        ),
        migrations.AlterField(
            model_name="ratebucket",
            name="window_start",
            field=models.DateTimeField(db_index=True),
        ),
    ]
