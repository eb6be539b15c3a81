"""The Yahtzee assistant: the value of an empty sheet, the table's build, and advice, cold and warm.

Targets: the table built in about a minute or less (the Makefile's install step builds it);
the first advice of a fresh process, the table's file on disk, well under 1 s; advice after
that, for a situation not seen before, 5 ms or less, median. The games played by the advice
check the table against chance: their mean must lie within 4 standard errors of its value.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from marquoir.games.yahtzee import Score, Sheet, apply, fold, new_game
from marquoir.games.yahtzee.match import Setup
from marquoir.games.yahtzee.playout import random_game
from marquoir.games.yahtzee.solver import (
    EMPTY_SHEET_VALUE,
    TABLE_ENV,
    JokerRule,
    best_boxes,
    best_keeps,
    clear_cache,
    load_table,
    sheet_value,
    table_path,
)

ROOT = Path(__file__).resolve().parent.parent
BUILD_TARGET_SECONDS = 60.0
COLD_TARGET_SECONDS = 1.0
WARM_TARGET_SECONDS = 0.005
SITUATIONS = 200
GAMES = 400

# Solves the game in a fresh interpreter, writes the table where $MARQUOIR_YAHTZEE_TABLE says,
# and prints the build's seconds, the process's peak RSS before and after it, the file's size.
# (Peak RSS, not tracemalloc: tracing every numpy temporary slows the build down threefold.)
_BUILD = """
import resource, sys, time
from marquoir.games.yahtzee import solver
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
start = time.perf_counter()
path = solver.build_table(joker=solver.JokerRule(sys.argv[1]))
seconds = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(seconds, before, after, path.stat().st_size)
"""

# The first advice of a fresh process, timed inside it from before the first import.
_COLD = """
import time
start = time.perf_counter()
from marquoir.games.yahtzee import Sheet
from marquoir.games.yahtzee.solver import best_keeps
best_keeps(Sheet(), (1, 3, 3, 4, 6), 2)
print(time.perf_counter() - start)
"""


def build_in_subprocess(joker: JokerRule) -> tuple[float, int, int, int]:
    """(seconds, peak RSS before, peak RSS after, file size), bytes, of a build into a temporary file."""
    with tempfile.TemporaryDirectory() as directory:
        env = {**os.environ, TABLE_ENV: str(Path(directory) / "values.npy")}
        child = subprocess.run(  # noqa: S603 (our own interpreter, our own code)
            [sys.executable, "-c", _BUILD, joker.value], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
    seconds, before, after, size = child.stdout.split()
    return float(seconds), int(before), int(after), int(size)


def cold_advice() -> tuple[float, float]:
    """(seconds from spawning the process to its answer, seconds inside it from its first import)."""
    start = time.perf_counter()
    child = subprocess.run(  # noqa: S603 (our own interpreter, our own code)
        [sys.executable, "-c", _COLD], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return time.perf_counter() - start, float(child.stdout.strip().splitlines()[-1])


def situations(count: int, seed: int = 11) -> list[tuple[Sheet, tuple[int, ...], int]]:
    """Mid-game situations: a sheet after 0 to 12 random legal turns, dice, rolls left 0 to 2."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        setup = Setup(("Ada",))
        actions = random_game(setup.initial_state(), rng.choice)[: rng.randint(0, 12)]
        sheet = fold(setup, actions).sheets[0]
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        found.append((sheet, dice, rng.choice((0, 1, 2))))
    return found


def advise(sheet: Sheet, dice: tuple[int, ...], rolls_left: int) -> object:
    """What the API's advice endpoint asks of the solver for one situation."""
    value = sheet_value(sheet)
    if rolls_left:
        return value, best_keeps(sheet, dice, rolls_left)
    return value, best_boxes(sheet, dice)


def play_by_the_advice(rng: random.Random) -> int:
    state = new_game(1)
    while not state.over:
        sheet = state.sheets[0]
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        for rolls_left in (2, 1):
            kept = best_keeps(sheet, dice, rolls_left)[0].keep
            dice = kept + tuple(rng.randint(1, 6) for _ in range(5 - len(kept)))
        state = apply(state, Score(best_boxes(sheet, dice)[0].box, dice))[0]
    return state.total(0)


def verdict(seconds: float, target: float, label: str) -> str:
    return f"{'meets' if seconds <= target else 'MISSES'} the {label} target"


def main() -> None:
    from .timing import report

    print("Yahtzee assistant (exact optimal solitaire strategy, numpy table)")
    forced = load_table()  # the game's table, built first if its file is missing
    free = load_table(joker=JokerRule.FREE_CHOICE)
    report(
        "empty sheet, Verhoeff's rules (free joker)", f"{float(free[0, 0, 0]):.4f}", f"literature: {EMPTY_SHEET_VALUE}"
    )
    report("empty sheet, the rules kept (forced joker)", f"{float(forced[0, 0, 0]):.4f}", "what the advice plays for")

    seconds, before, after, size = build_in_subprocess(JokerRule.FORCED)
    report("table build (fresh process)", f"{seconds:.1f} s", verdict(seconds, BUILD_TARGET_SECONDS, "1 min"))
    report(
        "  peak memory of the process (RSS)", f"{after / 2**20:.0f} MiB", f"{before / 2**20:.0f} MiB before the build"
    )
    report("  file on disk", f"{size / 2**20:.1f} MiB", f"float32 8192 × 64 × 2, {table_path().name}")

    spawned, inside = min(cold_advice() for _ in range(3))
    report(
        "cold advice: spawn to answer, best of 3",
        f"{spawned * 1000:.0f} ms",
        verdict(spawned, COLD_TARGET_SECONDS, "1 s"),
    )
    report("  inside the process, from its first import", f"{inside * 1000:.0f} ms", "imports numpy, reads 4 MiB")

    cases = situations(SITUATIONS)
    clear_cache()
    load_table()
    samples = []
    for sheet, dice, rolls_left in cases:
        start = time.perf_counter()
        advise(sheet, dice, rolls_left)
        samples.append(time.perf_counter() - start)
    warm = statistics.median(samples)
    report(
        f"warm advice, {SITUATIONS} new situations, median",
        f"{warm * 1000:.2f} ms",
        verdict(warm, WARM_TARGET_SECONDS, "5 ms") + f"; p95 {statistics.quantiles(samples, n=20)[-1] * 1000:.2f} ms",
    )
    repeat = []
    for sheet, dice, rolls_left in cases:
        start = time.perf_counter()
        advise(sheet, dice, rolls_left)
        repeat.append(time.perf_counter() - start)
    report("  the same situations again, median", f"{statistics.median(repeat) * 1e6:.0f} µs", "the turn memoised")

    rng = random.Random(1999)
    start = time.perf_counter()
    scores = [play_by_the_advice(rng) for _ in range(GAMES)]
    elapsed = time.perf_counter() - start
    mean, error = statistics.fmean(scores), statistics.stdev(scores) / GAMES**0.5
    within = abs(mean - float(forced[0, 0, 0])) / error
    report(
        f"{GAMES} games played by the advice",
        f"{mean:.1f} ± {error:.1f}",
        f"mean ± SE; {within:.1f} SE from the table; sd {statistics.stdev(scores):.1f}; {elapsed:.1f} s",
    )
