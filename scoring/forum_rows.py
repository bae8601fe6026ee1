"""Results rows as posted on the forum (rules 6.1, 6.3): read liberally, written plainly.

    X | 1 2 3 4 | PT | Points
    1 | X 6 2 0 | 8 | 267
    2 | 0 X 4 1 | 5 | 167

A row is the hand's number, `|`, one cell per hand in column order (a match score, `X` on the row's own
column, `?` for unknown), then optionally `| PT | Points`. Reading also accepts: no header, extra spaces and
tabs, leading and trailing `|`, tab- or comma-separated cells (a spreadsheet paste, where an empty cell is
unknown), `-`, `_` or blank for unknown, `01` or `1)` as the number, a BBCode `[code]` or `[table]` wrapper,
and blank lines. A player's note is kept, not refused: words after the Points section
(`3 | 6 0 X 2 | 8 | 267 | 2-2 vs 4 is controversial`) or a parenthesised remark at the end of the row
(`3 | 6 0 X 2 (I think)`). Anything else is a `RowFormatError` whose message says in plain words where and
what is wrong.

One job past 400 lines: the row format itself — reading, checking a table's consistency and writing it back
are the same grammar, and each reader's error names the writer's terms.
"""

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from operator import attrgetter

from .outcomes import OPPONENT_POINTS, POINTS_VALUES, is_legal_pair
from .outcomes import league_points as league_points_over

OWN_COLUMN = "X"
UNKNOWN = "?"
UNKNOWN_MARKS = frozenset({"", "?", "-", "_", "\u2013", "\u2014"})  # forum software turns "-" into dashes
HEADER_POINTS, HEADER_LEAGUE_POINTS = "PT", "Points"

# BBCode around or inside a pasted table: `[code]`/`[table]` wrappers go; `[tr]`/`[td]` become lines and tabs.
_WRAPPER_TAG = re.compile(r"\[/?(?:code|table)(?:=[^\]\n]{0,40})?\]", re.IGNORECASE)
_BETWEEN_CELLS = re.compile(r"\[/t[dh]\]\s*\[t[dh](?:=[^\]\n]{0,40})?\]", re.IGNORECASE)
_ROW_TAG = re.compile(r"\[/?tr\]", re.IGNORECASE)
_CELL_TAG = re.compile(r"\[/?t[dh](?:=[^\]\n]{0,40})?\]", re.IGNORECASE)
# Lines of only rules and separators (`---|---`, `--+--`) carry nothing.
_RULE_LINE = re.compile(r"[\s|+:=_-]*")
# A header starts with the corner cell (`X`, `#`) or names the totals; a row starts with its number.
_HEADER_CORNER = re.compile(r"[x#](?=[\s|,]|$)", re.IGNORECASE)
_HEADER_TOTALS = re.compile(rf"\b(?:{HEADER_POINTS}|{HEADER_LEAGUE_POINTS})\b", re.IGNORECASE)
# The hand's number (`3`, `03`, `3)`, `3.`) and a tab or comma after it (a second one is an empty cell).
_ROW_START = re.compile(r"\s*(?:\|\s*)?(?P<number>[0-9]{1,9})(?![0-9])[ ]*[.)]?[ ]*[\t,]?")
_SPREADSHEET_SEPARATOR = re.compile(r"[\t,]")
_SCORE = re.compile(r"[0-9]{1,3}")
_TOTAL = re.compile(r"[0-9]{1,9}")
_CELL_VALUES = (OWN_COLUMN, None, *POINTS_VALUES)
# A note has words in it: a trailing "(remark)" or a section after Points; "| 1" or "(8)" stay errors.
# (The remark is found with str methods: a pattern for it, `\s*\(…\)\s*$`, searched a line of spaces in
# quadratic time.)
_NOTE_TEXT = re.compile(r"[^\W\d_]")


class RowFormatError(ValueError):
    """Text that is not a results row or table; the message is meant for the person who typed it."""


