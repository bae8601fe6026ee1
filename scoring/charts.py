"""Charts drawn on the server as inline SVG: no JavaScript, no library, nothing fetched.

Every chart is readable without colour: series differ by dash pattern and marker shape as well as colour, the
axes carry visible labels, values are written next to the points and bars, and the same numbers follow the
picture as a table (visually hidden when the picture already writes every value, behind a "Show the values"
disclosure when it does not). The SVG has role="img" with a <title> and a <desc> summing it up. Every label is
escaped: player and hand names are user input. The picture scales to its container (viewBox, width 100%).

Colours are the site's (static/css/phm.css): each series is drawn in `currentColor` inside an element of class
`phm-series-N`, bars have class `phm-chart-bar`, so the palette lives in the style sheet with the rest of the
site's colours, and no style attribute is needed (the Content-Security-Policy refuses those).
"""

import itertools
import math
from numbers import Real

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

# phm.css gives each class its colour: the site's violet first, then hues told apart by the common
# colour-vision deficiencies (never by colour alone: see DASHES and MARKERS), each at least 4.5:1 on white.
SERIES_CLASSES = tuple(f"phm-series-{number}" for number in range(1, 9))
CURRENT = "currentColor"
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2", "1 5", "12 4", "5 2 1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "down", "cross", "circle-open", "square-open")
MARKER_WORDS = {
    "circle": "circles",
    "square": "squares",
    "triangle": "triangles",
    "diamond": "diamonds",
    "down": "downward triangles",
    "cross": "crosses",
    "circle-open": "open circles",
    "square-open": "open squares",
}

FONT = 14  # px in viewBox units; a 480-unit chart keeps about 10.5 px text on a 390 px phone
CHAR = 0.6 * FONT  # average character width, to size label columns
GRID = "#d9d6e8"
INK = "#212529"
MUTED = "#495057"
WRITE_VALUES_UP_TO = 3  # series: beyond this the numbers move to a visible table instead of the picture

_ids = itertools.count(1)


# Numbers ----------------------------------------------------------------------------------------------------


def _number(value):
    """A value as a chart writes it: 450, 12.5, 3.3 (one decimal at most)."""
    if value is None:
        return ""
    rounded = round(float(value), 1)
    return str(int(rounded)) if rounded.is_integer() else f"{rounded:.1f}"


def _is_value(value):
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def nice_scale(maximum, ticks=5):
    """(top, step): an axis from 0 to a round `top` at least `maximum`, in `ticks` (or one more) round steps;
    whole steps for whole maxima (2.5 only from 25 up)."""
    if maximum is None or maximum <= 0:
        return ticks, 1
    magnitude = 10 ** math.floor(math.log10(maximum / ticks))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if factor == 2.5 and magnitude < 10:
            continue
        if math.ceil(maximum / step - 1e-9) <= ticks + 1:
            break
    if maximum >= 1:
        step = max(step, 1)
    top = math.ceil(maximum / step - 1e-9) * step
    if float(top).is_integer():
        top, step = int(top), (int(step) if float(step).is_integer() else step)
    return top, step


def _ticks(top, step):
    count = round(top / step)
    return [step * index for index in range(count + 1)]


def _truncate(text, limit):
    text = str(text)
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "\u2026"


def _next_id(prefix):
    return f"phm-{prefix}-{next(_ids)}"


# Markers ----------------------------------------------------------------------------------------------------


def _series_class(number):
    return SERIES_CLASSES[number % len(SERIES_CLASSES)]


