"""The results page's heavy parts (the matrix, the ranking, the chart) written in Python and cached per
state of the table.

The template wrote the matrix one cell at a time (a `{% url %}` and a dozen tags each): 65 µs and ~160 bytes
a cell, 5.8 s and 14 MB for 300 hands. Here a cell is one f-string (about 45 bytes: its colour class, the
link to its match, the points and a mark for the rare disputed, challenged, one-sided or replaced match); the
match URL is reversed once with a placeholder. Its meaning is in the table's headers (scope=col/row) and the
legend under it, so no cell needs a title.

What is cached is the same for every viewer: it is keyed on `table_reply.table_state`'s digest (the tally's
revision, bumped by every result change, and the hands' public header: numbers, players, forum names, hand
names, bonus) with the round's state and code, so a changed result, name or bonus is a new key and a copy is
never wrong, only superseded. The viewer's own row is marked afterwards (`Render.matrix`, `Render.ranking`):
each row is kept as two pieces around the place of its "you" badge, so no per-viewer byte is ever cached.
"""

import hashlib
from collections import Counter
from dataclasses import dataclass

from django.db import connection
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe

from phm.text import quoted

from . import table_reply
from .charts.bar import bar_chart
from .models import Match, MatchStatus

# Bumped whenever the cached markup changes for the same data.
RENDER_FORMAT = 2
CACHE_SECONDS = 24 * 3600  # keys are content digests: a copy is never wrong, only superseded
# Above this many hands the page shows the viewer's row and the ranking, and the full matrix is one click
# away (`/rounds/<id>/results/matrix/`): 60 hands are 3,600 cells, about 160 kB.
INLINE_HANDS = 60
_FETCH_ROWS = 10_000
_PLACEHOLDER = 987654321

# Short class names: they are written once per cell (phm.css, under .phm-matrix).
RESULT_CLASS = {6: "w", 4: "w", 2: "e", 1: "l", 0: "l", None: "u"}
RING_CLASS = {MatchStatus.DISPUTED: " d", MatchStatus.CHALLENGED: " c"}
MARKS = {
    MatchStatus.DISPUTED: '<span class="phm-mark" aria-label="disputed">!</span>',
    MatchStatus.CHALLENGED: '<span class="phm-mark" aria-label="challenged">⚑</span>',
    MatchStatus.NEEDS_RESULT: '<span class="phm-mark" aria-label="needs a new result">↻</span>',
    MatchStatus.REPORTED: '<span class="phm-mark" aria-label="one side reported">·</span>',
}
SELF_CELL = '<td class="x" aria-label="own column">X'
MISSING_CELL = '<td class="x">\u2013'  # a pair without a match (not expected once the table is built)
YOU_BADGE = ' <span class="badge text-bg-primary">you</span>'
MY_ROW = '<tr class="phm-my-row">'


@dataclass
class Render:
    """The viewer-independent pieces of a results page, as cached."""

    numbers: list  # entry numbers, in entry order
    matrix_head: str  # <table> … <tbody>
    matrix_rows: list  # per hand in entry order: (before the "you" badge, after it), without the <tr>
    matrix_tail: str
    ranking_rows: list  # (entry number, the row without its <tr>) in rank order
    row_texts: dict  # {entry number: the row in the forum format, for the row box}
    status_counts: dict
    chart: str

    def matrix(self, mine=None, only_mine=False):
        """The matrix's <table>, the viewer's row (entry number `mine`) marked; only that row if asked."""
        parts = [self.matrix_head]
        for number, (before, after) in zip(self.numbers, self.matrix_rows, strict=True):
            if number == mine:
                parts += [MY_ROW, before, YOU_BADGE, after]
            elif not only_mine:
                parts += ["<tr>", before, after]
        parts.append(self.matrix_tail)
        return mark_safe("".join(parts))  # noqa: S308 - every name was escaped when the pieces were built

    def ranking(self, mine=None):
        """The ranking's <tbody> rows, the viewer's marked."""
        return mark_safe(  # noqa: S308 - escaped when built
            "".join(f"{MY_ROW if number == mine else '<tr>'}{row}" for number, row in self.ranking_rows)
        )


def render_for(round_, now=None):
    """The round's Render, from the cache or built (and cached). ScoringNotFound before the reveal. A cache
    that is down only costs the build."""
    state = table_reply.table_state(round_, now)  # the revision is read before the data (see table_reply)
    material = repr((RENDER_FORMAT, state.digest, round_.state, round_.code)).encode()
    key = f"scoring:results-render:{hashlib.blake2b(material, digest_size=16).hexdigest()}"
    return table_reply.cached_or_built(key, lambda: build(round_, state), CACHE_SECONDS, "results render")


def _match_href():
    """(prefix, suffix) of a match page's URL: reversed once, not once per cell."""
    url = reverse("scoring:match", args=[_PLACEHOLDER])
    prefix, suffix = url.split(str(_PLACEHOLDER))
    return prefix, suffix


