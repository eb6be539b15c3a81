"""The score keeper on the server: what a turn costs, and what the table screen weighs.

Runs Django in-process against a real SQLite file (migrated from scratch), through the test
client, so the figures include routing, the service's transaction, the log fold and the
template. The baseline in the same run is the health endpoint, which does nothing.

A turn is posted as a browser posts the table screen's form, and as its outbox does with
JavaScript: ``application/x-www-form-urlencoded`` (the test client's default is multipart,
which no page of Marquoir sends, and which Django takes ~0.25 ms longer to read). Whole
Pickomino games are played until 200 turns are timed (one game is ~30 turns).
"""

from __future__ import annotations

import gzip
import re
import statistics
import tempfile
import time
import uuid
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from .database import use_fresh_database

ROOT = Path(__file__).resolve().parent.parent


def _setup_django(db_path: str) -> None:
    if not use_fresh_database(db_path):
        raise RuntimeError("the site's benchmark runs on SQLite: unset DATABASE_URL")


def _median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f} ms"


def _static(name: str) -> Path:
    """The file a static address serves, found as Django's static files are."""
    from django.contrib.staticfiles import finders

    found = finders.find(name)
    if not isinstance(found, str):
        raise FileNotFoundError(name)
    return Path(found)


TURNS = 200
PLAYERS = {"name_0": "Ada", "name_1": "Ben", "name_2": "Cy", "name_3": "Dee", "first": "0"}


def post_form(client: Any, path: str, fields: dict[str, str]) -> Any:
    """A form posted as a browser posts it (urlencoded)."""
    return client.post(path, urlencode(fields), content_type="application/x-www-form-urlencoded")


def main() -> None:
    from .timing import report

    with tempfile.TemporaryDirectory() as tmp:
        _setup_django(str(Path(tmp) / "bench.sqlite3"))
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        client = Client()
        print("Site (Django in-process, SQLite file, test client)")

        health: list[float] = []
        turns: list[float] = []
        renders: list[float] = []
        mid_game_html = b""
        queries_per_turn: list[int] = []
        tiles = list(range(21, 37))
        games = 0
        while len(turns) < TURNS:
            table = client.post("/en/tables/new/pickomino/", PLAYERS)["Location"]
            games += 1
            for turn in range(200):
                start = time.perf_counter()
                client.get("/healthz")
                health.append(time.perf_counter() - start)

                page = client.get(table).content.decode()
                if games == 1 and turn == 12:
                    mid_game_html = page.encode()
                seq = re.search(r'name="expected_seq" value="(\d+)"', page)
                action_id = re.search(r'name="action_id" value="(\w+)"', page)
                if seq is None or action_id is None or 'name="type" value="bust"' not in page:
                    break  # the game is over
                # Alternate takes and busts so the log grows like a real game's.
                fields = {"expected_seq": seq.group(1), "action_id": action_id.group(1)}
                if turn % 3 == 2:
                    fields |= {"type": "bust"}
                else:
                    total = str(tiles[turn % len(tiles)] + 2)
                    fields |= {"type": "take", "total": total, "worm": "1", "from": "grill"}
                with CaptureQueriesContext(connection) as queries:
                    start = time.perf_counter()
                    answer = post_form(client, table + "act/", fields)
                    turns.append(time.perf_counter() - start)
                if answer.status_code != 303:
                    raise RuntimeError(f"a turn was refused ({answer.status_code})")
                queries_per_turn.append(len(queries))
                start = time.perf_counter()
                client.get(table)
                renders.append(time.perf_counter() - start)

        report("baseline: GET /healthz, median", _median_ms(health))
        report("record a turn (POST, no JS), median", _median_ms(turns), f"over {len(turns)} turns, {games} games")
        report("database queries per recorded turn, median", f"{statistics.median(queries_per_turn):.0f}")
        report("render the table screen (GET), median", _median_ms(renders))
        report("turn / baseline", f"{statistics.median(turns) / statistics.median(health):.1f}x")

        html = mid_game_html
        # Every stylesheet and script the page itself links to, as the browser would fetch
        # them, wherever they sit (the core's static files, or a game's package).
        text = html.decode()
        assets = {
            "CSS": [_static(name) for name in re.findall(r'<link rel="stylesheet" href="/static/([^"]+)"', text)],
            "JS": [_static(name) for name in re.findall(r'<script src="/static/([^"]+)"', text)],
        }
        print("Table screen weight (mid-game, 4 players)")
        transferred = len(gzip.compress(html))
        report("HTML", f"{len(html):,} B", f"gzip {len(gzip.compress(html)):,} B")
        for kind, paths in assets.items():
            raw = sum(path.stat().st_size for path in paths)
            packed = sum(len(gzip.compress(path.read_bytes())) for path in paths)
            transferred += packed
            report(kind, f"{raw:,} B", f"gzip {packed:,} B")
        report("transferred, first visit (gzip)", f"{transferred:,} B", "later visits: HTML only (assets cached)")
        yahtzee_turns(client)
        catalog_search(client)


