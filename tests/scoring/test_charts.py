"""Server-side SVG charts: the right values, titles, escaped names, accessible markup."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from django.utils.safestring import SafeString

from scoring.charts.bar import bar_chart
from scoring.charts.line import line_chart
from scoring.charts.marks import SERIES_CLASSES
from scoring.charts.scale import _number, nice_scale

SVG = "{http://www.w3.org/2000/svg}"


def svg_of(html):
    """The chart's <svg> element, parsed (the markup must be well-formed XML)."""
    match = re.search(r"<svg.*</svg>", str(html), re.S)
    assert match, html
    return ET.fromstring(match.group(0))  # noqa: S314 - our own output


def texts(svg):
    return ["".join(element.itertext()).strip() for element in svg.iter(f"{SVG}text")]


def test_line_chart_is_safe_accessible_svg_with_title_desc_and_labels():
    html = line_chart(
        [("Alice", [300, 450, None, 500]), ("Bob", [100, 0, 200, 250])],
        title="League points per round",
        y_label="League points",
        x_labels=["45:01", "45:02", "45:03", "45:04"],
    )
    assert isinstance(html, SafeString)
    svg = svg_of(html)
    assert svg.get("role") == "img"
    # Its natural width; phm.css narrows it on small screens (no style attribute: the CSP refuses those).
    assert svg.get("width") == svg.get("viewBox").split()[2]
    assert svg.get("style") is None
    assert svg.get("viewBox").startswith("0 0 ")
    title, desc = svg.find(f"{SVG}title"), svg.find(f"{SVG}desc")
    assert title.text == "League points per round"
    assert svg.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    assert "Alice" in desc.text and "45:02 450" in desc.text and "45:04 250" in desc.text
    labels = texts(svg)
    for label in ["45:01", "45:02", "45:03", "45:04", "League points", "Alice", "Bob"]:
        assert label in labels
    # Value labels written on the picture, every one of them.
    for value in ["300", "450", "500", "100", "200", "250"]:
        assert value in labels
    # One polyline per run: Alice breaks at her missing value (two runs; a lone 500 is a marker only).
    polylines = list(svg.iter(f"{SVG}polyline"))
    assert len(polylines) == 2
    # Series differ by dash as well as colour.
    dashes = {line.get("stroke-dasharray") for line in polylines}
    assert len(dashes) == 2
    # The numbers also as a table for screen readers.
    assert '<div class="visually-hidden"><table class="phm-chart-data">' in html
    assert "<td>450</td>" in html and "<td>\u2014</td>" in html


def test_line_chart_axis_runs_from_zero_to_a_round_maximum_with_gridlines():
    html = line_chart([("Me", [433, 517])], title="T", y_label="League points", x_labels=["a", "b"])
    labels = texts(svg_of(html))
    assert "0" in labels and "600" in labels
    assert "700" not in labels
    assert nice_scale(517) == (600, 100)
    assert nice_scale(6) == (6, 1)
    assert nice_scale(12, ticks=4) == (15, 5)
    assert nice_scale(0) == (5, 1)


def test_names_are_escaped_everywhere():
    evil = '<script>alert("x")</script> & "Bob"'
    html = line_chart([(evil, [1, 2])], title=f"Chart of {evil}", y_label="y<", x_labels=[evil, "b"])
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    svg_of(html)  # still well-formed
    html = bar_chart([(evil, 3)], title=evil, value_label="Hands & more")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "Hands &amp; more" in html
    svg_of(html)


def test_many_series_move_the_numbers_to_a_visible_table():
    series = [(f"Player {n}", [n * 10, n * 20]) for n in range(1, 7)]
    html = line_chart(series, title="Top players", y_label="League points", x_labels=["r1", "r2"])
    assert "Show the values" in html
    assert "<td>120</td>" in html
    labels = texts(svg_of(html))
    assert all(f"Player {n}" in labels for n in range(1, 7))  # the legend names all of them


