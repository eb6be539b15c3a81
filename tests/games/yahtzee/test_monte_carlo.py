"""Whole solitaire games played by the advice, scored by the engine: the mean is the table's."""

from __future__ import annotations

import random
import statistics

from marquoir.games.yahtzee import Score, Sheet, apply, new_game
from marquoir.games.yahtzee.solver import best_boxes, best_keeps, sheet_value

from ...volume import PROPERTY_VOLUME

GAMES = 400  # about 10 s; the standard error of the mean is then about 3 points
SEED = 1999


def roll(rng: random.Random, kept: tuple[int, ...]) -> tuple[int, ...]:
    return kept + tuple(rng.randint(1, 6) for _ in range(5 - len(kept)))


def play_by_the_advice(rng: random.Random) -> int:
    """One solitaire game: each turn, the best keep twice, then the best box; the engine scores."""
    state = new_game(1)
    while not state.over:
        sheet = state.sheets[0]
        dice = roll(rng, ())
        for rolls_left in (2, 1):
            kept = best_keeps(sheet, dice, rolls_left)[0].keep
            dice = roll(rng, kept)
        state = apply(state, Score(best_boxes(sheet, dice)[0].box, dice))[0]
    PROPERTY_VOLUME.record(actions=state.turns)
    return state.total(0)


def test_games_played_by_the_advice_score_the_value_of_an_empty_sheet_on_average(table):
    rng = random.Random(SEED)
    scores = [play_by_the_advice(rng) for _ in range(GAMES)]
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / GAMES**0.5
    assert abs(mean - sheet_value(Sheet())) < 4 * error, (mean, error)
    assert abs(mean - 254.59) < 4 * error
    assert 40 < statistics.stdev(scores) < 80  # the optimal player's spread is about 59.6
