"""`manage.py score_table FILE|-`: check a forum results table, print it completed."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

MANAGE_PY = Path(__file__).resolve().parents[2] / "manage.py"

CONSISTENT = """\
[code]
X | 1 2 3 4 | PT | Points
1 | X 6 ? 0 | 6 | 200
2 | 0 X 4 1 | 5 | 167
3 | ? 1 X 6
4 | 6 4 0 X | 10 | 333
[/code]
"""

CONSISTENT_COMPLETED = """\
X | 1 2 3 4 | PT | Points
1 | X 6 ? 0 |  6 |    200
2 | 0 X 4 1 |  5 |    167
3 | ? 1 X 6 |  7 |    233
4 | 6 4 0 X | 10 |    333
"""

INCONSISTENT = """\
1 | X 6 2 0
2 | 6 X 4 ?
3 | 2 4 X 6
4 | 6 ? 0 X
"""


def run(*args):
    """(exit status, stdout, stderr) of `manage.py score_table …`, run in-process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("score_table", *args, stdout=out, stderr=err)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    except CommandError as error:
        status, err = error.returncode, io.StringIO(f"{err.getvalue()}{error}\n")
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def table_file(tmp_path):
    def write(text, name="table.txt"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def test_consistent_table_exits_0_and_prints_it_completed(table_file):
    status, out, err = run(table_file(CONSISTENT))
    assert (status, out, err) == (0, CONSISTENT_COMPLETED, "")


def test_missing_cells_are_filled_from_their_mirror(table_file):
    status, out, _ = run(table_file("1 | X ? ?\n2 | 0 X ?\n3 | 4 2 X\n"))
    assert status == 0
    assert out == (
        "X | 1 2 3 | PT | Points\n1 | X 6 1 |  7 |    350\n2 | 0 X 2 |  2 |    100\n3 | 4 2 X |  6 |    300\n"
    )


def test_inconsistent_table_exits_1_and_reports_each_pair(table_file):
    status, out, err = run(table_file(INCONSISTENT))
    assert status == 1
    assert err.splitlines() == [
        "Hands 1 and 2: 6 and 6 is not a possible result (6 goes with 0).",
        "Hands 2 and 3: 4 and 4 is not a possible result (4 goes with 1).",
        "2 inconsistent results.",
    ]
    assert out.splitlines() == [
        "X | 1 2 3 4 | PT | Points",
        "1 | X 6 2 0 |  8 |    267",
        "2 | 6 X 4 ? | 10 |    333",
        "3 | 2 4 X 6 | 12 |    400",
        "4 | 6 ? 0 X |  6 |    200",
    ]


def test_one_inconsistency_is_counted_in_the_singular(table_file):
    status, _, err = run(table_file("1 | X 6\n2 | 6 X\n"))
    assert status == 1
    assert err.splitlines()[-1] == "1 inconsistent result."


def test_reads_standard_input_for_a_dash(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(CONSISTENT))
    assert run("-") == (0, CONSISTENT_COMPLETED, "")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "1 | X 6 2\n2 | 0 X\n3 | 2 1 X\n",
            "Row 2: expected 3 cells (one per hand, ? when unknown), found 2.",
        ),
        ("1 | X 7\n2 | 0 X\n", 'Row 1, cell 2: "7" is not a match score (6, 4, 2, 1 or 0).'),
        ("1 | X 6\n1 | 0 X\n", "Row 1 appears 2 times (lines 1 and 2); row 2 is missing."),
        ("", 'No results rows found: a table row looks like "3 | 6 0 X 2 | 8 | 267".'),
    ],
)
def test_malformed_table_exits_2_with_the_reason(table_file, text, message):
    assert run(table_file(text)) == (2, "", f"{message}\n")


def test_missing_file_exits_2(tmp_path):
    missing = tmp_path / "nope.txt"
    assert run(str(missing)) == (2, "", f'Cannot read "{missing}": No such file or directory.\n')


def test_directory_exits_2(tmp_path):
    assert run(str(tmp_path)) == (2, "", f'Cannot read "{tmp_path}": Is a directory.\n')


def test_file_that_is_not_utf8_exits_2(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("1 | X 6 \xe9\n".encode("latin-1"))
    assert run(str(path)) == (2, "", f'Cannot read "{path}": it is not UTF-8 text.\n')


def test_help_explains_the_format(capsys):
    with pytest.raises(SystemExit):
        call_command("score_table", "--help")
    help_text = capsys.readouterr().out
    assert "    1 | X 6 2 0 | 8 | 267\n" in help_text  # the example keeps its lines
    assert "Exit status: 0 consistent, 1 inconsistent results, 2" in help_text


@pytest.mark.parametrize("text, status", [(CONSISTENT, 0), (INCONSISTENT, 1), ("1 | X 9\n2 | 0 X\n", 2)])
def test_exit_status_from_the_command_line(text, status):
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": "test-only-secret-key"}
    result = subprocess.run(
        [sys.executable, str(MANAGE_PY), "score_table", "-"],
        input=text, capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert result.returncode == status
    if status == 2:
        assert (
            result.stderr.strip()
            == 'CommandError: Row 1, cell 2: "9" is not a match score (6, 4, 2, 1 or 0).'
        )


WRONG_TOTALS = """\
1 | X 6 2 0 | 8 | 267
2 | 0 X 4 1 | 5 | 100
3 | 2 1 X 6 | 18 | 300 (2-2 vs 1 is controversial)
4 | 6 4 0 X | 10 | 333
"""


def test_stated_totals_that_differ_are_warned_about_and_labelled_under_the_table(table_file):
    status, out, err = run(table_file(WRONG_TOTALS))
    assert status == 0
    assert err.splitlines() == [
        "Warning: Row 2 states Points 100, but its cells give 167 (PT 5 over 3 opponents).",
        "Warning: Row 3 states PT 18, but its cells add up to 9 (unknown matches count 0, rule 6.3b).",
    ]
    assert out.splitlines() == [
        "X | 1 2 3 4 | PT | Points",
        "1 | X 6 2 0 |  8 |    267",
        "2 | 0 X 4 1 |  5 |    167",
        "3 | 2 1 X 6 |  9 |    300  (2-2 vs 1 is controversial)",
        "4 | 6 4 0 X | 10 |    333",
        "PT and Points recomputed from the cells; rows 2 and 3 stated other totals (see warnings).",
    ]


def test_strict_makes_stated_totals_that_differ_exit_1(table_file):
    status, out, err = run("--strict", table_file(WRONG_TOTALS))
    assert status == 1
    assert "Row 3 states PT 18" in err and "rows 2 and 3 stated other totals" in out
    assert run("--strict", table_file(CONSISTENT))[0] == 0


def test_one_row_with_a_wrong_total_is_named_in_the_singular(table_file):
    _, out, _ = run(table_file("1 | X 6 | 6\n2 | 0 X | 3\n"))
    assert out.splitlines()[-1] == (
        "PT and Points recomputed from the cells; row 2 stated another total (see warnings)."
    )


def test_help_says_the_totals_are_recomputed_and_explains_strict(capsys):
    with pytest.raises(SystemExit):
        call_command("score_table", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    assert "PT and Points always recomputed from the cells" in help_text
    assert "--strict" in help_text and "never corrected silently" in help_text