@dataclass(frozen=True)
class ForumRow:
    """One hand's row. cells[i] is the cell for column i + 1: a match score, None when unknown, or "X" on the
    row's own column. The totals are as read (or as computed by `complete_table`); None when absent."""

    number: int
    cells: tuple
    stated_points: int | None = None
    stated_league_points: int | None = None
    note: str = ""  # the player's remark on the row, as written

    def __post_init__(self):
        object.__setattr__(self, "cells", tuple(self.cells))
        for column, cell in enumerate(self.cells, start=1):
            if (cell == OWN_COLUMN) != (column == self.number):
                raise ValueError(
                    f"Row {self.number}, column {column}: X goes on column {self.number} and only there."
                )
            if cell not in _CELL_VALUES:
                raise ValueError(f"Row {self.number}, column {column}: {cell!r} is not a match score.")

    @property
    def known_points(self):
        """PT: the sum of the known cells (an unknown match scores nothing, rule 6.3b)."""
        return sum(cell for cell in self.cells if isinstance(cell, int))


@dataclass(frozen=True)
class Inconsistency:
    """Two cells of the same match that no match result can produce, seen from the lower-numbered hand."""

    row: int
    column: int
    value: int
    mirror: int | None
    message: str


def row_for_hand(number, cells_by_column, columns, points=None, league_points=None):
    """The row of hand `number` in a table of `columns` hands, from {opponent number: score or None}; columns
    left out are unknown."""
    cells = (
        OWN_COLUMN if column == number else cells_by_column.get(column) for column in range(1, columns + 1)
    )
    return ForumRow(number, tuple(cells), points, league_points)


# Reading ---------------------------------------------------------------------------------------------------


def parse_row(text, *, columns=None):
    """One row, as a player pastes their own. `columns` is the number of hands in the round when known;
    without it the row is as wide as the cells it has."""
    lines = _content_lines(text)
    if not lines:
        raise RowFormatError('No results row found: a row looks like "3 | 6 0 X 2 | 8 | 267".')
    if len(lines) > 1:
        line_numbers = _words([str(line_number) for line_number, _ in lines], "and")
        raise RowFormatError(f"Expected a single results row, found {len(lines)} (lines {line_numbers}).")
    line_number, line = lines[0]
    number, rest = _split_number(line, line_number)
    if columns is not None and not 1 <= number <= columns:
        raise RowFormatError(
            f"Row {number}: this round has {columns} hands, so rows are numbered 1 to {columns}."
        )
    return _read_row(number, rest, columns)


def parse_table(text):
    """A whole table: rows numbered 1..N, each once, N cells each (N = the number of rows), any order."""
    lines = _content_lines(text)
    if not lines:
        raise RowFormatError('No results rows found: a table row looks like "3 | 6 0 X 2 | 8 | 267".')
    split_lines = [(line_number, *_split_number(line, line_number)) for line_number, line in lines]
    count = len(split_lines)
    _check_numbering([(line_number, number) for line_number, number, _ in split_lines], count)
    rows = [_read_row(number, rest, count) for _, number, rest in split_lines]
    return sorted(rows, key=attrgetter("number"))


def _content_lines(text):
    """(line number, line) of the lines that may be rows: wrappers, blank lines and headers left out."""
    text = _WRAPPER_TAG.sub("", text.replace("\ufeff", ""))
    text = _CELL_TAG.sub("", _ROW_TAG.sub("\n", _BETWEEN_CELLS.sub("\t", text)))
    return [
        (line_number, line)
        for line_number, line in enumerate(text.splitlines(), start=1)
        if not _RULE_LINE.fullmatch(line) and not _is_header(line)
    ]


def _is_header(line):
    start = line.strip().lstrip("|").lstrip()
    return bool(_HEADER_CORNER.match(start) or (not start[:1].isdigit() and _HEADER_TOTALS.search(start)))


def _split_number(line, line_number):
    """(hand number, the rest of the line)."""
    match = _ROW_START.match(line)
    if match is None:
        raise RowFormatError(f"Line {line_number}: {_quote(line.strip())} does not start with a hand number.")
    number = int(match["number"])
    if number < 1:
        raise RowFormatError(f"Line {line_number}: hands are numbered from 1, so there is no row {number}.")
    return number, line[match.end() :]


