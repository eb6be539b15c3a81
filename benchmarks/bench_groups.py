"""A group's stats, history and export over a thousand real matches (the issue's figures).

The group is eight players who played 1,000 matches of Pickomino, Yahtzee and Tarot (about
a third each), at tables of every size each game allows, with whoever sat down. Every
match is real: played to its end by random legal actions on the game's pure engine, each
action sent through the core's parser (``tables.actions.parse_action``, the API's schemas
and the keeper) so its stored payload is what a client's would be, a few of them undone;
then stored as a ``Match`` and its ``LogEntry`` rows and attached to the group by
``groups.services.play_attach``, which folds each log through its keeper.

Django runs in-process against a real SQLite file migrated from scratch, through the test
client, so the figures include routing, middleware, the queries and the template; the
baseline in the same run is the health endpoint, which does nothing. Medians, never an
assertion on time: the issue's target (≤ 50 ms) is printed as a verdict.

``python -m benchmarks.bench_groups --plays 60`` for a quick run.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gzip
import io
import pstats
import random
import statistics
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .api_bodies import BODIES
from .database import use_fresh_database

if TYPE_CHECKING:
    from django.test import Client

    from marquoir.groups.models import Group
    from marquoir.tables.models import Match

PLAYERS = ("Ada", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal")
TABLE_SIZES = {"pickomino": (2, 7), "yahtzee": (1, 8), "tarot": (3, 5)}
"""The games of the group, with the table sizes it plays them at (inclusive)."""
MINUTES_PER_ACTION = {"pickomino": 1.0, "yahtzee": 0.8, "tarot": 6.0}
"""About how long a turn (a deal, for Tarot) takes at the table: the matches' durations."""
UNDO_MATCH_RATE = 0.1
"""About one match in ten has someone take an action back…"""
UNDO_ACTION_RATE = 0.05
"""…each of its actions with this chance, at most ``MAX_UNDOS`` times."""
MAX_UNDOS = 3
MAX_ACTIONS = 5_000
"""A random game longer than this is a bug in the generator, not a long game."""
VERIFIED_SAMPLE = 24
"""Matches folded again from the database after the build (besides every one with an undo)."""
TARGET_SECONDS = 0.050


# --- the data


@dataclass
class PlannedEntry:
    """A log entry as it will be stored: an action's payload, or an undo."""

    kind: str
    payload: dict[str, Any]
    undone_by: int | None = None
    undoes: int | None = None


@dataclass
class PlannedMatch:
    """A match played to its end in memory: its row (not saved yet), its log, its times."""

    row: Match
    entries: list[PlannedEntry]
    started_at: datetime
    ended_at: datetime

    @property
    def undos(self) -> int:
        return sum(entry.kind == "undo" for entry in self.entries)


@dataclass
class BuiltGroup:
    """What the builder made, and how long each step took (setup, not a figure of the issue)."""

    group: Group
    matches: list[PlannedMatch]
    seconds: dict[str, float] = field(default_factory=dict)
    verified: int = 0

    def by_game(self) -> Counter[str]:
        return Counter(match.row.game for match in self.matches)

    def table_sizes(self, game: str) -> Counter[int]:
        return Counter(len(match.row.players) for match in self.matches if match.row.game == game)

    @property
    def entries(self) -> int:
        return sum(len(match.entries) for match in self.matches)

    @property
    def undos(self) -> int:
        return sum(match.undos for match in self.matches)


def _games() -> dict[str, tuple[Callable[[Any, Callable[[Sequence[Any]], Any]], Any], Callable[[Any], dict[str, Any]]]]:
    """Each game's random legal action (its playout's) and the API body that sends it."""
    from marquoir.games.pickomino import playout as pickomino
    from marquoir.games.tarot import playout as tarot
    from marquoir.games.yahtzee import playout as yahtzee

    return {
        "pickomino": (pickomino.random_legal_action, BODIES["pickomino"]),
        "yahtzee": (yahtzee.random_legal_action, BODIES["yahtzee"]),
        "tarot": (tarot.random_legal_action, BODIES["tarot"]),
    }


