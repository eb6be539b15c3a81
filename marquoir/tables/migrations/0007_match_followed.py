"""A match says whether something follows its writes (a group's history holds it): a write is
published to the followers only then (``services.follow_writes``). Before, every write of
every match asked the database whether a group held it (issue 20: a query a turn). The
groups' own migration marks the matches their histories already hold."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tables", "0006_bounded_growth")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="followed",
            # db_default: a process of the previous version inserting during an upgrade gets it too.
            field=models.BooleanField(default=False, db_default=False),
        ),
    ]
