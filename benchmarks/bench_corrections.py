"""Corrections (issue 19): what fixing a past entry costs, against what a new turn costs, in
the same run. The core's ledger (tables.fold.Ledger) on a random Pickomino match of 100
actions, pure Python (no database): a new action at the end (the baseline: a turn), a
correction of the last action, of the 50th and of the first (each plays every later action
again), and the fold of a whole stored log of 100 actions with 10 corrections, 10 undos and
5 redos among them (what a server does once for a match it has not seen lately).

Target: a correction of the first of 100 actions under 5 ms, median (a tap's answer feels
immediate under 100 ms with the write and the page; the replay must be a small part).

    .venv/bin/python -m benchmarks.bench_corrections
"""

from __future__ import annotations

import functools
import random
from typing import Any

CORRECTION_TARGET_SECONDS = 0.005


class _Identity:
    """The keeper's part the ledger calls: payloads are the engine's actions themselves."""

    def __init__(self, start: Any) -> None:
        self._start = start

    def start(self, row: object) -> Any:
        return self._start

    def engine_action(self, payload: Any) -> Any:
        return payload


def main() -> None:
    import django

    django.setup()
    from marquoir.games.pickomino import Match
    from marquoir.games.pickomino.playout import random_legal_action
    from marquoir.tables.fold import Ledger

    from .bench_engine import match_of_length
    from .timing import median_seconds, report

    print("Corrections: the log's fold with a past entry replaced (pure Python, median)")
    setup, actions = match_of_length(100)
    start = Match.start(setup)
    keeper = _Identity(start)
    ledger = Ledger(start)
    for seq, action in enumerate(actions, start=1):
        ledger.then(seq, "action", action, keeper)
    last_state = ledger.engine.state

    def new_turn() -> None:
        copy = ledger.copy()
        turn: Any = random_legal_action(last_state, random.Random(1).choice)  # the payload is the action here
        copy.then(101, "action", turn, keeper)

    def correction(index: int) -> None:
        # The entry corrected into what it was: every later action is played again all the
        # same, and none can break.
        copy = ledger.copy()
        copy.then(101, "correct", {"seq": copy.slots[index], "action": copy.engine.steps[index].action}, keeper)

    baseline = median_seconds(new_turn, repeats=300)
    report("a new turn at the end (baseline)", f"{baseline * 1e6:.0f} µs")
    for label, index in (("the last", 99), ("the 50th", 49), ("the first", 0)):
        elapsed = median_seconds(functools.partial(correction, index), repeats=300)
        note = f"{elapsed / baseline:.1f}x a turn"
        if index == 0:
            note += f", {'meets' if elapsed <= CORRECTION_TARGET_SECONDS else 'MISSES'} the 5 ms target"
        report(f"a correction of {label} of 100 actions", f"{elapsed * 1e6:.0f} µs", note)

    rng = random.Random(19)
    entries: list[tuple[int, str, Any]] = []
    replayed = Ledger(start)
    while sum(1 for entry in entries if entry[1] == "action") < 100 and not replayed.engine.state.over:
        entries.append((len(entries) + 1, "action", random_legal_action(replayed.engine.state, rng.choice)))
        replayed.then(*entries[-1], keeper)
        roll = rng.random()
        if roll < 0.1 and replayed.slots:
            index = rng.randrange(len(replayed.slots))
            body = {"seq": replayed.slots[index], "action": replayed.engine.steps[index].action}
            entries.append((len(entries) + 1, "correct", body))
            replayed.then(*entries[-1], keeper)
        elif roll < 0.2:
            entries.append((len(entries) + 1, "undo", {}))
            replayed.then(*entries[-1], keeper)
            if rng.random() < 0.5:
                entries.append((len(entries) + 1, "redo", {}))
                replayed.then(*entries[-1], keeper)

    def fold_all(log: list[tuple[int, str, Any]]) -> None:
        folded = Ledger(start)
        for entry in log:
            folded.then(*entry, keeper)

    plain = [(seq, "action", action) for seq, action in enumerate(actions, start=1)]
    plain_time = median_seconds(lambda: fold_all(plain), repeats=200)
    mixed_time = median_seconds(lambda: fold_all(entries), repeats=200)
    report("fold of 100 actions (baseline)", f"{plain_time * 1e6:.0f} µs")
    report(
        f"fold of {len(entries)} entries with corrections, undos, redos",
        f"{mixed_time * 1e6:.0f} µs",
        f"{mixed_time / plain_time:.1f}x",
    )


if __name__ == "__main__":
    main()
