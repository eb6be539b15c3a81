"""Your own game: what a user's file costs the server, and what its bounds allow.

- validating and compiling a user's file of 50 inputs (read by the schema, every formula
  compiled, its work bounded, its examples played), median, against the catalog's Skyjo
  read the same way in the same run;
- the worst formulas the bounds let through, each alone in a round at 20 players: the
  bound of its work (steps), the time a round takes and the Python memory it peaks at;
- nanoseconds per step of the bound for the costliest constructs (texts built in a
  comprehension, Marquoir's own functions), the figure ``cost.MAX_ROUND_STEPS`` rests on.
"""

from __future__ import annotations

import copy
import resource
import time
import tracemalloc
from typing import Any

from .timing import median_seconds, report


def fifty_inputs() -> dict[str, Any]:
    """A file of 50 per-player inputs, a formula adding them up with a condition, a check
    across players, a tie-break and an example."""
    inputs = [
        {
            "key": f"i{n}",
            "per": "player",
            "kind": "points",
            "label": {"en": f"I {n}", "fr": f"S {n}"},
            "min": -99,
            "max": 99,
        }
        for n in range(50)
    ]
    terms = " + ".join(f"i{n}" for n in range(20))
    return {
        "scored": "rounds",
        "winner": "highest",
        "box": {"names": {"en": "Fifty", "fr": "Cinquante"}, "players": [2, 20]},
        "inputs": inputs,
        "points": [
            {"key": "first", "label": {"en": "First", "fr": "Premier"}, "formula": f"i0 > 0 ? {terms} : 0"},
            {
                "key": "rest",
                "label": {"en": "Rest", "fr": "Reste"},
                "formula": " + ".join(f"i{n}" for n in range(20, 50)),
            },
        ],
        "checks": [
            {
                "key": "zero",
                "per": "round",
                "holds": "all.i0.exists(v, v >= 0)",
                "message": {"en": "Someone has 0 or more.", "fr": "Quelqu’un a 0 ou plus."},
                "source": "house rule",
            }
        ],
        "end": {"rounds": 10},
        "tiebreaks": [{"key": "t", "label": {"en": "I 0", "fr": "S 0"}, "value": "i0"}],
        "examples": [
            {
                "name": "One round",
                "players": 2,
                "rounds": [{f"i{n}": [1, 2] for n in range(50)}],
                "points": [50, 100],
            }
        ],
    }


WORST = {
    "two comprehensions over a table of 25": (
        {"t": list(range(25))},
        "tables.t.map(a, tables.t.filter(b, b < a).size()).size() + points",
    ),
    "texts built in a comprehension (16)": (
        {"t": list(range(16))},
        "tables.t.map(a, tables.t.map(b, string(a) + string(b))).size() + points",
    ),
    "sum() of a table of 34 in a comprehension": (
        {"t": list(range(34))},
        "tables.t.map(a, sum(tables.t) + a).size() + points",
    ),
    "a list joined to itself, searched": (
        {"t": list(range(20))},
        "(tables.t + tables.t + tables.t).map(a, (tables.t + tables.t).exists(b, b == a + 1)).size() + points",
    ),
    "map and filter building a list of 120": (
        {"t": list(range(120))},
        "tables.t.map(x, x).size() + tables.t.filter(x, true).size() + points",
    ),
    "max() of a table of 20, 20 times": (
        {"t": list(range(20))},
        "sum(tables.t.map(x, max(tables.t))) + points",
    ),
}


def _sheet(tables: dict[str, Any], formula: str, players: int) -> dict[str, Any]:
    from marquoir.own_games import editor

    data = editor.blank_file()
    data["box"] = {"names": {"en": "Worst", "fr": "Pire"}, "players": [2, players]}
    data["tables"] = tables
    data["points"][0]["formula"] = formula
    return data


def _round_seconds(game: Any, players: int) -> tuple[float, int, int]:
    """One round of ``game`` at ``players``: its time, the Python memory it peaked at, and
    how much it raised the process's peak resident memory (cel-rust's allocations too), in KiB."""
    from marquoir.games.declared import Round, resolve_options
    from marquoir.games.declared.engine import GameState, apply

    state = GameState(game, resolve_options(game, players, {}), players, 0)
    resident = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    started = time.perf_counter()
    apply(state, Round({"points": list(range(players))}))
    elapsed = time.perf_counter() - started
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return elapsed, peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - resident


def main() -> None:
    import django

    django.setup()
    from marquoir.games.declared import declared_games
    from marquoir.games.declared.cost import MAX_MATCH_STEPS, MAX_ROUND_STEPS, game_cost
    from marquoir.games.declared.game import compile_game
    from marquoir.own_games import files

    print("Your own game: a user's file, validated and compiled (median)")
    fifty = fifty_inputs()
    own = median_seconds(lambda: files.compile_file(copy.deepcopy(fifty)), repeats=30)
    skyjo = files.stored(next(game for game in declared_games() if game.key == "skyjo").file)
    baseline = median_seconds(lambda: files.compile_file(copy.deepcopy(skyjo)), repeats=30)
    report("a file of 50 inputs", f"{own * 1000:.1f} ms", f"Skyjo's file read the same way: {baseline * 1000:.1f} ms")
    cost = game_cost(files.compile_file(fifty))
    report("its round bound", f"{cost.total:,} steps", f"limit {MAX_ROUND_STEPS:,} a round")
    report("its match bound (10 rounds)", f"{cost.match_total:,} steps", f"limit {MAX_MATCH_STEPS:,} a match")
    print()
    print(f"Near the bound, one round at 20 players (limit {MAX_ROUND_STEPS:,} steps a round)")
    for name, (tables, formula) in WORST.items():
        data = _sheet(tables, formula, 20)
        game = compile_game(files.read_file(data), source=files.SOURCE)
        steps = game_cost(game).total
        accepted = steps <= MAX_ROUND_STEPS
        elapsed, peak, grown = _round_seconds(game, 20)
        report(
            name,
            f"{elapsed * 1000:.1f} ms",
            f"{steps:,} steps ({'accepted' if accepted else 'refused'}), {elapsed * 1e9 / steps:.1f} ns a step, "
            f"Python heap peak {peak / 1024:.0f} KiB, process peak +{grown} KiB",
        )


if __name__ == "__main__":
    main()
