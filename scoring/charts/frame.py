"""The accessible frame of every chart: the <svg> with its <title> and <desc>, the numbers as a table, the
figure around both."""

import itertools

from django.utils.html import format_html
from django.utils.safestring import mark_safe

from .marks import FONT

_ids = itertools.count(1)


def _next_id(prefix):
    return f"phm-{prefix}-{next(_ids)}"


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