def _check_numbering(numbered_lines, count):
    """Rows 1..count, each once: name the stray, doubled and missing numbers."""
    lines_by_number = defaultdict(list)
    for line_number, number in numbered_lines:
        lines_by_number[number].append(line_number)
    missing = [number for number in range(1, count + 1) if number not in lines_by_number]
    if not missing:  # `count` rows with no gap in 1..count: each number exactly once
        return
    stray = next(((line, number) for line, number in numbered_lines if number > count), None)
    if stray:
        line_number, number = stray
        problem = (
            f"Line {line_number}: the table has {count} rows, so they are numbered 1 to {count}, not {number}"
        )
    else:
        number, line_numbers = next((n, lines) for n, lines in lines_by_number.items() if len(lines) > 1)
        problem = (
            f"Row {number} appears {len(line_numbers)} times (lines {_words(map(str, line_numbers), 'and')})"
        )
    raise RowFormatError(f"{problem}; {_missing_rows(missing)}.")


def _missing_rows(missing):
    if len(missing) == 1:
        return f"row {missing[0]} is missing"
    return f"rows {_words(map(str, missing), 'and')} are missing"


def _read_row(number, rest, columns):
    rest, remark = _without_trailing_remark(rest)
    cells, totals, note = _cells_and_totals(number, rest, columns)
    columns = len(cells) if columns is None else columns
    _check_cell_count(number, cells, columns)
    points, league = [*totals, UNKNOWN, UNKNOWN][:2]
    return ForumRow(
        number=number,
        cells=tuple(_read_cell(field, number, column) for column, field in enumerate(cells, start=1)),
        stated_points=_read_total(points, number, HEADER_POINTS),
        stated_league_points=_read_total(league, number, HEADER_LEAGUE_POINTS),
        note=" ".join(part for part in (note, remark) if part),
    )


def _without_trailing_remark(rest):
    """(the line without its trailing "(remark)" and the spaces before it, the remark's text): the last
    "(", then text with no parenthesis and a word in it, then ")" and only spaces to the end."""
    body = rest.rstrip()
    opening = body.rfind("(")
    if opening < 0 or not body.endswith(")"):
        return rest, ""
    note = body[opening + 1 : -1]
    if ")" in note or "\n" in note or not _NOTE_TEXT.search(note):
        return rest, ""
    return rest[:opening].rstrip(), note.strip()


def _cells_and_totals(number, rest, columns):
    """The cell fields, the PT and Points fields (none, one or both) and the note (the words after the Points
    section) of the line after the number."""
    sections = rest.split("|")
    after_pipe = len(sections) > 1 and not sections[0].strip()
    if after_pipe:
        sections.pop(0)  # the "|" after the number
    if len(sections) > 1 and not sections[-1].strip():
        sections.pop()  # a trailing "|"
    note = ""
    if len(sections) > 3 and _NOTE_TEXT.search("|".join(sections[3:])):
        note = "|".join(sections[3:]).strip()
        sections = sections[:3]
    if len(sections) > 3:
        shape = f"{number} | cells | {HEADER_POINTS} | {HEADER_LEAGUE_POINTS}"
        raise RowFormatError(f'Row {number}: too many "|"; a row is "{shape}".')
    fields = _split_cells(sections[0])
    if len(sections) > 1:
        totals = [section.strip() for section in sections[1:]]
        return _without_padding(fields, columns, after_pipe), totals, note
    # Without "|" after the cells, two fields past the known width are PT and Points (a spreadsheet row).
    if columns is not None:
        with_totals = _without_padding(fields, columns + 2, after_pipe)
        if len(with_totals) == columns + 2:
            return with_totals[:columns], with_totals[columns:], note
    return _without_padding(fields, columns, after_pipe), [], note


def _split_cells(section):
    """Tab or comma separation (a spreadsheet paste) keeps empty cells; otherwise any whitespace separates.
    Tabs only around the cells are padding, not separators."""
    if _SPREADSHEET_SEPARATOR.search(section.strip()):
        return [field.strip() for field in _SPREADSHEET_SEPARATOR.split(section)]
    return section.split()


def _without_padding(fields, count, after_pipe):
    """A tab or comma just inside a "|", or at the end of the line, reads as an extra empty cell: while there
    are more than `count` fields, drop empty ones from those edges, alternating sides."""
    fields = list(fields)
    edges = [0, -1] if after_pipe else [-1]
    while count is not None and len(fields) > count:
        empty_edges = [edge for edge in edges if not fields[edge]]
        if not empty_edges:
            break
        fields.pop(empty_edges[0])
        edges.reverse()
    return fields


