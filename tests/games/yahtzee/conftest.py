"""The solver's tables, read once per test session (built first if their files are missing)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from marquoir.games.yahtzee import solver


@pytest.fixture(scope="session")
def table() -> npt.NDArray[np.float32]:
    """The table of the rules Marquoir keeps (the forced joker), the one the advice reads."""
    return solver.load_table()


@pytest.fixture(scope="session")
def free_choice_table() -> npt.NDArray[np.float32]:
    """The table of Verhoeff's rules (free choice of box for a later Yahtzee)."""
    return solver.load_table(joker=solver.JokerRule.FREE_CHOICE)