def _marker(shape, x, y, tooltip=""):
    """One point marker (r about 4.5) in the series' colour (currentColor), with an optional hover title."""
    colour = CURRENT
    title = format_html("<title>{}</title>", tooltip) if tooltip else ""
    r = 4.5
    fill, stroke = colour, "#ffffff"
    if shape.endswith("-open"):
        fill, stroke = "#ffffff", colour
        shape = shape[: -len("-open")]
    common = format_html('fill="{}" stroke="{}" stroke-width="1.5"', fill, stroke)
    if shape == "circle":
        body = format_html('<circle cx="{}" cy="{}" r="{}" {}>', _c(x), _c(y), r, common)
        return format_html("{}{}</circle>", body, title)
    if shape == "square":
        body = format_html(
            '<rect x="{}" y="{}" width="{}" height="{}" {}>', _c(x - r), _c(y - r), 2 * r, 2 * r, common
        )
        return format_html("{}{}</rect>", body, title)
    if shape == "cross":
        left, right, up, down = _c(x - r), _c(x + r), _c(y - r), _c(y + r)
        d = f"M{left} {up}L{right} {down}M{left} {down}L{right} {up}"
        return format_html(
            '<path d="{}" stroke="{}" stroke-width="2.5" fill="none">{}</path>', d, colour, title
        )
    if shape == "triangle":
        points = [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)]
    elif shape == "down":
        points = [(x, y + r + 1), (x + r + 1, y - r), (x - r - 1, y - r)]
    else:  # diamond
        points = [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
    text = " ".join(f"{_c(px)},{_c(py)}" for px, py in points)
    return format_html('<polygon points="{}" {}>{}</polygon>', text, common, title)


def _c(value):
    """A coordinate, short."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


# The accessible frame ---------------------------------------------------------------------------------------


def _svg(width, height, title, desc, body):
    title_id, desc_id = _next_id("title"), _next_id("desc")
    return format_html(
        # Its natural width at most, narrower on small screens: phm.css (svg.phm-chart), not a style
        # attribute, which the Content-Security-Policy refuses.
        '<svg class="phm-chart" viewBox="0 0 {w} {h}" width="{w}" role="img" aria-labelledby="{t} {d}" '
        'preserveAspectRatio="xMidYMid meet" '
        'font-family="system-ui, -apple-system, \'Segoe UI\', Roboto, sans-serif" font-size="{f}" '
        'xmlns="http://www.w3.org/2000/svg">'
        '<title id="{t}">{title}</title><desc id="{d}">{desc}</desc>{body}</svg>',
        w=width,
        h=height,
        t=title_id,
        d=desc_id,
        f=FONT,
        title=title,
        desc=desc,
        body=body,
    )


def _table(caption, head, rows, *, hidden):
    """The chart's numbers as a table: for screen readers (hidden) or for everyone (a disclosure)."""
    head_html = mark_safe("".join(format_html('<th scope="col">{}</th>', cell) for cell in head))  # noqa: S308
    body = mark_safe(  # noqa: S308
        "".join(
            format_html(
                '<tr><th scope="row">{}</th>{}</tr>',
                row[0],
                mark_safe("".join(format_html("<td>{}</td>", cell) for cell in row[1:])),  # noqa: S308
            )
            for row in rows
        )
    )
    table = format_html(
        '<table class="{}"><caption>{}</caption><thead><tr>{}</tr></thead><tbody>{}</tbody></table>',
        "phm-chart-data" if hidden else "table table-sm small mb-0",
        caption,
        head_html,
        body,
    )
    if hidden:
        # On a wrapper: a table ignores the 1px width of `.visually-hidden` and widens the page on phones.
        return format_html('<div class="visually-hidden">{}</div>', table)
    return format_html(
        '<details class="phm-chart-values mt-1"><summary class="small">Show the values</summary>'
        '<div class="table-responsive">{}</div></details>',
        table,
    )


def _figure(svg, table):
    return format_html('<figure class="phm-chart-figure mb-0">{}{}</figure>', svg, table)


# Line chart -------------------------------------------------------------------------------------------------


def line_chart(series, *, title, y_label, x_labels) -> SafeString:
    """One polyline per `(name, values)` series over `x_labels` (a value of None: no point there, and the line
    breaks), y from 0 to a round maximum with gridlines, a legend telling series apart by dash, marker and
    colour."""
    series = [
        (str(name), [value if _is_value(value) else None for value in values]) for name, values in series
    ]
    x_labels = [str(label) for label in x_labels]
    width = 480
    left, right, top = 52, 14, 12
    legend_item = 180
    per_row = max(1, (width - left - right + 20) // legend_item)
    legend_rows = math.ceil(len(series) / per_row) if series else 0
    longest_x = max((len(label) for label in x_labels), default=0)
    slots = max(len(x_labels), 1)
    plot_width = width - left - right
    rotate = longest_x * CHAR > plot_width / slots - 4
    x_axis_height = (min(longest_x, 16) * CHAR * 0.72 + 14) if rotate else FONT + 8
    plot_height = 170
    height = int(top + plot_height + x_axis_height + 22 + legend_rows * 22 + 6)
    bottom_of_plot = top + plot_height

    values = [value for _, vals in series for value in vals if value is not None]
    top_value, step = nice_scale(max(values, default=0))

    def x_at(index):
        return left + plot_width * (index + 0.5) / slots

    def y_at(value):
        return bottom_of_plot - plot_height * (value / top_value if top_value else 0)

    parts = []
    # Gridlines and the y axis's values.
    for tick in _ticks(top_value, step):
        y = y_at(tick)
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="1"/>'
                '<text x="{}" y="{}" text-anchor="end" fill="{}">{}</text>',
                left,
                width - right,
                _c(y),
                _c(y),
                GRID if tick else MUTED,
                left - 6,
                _c(y + FONT * 0.35),
                MUTED,
                _number(tick),
            )
        )
    # The y axis's name, turned along it.
    parts.append(
        format_html(
            '<text transform="translate({} {}) rotate(-90)" text-anchor="middle" fill="{}">{}</text>',
            FONT,
            _c(top + plot_height / 2),
            INK,
            y_label,
        )
    )
    # The x axis's labels.
    for index, label in enumerate(x_labels):
        x = x_at(index)
        text = _truncate(label, 16)
        if rotate:
            parts.append(
                format_html(
                    '<text transform="translate({} {}) rotate(-40)" text-anchor="end" fill="{}">{}'
                    "<title>{}</title></text>",
                    _c(x + 4),
                    _c(bottom_of_plot + FONT + 4),
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
                    _c(bottom_of_plot + FONT + 6),
                    INK,
                    text,
                )
            )

    write_values = len(series) <= WRITE_VALUES_UP_TO
    labels_at = {}  # x index -> [(y, text, series number)] to lay out without overlaps
    for number, (name, vals) in enumerate(series):
        drawn = []  # the series' lines and markers, in one group of its colour class
        dash = DASHES[number % len(DASHES)]
        marker = MARKERS[number % len(MARKERS)]
        # A None breaks the line into runs; a lone point is still drawn as its marker.
        runs, run = [], []
        for index, value in enumerate(vals[: len(x_labels)]):
            if value is None:
                if run:
                    runs.append(run)
                run = []
            else:
                run.append((x_at(index), y_at(value)))
        if run:
            runs.append(run)
        for points in runs:
            if len(points) > 1:
                drawn.append(
                    format_html(
                        '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5" '
                        'stroke-linejoin="round"{}/>',
                        " ".join(f"{_c(x)},{_c(y)}" for x, y in points),
                        CURRENT,
                        format_html(' stroke-dasharray="{}"', dash) if dash else "",
                    )
                )
        for index, value in enumerate(vals[: len(x_labels)]):
            if value is None:
                continue
            x, y = x_at(index), y_at(value)
            drawn.append(_marker(marker, x, y, f"{name}, {x_labels[index]}: {_number(value)}"))
            if write_values:
                labels_at.setdefault(index, []).append((y - 9, _number(value), number))
        parts.append(
            format_html('<g class="{}">{}</g>', _series_class(number), mark_safe("".join(drawn)))  # noqa: S308
        )
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
                    _c(x_at(index)),
                    _c(y),
                    CURRENT,
                    text,
                )
            )
    if not values:
        parts.append(
            format_html(
                '<text x="{}" y="{}" text-anchor="middle" fill="{}">No values yet</text>',
                _c(left + plot_width / 2),
                _c(top + plot_height / 2),
                MUTED,
            )
        )
    # The legend, under the x axis.
    legend_top = bottom_of_plot + x_axis_height + 16
    for number, (name, _) in enumerate(series):
        row, column = divmod(number, per_row)
        x = left - 20 + column * legend_item
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

    desc = _line_description(series, x_labels, y_label)
    svg = _svg(width, height, title, desc, mark_safe("".join(parts)))  # noqa: S308
    rows = [
        [label, *(_number(vals[i]) if i < len(vals) else "" for _, vals in series)]
        for i, label in enumerate(x_labels)
    ]
    rows = [[cell if cell != "" else "\u2014" for cell in row] for row in rows]
    table = _table(title, ["", *(name for name, _ in series)], rows, hidden=write_values)
    return _figure(svg, table)


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