def _check_cell_count(number, cells, columns):
    if len(cells) != columns:
        expected = f"{columns} cells (one per hand, {UNKNOWN} when unknown)"
        raise RowFormatError(f"Row {number}: expected {expected}, found {len(cells)}.")
    if number > columns:  # only when the width comes from the row itself
        needed = f"at least {number} (cell {number} is its own X)"
        raise RowFormatError(f"Row {number}: found {columns} cells, but row {number} needs {needed}.")


def _read_cell(field, row, column):
    where = f"Row {row}, cell {column}"
    if field.upper() == OWN_COLUMN:
        if column != row:
            raise RowFormatError(f"{where}: X marks the hand's own column, which is cell {row}.")
        return OWN_COLUMN
    if field in UNKNOWN_MARKS:
        return OWN_COLUMN if column == row else None  # a spreadsheet often leaves its diagonal empty
    if column == row:
        raise RowFormatError(f"{where}: a hand does not play itself, so this cell is X, not {_quote(field)}.")
    if _SCORE.fullmatch(field) and int(field) in POINTS_VALUES:
        return int(field)
    scores = _words(map(str, POINTS_VALUES), "or")
    raise RowFormatError(f"{where}: {_quote(field)} is not a match score ({scores}).")


def _read_total(field, row, name):
    if field in UNKNOWN_MARKS or field.casefold() == name.casefold():  # "| PT | Points" copied as a template
        return None
    if _TOTAL.fullmatch(field):
        return int(field)
    raise RowFormatError(f"Row {row}: {name} {_quote(field)} is not a whole number.")


def _quote(text, limit=30):
    shown = f"{text[:limit]}..." if len(text) > limit else text
    return f'"{shown}"'


