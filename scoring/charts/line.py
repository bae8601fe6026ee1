"""The line chart: one polyline per series over the x labels, drawn in named steps (layout, y axis, x axis,
series, value labels, legend) that each return their part of the picture, in the order it is drawn."""

import math
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .frame import _figure, _svg, _table
from .marks import (
    CHAR,
    CURRENT,
    DASHES,
    FONT,
    GRID,
    INK,
    MARKER_WORDS,
    MARKERS,
    MUTED,
    WRITE_VALUES_UP_TO,
    _marker,
    _series_class,
)
from .scale import _c, _is_value, _number, _ticks, _truncate, nice_scale

WIDTH = 480
LEFT, RIGHT, TOP = 52, 14, 12
LEGEND_ITEM = 180
PLOT_HEIGHT = 170


def line_chart(series, *, title, y_label, x_labels) -> SafeString:
    """One polyline per `(name, values)` series over `x_labels` (a value of None: no point there, and the line
    breaks), y from 0 to a round maximum with gridlines, a legend telling series apart by dash, marker and
    colour."""
    series = [
        (str(name), [value if _is_value(value) else None for value in values]) for name, values in series
    ]
    x_labels = [str(label) for label in x_labels]
    layout = _layout(series, x_labels)
    write_values = len(series) <= WRITE_VALUES_UP_TO
    groups, labels_at = _series_groups(layout, series, x_labels, write_values=write_values)
    parts = [
        *_y_axis(layout, y_label),
        *_x_axis(layout, x_labels),
        *groups,
        *_value_labels(layout, labels_at),
        *([] if layout.has_values else [_no_values(layout)]),
        *_legend(layout, series),
    ]
    desc = _line_description(series, x_labels, y_label)
    svg = _svg(layout.width, layout.height, title, desc, mark_safe("".join(parts)))  # noqa: S308
    return _figure(svg, _values_table(title, series, x_labels, hidden=write_values))


@dataclass(frozen=True)
class _Layout:
    """Where everything goes: the plot's box, the x axis's room (its labels turned when they do not fit),
    the legend's rows, and the y scale."""

    width: int
    left: int
    right: int
    top: int
    per_row: int
    slots: int
    plot_width: int
    plot_height: int
    rotate: bool
    x_axis_height: float
    height: int
    top_value: float
    step: float
    has_values: bool

    @property
    def bottom_of_plot(self):
        return self.top + self.plot_height

    def x_at(self, index):
        return self.left + self.plot_width * (index + 0.5) / self.slots

    def y_at(self, value):
        return self.bottom_of_plot - self.plot_height * (value / self.top_value if self.top_value else 0)


def _layout(series, x_labels):
    per_row = max(1, (WIDTH - LEFT - RIGHT + 20) // LEGEND_ITEM)
    legend_rows = math.ceil(len(series) / per_row) if series else 0
    longest_x = max((len(label) for label in x_labels), default=0)
    slots = max(len(x_labels), 1)
    plot_width = WIDTH - LEFT - RIGHT
    rotate = longest_x * CHAR > plot_width / slots - 4
    x_axis_height = (min(longest_x, 16) * CHAR * 0.72 + 14) if rotate else FONT + 8
    height = int(TOP + PLOT_HEIGHT + x_axis_height + 22 + legend_rows * 22 + 6)
    values = [value for _, vals in series for value in vals if value is not None]
    top_value, step = nice_scale(max(values, default=0))
    return _Layout(
        width=WIDTH,
        left=LEFT,
        right=RIGHT,
        top=TOP,
        per_row=per_row,
        slots=slots,
        plot_width=plot_width,
        plot_height=PLOT_HEIGHT,
        rotate=rotate,
        x_axis_height=x_axis_height,
        height=height,
        top_value=top_value,
        step=step,
        has_values=bool(values),
    )


def _y_axis(layout, y_label):
    """Gridlines with the y axis's values, then the axis's name turned along it."""
    parts = []
    for tick in _ticks(layout.top_value, layout.step):
        y = layout.y_at(tick)
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="1"/>'
                '<text x="{}" y="{}" text-anchor="end" fill="{}">{}</text>',
                layout.left,
                layout.width - layout.right,
                _c(y),
                _c(y),
                GRID if tick else MUTED,
                layout.left - 6,
                _c(y + FONT * 0.35),
                MUTED,
                _number(tick),
            )
        )
    parts.append(
        format_html(
            '<text transform="translate({} {}) rotate(-90)" text-anchor="middle" fill="{}">{}</text>',
            FONT,
            _c(layout.top + layout.plot_height / 2),
            INK,
            y_label,
        )
    )
    return parts


def _x_axis(layout, x_labels):
    """The x axis's labels: turned (with the whole label as a hover title) when they do not fit flat."""
    parts = []
    for index, label in enumerate(x_labels):
        x = layout.x_at(index)
        text = _truncate(label, 16)
        if layout.rotate:
            parts.append(
                format_html(
                    '<text transform="translate({} {}) rotate(-40)" text-anchor="end" fill="{}">{}'
                    "<title>{}</title></text>",
                    _c(x + 4),
                    _c(layout.bottom_of_plot + FONT + 4),
                    INK,
                    text,
                    label,
                )
            )
        else:
            parts.append(
                format_html(
                    '<text x="{}" y="{}" text-anchor="middle" fill="{}">{}</text>',
                    _c(x),
                    _c(layout.bottom_of_plot + FONT + 6),
                    INK,
                    text,
                )
            )
    return parts