# Bar chart --------------------------------------------------------------------------------------------------


def bar_chart(bars, *, title, value_label) -> SafeString:
    """Horizontal bars in the order given: the label on the left, the value written at the end of each bar,
    an axis of `value_label` from 0 to a round maximum under them."""
    bars = [(str(label), value if _is_value(value) else 0) for label, value in bars]
    width = 480
    row_height, bar_height = 26, 16
    longest = max((len(label) for label, _ in bars), default=0)
    label_chars = min(longest, 22)
    label_width = max(label_chars * CHAR, 24) + 10
    value_room = max((len(_number(value)) for _, value in bars), default=1) * CHAR + 10
    left = label_width
    right = 12
    bar_room = width - left - right - value_room
    top = 6
    height = int(top + max(len(bars), 1) * row_height + 40)
    axis_y = top + max(len(bars), 1) * row_height + 2
    top_value, step = nice_scale(max((value for _, value in bars), default=0), ticks=4)

    def x_at(value):
        return left + bar_room * (value / top_value if top_value else 0)

    parts = []
    for tick in _ticks(top_value, step):
        x = x_at(tick)
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{}" stroke-width="1"/>'
                '<text x="{}" y="{}" text-anchor="middle" fill="{}">{}</text>',
                _c(x),
                _c(x),
                top,
                _c(axis_y),
                GRID if tick else MUTED,
                _c(x),
                _c(axis_y + FONT + 2),
                MUTED,
                _number(tick),
            )
        )
    parts.append(
        format_html(
            '<text x="{}" y="{}" text-anchor="middle" fill="{}">{}</text>',
            _c(left + bar_room / 2),
            _c(axis_y + 2 * FONT + 6),
            INK,
            value_label,
        )
    )
    for index, (label, value) in enumerate(bars):
        y = top + index * row_height + (row_height - bar_height) / 2
        text_y = y + bar_height / 2 + FONT * 0.35
        end = x_at(value)
        shown = _truncate(label, 22)
        parts.append(
            format_html(
                '<g><text x="{}" y="{}" text-anchor="end" fill="{}">{}<title>{}</title></text>'
                '<rect class="phm-chart-bar" x="{}" y="{}" width="{}" height="{}" rx="2" fill="{}">'
                "<title>{}: {}</title></rect>"
                '<text x="{}" y="{}" font-weight="600" fill="{}">{}</text></g>',
                _c(left - 8),
                _c(text_y),
                INK,
                shown,
                label,
                _c(left),
                _c(y),
                _c(max(end - left, 0)),
                bar_height,
                CURRENT,
                label,
                _number(value),
                _c(end + 5),
                _c(text_y),
                INK,
                _number(value),
            )
        )
    if not bars:
        parts.append(
            format_html(
                '<text x="{}" y="{}" text-anchor="middle" fill="{}">No values yet</text>',
                _c(left + bar_room / 2),
                _c(top + row_height * 0.7),
                MUTED,
            )
        )
    if bars:
        listed = "; ".join(f"{label}: {_number(value)}" for label, value in bars)
        desc = f"{len(bars)} bar{'s' if len(bars) != 1 else ''}, {value_label}. {listed}."
    else:
        desc = f"No {value_label} to show yet."
    svg = _svg(width, height, title, desc, mark_safe("".join(parts)))  # noqa: S308
    table = _table(title, ["", value_label], [[label, _number(value)] for label, value in bars], hidden=True)
    return _figure(svg, table)
