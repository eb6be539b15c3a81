"""The Pickomino engine: replaying a 100-action match, and playing random legal games.

Target (issue 2): a 100-action replay in 1 ms or less, median, so the site can rebuild a
match from its log on every request. The baseline in the same run is the bare cost of
building the initial state 100 times, the floor any replay pays.
"""

from __future__ import annotations

import random
import time

from marquoir.games.pickomino import Match, Options, Setup, fold
from marquoir.games.pickomino.playout import random_game

REPLAY_TARGET_SECONDS = 0.001


def match_of_length(length: int, seed: int = 7) -> tuple[Setup, list]:  # type: ignore[type-arg]
    """A random legal 4-player match, cut or searched so that it has exactly ``length`` actions."""
    rng = random.Random(seed)
    while True:
        setup = Setup(4, 0, Options())
        actions = random_game(setup.initial_state(), rng.choice)
        if len(actions) >= length:
            return setup, actions[:length]


def main() -> None:
    from .timing import median_seconds, report

    print("Engine (pure Python, no database)")
    setup, actions = match_of_length(100)
    fold_time = median_seconds(lambda: fold(setup, actions), repeats=2000)
    replay_time = median_seconds(lambda: Match.replay(setup, actions), repeats=2000)
    baseline = median_seconds(lambda: [setup.initial_state() for _ in range(100)], repeats=2000)
    verdict = "meets" if fold_time <= REPLAY_TARGET_SECONDS else "MISSES"
    report("fold 100 actions (state only), median", f"{fold_time * 1e6:.1f} µs", f"{verdict} the 1 ms target")
    report("replay 100 actions (with accounts), median", f"{replay_time * 1e6:.1f} µs")
    report(
        "baseline: 100 initial states, median",
        f"{baseline * 1e6:.1f} µs",
        f"replay/baseline {fold_time / baseline:.1f}x",
    )

    rng = random.Random(2026)
    games = actions_played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 2.0:
        count = rng.randint(2, 7)
        state = Setup(count, rng.randrange(count), Options(rng.random() < 0.5, rng.random() < 0.5)).initial_state()
        actions_played += len(random_game(state, rng.choice))
        games += 1
    elapsed = time.perf_counter() - start
    report("random legal games played", f"{games}", f"in {elapsed:.2f} s")
    report("actions per second (with move choice)", f"{actions_played / elapsed:,.0f}")
    report("mean actions per game", f"{actions_played / games:.1f}")
