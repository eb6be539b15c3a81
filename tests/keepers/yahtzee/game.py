"""A whole scripted game of Yahtzee, turn by turn, for the API, page and browser tests.

Each player plays the same thirteen turns (so two players tie): a Yahtzee first, then five
4s forced into Fours by the joker (+100), five 6s with Sixes filled in Large straight as a
joker (40, +100), the upper bonus reached in round 8. Every sheet ends at 528.
"""

from __future__ import annotations

from typing import Any

TURNS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("yahtzee", (2, 2, 2, 2, 2)),  # 50
    ("fours", (4, 4, 4, 4, 4)),  # 20 and a Yahtzee bonus; the joker sends them to Fours
    ("sixes", (6, 6, 6, 6, 1)),  # 24
    ("large_straight", (6, 6, 6, 6, 6)),  # Sixes filled: a joker in a lower box, 40 and a bonus
    ("ones", (1, 1, 1, 2, 3)),  # 3
    ("twos", (2, 2, 2, 5, 6)),  # 6
    ("threes", (3, 3, 3, 4, 5)),  # 9
    ("fives", (5, 5, 5, 1, 2)),  # 15: the upper boxes reach 77, the bonus of 35
    ("three_of_a_kind", (4, 4, 4, 5, 6)),  # 23
    ("four_of_a_kind", (5, 5, 5, 5, 2)),  # 22
    ("full_house", (3, 3, 5, 5, 5)),  # 25
    ("small_straight", (1, 2, 3, 4, 6)),  # 30
    ("chance", (6, 6, 5, 5, 4)),  # 26
)
POINTS = (50, 20, 24, 40, 3, 6, 9, 15, 23, 22, 25, 30, 26)
FINAL_TOTAL = sum(POINTS) + 35 + 200  # 528


def score_body(turn: int) -> dict[str, Any]:
    box, dice = TURNS[turn]
    return {"type": "score", "box": box, "dice": list(dice)}


def game_bodies(players: int = 2) -> list[dict[str, Any]]:
    """Every turn of the game in playing order: each round, each player the same turn."""
    return [score_body(turn) for turn in range(len(TURNS)) for _ in range(players)]
