"""The results table of an archive import, as the forum posted it: read (`scoring.forum_rows`), checked
(cells that contradict each other refuse it; stated totals that differ are reported), and each pair's known
result taken for the import to record."""

from __future__ import annotations

from scoring.forum_rows import (
    ForumRow,
    RowFormatError,
    check_table,
    complete_table,
    parse_table,
    stated_total_mismatches,
)
from scoring.outcomes import OPPONENT_POINTS

from .results import PostImport


def read_table(result: PostImport, table: str) -> None:
    """The results table: every match two cells contradict refuses it; stated totals that differ from the
    cells are reported (the import keeps the cells and recomputes the totals, and says so)."""
    result.table_given = True
    try:
        rows = parse_table(table)
    except RowFormatError as error:
        result.add("table", str(error), "table")
        return
    if result.entries and len(rows) != len(result.entries):
        result.add(
            "table",
            f"The table has {len(rows)} rows but the post has {len(result.entries)} hands: they must match.",
            "table",
        )
        return
    inconsistent = check_table(rows)
    for problem in inconsistent:
        result.table_problems.append(problem.message)
        result.add("table", problem.message, "table")
    result.warnings.extend(mismatch.message for mismatch in stated_total_mismatches(rows))
    if inconsistent:
        return
    completed = complete_table(rows)
    by_number = {row.number: row for row in completed}
    for entry in result.entries:
        row = by_number.get(entry.number)
        if row is not None:
            entry.points, entry.league_points, entry.row_note = (
                row.stated_points,
                row.stated_league_points,
                row.note,
            )
    result.pair_results = pair_results(completed)
    result.known_matches = len(result.pair_results)


def pair_results(rows: list[ForumRow]) -> dict[tuple[int, int], tuple[int, int]]:
    """{(a, b): (points_a, points_b)} for every pair a < b whose result the table knows."""
    results = {}
    by_number = {row.number: row for row in rows}
    for row in rows:
        for column, cell in enumerate(row.cells, start=1):
            if column <= row.number or not isinstance(cell, int):
                continue
            mirror = by_number[column].cells[row.number - 1]
            results[(row.number, column)] = (
                cell,
                mirror if isinstance(mirror, int) else OPPONENT_POINTS[cell],
            )
    return results
