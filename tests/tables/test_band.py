"""The band's tiles (marquoir/tables/screen.py BandPlayer): a long score is fitted to its tile."""

from __future__ import annotations

import pytest

from marquoir.tables.screen import BandPlayer


@pytest.mark.parametrize(
    ("score", "length"),
    [
        ("0", ""),
        ("42", ""),
        ("−42", "3"),
        ("−578", "4"),
        ("99999", "5"),
        ("−12345", "6"),
        ("−100000", "7"),
        ("−1234567", "7"),
    ],
)
def test_a_score_of_three_characters_or_more_is_fitted_to_its_tile_by_its_length(score: str, length: str) -> None:
    assert BandPlayer(index=0, name="Ada", score=score).score_length == length
