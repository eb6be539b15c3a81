"""The Pickomino turn assistant's exact odds: the first request, and advice in mid-turn.

Targets (the assistant answers while the player holds the dice): the first request after
the process starts, building every table it needs, in 1 s or less; advice for a mid-turn
state after warm-up in 5 ms or less, median. Warm-up builds the roll tables, which serve
every table; each timed request is for a table not seen before, as on a new turn (the
repeat of a request already answered is printed too). The baseline in the same run is the
textbook solver: a memoised recursion over (faces kept, dice left, total) that enumerates
every multiset roll of the dice left with its multinomial chance.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from pathlib import Path

from marquoir.games.pickomino import TILES, Face, TurnDice
from marquoir.games.pickomino.odds import Table, advise, clear_cache, tile_chances

ROOT = Path(__file__).resolve().parent.parent
COLD_TARGET_SECONDS = 1.0
WARM_TARGET_SECONDS = 0.005

MID_TURN = TurnDice().keep(Face.WORM, 2).keep(Face.FIVE, 1)  # total 15, 5 dice left
MID_ROLL = (Face.ONE, Face.THREE, Face.FOUR, Face.FOUR, Face.FIVE)
FRESH_TABLE = Table(frozenset(TILES))

_COLD_MINE = """
import time
start = time.perf_counter()
from marquoir.games.pickomino import TILES, TurnDice
from marquoir.games.pickomino.odds import Table, advise
advise(Table(frozenset(TILES)), TurnDice())
print(time.perf_counter() - start)
"""

_COLD_TEXTBOOK = """
import time
start = time.perf_counter()
from marquoir.games.pickomino import TILES, TurnDice
from marquoir.games.pickomino.odds import Table
from benchmarks.bench_odds import textbook_advice
textbook_advice(Table(frozenset(TILES)), TurnDice())
print(time.perf_counter() - start)
"""


def textbook_solver(table: Table, steal_weight: float = 2.0) -> Callable[[int, int, int], float]:
    """The obvious exact solver: the value of a state (faces kept as a mask, dice left, total)."""
    bust = table.bust_value

    def stop(mask: int, total: int) -> float | None:
        claim = table.claim(total, steal_weight) if mask & 1 << (Face.WORM - 1) else None
        return None if claim is None else claim[2]

    @cache  # the lru_cache of the textbook, unbounded
    def value(mask: int, left: int, total: int) -> float:
        stopped = stop(mask, total)
        if left == 0 or mask == 0b111111:
            return bust if stopped is None else stopped
        rolled = 0.0
        for roll in combinations_with_replacement(tuple(Face), left):
            counts = Counter(roll)
            ways = factorial(left)
            for count in counts.values():
                ways //= factorial(count)
            best = bust
            for face, count in counts.items():
                if not mask & 1 << (face - 1):
                    best = max(best, value(mask | 1 << (face - 1), left - count, total + face.points * count))
            rolled += ways / 6**left * best
        return rolled if stopped is None else max(stopped, rolled)

    return value


def textbook_advice(table: Table, dice: TurnDice, roll: tuple[Face, ...] | None = None) -> list[float]:
    """What ``advise`` answers, by the textbook solver: stop and roll values, each keep's value."""
    value = textbook_solver(table)
    mask = sum(1 << (face - 1) for face in dice.faces_kept)
    answer = [value(mask, dice.dice_left, dice.total)]
    for face in set(roll or ()) - dice.faces_kept:
        count = (roll or ()).count(face)
        answer.append(value(mask | 1 << (face - 1), dice.dice_left - count, dice.total + face.points * count))
    return answer


