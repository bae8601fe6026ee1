import argparse
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, DjangoHelpFormatter

from scoring.forum_rows import (
    HEADER_LEAGUE_POINTS,
    HEADER_POINTS,
    RowFormatError,
    check_table,
    complete_table,
    format_table,
    parse_table,
    stated_total_mismatches,
)

EXIT_CONSISTENT, EXIT_INCONSISTENT, EXIT_ERROR = 0, 1, 2


class _HelpFormatter(DjangoHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Django's option order, but the description keeps its line breaks so the example table stays a table."""


class Command(BaseCommand):
    help = """Check a forum results table and print it completed.

The table is read from FILE, or from standard input when FILE is "-". It looks like this:

    X | 1 2 3 4 | PT | Points
    1 | X 6 2 0 | 8 | 267
    2 | 0 X 4 1 | 5 | 167
    3 | 2 1 X 6 | 9 | 300
    4 | 6 4 0 X | 10 | 333

Each row is the hand's number, "|", then one cell per hand in column order: the row's score in that match
(6, 4, 2, 1 or 0), X on the row's own column, and ? (or blank, - or _) when unknown. "| PT | Points" at the
end and the header line are optional. Cells may be separated by spaces, or by tabs or commas as pasted from a
spreadsheet; a [code] or [table] wrapper is ignored. A player's note is kept and printed after the row: words
after the Points section ("| 8 | 267 | 2-2 vs 4 is controversial") or a remark in parentheses at the end of
the row ("3 | 6 0 X 2 (I think)").

The two cells of a match must fit together (6/0, 4/1, 2/2, 1/4 or 0/6). Each pair that does not is reported
on standard error. Standard output gets the table with every unknown cell whose mirror is known filled in, and
PT and Points always recomputed from the cells (unknown matches count 0, rule 6.3b; Points over N - 1
opponents). A row whose stated PT or Points differ from what its cells give is never corrected silently: each
such total is a warning on standard error, and a line under the table says that PT and Points were
recomputed and names the rows that stated other totals.

Exit status: 0 consistent, 1 inconsistent results, 2 unreadable file or malformed table. Stated totals that
differ are only warnings (exit 0) unless --strict is given: then they exit 1 as inconsistent results do."""
    requires_system_checks = []  # pure text in, text out: nothing in the project's state matters

    def create_parser(self, prog_name, subcommand, **kwargs):
        return super().create_parser(prog_name, subcommand, formatter_class=_HelpFormatter, **kwargs)

    def add_arguments(self, parser):
        parser.add_argument(
            "file", metavar="FILE", help='The table as posted on the forum, or "-" for stdin.'
        )
        parser.add_argument(
            "--strict",
            action="store_true",
            help="Exit 1 when a row states a PT or Points its cells do not give, as inconsistent results do.",
        )

    def handle(self, *args, file, strict=False, **options):
        try:
            rows = parse_table(_read_text(file))
        except RowFormatError as error:
            raise CommandError(str(error), returncode=EXIT_ERROR) from error
        inconsistencies = check_table(rows)
        for inconsistency in inconsistencies:
            self.stderr.write(inconsistency.message)
        if inconsistencies:
            count = len(inconsistencies)
            self.stderr.write(f"{count} inconsistent result{'s' if count != 1 else ''}.")
        mismatches = stated_total_mismatches(rows)
        for mismatch in mismatches:
            self.stderr.write(f"Warning: {mismatch.message}")
        self.stdout.write(format_table(complete_table(rows)))
        if mismatches:
            self.stdout.write(_recomputed_line(mismatches))
        if inconsistencies or (strict and mismatches):
            self.stdout.flush()
            sys.exit(EXIT_INCONSISTENT)


def _recomputed_line(mismatches):
    """The line under the table saying its totals are computed, not as posted, and which rows differed."""
    line = f"{HEADER_POINTS} and {HEADER_LEAGUE_POINTS} recomputed from the cells"
    numbers = [str(number) for number in sorted({mismatch.row for mismatch in mismatches})]
    if len(numbers) == 1:
        return f"{line}; row {numbers[0]} stated another total (see warnings)."
    return f"{line}; rows {', '.join(numbers[:-1])} and {numbers[-1]} stated other totals (see warnings)."


def _read_text(file):
    source = "standard input" if file == "-" else f'"{file}"'
    try:
        return sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CommandError(f"Cannot read {source}: it is not UTF-8 text.", returncode=EXIT_ERROR) from error
    except OSError as error:
        reason = error.strerror or str(error)
        raise CommandError(f"Cannot read {source}: {reason}.", returncode=EXIT_ERROR) from error
