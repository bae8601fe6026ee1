"""The charts' SVG and HTML stay byte for byte what they were when the output in golden/charts.html was
stored: a refactoring of the drawing code changes no chart."""

from pathlib import Path

from scoring.charts.bar import bar_chart
from scoring.charts.line import line_chart

from .chart_cases import render_all

GOLDEN = Path(__file__).parent / "golden" / "charts.html"


def test_every_chart_renders_byte_for_byte_as_stored():
    assert render_all(line_chart, bar_chart) == GOLDEN.read_text()