def cold_seconds(code: str) -> float:
    """The first request in a fresh interpreter, timed inside it from before the first import."""
    child = subprocess.run(  # noqa: S603 (our own interpreter, our own code)
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(child.stdout.strip().splitlines()[-1])


def new_tables(count: int, seed: int = 5) -> list[Table]:
    """Random mid-game tables: part of the grill gone, some stealable tops, sometimes an own stack."""
    rng = random.Random(seed)
    tables = []
    for _ in range(count):
        tiles = list(TILES)
        rng.shuffle(tiles)
        face_up = frozenset(tiles[: rng.randint(5, 14)])
        rest = tiles[len(face_up) :]
        tops = rest[: rng.randint(0, min(3, len(rest)))]
        own = rest[len(tops)] if len(rest) > len(tops) and rng.random() < 0.7 else None
        tables.append(Table(face_up, frozenset(tops), own))
    return tables


def median_new_table_seconds(run: Callable[[Table], object], tables: list[Table]) -> float:
    """The median time of ``run`` on tables never solved before (the solver's cache emptied)."""
    samples = []
    for table in tables:
        clear_cache()
        start = time.perf_counter()
        run(table)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def verdict(seconds: float, target: float, label: str) -> str:
    return f"{'meets' if seconds <= target else 'MISSES'} the {label} target"


def main() -> None:
    from .timing import median_seconds, report

    print("Turn odds (exact solver, pure Python)")
    cold = min(cold_seconds(_COLD_MINE) for _ in range(3))
    cold_textbook = min(cold_seconds(_COLD_TEXTBOOK) for _ in range(3))
    report(
        "cold first request (fresh turn), best of 3", f"{cold * 1000:.0f} ms", verdict(cold, COLD_TARGET_SECONDS, "1 s")
    )
    ratio = f"textbook/solver {cold_textbook / cold:.1f}x"
    report("  textbook solver, cold, best of 3", f"{cold_textbook * 1000:.0f} ms", ratio)

    advise(FRESH_TABLE, TurnDice())  # warm-up: the roll tables
    textbook_advice(FRESH_TABLE, MID_TURN, MID_ROLL)
    tables = new_tables(200)
    # Both solvers must give the same answers, or the comparison means nothing.
    for table in tables[:5]:
        mine = advise(table, MID_TURN, MID_ROLL)
        theirs = textbook_advice(table, MID_TURN, MID_ROLL)
        assert abs(mine.value - theirs[0]) < 1e-9
        assert sorted(round(keep.value, 9) for keep in mine.keeps) == sorted(round(value, 9) for value in theirs[1:])
    mid = median_new_table_seconds(lambda table: advise(table, MID_TURN, MID_ROLL), tables)
    mid_textbook = median_new_table_seconds(lambda table: textbook_advice(table, MID_TURN, MID_ROLL), tables[:50])
    report(
        "mid-turn advice, new table, median",
        f"{mid * 1000:.2f} ms",
        verdict(mid, WARM_TARGET_SECONDS, "5 ms") + " (2 faces kept, 5 dice left, with a roll)",
    )
    report(
        "  textbook solver, same request", f"{mid_textbook * 1000:.2f} ms", f"textbook/solver {mid_textbook / mid:.1f}x"
    )
    repeat = median_seconds(lambda: advise(tables[0], MID_TURN, MID_ROLL), repeats=2000)
    report("mid-turn advice, same table again, median", f"{repeat * 1e6:.1f} µs", "memoised")

    fresh = median_new_table_seconds(lambda table: advise(table, TurnDice()), tables[:30])
    fresh_textbook = median_new_table_seconds(lambda table: textbook_advice(table, TurnDice()), tables[:5])
    report("fresh-turn advice, new table, median", f"{fresh * 1000:.1f} ms", "8 dice to roll")
    report(
        "  textbook solver, same request",
        f"{fresh_textbook * 1000:.1f} ms",
        f"textbook/solver {fresh_textbook / fresh:.1f}x",
    )
    clear_cache()
    start = time.perf_counter()
    tile_chances(tables[0], TurnDice())
    report(
        "tile chances, fresh turn, new table", f"{(time.perf_counter() - start) * 1000:.0f} ms", "one solve per tile"
    )
