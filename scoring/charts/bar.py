"""The bar chart: horizontal bars in the order given."""

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .frame import _figure, _svg, _table
from .marks import CHAR, CURRENT, FONT, GRID, INK, MUTED
from .scale import _c, _is_value, _number, _ticks, _truncate, nice_scale


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
