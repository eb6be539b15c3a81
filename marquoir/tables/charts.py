"""Every chart Marquoir draws, on the server, as inline SVG: one module for the end of a
match (a line a player, on every game's table screen) and the groups' stats (bars).

No script and no ``style`` attribute (the Content-Security-Policy forbids inline styles): the
colours and the type come from classes, styled in ``css/table.css`` (lines) and
``groups/groups.css`` (bars), light and dark. A chart is an image to assistive technology
(``role="img"``), named by the caption the page prints around it (``aria-labelledby``); its
numbers are in the page's tables as well.

**Lines** (``line_chart``, drawn by ``tables/_chart.html``): each player's score after every
step (a turn, a round, a deal), scaled into a 320 × 160 box, with the zero line when a score
went below it and a target's line when the game has one in range. Seven colours tell the
players apart, then dash patterns (``chart__line--N``, ``--dashes-N``); the legend repeats
both beside each name and final score.

**Bars** (``bar_chart``): each row is a member: the name on a line of its own (a long name
never runs into the bar), then the bar and the value printed past its end. The bars grow from
a zero line, drawn on each row: to the right for a positive value, to the left for a negative
one (a Tarot total); a zero shows as that line alone. The drawing is 390 units wide, one per
CSS pixel on a phone, and scales with its container.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

WIDTH = 390
"""The bar drawing's width in viewBox units (a phone's width in CSS pixels)."""
ROW_HEIGHT = 54
"""Each row: the name's line (18-unit type, readable across a table), a 20-unit bar, a gap."""
_PAD = 4
_LABEL_BASELINE = 19
_BAR_TOP, _BAR_HEIGHT = 25, 20
_VALUE_ROOM = 78
"""Room past a bar's end for its value ("-1 250", "100 %")."""
_GAP = 6
"""Between a bar's end and its value."""


@dataclass(frozen=True, slots=True)
class BarRow:
    """One bar: who, how much, and that amount as the page writes it."""

    label: str
    value: float
    text: str
    """The value, formatted for the reader ("3", "42 %", "-1 250")."""


def bar_chart(rows: Sequence[BarRow], *, title_id: str, max_value: float | None = None) -> SafeString:
    """The rows as an SVG bar chart named by the element ``title_id``; empty without rows.

    ``max_value``: the value a bar spanning the whole width stands for (1.0 for a rate), when
    the largest value should not; a larger value still fits.
    """
    if not rows:
        return SafeString("")
    values = [row.value if math.isfinite(row.value) else 0.0 for row in rows]
    low = min(0.0, *values)
    high = max(0.0, *values, max_value if max_value is not None and math.isfinite(max_value) else 0.0)
    span = (high - low) or 1.0
    left = _PAD + (_VALUE_ROOM if low < 0 else 0)
    plot = WIDTH - _PAD - _VALUE_ROOM - left
    zero = left + plot * -low / span
    drawn = format_html_join(
        "\n",
        "{}",
        (
            (_row(row, value, _PAD + ROW_HEIGHT * at, zero, plot / span),)
            for at, (row, value) in enumerate(zip(rows, values, strict=True))
        ),
    )
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="bar-chart" role="img" aria-labelledby="{}"'
        ' viewBox="0 0 {} {}" width="100%">\n{}\n</svg>',
        title_id,
        WIDTH,
        2 * _PAD + ROW_HEIGHT * len(rows),
        drawn,
    )


def _row(row: BarRow, value: float, top: int, zero: float, scale: float) -> SafeString:
    width = abs(value) * scale
    bar_y = top + _BAR_TOP
    if value < 0:
        x, kind, text_x, anchor = zero - width, "chart__bar chart__bar--negative", zero - width - _GAP, "end"
    else:
        x, kind, text_x, anchor = zero, "chart__bar", zero + width + _GAP, "start"
    return format_html(
        '<g><text class="chart__label" x="{}" y="{}">{}</text>'
        '<line class="chart__zero" x1="{}" y1="{}" x2="{}" y2="{}"/>'
        '<rect class="{}" x="{}" y="{}" width="{}" height="{}" rx="3"/>'
        '<text class="chart__value" x="{}" y="{}" text-anchor="{}" dominant-baseline="central">{}</text></g>',
        _PAD,
        top + _LABEL_BASELINE,
        row.label,
        _n(zero),
        bar_y - 3,
        _n(zero),
        bar_y + _BAR_HEIGHT + 3,
        kind,
        _n(x),
        bar_y,
        _n(width),
        _BAR_HEIGHT,
        _n(text_x),
        bar_y + _BAR_HEIGHT // 2,
        anchor,
        row.text,
    )


def _n(number: float) -> str:
    """A coordinate, to the hundredth ("12.5", "0")."""
    text = f"{number:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# --- Lines: a match's scores, step by step

