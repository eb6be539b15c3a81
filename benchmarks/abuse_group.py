"""The biggest group, written into a database before the server serves it (benchmarks/abuse.py).

    .venv/bin/python -m benchmarks.abuse_group PLAYS   (SQLITE_PATH or DATABASE_URL names the database)

Migrates the database, builds a group of eight players and ``PLAYS`` real matches with
benchmarks/bench_groups.py's builder (every match played to its end on the game's engine
and attached through the service), and prints the group's id on the last line. A process
of its own: Django set up here must not share the benchmark's event loop, and the server
then reads the database as any other.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    plays = int(argv[0]) if argv else 5_000
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marquoir.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from .bench_groups import build_group

    call_command("migrate", verbosity=0)
    built = build_group(plays)
    print(built.group.id)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
