"""The stats page's bar charts (marquoir/tables/charts.py): inline SVG, escaped, no inline style."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from django.utils.safestring import SafeString

from marquoir.tables.charts import ROW_HEIGHT, WIDTH, BarRow, bar_chart, line_chart

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    """The chart as XML: it must be well formed (every name escaped)."""
    return ET.fromstring(svg)  # noqa: S314 (our own output)


def bars(svg: str) -> list[ET.Element]:
    return [rect for rect in parsed(svg).iter(f"{SVG}rect") if "chart__bar" in rect.get("class", "").split()]


def texts(svg: str, kind: str) -> list[str]:
    return ["".join(text.itertext()) for text in parsed(svg).iter(f"{SVG}text") if text.get("class") == kind]


def test_a_chart_is_an_svg_image_named_by_the_caption_and_sized_by_its_container() -> None:
    svg = bar_chart([BarRow("Ana", 3, "3"), BarRow("Ben", 1, "1")], title_id="caption-wins")
    assert isinstance(svg, SafeString)
    root = parsed(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "caption-wins"
    assert root.get("width") == "100%"
    assert root.find(f"{SVG}title") is None  # the caption lives in the page
    assert len(root.findall(f"{SVG}g")) == 2  # a group per row
    _x, _y, width, height = (float(number) for number in root.get("viewBox", "").split())
    assert width == WIDTH
    assert height >= 2 * ROW_HEIGHT
    assert ROW_HEIGHT >= 28  # readable at arm's length on a 390-pixel phone
    assert texts(svg, "chart__label") == ["Ana", "Ben"]
    assert texts(svg, "chart__value") == ["3", "1"]


def test_a_hostile_name_is_escaped_and_read_back_as_written() -> None:
    hostile = "<script>alert(\"x\")</script> & Zoé 🎲 'quoted' עברית"
    svg = bar_chart([BarRow(hostile, 2, "<b>2</b>")], title_id='x" onload="alert(1)')
    assert "<script" not in svg
    assert "<b>" not in svg
    assert 'onload="' not in svg
    assert texts(svg, "chart__label") == [hostile]
    assert texts(svg, "chart__value") == ["<b>2</b>"]
    assert parsed(svg).get("aria-labelledby") == 'x" onload="alert(1)'


def test_no_style_attribute_or_element_anywhere() -> None:
    svg = bar_chart(
        [BarRow("Ana", 12, "12"), BarRow("Ben", -30, "-30"), BarRow("Cy", 0, "0")], title_id="caption-average"
    )
    assert "style" not in svg
    for element in parsed(svg).iter():
        assert "style" not in element.attrib
        assert not any(name in element.attrib for name in ("fill", "stroke", "color"))  # colours come from classes


def test_bar_widths_are_proportional_to_the_values() -> None:
    svg = bar_chart([BarRow("Ana", 8, "8"), BarRow("Ben", 4, "4"), BarRow("Cy", 2, "2")], title_id="t")
    widths = [float(rect.get("width", "")) for rect in bars(svg)]
    assert widths[0] == pytest.approx(2 * widths[1], abs=0.02)
    assert widths[1] == pytest.approx(2 * widths[2], abs=0.02)
    # The largest bar spans the plot, with room left for its value past its end.
    assert widths[0] < WIDTH
    assert float(bars(svg)[0].get("x", "")) + widths[0] <= WIDTH - 40


def test_max_value_sets_the_full_width_and_a_larger_value_still_fits() -> None:
    half = bar_chart([BarRow("Ana", 0.5, "50 %")], title_id="t", max_value=1.0)
    full = bar_chart([BarRow("Ana", 1.0, "100 %")], title_id="t", max_value=1.0)
    half_width, full_width = (float(bars(svg)[0].get("width", "")) for svg in (half, full))
    assert half_width == pytest.approx(full_width / 2, abs=0.02)
    over = bar_chart([BarRow("Ana", 2.0, "200 %"), BarRow("Ben", 1.0, "100 %")], title_id="t", max_value=1.0)
    over_widths = [float(rect.get("width", "")) for rect in bars(over)]
    assert over_widths[0] == pytest.approx(full_width, abs=0.02)
    assert over_widths[1] == pytest.approx(full_width / 2, abs=0.02)


def test_negative_values_draw_left_of_a_zero_line_and_zero_is_only_that_line() -> None:
    svg = bar_chart([BarRow("Ana", 40, "40"), BarRow("Ben", -20, "-20"), BarRow("Cy", 0, "0")], title_id="t")
    root = parsed(svg)
    zero_lines = [line for line in root.iter(f"{SVG}line") if line.get("class") == "chart__zero"]
    assert len(zero_lines) == 3  # one a row: a zero value still shows it
    assert {(line.get("x1"), line.get("x2")) for line in zero_lines} == {(zero_lines[0].get("x1"),) * 2}
    zero = float(zero_lines[0].get("x1", ""))
    positive, negative, nothing = bars(svg)
    assert float(positive.get("x", "")) == pytest.approx(zero)
    assert "chart__bar--negative" in negative.get("class", "")
    assert float(negative.get("x", "")) + float(negative.get("width", "")) == pytest.approx(zero, abs=0.02)
    assert float(negative.get("width", "")) == pytest.approx(float(positive.get("width", "")) / 2, abs=0.02)
    assert float(nothing.get("width", "")) == 0
    assert 0 < zero < WIDTH
    # The negative value's text ends left of its bar, inside the drawing.
    values = [text for text in root.iter(f"{SVG}text") if text.get("class") == "chart__value"]
    assert values[1].get("text-anchor") == "end"
    assert 0 < float(values[1].get("x", "")) < float(negative.get("x", ""))


def test_all_values_zero_or_not_finite_still_draw() -> None:
    svg = bar_chart([BarRow("Ana", 0, "0"), BarRow("Ben", float("nan"), "–")], title_id="t")
    assert [float(rect.get("width", "")) for rect in bars(svg)] == [0, 0]
    for element in parsed(svg).iter():
        if element.tag == f"{SVG}svg":
            continue  # width="100%"
        for name in ("x", "y", "width", "height", "x1", "x2", "y1", "y2"):
            if name in element.attrib:
                assert math.isfinite(float(element.attrib[name]))


def test_no_rows_draw_nothing() -> None:
    assert bar_chart([], title_id="t") == ""
    assert isinstance(bar_chart([], title_id="t"), SafeString)


# --- The end-of-match line chart, the same for every game (tables/_chart.html draws it)


def test_a_line_chart_has_one_line_a_player_ending_on_their_final_score():
    chart = line_chart([[0, 3, 5], [0, 4, 2]], ["Ada", "Ben"], caption="Worms over 2 turns")
    assert [line.name for line in chart.lines] == ["Ada", "Ben"]
    assert [line.last for line in chart.lines] == ["5", "2"]
    assert chart.steps == 2
    assert chart.caption == "Worms over 2 turns"
    assert chart.top == "5"
    assert chart.bottom == "0"
    # Three points a line, the first at the plot's left edge and the last at its right.
    first, *_, last = chart.lines[0].points.split()
    assert float(first.split(",")[0]) == chart.left
    assert float(last.split(",")[0]) == chart.right_x


def test_a_line_chart_draws_the_zero_line_only_when_a_score_went_below_it():
    above = line_chart([[0, 3], [0, 1]], ["Ada", "Ben"], caption="")
    below = line_chart([[0, -40], [0, 40]], ["Ada", "Ben"], caption="", number=lambda n: f"{n:+d}")
    assert above.zero_y is None
    assert below.zero_y is not None
    assert below.bottom_y > float(below.zero_y) > below.pad
    assert below.bottom == "-40"


def test_the_zero_label_never_runs_into_the_top_or_bottom_label():
    # A low of −3 under a high of 200: "0" would sit on "−3"; the dashed line stays, unlabelled.
    crowded = line_chart([[0, -3], [0, 200]], ["Ada", "Ben"], caption="")
    roomy = line_chart([[0, -40], [0, 40]], ["Ada", "Ben"], caption="")
    near_top = line_chart([[0, -200], [0, 2]], ["Ada", "Ben"], caption="")
    assert crowded.zero_y is not None
    assert crowded.zero_label_y == ""
    assert near_top.zero_y is not None
    assert near_top.zero_label_y == ""
    label = float(roomy.zero_label_y)
    assert min(abs(label - roomy.bottom_y), abs(label - roomy.label_top_y)) >= 12


def test_a_line_chart_draws_the_target_only_within_its_range():
    reached = line_chart([[0, 60, 110]], ["Ada"], caption="", target=100)
    far = line_chart([[0, 10]], ["Ada"], caption="", target=500)
    assert reached.target_y is not None
    assert reached.target == "100"
    assert far.target_y is None


def test_a_line_chart_tells_lines_apart_by_dashes_past_the_seventh_colour():
    chart = line_chart([[0, seat] for seat in range(16)], [f"P{seat}" for seat in range(16)], caption="")
    assert [(line.colour, line.dashes) for line in chart.lines][6:9] == [(6, 0), (0, 1), (1, 1)]
    assert chart.lines[15].dashes == 2


def test_a_line_chart_of_a_match_with_no_step_yet_still_has_a_width():
    chart = line_chart([[0], [0]], ["Ada", "Ben"], caption="")
    assert chart.steps == 1
    assert all(len(line.points.split()) == 1 for line in chart.lines)


def test_a_line_chart_leaves_room_for_long_labels():
    short = line_chart([[0, 9]], ["Ada"], caption="")
    long = line_chart([[0, -12345]], ["Ada"], caption="")
    assert long.left > short.left