def _series_groups(layout, series, x_labels, *, write_values):
    """Each series' lines and markers in one group of its colour class; and, when the picture writes the
    values, {x index: [(y, text, series number)]} of the labels to lay out without overlaps."""
    groups, labels_at = [], {}
    for number, (name, vals) in enumerate(series):
        drawn = _polylines(layout, vals[: len(x_labels)], DASHES[number % len(DASHES)])
        marker = MARKERS[number % len(MARKERS)]
        for index, value in enumerate(vals[: len(x_labels)]):
            if value is None:
                continue
            x, y = layout.x_at(index), layout.y_at(value)
            drawn.append(_marker(marker, x, y, f"{name}, {x_labels[index]}: {_number(value)}"))
            if write_values:
                labels_at.setdefault(index, []).append((y - 9, _number(value), number))
        groups.append(
            format_html('<g class="{}">{}</g>', _series_class(number), mark_safe("".join(drawn)))  # noqa: S308
        )
    return groups, labels_at


def _runs(layout, vals):
    """The points of each unbroken run of values: a None breaks the line."""
    runs, run = [], []
    for index, value in enumerate(vals):
        if value is None:
            if run:
                runs.append(run)
            run = []
        else:
            run.append((layout.x_at(index), layout.y_at(value)))
    if run:
        runs.append(run)
    return runs


def _polylines(layout, vals, dash):
    """One polyline per run of two points or more (a lone point is still drawn, as its marker)."""
    return [
        format_html(
            '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5" stroke-linejoin="round"{}/>',
            " ".join(f"{_c(x)},{_c(y)}" for x, y in points),
            CURRENT,
            format_html(' stroke-dasharray="{}"', dash) if dash else "",
        )
        for points in _runs(layout, vals)
        if len(points) > 1
    ]


def _value_labels(layout, labels_at):
    """The values written above their points, pushed down one under the other where they would overlap."""
    parts = []
    for index, labels in labels_at.items():
        labels.sort()
        placed = []
        for y, text, number in labels:
            y = max(y, FONT) if not placed else max(y, placed[-1] + FONT + 1)
            placed.append(y)
            parts.append(
                format_html(
                    '<text class="{}" x="{}" y="{}" text-anchor="middle" font-weight="600" fill="{}" '
                    'stroke="#ffffff" stroke-width="3" paint-order="stroke">{}</text>',
                    _series_class(number),
                    _c(layout.x_at(index)),
                    _c(y),
                    CURRENT,
                    text,
                )
            )
    return parts


def _no_values(layout):
    return format_html(
        '<text x="{}" y="{}" text-anchor="middle" fill="{}">No values yet</text>',
        _c(layout.left + layout.plot_width / 2),
        _c(layout.top + layout.plot_height / 2),
        MUTED,
    )


def _legend(layout, series):
    """The legend under the x axis: each series' dash and marker in its colour, and its name."""
    legend_top = layout.bottom_of_plot + layout.x_axis_height + 16
    parts = []
    for number, (name, _) in enumerate(series):
        row, column = divmod(number, layout.per_row)
        x = layout.left - 20 + column * LEGEND_ITEM
        y = legend_top + row * 22
        dash = DASHES[number % len(DASHES)]
        parts.append(
            format_html(
                '<g class="{}"><line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="2.5"{}/>{}'
                '<text x="{}" y="{}" fill="{}">{}</text></g>',
                _series_class(number),
                _c(x),
                _c(x + 30),
                _c(y),
                _c(y),
                CURRENT,
                format_html(' stroke-dasharray="{}"', dash) if dash else "",
                _marker(MARKERS[number % len(MARKERS)], x + 15, y),
                _c(x + 36),
                _c(y + FONT * 0.35),
                INK,
                _truncate(name, 16),
            )
        )
    return parts


def _values_table(title, series, x_labels, *, hidden):
    """The numbers as a table, one row per x label, a dash where a series has no value."""
    rows = [
        [label, *(_number(vals[i]) if i < len(vals) else "" for _, vals in series)]
        for i, label in enumerate(x_labels)
    ]
    rows = [[cell if cell != "" else "\u2014" for cell in row] for row in rows]
    return _table(title, ["", *(name for name, _ in series)], rows, hidden=hidden)


def _line_description(series, x_labels, y_label):
    if not series or not x_labels:
        return f"No {y_label} to show yet."
    sentences = [
        f"{y_label} over {len(x_labels)} point{'s' if len(x_labels) != 1 else ''}: "
        f"{x_labels[0]} to {x_labels[-1]}."
    ]
    for number, (name, vals) in enumerate(series):
        known = [(x_labels[i], v) for i, v in enumerate(vals[: len(x_labels)]) if v is not None]
        style = f"{MARKER_WORDS[MARKERS[number % len(MARKERS)]]}"
        if not known:
            sentences.append(f"{name} ({style}): no values.")
            continue
        listed = ", ".join(f"{label} {_number(value)}" for label, value in known)
        sentences.append(f"{name} ({style}): {listed}.")
    return " ".join(sentences)
