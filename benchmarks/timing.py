"""Small timing helpers: medians over repeats, printed in a fixed format."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(run: Callable[[], object], *, repeats: int, warmup: int = 3) -> float:
    """The median wall time of ``run`` over ``repeats`` calls, after ``warmup`` unmeasured ones."""
    for _ in range(warmup):
        run()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def steady_median_seconds(run: Callable[[], object], *, bursts: int = 7, repeats: int = 60) -> float:
    """The lowest of ``bursts`` medians of ``repeats`` calls each: a call's cost while the
    machine is steady. A shared machine slows down for seconds at a time (measured here:
    ``GET /healthz`` from 0.5 to 0.9 ms within minutes), which one long median takes in whole."""
    return min(median_seconds(run, repeats=repeats, warmup=1 if burst else 3) for burst in range(bursts))


def report(name: str, value: str, note: str = "") -> None:
    print(f"  {name:<44} {value:>14}  {note}")
