"""Django for the benchmarks that run it in-process: one set-up, a new SQLite file for each."""

from __future__ import annotations

import os


def use_fresh_database(db_path: str) -> bool:
    """Django on a new SQLite file, migrated; False if the settings name another database.

    ``make bench`` runs every benchmark in one process and Django is set up once, by the first
    that needs it (the corrections' fold reads the settings, with no database): each later
    one points the default connection at its own new file. The site's turns and rounds are
    timed back to back, faster than any table plays: out of the action limits' reach (the
    limits themselves are tested by pytest)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marquoir.settings")
    os.environ.setdefault("MATCH_ACTION_LIMIT", "1000000")
    os.environ.setdefault("MATCH_ACTION_ADDRESS_LIMIT", "1000000")
    os.environ["SQLITE_PATH"] = db_path
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    settings.MATCH_ACTION_LIMIT = settings.MATCH_ACTION_ADDRESS_LIMIT = 1_000_000
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return False
    connections.close_all()
    database["NAME"] = db_path
    connections["default"].settings_dict["NAME"] = db_path
    call_command("migrate", verbosity=0)
    return True