def test_line_chart_without_values_says_so():
    html = line_chart([("Me", [None, None])], title="T", y_label="League points", x_labels=["a", "b"])
    assert "No values yet" in html
    svg_of(html)


def test_bar_chart_writes_each_value_at_the_end_of_its_bar_in_the_given_order():
    bars = [("Black Lotus", 12), ("Mox Pearl", 7), ("Ancestral Recall", 0), ("Time Walk", 2.5)]
    html = bar_chart(bars, title="Most played", value_label="Hands")
    assert isinstance(html, SafeString)
    svg = svg_of(html)
    assert svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "Most played"
    desc = svg.find(f"{SVG}desc").text
    assert "Black Lotus: 12" in desc and "Time Walk: 2.5" in desc
    groups = list(svg.iter(f"{SVG}g"))
    assert len(groups) == 4
    for group, (label, value) in zip(groups, bars, strict=True):
        names = ["".join(t.itertext()) for t in group.iter(f"{SVG}text")]
        assert names[0].startswith(label)
        assert names[-1] == _number(value)
    widths = [float(group.find(f"{SVG}rect").get("width")) for group in groups]
    assert widths[0] > widths[1] > widths[3] > widths[2] == 0
    assert "Hands" in texts(svg)
    assert "<td>12</td>" in html


def test_long_labels_are_shortened_on_the_picture_but_whole_in_title_and_table():
    name = "Asmoranomardicadaistinaculdacar the Long"
    html = bar_chart([(name, 3)], title="t", value_label="Hands")
    assert f"<title>{name}</title>" in html
    assert f'<th scope="row">{name}</th>' in html


# Site colours: series and bars take their colour from phm.css classes, drawn in currentColor.

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "phm.css"


def _luminance(hex_colour):
    red, green, blue = (int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))

    def linear(channel):
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def _css_colours():
    """{class: hex colour} of the chart classes in phm.css, site variables resolved."""
    css = CSS.read_text()
    variables = dict(re.findall(r"(--phm-[a-z]+):\s*(#[0-9a-fA-F]{6})", css))
    colours = {}
    for selectors, value in re.findall(
        r"([^{}]*phm-(?:series-\d|chart-bar)[^{}]*)\{\s*color:\s*([^;]+);", css
    ):
        value = value.strip()
        if value.startswith("var("):
            value = variables[value[4:-1]]
        for name in re.findall(r"phm-(?:series-\d|chart-bar)", selectors):
            colours[name] = value
    return colours


def test_series_are_drawn_in_their_class_colour():
    html = line_chart(
        [("Alice", [1, 2]), ("Bob", [2, 1])], title="T", y_label="League points", x_labels=["a", "b"]
    )
    svg = svg_of(html)
    classes = [group.get("class") for group in svg.iter(f"{SVG}g")]
    # A group per series (lines and markers) and one per legend entry.
    assert classes.count("phm-series-1") == 2 and classes.count("phm-series-2") == 2
    assert {line.get("stroke") for line in svg.iter(f"{SVG}polyline")} == {"currentColor"}
    assert "#0072B2" not in html and "#0d6efd" not in html.lower()


def test_bars_are_the_sites_violet_by_class():
    html = bar_chart([("Black Lotus", 3)], title="t", value_label="Hands")
    rect = svg_of(html).find(f".//{SVG}rect")
    assert rect.get("class") == "phm-chart-bar" and rect.get("fill") == "currentColor"
    assert _css_colours()["phm-chart-bar"] == "#5b3cc4"  # --phm-violet, the site's primary colour


def test_every_series_class_has_a_colour_readable_on_white():
    colours = _css_colours()
    for name in SERIES_CLASSES:
        assert name in colours, name
        ratio = 1.05 / (_luminance(colours[name]) + 0.05)
        assert ratio >= 4.5, (name, colours[name], ratio)
    assert colours["phm-series-1"] == "#5b3cc4"
    assert len({colours[name] for name in SERIES_CLASSES}) == len(SERIES_CLASSES)