# The search's queries: none, one found by a typo, and the dearest the form can send (100
# characters of words each found by typos alone in one game, so that every other game is
# compared with typos to its first word and that one to all twenty).
SEARCHES = {
    "no query (the whole catalog)": "",
    '"quixx" (a typo)': "quixx",
    '"seven wonders" (a number in words)': "seven wonders",
    "100 characters of typos": " ".join(["carcasone"] * 10),
}


def catalog_search(client: Any) -> None:
    """The home page (every game's card, the filters), with each of SEARCHES, beside
    ``GET /healthz`` in the same run, and its weight."""
    from .timing import report, steady_median_seconds

    print("Home page and its search (every game in the catalog)")
    health = steady_median_seconds(lambda: client.get("/healthz"), bursts=3, repeats=30)
    report("baseline: GET /healthz", f"{health * 1000:.2f} ms")
    for name, query in SEARCHES.items():
        address = "/en/" + (f"?{urlencode({'q': query})}" if query else "")
        answer = client.get(address)
        if answer.status_code != 200:
            raise RuntimeError(f"{address} answered {answer.status_code}")
        cost = steady_median_seconds(partial(client.get, address), bursts=3, repeats=30)
        report(f"GET /en/, {name}", f"{cost * 1000:.2f} ms", f"{cost / health:.1f}x the baseline")
    html = client.get("/en/").content
    report("home page HTML", f"{len(html):,} B", f"gzip {len(gzip.compress(html)):,} B")


YAHTZEE_BOXES = (
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
    "full_house", "small_straight", "large_straight", "yahtzee", "chance",
)  # fmt: skip


def yahtzee_turns(client: Any) -> None:
    """A whole two-player Yahtzee game recorded as the table screen's box list sends it
    (the five dice and the box, no JavaScript), beside GET /healthz in the same loop."""
    from .timing import report

    created = client.post("/en/tables/new/yahtzee/", {"name_0": "Ada", "name_1": "Ben", "first": "0"})
    table = created["Location"]
    health, turns = [], []
    for turn in range(2 * len(YAHTZEE_BOXES)):
        start = time.perf_counter()
        client.get("/healthz")
        health.append(time.perf_counter() - start)
        page = client.get(table).content.decode()
        seq = re.search(r'name="expected_seq" value="(\d+)"', page)
        if seq is None:
            break
        fields = {
            "type": "score",
            "box": YAHTZEE_BOXES[turn // 2],
            "dice": "13346",
            "expected_seq": seq.group(1),
            "action_id": uuid.uuid4().hex,
        }
        start = time.perf_counter()
        answer = post_form(client, table + "act/", fields)
        turns.append(time.perf_counter() - start)
        if answer.status_code not in (200, 302, 303):
            raise RuntimeError(f"a Yahtzee turn was refused ({answer.status_code})")
    match_id = table.rstrip("/").rsplit("/", 1)[-1]
    if not client.get(f"/api/v1/matches/{match_id}").json()["over"]:
        raise RuntimeError("the Yahtzee game did not end: a turn was refused")
    print("Yahtzee on the server (same client, a whole 2-player game)")
    report("baseline: GET /healthz, median", _median_ms(health))
    report("record a turn (POST, no JS), median", _median_ms(turns), f"over {len(turns)} turns")
    report("turn / baseline", f"{statistics.median(turns) / statistics.median(health):.1f}x")
