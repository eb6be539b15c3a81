"""Check a game file: read by the schema, every formula compiled, every worked example played.

    .venv/bin/python scripts/check_game.py marquoir/games/skyjo/game.toml [more files…]

Prints each example's name and what differs from what it says; exits 1 on any fault. The
same checks as tests/declared (test_game_files, test_examples), for one file at a time,
while it is written.
"""

from __future__ import annotations

import sys
from pathlib import Path

from marquoir.games.declared.examples import mismatches
from marquoir.games.declared.game import load_game
from marquoir.games.declared.gamefile import GameFileError


def check(path: Path) -> int:
    try:
        game = load_game(path)
    except GameFileError as error:
        print(f"REFUSED {error}")
        return 1
    faults = 0
    for example in game.file.examples:
        found = mismatches(game, example)
        faults += bool(found)
        print(("FAIL " if found else "ok   ") + example.name + "".join(f"\n       {line}" for line in found))
    if not any(example.refused is None for example in game.file.examples):
        print("FAIL no accepted example")
        faults += 1
    if not any(example.refused is not None for example in game.file.examples):
        print("FAIL no refused example")
        faults += 1
    print(f"{path}: {len(game.file.examples)} examples, {faults} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(max((check(Path(name)) for name in sys.argv[1:]), default=0))
