"""The stats page writes each column of figures with one number of decimals for every line:
"1.00 · 1.50 · 2.00", never "1 · 1.50 · 1"; whole when every figure of the column is whole."""

from __future__ import annotations

import pytest
from django.utils import translation

from marquoir.groups.presenters import column_places, stats_table
from marquoir.groups.records import Member
from marquoir.groups.stats import FigureValue, PlayerLine, Section
from marquoir.tables.summary import StatFigure

BUSTS = StatFigure(key="busts", label="Busts per game", kind="per_game")
TOP = StatFigure(key="top", label="Highest tile", kind="best")


def line(name: str, average: float | None, best: float | None, busts: float | None, top: float | None) -> PlayerLine:
    return PlayerLine(
        member=Member(id=len(name), name=name),
        plays=2,
        wins=1,
        win_rate=0.5,
        average=average,
        best=best,
        longest_streak=1,
        current_streak=0,
        figures=(FigureValue(BUSTS, busts), FigureValue(TOP, top)),
    )


def section(*lines: PlayerLine) -> Section:
    return Section(
        key="pickomino",
        game="pickomino",
        name="Pickomino",
        plays=2,
        players=lines,
        head_to_head=(),
        figures=(BUSTS, TOP),
        last_played=None,
    )


def test_a_column_is_whole_when_every_figure_is_whole_else_every_line_has_the_places():
    assert column_places([1.0, 3, None], 2) == 0
    assert column_places([1.0, 1.5, None], 2) == 2
    assert column_places([], 1) == 0


@pytest.mark.parametrize(
    ("language", "mixed", "averages"),
    [("en", ["1.00", "1.50", "–"], ["4.5", "3.0", "2.0"]), ("fr", ["1,00", "1,50", "–"], ["4,5", "3,0", "2,0"])],
)
def test_every_line_of_a_column_is_written_alike(language: str, mixed: list[str], averages: list[str]):
    lines = (line("Ada", 4.5, 7, 1, 30), line("Ben", 3, 5, 1.5, 28), line("Cy", 2, 4, None, None))
    with translation.override(language):
        table = stats_table(section(*lines))
    assert [row["figures"][0] for row in table] == mixed
    assert [row["figures"][1] for row in table] == ["30", "28", "–"]  # whole: no decimals at all
    assert [row["average"] for row in table] == averages
    assert [row["best"] for row in table] == ["7", "5", "4"]