def play_match(row: Match, rng: random.Random) -> list[PlannedEntry]:
    """The log of one match played to its end by random legal actions, as the core stores it.

    Each action goes through the API's parsing (schemas, then the keeper's normalisation),
    and the engine plays the payload as a fold of the log will (``keeper.engine_action``);
    the payload must give back the very action chosen. Some matches have undos: an undo
    takes back the last action in force, as the core's does, and marks it ``undone_by``.
    """
    from marquoir.tables.actions import parse_action
    from marquoir.tables.keepers import keeper_for

    keeper = keeper_for(row.game)
    if keeper is None:
        raise LookupError(f"no keeper for {row.game}")
    random_action, body_of = _games()[row.game]
    engine = keeper.start(row)
    entries: list[PlannedEntry] = []
    standing: list[int] = []  # indexes into ``entries`` of the actions in force
    undos_left = MAX_UNDOS if rng.random() < UNDO_MATCH_RATE else 0
    while not engine.state.over:
        if len(entries) >= MAX_ACTIONS:
            raise RuntimeError(f"a random {row.game} game did not end in {MAX_ACTIONS} actions")
        action = random_action(engine.state, rng.choice)
        payload = parse_action(body_of(action), keeper).payload
        replayed = keeper.engine_action(payload)
        if replayed != action:
            raise RuntimeError(f"{row.game}: the payload {payload} plays {replayed}, not {action}")
        engine = engine.apply(replayed)
        entries.append(PlannedEntry("action", payload))
        standing.append(len(entries) - 1)
        if undos_left and rng.random() < UNDO_ACTION_RATE:
            undos_left -= 1
            engine = engine.undo()
            taken_back = standing.pop()
            entries.append(PlannedEntry("undo", {"type": "undo"}, undoes=taken_back + 1))
            entries[taken_back].undone_by = len(entries)  # the undo's seq
    return entries