def _words(items, conjunction):
    """'6, 4, 2, 1 or 0'."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


# Checking and completing -----------------------------------------------------------------------------------


def check_table(rows):
    """Every match whose two cells are known but are no possible result, once per pair."""
    rows_by_number = {row.number: row for row in rows}
    problems = []
    for row in sorted(rows, key=attrgetter("number")):
        for column, value in enumerate(row.cells, start=1):
            mirror = _mirror_cell(rows_by_number, row.number, column)
            if column > row.number and _known(value) and _known(mirror) and not is_legal_pair(value, mirror):
                message = _pair_message(row.number, column, value, mirror)
                problems.append(Inconsistency(row.number, column, value, mirror, message))
    return problems


@dataclass(frozen=True)
class TotalMismatch:
    """A row whose stated PT or Points differ from what its cells give (as `complete_table` computes them)."""

    row: int
    total: str  # HEADER_POINTS or HEADER_LEAGUE_POINTS
    stated: int
    computed: int
    message: str


def stated_total_mismatches(rows):
    """Each stated PT and Points that its row's cells do not give, row by row: PT is the sum of the known
    cells (with those known from their mirror, as `complete_table` fills them), Points that PT over N - 1
    opponents."""
    mismatches = []
    completed = sorted(complete_table(rows), key=attrgetter("number"))
    stated_rows = {row.number: row for row in rows}
    for done in completed:
        row = stated_rows[done.number]
        for name, stated, computed in (
            (HEADER_POINTS, row.stated_points, done.stated_points),
            (HEADER_LEAGUE_POINTS, row.stated_league_points, done.stated_league_points),
        ):
            if stated is not None and stated != computed:
                message = _mismatch_message(row, done, name, stated, computed)
                mismatches.append(TotalMismatch(row.number, name, stated, computed, message))
    return mismatches


def row_totals(row, *, opponents=None, out_of_table=()):
    """(PT, Points) that one row's own cells give: PT is the sum of its known cells, leaving out the columns
    `out_of_table` (hands out of the table), Points is that PT over `opponents` (N - 1 without it) times 100,
    rounded half up as rule 5.2 says."""
    opponents = len(row.cells) - 1 if opponents is None else opponents
    points = sum(
        cell for column, cell in enumerate(row.cells, start=1) if _known(cell) and column not in out_of_table
    )
    return points, league_points_over(points, opponents)


def row_total_mismatches(row, *, opponents=None, out_of_table=()):
    """Each stated PT and Points of one row (a player's own, read alone) that its own cells do not give
    (`row_totals`)."""
    opponents = len(row.cells) - 1 if opponents is None else opponents
    points, league = row_totals(row, opponents=opponents, out_of_table=out_of_table)
    mismatches = []
    if row.stated_points is not None and row.stated_points != points:
        message = (
            f"Row {row.number} states {HEADER_POINTS} {row.stated_points}, but its cells add up to {points}."
        )
        mismatches.append(TotalMismatch(row.number, HEADER_POINTS, row.stated_points, points, message))
    if row.stated_league_points is not None and row.stated_league_points != league:
        message = (
            f"Row {row.number} states {HEADER_LEAGUE_POINTS} {row.stated_league_points}, but its cells give "
            f"{league} ({HEADER_POINTS} {points} over {opponents} opponents, times 100, a half rounded up: "
            "rule 5.2)."
        )
        mismatches.append(
            TotalMismatch(row.number, HEADER_LEAGUE_POINTS, row.stated_league_points, league, message)
        )
    return mismatches


def _mismatch_message(row, done, name, stated, computed):
    if name == HEADER_POINTS:
        filled = sum(1 for own, cell in zip(row.cells, done.cells, strict=True) if own != cell)
        mirrors = f", {filled} of them known from the other hands' rows" if filled else ""
        why = f"its cells add up to {computed} (unknown matches count 0, rule 6.3b{mirrors})"
    else:
        opponents = len(done.cells) - 1
        why = f"its cells give {computed} ({HEADER_POINTS} {done.stated_points} over {opponents} opponents)"
    return f"Row {row.number} states {name} {stated}, but {why}."


def _pair_message(row, column, value, mirror):
    return (
        f"Hands {row} and {column}: {value} and {mirror} is not a possible result "
        f"({value} goes with {OPPONENT_POINTS[value]})."
    )


def complete_table(rows):
    """Each unknown cell whose mirror is known gets the mirror's opposite; PT and Points are recomputed over
    N - 1 opponents. Known cells never change, even when their pair is inconsistent."""
    rows_by_number = {row.number: row for row in rows}
    return [_completed(row, rows_by_number) for row in rows]


def _completed(row, rows_by_number):
    cells = tuple(
        _filled(cell, _mirror_cell(rows_by_number, row.number, column))
        for column, cell in enumerate(row.cells, start=1)
    )
    completed = replace(row, cells=cells)
    points = completed.known_points
    return replace(
        completed, stated_points=points, stated_league_points=league_points_over(points, len(cells) - 1)
    )


def _filled(cell, mirror):
    return OPPONENT_POINTS[mirror] if cell is None and _known(mirror) else cell


def _mirror_cell(rows_by_number, row, column):
    """The same match seen from the other hand (row `column`, cell `row`); None when that row lacks it."""
    other = rows_by_number.get(column)
    return other.cells[row - 1] if other is not None and row <= len(other.cells) else None


def _known(cell):
    return isinstance(cell, int)


# Writing ---------------------------------------------------------------------------------------------------


def format_table(rows):
    """Header and rows in right-aligned fixed-width columns, for a monospace `[code]` block."""
    rows = sorted(rows, key=attrgetter("number"))
    columns = max((len(row.cells) for row in rows), default=0)
    header = [OWN_COLUMN, *map(str, range(1, columns + 1)), HEADER_POINTS, HEADER_LEAGUE_POINTS]
    lines = [header, *map(_row_fields, rows)]
    widths = (
        max(len(text) for fields in lines for text in fields[:-2]),  # the number and the cells
        max(len(fields[-2]) for fields in lines),
        max(len(fields[-1]) for fields in lines),
    )
    notes = ["", *(_note_text(row.note) for row in rows)]
    return "\n".join(_aligned(fields, *widths) + note for fields, note in zip(lines, notes, strict=True))


def _row_fields(row):
    cells = (UNKNOWN if cell is None else str(cell) for cell in row.cells)
    return [str(row.number), *cells, _total_text(row.stated_points), _total_text(row.stated_league_points)]


def _note_text(note):
    """The note after a formatted row, so that it reads back as the same note."""
    if not note:
        return ""
    return f" | {note}" if "(" in note or ")" in note else f"  ({note})"


def _aligned(fields, cell_width, points_width, league_width):
    number, *cells, points, league = fields
    cell_texts = " ".join(cell.rjust(cell_width) for cell in cells)
    return (
        f"{number.rjust(cell_width)} | {cell_texts} | "
        f"{points.rjust(points_width)} | {league.rjust(league_width)}"
    )


def _total_text(total):
    return UNKNOWN if total is None else str(total)
