"""Inputs covering every branch of the charts (line and bar), for the byte-for-byte comparison with the stored
output in golden/charts.html."""

import re

LONG = "A very long player name that does not fit"

LINE_CASES = [
    {
        "series": [("Alice", [300, 450, None, 500]), ("Bob", [100, 0, 200, 250])],
        "title": "League points per round",
        "y_label": "League points",
        "x_labels": ["45:01", "45:02", "45:03", "45:04"],
    },
    {
        "series": [("<b>Eve</b> & co", [1, 2.5, 3.33])],
        "title": "Escaped <title>",
        "y_label": "Points & more",
        "x_labels": ["<x>", "y", "z"],
    },
    {
        "series": [(f"Player {n}", [n * 10 + i for i in range(6)]) for n in range(9)],
        "title": "Nine series",
        "y_label": "Rank",
        "x_labels": [f"Round {i} of the long league name" for i in range(6)],
    },
    {
        "series": [(LONG, [None, None]), ("Solo", [None, 7])],
        "title": "Sparse",
        "y_label": "Points",
        "x_labels": ["a", "b"],
    },
    {"series": [], "title": "Empty", "y_label": "League points", "x_labels": []},
    {"series": [("Only", [])], "title": "No labels", "y_label": "Points", "x_labels": []},
    {
        "series": [("Same", [5, 5, 5]), ("Same too", [5, 5, 5]), ("Third", [5, float("nan"), True])],
        "title": "Overlapping labels",
        "y_label": "Points",
        "x_labels": ["1", "2", "3"],
    },
    {
        "series": [("Big", [12345, 99999, 250000]), ("Small", [0.1, 0.25, 0.04])],
        "title": "Scales",
        "y_label": "Value",
        "x_labels": ["x1", "x2", "x3"],
    },
    {"series": [("Ones", [0, 0])], "title": "Zeros", "y_label": "Points", "x_labels": ["p", "q"]},
]

BAR_CASES = [
    {
        "bars": [("Lightning Bolt", 12), ("Counterspell", 7.5), (LONG, 0)],
        "title": "Cards",
        "value_label": "Hands",
    },
    {"bars": [("<script>", 3)], "title": "Escaped & <b>", "value_label": "Points <i>"},
    {"bars": [], "title": "No bars", "value_label": "Hands"},
    {"bars": [(f"Card {n}", n * n) for n in range(12)], "title": "Many", "value_label": "Copies"},
    {
        "bars": [("nan", float("nan")), ("bool", True), ("none", None), ("big", 1234567)],
        "title": "Odd values",
        "value_label": "Value",
    },
]

IDS = re.compile(r"phm-(title|desc)-\d+")


def render_all(line_chart, bar_chart):
    """Every case rendered, one per line block, with the running ids made stable."""
    out = []
    for case in LINE_CASES:
        out.append(str(line_chart(**case)))
    for case in BAR_CASES:
        out.append(str(bar_chart(**case)))
    return IDS.sub(lambda m: f"phm-{m.group(1)}-N", "\n\n".join(out)) + "\n"
