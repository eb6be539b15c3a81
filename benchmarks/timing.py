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


def report(name: str, value: str, note: str = "") -> None:
    print(f"  {name:<44} {value:>14}  {note}")