def _cell(href, points, status):
    text = "?" if points is None else points
    classes = f"{RESULT_CLASS[points]}{RING_CLASS.get(status, '')}"
    return f'<td class="{classes}"><a href="{href}">{text}{MARKS.get(status, "")}</a>'


def build(round_, state):
    """Every piece from one streamed query of the matches and the tally's lines."""
    heads = state.heads  # (hand id, number, hand name, username, forum name, bonus) in entry order
    count = len(heads)
    position = {head[0]: index for index, head in enumerate(heads)}
    cells = [[MISSING_CELL] * count for _ in range(count)]
    points = [["?"] * count for _ in range(count)]
    for index in range(count):
        cells[index][index], points[index][index] = SELF_CELL, "X"
    statuses = Counter()
    prefix, suffix = _match_href()
    table = connection.ops.quote_name(Match._meta.db_table)
    sql = (
        f"SELECT id, hand_a_id, hand_b_id, points_a, points_b, status FROM {table} "  # noqa: S608
        "WHERE round_id = %s"
    )
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, [state.round_id])
        while rows := cursor.fetchmany(_FETCH_ROWS):
            for match_id, hand_a, hand_b, points_a, points_b, status in rows:
                row, column = position.get(hand_a), position.get(hand_b)
                if row is None or column is None:
                    continue  # a disqualified hand's match is out of the table
                statuses[status] += 1
                href = f"{prefix}{match_id}{suffix}"
                cells[row][column] = _cell(href, points_a, status)
                cells[column][row] = _cell(href, points_b, status)
                if points_a is not None:
                    points[row][column], points[column][row] = str(points_a), str(points_b)

    lines = {line.hand.pk: line for line in table_reply.ranked_lines(state)}
    players = [forum_name or username for _pk, _n, _name, username, forum_name, _b in heads]
    matrix_rows, ranking, row_texts = [], [], []
    for index, (pk, number, hand_name, _username, _forum_name, bonus) in enumerate(heads):
        line = lines[pk]
        label = f'<span class="font-monospace">{number:02d}</span> {escape(players[index])}'
        hand = escape(hand_name or "unnamed")
        quoted_hand = escape(quoted(hand_name or "unnamed"))
        before = f'<th scope="row" class="phm-matrix-hand text-start">{label}'
        after = (
            f'<br><span class="small text-body-secondary fw-normal">{hand}</span></th>{"".join(cells[index])}'
            f'<td class="fw-semibold">{line.points}<td class="fw-semibold">{line.league_points}'
            f"<td>{line.rank}</tr>"
        )
        matrix_rows.append((before, after))
        bonus_text = f"{bonus:+d}" if bonus else ""
        ranking.append(
            (
                (line.rank, number),
                number,
                f"<td>{line.rank}</td>"
                f'<td>{label} <span class="text-body-secondary">:: {quoted_hand}</span></td>'
                f'<td class="text-end">{line.points}</td>'
                f'<td class="text-end fw-semibold">{line.league_points}</td>'
                f'<td class="text-end">{bonus_text}</td></tr>',
                f"{number:02d} {players[index]}",  # the chart escapes its labels itself
                line.league_points,
            )
        )
        row_texts.append((number, f"{number} | {' '.join(points[index])} | PT | Points"))
    ranking.sort(key=lambda entry: entry[0])
    numbers = [head[1] for head in heads]
    column_heads = "".join(f'<th scope="col" class="font-monospace">{number:02d}</th>' for number in numbers)
    matrix_head = (
        '<table class="table table-sm table-bordered align-middle text-center phm-matrix w-auto mb-1">'
        f'<caption class="visually-hidden">Results matrix of {escape(round_.code)}: each row is a hand, each '
        "cell its points against the hand of that column.</caption>"
        '<thead class="table-light"><tr><th scope="col" class="phm-matrix-hand text-start">Hand</th>'
        f'{column_heads}<th scope="col" title="Points">PT</th><th scope="col" title="League points of this '
        'round (rule 5.2), before bonus">League pts <span class="small fw-normal">(before bonus)</span></th>'
        '<th scope="col">Rank</th></tr></thead><tbody>'
    )
    waiting = (MatchStatus.UNREPORTED, MatchStatus.NEEDS_RESULT)
    has_results = any(n for status, n in statuses.items() if status not in waiting)
    chart = ""
    if heads and has_results:  # before any result every hand has 0: a chart of them would show nothing
        chart = str(
            bar_chart(
                [(entry[3], entry[4]) for entry in ranking],
                title=f"League points of each hand in {round_.code}",
                value_label="League points",
            )
        )
    return Render(
        numbers=numbers,
        matrix_head=matrix_head,
        matrix_rows=matrix_rows,
        matrix_tail="</tbody></table>",
        ranking_rows=[(entry[1], entry[2]) for entry in ranking],
        row_texts=dict(row_texts),
        status_counts=dict(statuses),
        chart=chart,
    )