def plan_matches(plays: int, rng: random.Random, *, now: datetime) -> list[PlannedMatch]:
    """``plays`` matches, about a third of each game, spread over the year before ``now``."""
    from marquoir.tables.keepers import keeper_for
    from marquoir.tables.models import Match

    games = [game for _ in range(plays // len(TABLE_SIZES) + 1) for game in TABLE_SIZES][:plays]
    rng.shuffle(games)
    planned = []
    for game in games:
        keeper = keeper_for(game)
        low, high = TABLE_SIZES[game]
        if keeper is None or low < keeper.min_players or high > keeper.max_players:
            raise RuntimeError(f"{game}: the tables planned ({low} to {high}) are not the game's")
        players = rng.sample(PLAYERS, rng.randint(low, high))
        row = Match(
            game=game,
            players=players,
            first=rng.randrange(len(players)),
            options=keeper.clean_options(None),
        )
        entries = play_match(row, rng)
        actions = sum(entry.kind == "action" for entry in entries)
        minutes = actions * MINUTES_PER_ACTION[game] * rng.uniform(0.6, 1.4)
        ended_at = now - timedelta(days=rng.uniform(0.5, 365))
        planned.append(PlannedMatch(row, entries, ended_at - timedelta(minutes=minutes), ended_at))
    return planned


def write_matches(planned: Sequence[PlannedMatch]) -> None:
    """The matches and their logs, written in bulk, with their times (``auto_now`` set them to now)."""
    from django.db import transaction

    from marquoir.tables.models import LogEntry, Match

    with transaction.atomic():
        for match in planned:
            match.row.seq = len(match.entries)
            match.row.over = True
        Match.objects.bulk_create([match.row for match in planned], batch_size=500)
        LogEntry.objects.bulk_create(
            (
                LogEntry(
                    match=match.row,
                    seq=seq,
                    kind=entry.kind,
                    payload=entry.payload,
                    undone_by=entry.undone_by,
                    undoes=entry.undoes,
                    response=None,
                )
                for match in planned
                for seq, entry in enumerate(match.entries, start=1)
            ),
            batch_size=2_000,
        )
        for match in planned:
            Match.objects.filter(pk=match.row.pk).update(created_at=match.started_at, updated_at=match.ended_at)


def attach_matches(group: Group, planned: Sequence[PlannedMatch]) -> None:
    """Each match into the group's history through the service (one transaction: SQLite
    would otherwise sync the file once per match)."""
    from django.db import transaction

    from marquoir.groups.services import play_attach
    from marquoir.tables.services import edit_token_for

    with transaction.atomic():
        for match in sorted(planned, key=lambda match: match.ended_at):
            play_attach(group=group, match_id=match.row.pk, match_token=edit_token_for(match.row.pk))


def verify(built: BuiltGroup, rng: random.Random) -> int:
    """Fold a sample of the matches again from the database (every one with an undo among
    them) and check each is over, with its log and its play as written; the matches verified."""
    from marquoir.groups.models import Play
    from marquoir.tables.models import Match
    from marquoir.tables.selectors import fold_cache, in_force, match_view

    fold_cache.clear()  # fold from the log, not from what play_attach folded
    plays = Play.objects.filter(group=built.group)
    if plays.count() != len(built.matches) or plays.filter(over=False).exists():
        raise RuntimeError("the group does not hold every match, each over")
    sample = [match for match in built.matches if match.undos]
    rest = [match for match in built.matches if not match.undos]
    sample += rng.sample(rest, min(VERIFIED_SAMPLE, len(rest)))
    for match in sample:
        row = Match.objects.get(pk=match.row.pk)
        view = match_view(row)
        actions = sum(entry.kind == "action" for entry in match.entries)
        if not view.engine.state.over or len(view.log) != len(match.entries) or row.seq != len(match.entries):
            raise RuntimeError(f"match {row.pk} ({row.game}) does not fold to its end")
        if len(in_force(view.log)) != actions - match.undos:
            raise RuntimeError(f"match {row.pk}: the undos did not take back what they should")
        if row.updated_at != match.ended_at or Play.objects.get(match_id=row.pk).summary_seq != row.seq:
            raise RuntimeError(f"match {row.pk}: its time or its play's summary is not as written")
    return len(sample)


def build_group(plays: int, *, seed: int = 1) -> BuiltGroup:
    """The group of eight and its ``plays`` real matches, in the database Django uses."""
    from django.utils import timezone

    from marquoir.groups.services import group_create

    rng = random.Random(seed)
    now = timezone.now().replace(microsecond=0)
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    planned = plan_matches(plays, rng, now=now)
    seconds["play the matches on the engines"] = time.perf_counter() - start
    start = time.perf_counter()
    write_matches(planned)
    seconds["write matches and logs (bulk)"] = time.perf_counter() - start
    start = time.perf_counter()
    group, _key = group_create(name="Thursday night", players=list(PLAYERS))
    attach_matches(group, planned)
    seconds["attach each (play_attach: fold, summary)"] = time.perf_counter() - start
    built = BuiltGroup(group, planned, seconds)
    start = time.perf_counter()
    built.verified = verify(built, rng)
    seconds["verify a sample (fold again from the log)"] = time.perf_counter() - start
    return built


# --- the measures


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _queries(count: int) -> str:
    return f"{count} quer{'y' if count == 1 else 'ies'}"


def _size(count: int) -> str:
    return f"{count / 1024:,.1f} KiB" if count < 1024 * 1024 else f"{count / 1024 / 1024:,.2f} MiB"


@dataclass(frozen=True)
class Measured:
    median: float
    queries: int
    body: bytes


class Bench:
    """The test client's requests, timed beside the baseline measured in the same run."""

    def __init__(self, client: Client, repeats: int) -> None:
        self.client = client
        self.repeats = repeats
        self.baseline = 0.0

    def get(self, path: str, *, before: Callable[[], object] | None = None) -> Measured:
        """The median of ``repeats`` GETs of ``path`` (after a warm-up), the queries of one;
        ``before`` runs ahead of each, untimed (a change to the group: the stats made anew)."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from .timing import median_seconds

        response = self.client.get(path)
        if response.status_code != 200:
            raise RuntimeError(f"GET {path} answered {response.status_code}")
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as captured:
            self.client.get(path)
        queries = len(captured)  # now: the next request empties the connection's log
        if before is None:
            median = median_seconds(lambda: self.client.get(path), repeats=self.repeats)
        else:
            samples = []
            for _ in range(self.repeats):
                before()
                start = time.perf_counter()
                self.client.get(path)
                samples.append(time.perf_counter() - start)
            median = statistics.median(samples)
        return Measured(median, queries, response.content)

    def call(self, run: Callable[[], object]) -> float:
        from .timing import median_seconds

        return median_seconds(run, repeats=self.repeats)

    def ratio(self, seconds: float) -> str:
        return f"{seconds / self.baseline:,.0f}x /healthz" if self.baseline else ""


def peak_memory(run: Callable[[], object]) -> int:
    """The peak of what Python allocated during one call (tracemalloc), in bytes."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def profile(run: Callable[[], object], *, top: int = 25) -> str:
    """Where one call spends its time: cProfile's top functions, by cumulative then own time."""
    profiler = cProfile.Profile()
    profiler.runcall(run)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_groups", description=__doc__.split("\n")[0])
    parser.add_argument("--plays", type=int, default=1000, help="the group's matches (default 1000)")
    parser.add_argument("--repeats", type=int, default=25, help="timed runs per figure, after a warm-up (default 25)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile one stats page and one API answer")
    args = parser.parse_args(argv)

    print(f"Group stats, history and export ({args.plays:,} plays of {len(PLAYERS)} players; bench_groups.py)")
    with tempfile.TemporaryDirectory(prefix="marquoir-groups-") as tmp:
        if not use_fresh_database(str(Path(tmp) / "bench.sqlite3")):
            print("  skipped: DATABASE_URL names another database than SQLite")
            return
        start = time.perf_counter()
        built = build_group(args.plays, seed=args.seed)
        build_seconds = time.perf_counter() - start
        _print_build(built, build_seconds)
        measure(built.group, args)
        from django.db import connections

        connections.close_all()  # before the file goes


def _print_build(built: BuiltGroup, seconds: float) -> None:
    from .timing import report

    games = built.by_game()
    print("Setup (not a figure of the issue)")
    report(
        "matches played (engines, legal random actions)",
        f"{len(built.matches):,}",
        ", ".join(f"{game} {games[game]}" for game in TABLE_SIZES),
    )
    for game in TABLE_SIZES:
        sizes = built.table_sizes(game)
        report(f"  {game}: players at the table", "", " ".join(f"{size}:{sizes[size]}" for size in sorted(sizes)))
    report(
        "log entries written",
        f"{built.entries:,}",
        f"{built.undos} undos in {sum(1 for match in built.matches if match.undos)} matches",
    )
    for step, step_seconds in built.seconds.items():
        report(step, f"{step_seconds:.2f} s")
    report("build, all told", f"{seconds:.2f} s", f"{built.verified} matches folded again and checked")


def measure(group: Group, args: argparse.Namespace) -> None:
    from django.conf import settings
    from django.test import Client
    from django.utils import timezone

    from marquoir.groups.api import GroupStatsOut
    from marquoir.groups.models import Group
    from marquoir.groups.presenters import stats_json
    from marquoir.groups.selectors import figures_by_game, members_of, plays_of, stats_of
    from marquoir.groups.stats import group_stats
    from marquoir.tables.api_errors import answer

    from .timing import report

    # The cost of each read is measured here, not the per-address budget of costly reads
    # (tests/groups/test_budgets.py holds that): one address asks far more than a table would.
    settings.GROUP_READ_LIMIT = settings.GROUP_EXPORT_LIMIT = 10**9
    bench = Bench(Client(), args.repeats)
    page = f"/en/groups/{group.id}/"
    stats_page, api_stats = f"{page}stats/", f"/api/v1/groups/{group.id}/stats"
    print(f"Requests (Django in-process, SQLite file, test client; medians of {args.repeats} after a warm-up)")
    health = bench.get("/healthz")
    bench.baseline = health.median
    report("baseline: GET /healthz, median", _ms(health.median), _queries(health.queries))

    def changed() -> None:
        # What any change does (a match played, a player renamed): the group's fingerprint
        # moves, so the next read makes the stats anew from the database.
        Group.objects.filter(pk=group.pk).update(updated_at=timezone.now())

    figures: dict[str, float] = {}
    for name, path, before in (
        ("stats page, overall (GET)", stats_page, None),
        ("stats page, Pickomino section (GET)", f"{stats_page}?game=pickomino", None),
        ("API stats answer (GET)", api_stats, None),
        ("stats page, first read after a change (GET)", stats_page, changed),
        ("API stats answer, first read after a change (GET)", api_stats, changed),
        ("group page: history, a page of 30 (GET)", page, None),
        ("group page, first read after a change (GET)", page, changed),
        ("API history, a page of 30 (GET)", f"/api/v1/groups/{group.id}/matches", None),
        ("API history, first read after a change (GET)", f"/api/v1/groups/{group.id}/matches", changed),
    ):
        measured = bench.get(path, before=before)
        figures[name] = measured.median
        report(
            name,
            _ms(measured.median),
            f"{bench.ratio(measured.median)}, {_queries(measured.queries)}, {_size(len(measured.body))}",
        )

    print("Export of the group")
    for name, query in (("JSON (BG Stats-shaped)", ""), ("CSV", "?format=csv")):
        measured = bench.get(f"{page}export/{query}")
        packed = len(gzip.compress(measured.body))
        report(
            f"export {name}, median (kept by the process)",
            _ms(measured.median),
            f"{bench.ratio(measured.median)}, {_queries(measured.queries)}",
        )
        fresh = bench.get(f"{page}export/{query}", before=changed)
        report(
            f"export {name}, first read after a change",
            _ms(fresh.median),
            f"{bench.ratio(fresh.median)}, {_queries(fresh.queries)}",
        )
        report(f"export {name}, size", f"{len(measured.body):,} B", f"gzip {packed:,} B")

    print("Where the stats page's time goes (in-process calls, no request)")
    plays, members = plays_of(group), members_of(group)
    own_figures = figures_by_game()
    stats = group_stats(plays, members, own_figures)
    read = bench.call(lambda: plays_of(group))
    compute = bench.call(lambda: group_stats(plays, members, own_figures))

    def changed_then_stats() -> object:
        changed()
        return stats_of(group)

    both = bench.call(changed_then_stats)
    serialise = bench.call(lambda: answer(GroupStatsOut, stats_json(stats)))
    report("plays_of: read the plays, decode summaries", _ms(read), f"{len(plays):,} records")
    report("group_stats: the figures from the records", _ms(compute), "pure Python, no database")
    report("stats_of after a change: both, and the members", _ms(both))
    report("stats_of, nothing changed (kept by the process)", _ms(bench.call(lambda: stats_of(group))))
    report("API: stats_json + schema check of the answer", _ms(serialise))

    print("Memory (tracemalloc, one request)")
    report("stats page, overall: peak", _size(peak_memory(lambda: bench.client.get(stats_page))))
    report("API stats answer: peak", _size(peak_memory(lambda: bench.client.get(api_stats))))

    again = bench.call(lambda: bench.client.get("/healthz"))
    report("baseline again at the end: GET /healthz", _ms(again), "drift of the machine during the run")

    print(f"The issue's target: ≤ {TARGET_SECONDS * 1000:.0f} ms median (render included), {args.plays:,} plays")
    missed = []
    for name in (
        "stats page, overall (GET)",
        "stats page, Pickomino section (GET)",
        "API stats answer (GET)",
        "stats page, first read after a change (GET)",
        "API stats answer, first read after a change (GET)",
    ):
        holds = figures[name] <= TARGET_SECONDS
        if not holds:
            missed.append(name)
        report(name, _ms(figures[name]), "holds" if holds else "MISSED")
    if args.profile or missed:
        for name, path in (("stats page, overall", stats_page), ("API stats answer", api_stats)):
            print(f"Profile of one request: {name} (cProfile)")
            print(profile(functools.partial(bench.client.get, path)))


if __name__ == "__main__":
    main()