LINE_WIDTH, LINE_HEIGHT, LINE_PAD = 320, 160, 24
"""The line chart's box in viewBox units, and the room around the plot for the labels."""
_LABEL_ROOM = 12
"""The least distance between two labels' baselines: the labels' 10 px type and a gap."""
_TOP_LABEL_DROP = 4
"""How far under the plot's top line the top label's baseline sits."""
LINE_COLOURS = 7
"""Colours for the lines (chart__line--0 … --6 in css/table.css); past them, dashes."""


@dataclass(frozen=True, slots=True)
class ChartLine:
    """One player's line: their colour and dash pattern, its points, and the final score."""

    name: str
    points: str
    last: str
    colour: int
    dashes: int


@dataclass(frozen=True, slots=True)
class LineChart:
    """A chart of every player's score over a match, ready for ``tables/_chart.html``."""

    lines: tuple[ChartLine, ...]
    caption: str
    """What the chart shows, in words: the figure's caption ("Totals round by round, over 3 rounds")."""
    steps: int
    top: str
    bottom: str
    left: float
    """Where the plot begins: room on the left for the longer of the two labels."""
    zero_y: str | None = None
    zero_label_y: str = ""
    """Where "0" is written beside the zero line; empty when it would run into the top or
    bottom label (a low of −3 under a high of 200): the dashed line says it alone then."""
    target_y: str | None = None
    target: str | None = None
    width: int = LINE_WIDTH
    height: int = LINE_HEIGHT
    pad: int = LINE_PAD

    @property
    def label_x(self) -> float:
        return self.left - 4

    @property
    def right_x(self) -> int:
        return self.width - self.pad

    @property
    def bottom_y(self) -> int:
        return self.height - self.pad

    @property
    def label_top_y(self) -> int:
        return self.pad + _TOP_LABEL_DROP


def line_chart(
    series: Sequence[Sequence[int]],
    names: Sequence[str],
    *,
    caption: str,
    number: Callable[[int], str] = str,
    target: int | None = None,
) -> LineChart:
    """Each player's score after every step (``series[player][step]``, the first step being
    the start) as a polyline, with the zero line when a score went below it and the line of
    ``target`` when it lies in the chart's range; ``number`` writes a score as the game does
    ("−12" with a true minus sign, "1 250")."""
    steps = max(max((len(values) for values in series), default=1) - 1, 1)
    low = min([0, *(min(values) for values in series if values)])
    high = max(max((max(values) for values in series if values), default=0), low + 1)
    top, bottom = number(high), number(low)
    # About 6 units a character at the labels' 10 px.
    left = max(LINE_PAD, 6 * max(len(top), len(bottom)) + 8)
    inner_w, inner_h = LINE_WIDTH - left - LINE_PAD, LINE_HEIGHT - 2 * LINE_PAD

    def y(value: int) -> float:
        return LINE_HEIGHT - LINE_PAD - inner_h * (value - low) / (high - low)

    lines = tuple(
        ChartLine(
            name=names[player],
            points=" ".join(f"{left + inner_w * step / steps:.1f},{y(value):.1f}" for step, value in enumerate(values)),
            last=number(values[-1]) if values else number(0),
            colour=player % LINE_COLOURS,
            dashes=player // LINE_COLOURS,
        )
        for player, values in enumerate(series)
    )
    # "0" beside the zero line, clear of the bottom label (on the plot's bottom line) and of
    # the top one (LineChart.label_top_y).
    zero_label_y = y(0) + 3
    zero_label_clear = min(abs(zero_label_y - y(low)), abs(zero_label_y - (LINE_PAD + _TOP_LABEL_DROP))) >= _LABEL_ROOM
    return LineChart(
        lines=lines,
        caption=caption,
        steps=steps,
        top=top,
        bottom=bottom,
        left=left,
        zero_y=f"{y(0):.1f}" if low < 0 < high else None,
        zero_label_y=f"{zero_label_y:.1f}" if zero_label_clear else "",
        target_y=f"{y(target):.1f}" if target is not None and low <= target <= high else None,
        target=number(target) if target is not None else None,
    )


def running_totals(rounds_by_player: Sequence[Sequence[int]]) -> list[list[int]]:
    """For each player, their total before the first round and after each round, from the
    points of each of their rounds (the sheet's, a declared game's)."""
    series = []
    for rounds in rounds_by_player:
        running, totals = 0, [0]
        for points in rounds:
            running += points
            totals.append(running)
        series.append(totals)
    return series


def rounds_chart(
    series: Sequence[Sequence[int]],
    names: Sequence[str],
    *,
    number: Callable[[int], str] = str,
    target: int | None = None,
) -> LineChart:
    """``line_chart`` of totals round by round, captioned so ("Totals round by round, over 3 rounds")."""
    rounds = max(max((len(values) for values in series), default=1) - 1, 1)
    caption = ngettext(
        "Totals round by round, over %(rounds)s round", "Totals round by round, over %(rounds)s rounds", rounds
    ) % {"rounds": rounds}
    return line_chart(series, names, caption=caption, number=number, target=target)
