"""The forum results-row format: reading (liberally), checking, completing and writing tables."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.forum_rows import (
    ForumRow,
    Inconsistency,
    RowFormatError,
    check_table,
    complete_table,
    format_table,
    parse_row,
    parse_table,
    row_for_hand,
    stated_total_mismatches,
)
from scoring.outcomes import OPPONENT_POINTS, POINTS_VALUES, is_legal_pair

EXAMPLE = """\
X | 1 2 3 4 | PT | Points
1 | X 6 2 0 | 8 | 267
2 | 0 X 4 1 | 5 | 167
3 | 2 1 X 6 | 9 | 300
4 | 6 4 0 X | 10 | 333"""

EXAMPLE_FORMATTED = """\
X | 1 2 3 4 | PT | Points
1 | X 6 2 0 |  8 |    267
2 | 0 X 4 1 |  5 |    167
3 | 2 1 X 6 |  9 |    300
4 | 6 4 0 X | 10 |    333"""

EXAMPLE_ROWS = [
    ForumRow(1, ("X", 6, 2, 0), 8, 267),
    ForumRow(2, (0, "X", 4, 1), 5, 167),
    ForumRow(3, (2, 1, "X", 6), 9, 300),
    ForumRow(4, (6, 4, 0, "X"), 10, 333),
]
ROW_3 = ForumRow(3, (6, 0, "X", 2), 8, 267)
ROW_3_WITHOUT_TOTALS = ForumRow(3, (6, 0, "X", 2))

HYPOTHESIS = settings(max_examples=200, deadline=None)


def error_of(parse, text, **kwargs):
    with pytest.raises(RowFormatError) as caught:
        parse(text, **kwargs)
    return str(caught.value)


# Reading a single row ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("3 | 6 0 X 2 | 8 | 267", ROW_3),
        ("   3   |  6   0  X   2  |   8 |  267   ", ROW_3),
        ("| 3 | 6 0 X 2 | 8 | 267 |", ROW_3),
        ("3|6 0 X 2|8|267", ROW_3),
        ("3\t|\t6\t0\tX\t2\t|\t8\t|\t267", ROW_3),
        ("3 | 6 0 x 2 | 8 | 267", ROW_3),
        ("03 | 6 0 X 2 | 8 | 267", ROW_3),
        ("3) 6 0 X 2 | 8 | 267", ROW_3),
        ("3. | 6 0 X 2 | 8 | 267", ROW_3),
        ("3 | 06 0 X 2 | 8 | 267", ROW_3),
        ("3 | 6 0 X 2", ROW_3_WITHOUT_TOTALS),
        ("3 | 6 0 X 2 |", ROW_3_WITHOUT_TOTALS),
        ("3 6 0 X 2", ROW_3_WITHOUT_TOTALS),
        ("3 | 6 0 X 2 | 8", ForumRow(3, (6, 0, "X", 2), 8, None)),
        ("3 | 6 0 X 2 | ? | ?", ROW_3_WITHOUT_TOTALS),
        ("3 | 6 0 X 2 | PT | Points", ROW_3_WITHOUT_TOTALS),  # the format's template, copied as it is
        ("3 | 6 0 X 2 8 267", ROW_3),  # two tokens past the width are the totals
        ("3 | 6 ? X 2", ForumRow(3, (6, None, "X", 2))),
        ("3 | 6 - X 2", ForumRow(3, (6, None, "X", 2))),
        ("3 | 6 _ X 2", ForumRow(3, (6, None, "X", 2))),
        ("3 | ? ? X ?", ForumRow(3, (None, None, "X", None))),
        # spreadsheet pastes: empty cells are unknown, the diagonal may be left empty
        ("3 | 6\t\tX\t2 | 8 | 267", ForumRow(3, (6, None, "X", 2), 8, 267)),
        ("3 |\t6\t\tX\t\t| 6 | 200", ForumRow(3, (6, None, "X", None), 6, 200)),
        ("3\t6\t0\tX\t2\t8\t267", ROW_3),
        ("3\t6\t0\t\t2\t8\t267", ROW_3),
        ("3\t6\t\tX\t2", ForumRow(3, (6, None, "X", 2))),
        ("3\t6\t0\tX\t2\t", ROW_3_WITHOUT_TOTALS),
        ("3,6,0,X,2,8,267", ROW_3),
        ("3, 6, , X, 2", ForumRow(3, (6, None, "X", 2))),
        ("3 | 6,0,X, | 6 | 200", ForumRow(3, (6, 0, "X", None), 6, 200)),
        # forum wrappers and surrounding blank lines
        ("[code]3 | 6 0 X 2 | 8 | 267[/code]", ROW_3),
        ("\n\n[CODE]\n3 | 6 0 X 2 | 8 | 267\n[/CODE]\n\n", ROW_3),
        ("[table]\n3 | 6 0 X 2 | 8 | 267\n[/table]", ROW_3),
        ("[table][tr][td]3[/td][td]6[/td][td]0[/td][td]X[/td][td]2[/td][/tr][/table]", ROW_3_WITHOUT_TOTALS),
        ("X | 1 2 3 4 | PT | Points\n3 | 6 0 X 2 | 8 | 267", ROW_3),
        ("\ufeff3 | 6 0 X 2 | 8 | 267", ROW_3),
    ],
)
def test_parse_row_accepts_forum_variants(text, expected):
    assert parse_row(text, columns=4) == expected


def test_parse_row_takes_its_width_from_the_row_when_not_given():
    assert parse_row("2 | 0 X 4") == ForumRow(2, (0, "X", 4))
    assert parse_row("5 | 0 6 1 2 X 4 4 | 17 | 283") == ForumRow(5, (0, 6, 1, 2, "X", 4, 4), 17, 283)


@pytest.mark.parametrize(
    "text, columns, message",
    [
        ("3 | 6 0 X", 4, "Row 3: expected 4 cells (one per hand, ? when unknown), found 3."),
        ("3 | 6 0 X 2 1 | 8 | 267", 4, "Row 3: expected 4 cells (one per hand, ? when unknown), found 5."),
        ("3 6 0 X 2 1", 4, "Row 3: expected 4 cells (one per hand, ? when unknown), found 5."),
        ("3 | 6 0 X 2 7", 5, 'Row 3, cell 5: "7" is not a match score (6, 4, 2, 1 or 0).'),
        ("3 | 6 3 X 2", 4, 'Row 3, cell 2: "3" is not a match score (6, 4, 2, 1 or 0).'),
        ("3 | 6 0 X six", 4, 'Row 3, cell 4: "six" is not a match score (6, 4, 2, 1 or 0).'),
        ("3 | 6 0 X -2", 4, 'Row 3, cell 4: "-2" is not a match score (6, 4, 2, 1 or 0).'),
        ("3 | X 0 6 2", 4, "Row 3, cell 1: X marks the hand's own column, which is cell 3."),
        ("3 | 6 0 X X", 4, "Row 3, cell 4: X marks the hand's own column, which is cell 3."),
        ("3 | 6 0 2 4", 4, 'Row 3, cell 3: a hand does not play itself, so this cell is X, not "2".'),
        ("7 | 6 0 X 2", 4, "Row 7: this round has 4 hands, so rows are numbered 1 to 4."),
        ("0 | 6 0 X 2", 4, "Line 1: hands are numbered from 1, so there is no row 0."),
        ("three | 6 0 X 2", 4, 'Line 1: "three | 6 0 X 2" does not start with a hand number.'),
        ("Hand 3 | 6 0 X 2", 4, 'Line 1: "Hand 3 | 6 0 X 2" does not start with a hand number.'),
        ("#3 | 6 0 X 2", 4, 'Line 1: "#3 | 6 0 X 2" does not start with a hand number.'),
        ("3 | 6 0 X 2 | 8 | 267 | 1", 4, 'Row 3: too many "|"; a row is "3 | cells | PT | Points".'),
        ("3 | 6 0 X 2 | eight | 267", 4, 'Row 3: PT "eight" is not a whole number.'),
        ("3 | 6 0 X 2 | 8 | 26.7", 4, 'Row 3: Points "26.7" is not a whole number.'),
        ("", 4, 'No results row found: a row looks like "3 | 6 0 X 2 | 8 | 267".'),
        ("[code]\n\n[/code]", None, 'No results row found: a row looks like "3 | 6 0 X 2 | 8 | 267".'),
        ("3 | 6 0 X 2\n4 | 6 0 1 X", 4, "Expected a single results row, found 2 (lines 1 and 2)."),
        ("5 | 6 0 X", None, "Row 5: found 3 cells, but row 5 needs at least 5 (cell 5 is its own X)."),
    ],
)
def test_parse_row_explains_what_is_wrong(text, columns, message):
    assert error_of(parse_row, text, columns=columns) == message


def test_error_messages_quote_only_the_start_of_long_text():
    message = error_of(parse_row, "nonsense " * 20)
    assert message == 'Line 1: "nonsense nonsense nonsense non..." does not start with a hand number.'


def test_row_format_error_is_a_value_error():
    assert issubclass(RowFormatError, ValueError)


# Reading a table ---------------------------------------------------------------------------------------------


def test_parse_table_reads_the_forum_example():
    assert parse_table(EXAMPLE) == EXAMPLE_ROWS


@pytest.mark.parametrize(
    "text",
    [
        EXAMPLE.split("\n", 1)[1],  # without the header
        f"[code]\n\n{EXAMPLE}\n\n[/code]\n",
        f"[table]{EXAMPLE}[/table]",
        EXAMPLE.replace(" | ", "\t|\t"),
        "\n".join(reversed(EXAMPLE.splitlines())),  # any order; a header is a header wherever it is
        EXAMPLE.replace("\n1 |", "\n01 |").replace("\n2 |", "\n2) |"),
        "\n".join(f"| {line} |" for line in EXAMPLE.splitlines()),
        EXAMPLE.replace("X | 1 2 3 4", "X | 1 2 3 4\n--+--------"),
        EXAMPLE.replace("X | 1 2 3 4", "# | 1 2 3 4"),
        EXAMPLE.replace("X | 1 2 3 4", "Hand | 1 2 3 4"),
        "\tX\t1\t2\t3\t4\tPT\tPoints\n1\tX\t6\t2\t0\t8\t267\n2\t0\tX\t4\t1\t5\t167\n3\t2\t1\tX\t6\t9\t300\n"
        "4\t6\t4\t0\tX\t10\t333\n",
        "1,,6,2,0,8,267\n2,0,,4,1,5,167\n3,2,1,,6,9,300\n4,6,4,0,,10,333",
        "[table]\n[tr][th]X[/th][th]1[/th][th]2[/th][th]3[/th][th]4[/th][th]PT[/th][th]Points[/th][/tr]\n"
        "[tr][td]1[/td][td]X[/td][td]6[/td][td]2[/td][td]0[/td][td]8[/td][td]267[/td][/tr]\n"
        "[tr][td]2[/td][td]0[/td][td]X[/td][td]4[/td][td]1[/td][td]5[/td][td]167[/td][/tr]\n"
        "[tr][td]3[/td][td]2[/td][td]1[/td][td]X[/td][td]6[/td][td]9[/td][td]300[/td][/tr]\n"
        "[tr][td]4[/td][td]6[/td][td]4[/td][td]0[/td][td]X[/td][td]10[/td][td]333[/td][/tr]\n[/table]",
    ],
)
def test_parse_table_accepts_forum_variants(text):
    assert parse_table(text) == EXAMPLE_ROWS


def test_parse_table_keeps_unknown_cells_unknown():
    rows = parse_table("1 | X ? 6\n2 | - X 2\n3 | 0 _ X")
    assert [row.cells for row in rows] == [("X", None, 6), (None, "X", 2), (0, None, "X")]


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 | X 6\n1 | 0 X", "Row 1 appears 2 times (lines 1 and 2); row 2 is missing."),
        (
            "1 | X 6 2\n2 | 0 X 4\n\n2 | 0 X 4",
            "Row 2 appears 2 times (lines 2 and 4); row 3 is missing.",
        ),
        (
            "1 | X 6 2\n1 | 0 X 4\n1 | 0 1 X",
            "Row 1 appears 3 times (lines 1, 2 and 3); rows 2 and 3 are missing.",
        ),
        (
            "1 | X 6\n3 | 0 X",
            "Line 2: the table has 2 rows, so they are numbered 1 to 2, not 3; row 2 is missing.",
        ),
        ("1 | X 6 2\n2 | 0 X\n3 | 2 1 X", "Row 2: expected 3 cells (one per hand, ? when unknown), found 2."),
        (
            "1 | X 6 2 4\n2 | 0 X 4\n3 | 2 1 X",
            "Row 1: expected 3 cells (one per hand, ? when unknown), found 4.",
        ),
        ("1 | X 6\n2 | 0 7", 'Row 2, cell 2: a hand does not play itself, so this cell is X, not "7".'),
        ("1 | X 6\n2 | 9 X", 'Row 2, cell 1: "9" is not a match score (6, 4, 2, 1 or 0).'),
        (
            "Round 12 results\n1 | X 6\n2 | 0 X",
            'Line 1: "Round 12 results" does not start with a hand number.',
        ),
        ("", 'No results rows found: a table row looks like "3 | 6 0 X 2 | 8 | 267".'),
        ("X | 1 2 | PT | Points", 'No results rows found: a table row looks like "3 | 6 0 X 2 | 8 | 267".'),
    ],
)
def test_parse_table_explains_what_is_wrong(text, message):
    assert error_of(parse_table, text) == message


# Checking ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value, mirror", list(itertools.product(POINTS_VALUES, repeat=2)))
def test_every_pair_of_scores_is_checked(value, mirror):
    problems = check_table(parse_table(f"1 | X {value}\n2 | {mirror} X"))
    if (value, mirror) in {(6, 0), (4, 1), (2, 2), (1, 4), (0, 6)}:
        assert problems == []
    else:
        message = (
            f"Hands 1 and 2: {value} and {mirror} is not a possible result "
            f"({value} goes with {OPPONENT_POINTS[value]})."
        )
        assert problems == [Inconsistency(row=1, column=2, value=value, mirror=mirror, message=message)]


def test_check_table_reports_each_inconsistent_pair_once_in_plain_words():
    rows = parse_table("1 | X 6 2 0\n2 | 6 X 4 1\n3 | 2 4 X 6\n4 | 6 4 0 X")
    assert [problem.message for problem in check_table(rows)] == [
        "Hands 1 and 2: 6 and 6 is not a possible result (6 goes with 0).",
        "Hands 2 and 3: 4 and 4 is not a possible result (4 goes with 1).",
    ]


def test_check_table_ignores_pairs_with_an_unknown_side():
    assert check_table(parse_table("1 | X 6 ?\n2 | ? X 4\n3 | ? ? X")) == []


def test_the_forum_example_is_consistent():
    assert check_table(EXAMPLE_ROWS) == []


# Completing --------------------------------------------------------------------------------------------------


def test_complete_table_fills_cells_from_their_mirror_and_recomputes_the_totals():
    rows = parse_table("1 | X 6 ? ?\n2 | ? X 4 ?\n3 | 2 ? X ?\n4 | ? ? ? X | 99 | 999")
    assert format_table(complete_table(rows)) == (
        "X | 1 2 3 4 | PT | Points\n"
        "1 | X 6 2 ? |  8 |    267\n"
        "2 | 0 X 4 ? |  4 |    133\n"
        "3 | 2 1 X ? |  3 |    100\n"
        "4 | ? ? ? X |  0 |      0"
    )


def test_complete_table_leaves_inconsistent_cells_as_they_are():
    rows = complete_table(parse_table("1 | X 6 ?\n2 | 6 X ?\n3 | 4 ? X"))
    assert [row.cells for row in rows] == [("X", 6, 1), (6, "X", None), (4, None, "X")]


def test_complete_table_rounds_league_points_half_up():
    # 1 point over 8 opponents is 12.5 League points: 13, not banker's 12
    rows = complete_table([row_for_hand(1, {2: 1}, 9)] + [row_for_hand(n, {}, 9) for n in range(2, 10)])
    assert (rows[0].stated_points, rows[0].stated_league_points) == (1, 13)
    assert rows[1].cells[0] == 4


def test_row_for_hand_builds_a_row_from_match_data():
    row = row_for_hand(2, {1: 0, 3: 4, 4: None}, 5, points=4, league_points=100)
    assert row == ForumRow(2, (0, "X", 4, None, None), 4, 100)
    assert row.known_points == 4


@pytest.mark.parametrize(
    "number, cells",
    [(2, ("X", 6, 0)), (2, (6, 0, "X")), (1, ("X", 7)), (1, ("X", "6"))],
)
def test_a_row_cannot_hold_an_impossible_cell(number, cells):
    with pytest.raises(ValueError):
        ForumRow(number, cells)


# Writing -----------------------------------------------------------------------------------------------------


def test_format_table_aligns_the_forum_example():
    assert format_table(parse_table(EXAMPLE)) == EXAMPLE_FORMATTED


def test_format_table_shows_unknown_cells_and_totals_as_question_marks():
    assert format_table([ForumRow(1, ("X", None)), ForumRow(2, (None, "X"), 0, 0)]) == (
        "X | 1 2 | PT | Points\n1 | X ? |  ? |      ?\n2 | ? X |  0 |      0"
    )


def test_format_table_right_aligns_two_digit_columns():
    rows = complete_table([row_for_hand(number, {}, 11) for number in range(1, 12)])
    lines = format_table(rows).splitlines()
    assert lines[0] == " X |  1  2  3  4  5  6  7  8  9 10 11 | PT | Points"
    assert lines[1] == " 1 |  X  ?  ?  ?  ?  ?  ?  ?  ?  ?  ? |  0 |      0"
    assert lines[11] == "11 |  ?  ?  ?  ?  ?  ?  ?  ?  ?  ?  X |  0 |      0"
    assert len({len(line) for line in lines}) == 1


def test_format_table_round_trips():
    text = format_table(EXAMPLE_ROWS)
    assert format_table(parse_table(text)) == text
    assert parse_table(text) == EXAMPLE_ROWS


# Properties --------------------------------------------------------------------------------------------------

ROW_LIKE_TEXT = st.text(alphabet="0123456789 Xx?-_|\t,\n)._[]/codetablrhPTpoints\ufeff", max_size=120)
ANY_TEXT = st.one_of(st.text(max_size=200), ROW_LIKE_TEXT)


@HYPOTHESIS
@given(text=ANY_TEXT, columns=st.one_of(st.none(), st.integers(min_value=-1, max_value=12)))
def test_parse_row_raises_nothing_but_row_format_errors(text, columns):
    try:
        row = parse_row(text, columns=columns)
    except RowFormatError as error:
        assert str(error)
    else:
        assert row.cells[row.number - 1] == "X"


@HYPOTHESIS
@given(text=ANY_TEXT)
def test_parse_table_raises_nothing_but_row_format_errors(text):
    try:
        rows = parse_table(text)
    except RowFormatError as error:
        assert str(error)
    else:
        assert [row.number for row in rows] == list(range(1, len(rows) + 1))
        assert all(len(row.cells) == len(rows) for row in rows)


@st.composite
def tables(draw, min_hands=1, max_hands=12):
    """Rows 1..N of any known or unknown cells (consistent or not) and any stated totals."""
    hands = draw(st.integers(min_value=min_hands, max_value=max_hands))
    cell = st.one_of(st.none(), st.sampled_from(POINTS_VALUES))
    total = st.one_of(st.none(), st.integers(min_value=0, max_value=10**6))
    return [
        row_for_hand(
            number,
            {column: draw(cell) for column in range(1, hands + 1) if column != number},
            hands,
            draw(total),
            draw(total),
        )
        for number in range(1, hands + 1)
    ]


@HYPOTHESIS
@given(rows=tables())
def test_generated_tables_round_trip_through_format_and_parse(rows):
    text = format_table(rows)
    assert parse_table(text) == rows
    assert format_table(parse_table(text)) == text


@HYPOTHESIS
@given(rows=tables(), separator=st.sampled_from([" ", "  ", "\t", ",", ", "]), data=st.data())
def test_generated_tables_survive_liberal_rewriting(rows, separator, data):
    """The same table typed another way: other separators and unknown marks, padding pipes, a wrapper."""
    unknown = data.draw(st.sampled_from(["?", "-", "_", *([""] if separator.strip() else [])]))
    outer_pipe = data.draw(st.booleans())
    lines = [
        ("| " if outer_pipe else "")
        + f"{row.number:02d} | "
        + separator.join(unknown if cell is None else str(cell) for cell in row.cells)
        + (" |" if outer_pipe else "")
        for row in rows
    ]
    text = "[code]\n" + "\n".join(data.draw(st.permutations(lines))) + "\n[/code]\n"
    assert parse_table(text) == [ForumRow(row.number, row.cells) for row in rows]


@HYPOTHESIS
@given(rows=tables())
def test_complete_table_never_changes_a_known_cell(rows):
    completed = complete_table(rows)
    for row, done in zip(rows, completed, strict=True):
        for column, (cell, filled) in enumerate(zip(row.cells, done.cells, strict=True), start=1):
            if cell is not None:
                assert filled == cell
            elif filled is not None:  # filled from its mirror, as the mirror's legal opposite
                assert is_legal_pair(filled, rows[column - 1].cells[row.number - 1])
        assert done.stated_points == sum(cell for cell in done.cells if isinstance(cell, int))


@HYPOTHESIS
@given(rows=tables(min_hands=2, max_hands=8))
def test_check_table_reports_exactly_the_impossible_pairs(rows):
    impossible = {
        (i, j)
        for i, j in itertools.combinations(range(1, len(rows) + 1), 2)
        if None not in (rows[i - 1].cells[j - 1], rows[j - 1].cells[i - 1])
        and not is_legal_pair(rows[i - 1].cells[j - 1], rows[j - 1].cells[i - 1])
    }
    assert {(problem.row, problem.column) for problem in check_table(rows)} == impossible
    assert check_table(complete_table(rows)) == check_table(rows)


# Notes and stated totals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, cells, totals, note",
    [
        ("3 | 6 0 X 2 | | | (2-2 vs 4 is controversial)", (6, 0, "X", 2), (None, None), "2-2 vs 4 is controversial"),
        ("3 | 6 0 X 2 | 8 | 267 (2-2 vs 4 is controversial)", (6, 0, "X", 2), (8, 267), "2-2 vs 4 is controversial"),
        ("3 | 6 0 X 2 (I think)", (6, 0, "X", 2), (None, None), "I think"),
        ("3 | 6 0 X 2 | 8 | 267 | 2-2 vs 4: ask the mod", (6, 0, "X", 2), (8, 267), "2-2 vs 4: ask the mod"),
        ("3 | 6 0 X 2 | 8 | 267", (6, 0, "X", 2), (8, 267), ""),
    ],
)  # fmt: skip
def test_a_players_note_is_kept(text, cells, totals, note):
    row = parse_row(text, columns=4)
    assert (row.cells, (row.stated_points, row.stated_league_points), row.note) == (cells, totals, note)


@pytest.mark.parametrize(
    "text, message",
    [
        ("3 | 6 0 X 9 (I think)", 'Row 3, cell 4: "9" is not a match score (6, 4, 2, 1 or 0).'),
        ("3 | 6 y X 2 | 8 | 267 (hm)", 'Row 3, cell 2: "y" is not a match score (6, 4, 2, 1 or 0).'),
        ("3 | 6 0 X 2 | 8 | 267 | 1", 'Row 3: too many "|"; a row is "3 | cells | PT | Points".'),
        ("3 | 6 0 X 2 (8)", "Row 3: expected 4 cells (one per hand, ? when unknown), found 5."),
        ("3 | 6 0 X 2 | eight | 267 (hm)", 'Row 3: PT "eight" is not a whole number.'),
    ],
)
def test_a_note_does_not_loosen_the_cells(text, message):
    with pytest.raises(RowFormatError) as error:
        parse_row(text, columns=4)
    assert str(error.value) == message


def test_format_table_prints_notes_after_their_rows_and_reads_them_back():
    rows = parse_table("1 | X 6 | 6 | 300 (gg)\n2 | 0 X | 0 | 0 | a (late) post")
    text = format_table(rows)
    assert text.splitlines()[1:] == [
        "1 | X 6 |  6 |    300  (gg)",
        "2 | 0 X |  0 |      0 | a (late) post",
    ]
    assert [row.note for row in parse_table(text)] == ["gg", "a (late) post"]


def test_stated_total_mismatches_names_each_total_its_cells_do_not_give():
    rows = parse_table(EXAMPLE.replace("| 9 | 300", "| 18 | 300").replace("| 5 | 167", "| 5 | 100"))
    assert [(m.row, m.total, m.stated, m.computed) for m in stated_total_mismatches(rows)] == [
        (2, "Points", 100, 167),
        (3, "PT", 18, 9),
    ]
    assert [m.message for m in stated_total_mismatches(rows)] == [
        "Row 2 states Points 100, but its cells give 167 (PT 5 over 3 opponents).",
        "Row 3 states PT 18, but its cells add up to 9 (unknown matches count 0, rule 6.3b).",
    ]
    assert stated_total_mismatches(parse_table(EXAMPLE)) == []


def test_a_total_counts_the_cells_known_from_their_mirrors():
    rows = parse_table("1 | X ? | 0\n2 | 4 X | 4")
    [mismatch] = stated_total_mismatches(rows)
    assert mismatch.message == (
        "Row 1 states PT 0, but its cells add up to 1 (unknown matches count 0, rule 6.3b, "
        "1 of them known from the other hands' rows)."
    )
    assert stated_total_mismatches(parse_table("1 | X ?\n2 | 4 X")) == []
