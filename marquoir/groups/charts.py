"""Horizontal bar charts, drawn on the server as inline SVG (the groups' stats page).

No script and no ``style`` attribute (the Content-Security-Policy forbids inline styles): the
colours and the type come from classes, styled in ``groups/groups.css`` (light and dark).
The chart is an image to assistive technology (``role="img"``), named by the caption the
page prints around it (``aria-labelledby``); the numbers are in the page's tables as well.

Each row is a member: the name on a line of its own (a long name never runs into the bar),
then the bar and the value printed past its end. The bars grow from a zero line, drawn on
each row: to the right for a positive value, to the left for a negative one (a Tarot total);
a zero shows as that line alone. The drawing is 390 units wide, one per CSS pixel on a phone, and
scales with its container.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

WIDTH = 390
"""The drawing's width in viewBox units (a phone's width in CSS pixels)."""
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
