"""The results post for the forum (BBCode) and the table as CSV, from the same `ResultsTable` the page
shows."""

import csv
import io

from phm.text import bbcode_text
from submissions.bbcode import card_line, decision_lines, hand_heading
from submissions.selectors import player_display_name

from .forum_rows import format_table, row_for_hand


def ordinal(rank):
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def forum_rows(table):
    """The matrix as forum rows (`N | X 6 0 … | PT | Points`); a disqualified hand's column reads `?`."""
    columns = max(table.numbers, default=0)
    return [
        row_for_hand(
            row.number,
            {cell.column: cell.points for cell in row.cells if not cell.is_self},
            columns,
            row.points,
            row.league_points,
        )
        for row in table.rows
    ]


def results_bbcode(table, cards_by_hand, notes_by_hand=None, decisions_by_hand=None, rulings=(), bonuses=()):
    """The results post: title, the matrix in a [code] block, the moderators' rulings and the bonus League
    points of the round (each section only when there is one), then each hand by rank with its result, cards
    and decisions.
    `cards_by_hand` maps hand ids to their current card names; `notes_by_hand` to what a moderator's similar
    hand changed (4.2a), when it was replaced; `decisions_by_hand` to the player's decisions (7.2b);
    `rulings` are `scoring.rulings.Ruling`s, `bonuses` the round's `BonusAward`s that count."""
    round_ = table.round
    state = "final results" if table.final else "provisional results (not final yet)"
    blocks = [f"[b]Results — {round_.code} {bbcode_text(round_.title)}: {state}[/b]"]
    blocks.append(f"[code]\n{format_table(forum_rows(table))}\n[/code]")
    if rulings:
        blocks.append("\n".join(["[b]Rulings[/b]", *map(ruling_line, rulings)]))
    if bonuses:
        blocks.append("\n".join(["[b]Bonus League points[/b]", *map(bonus_line, bonuses)]))
    for row in table.by_rank:
        lines = [
            f"[b]{ordinal(row.rank)}[/b] {hand_heading(row.hand)} — {row.points} points, "
            f"{row.league_points} League points",
            card_line(cards_by_hand.get(row.hand.pk, [])),
        ]
        lines += decision_lines(round_, (decisions_by_hand or {}).get(row.hand.pk))
        note = (notes_by_hand or {}).get(row.hand.pk)
        if note:
            lines.append(f"[i]{bbcode_text(note)}[/i]")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _hand_label(hand):
    return f"{hand.number_label} {bbcode_text(player_display_name(hand.player))}"


def _result_text(match, result):
    """`6-0 to 01 Ann`, `2-2`: the winner named, so whose points come first is never in doubt."""
    points_a, points_b = result
    if points_a == points_b:
        return f"{points_a}-{points_b}"
    winner = match.hand_a if points_a > points_b else match.hand_b
    return f"{max(result)}-{min(result)} to {_hand_label(winner)}"


def ruling_line(ruling):
    """`01 Ann v 02 Bob — result set: 6-0 to 01 Ann. Note: “…”`; a challenge's line names its challenger and
    reason, and the result it set while that result stands. Names and texts are made inert."""
    match = ruling.match
    if ruling.challenge is None:
        what = "result set"
    else:
        what = f"challenge by {bbcode_text(player_display_name(ruling.challenge.challenger))} {ruling.kind}"
    line = f"{_hand_label(match.hand_a)} v {_hand_label(match.hand_b)} — {what}"
    if ruling.result is not None:
        line += f": {_result_text(match, ruling.result)}"
    line += "."
    if ruling.challenge is not None:
        line += f" Challenge: “{bbcode_text(ruling.challenge.reason)}”"
    if ruling.note:
        line += f" Note: “{bbcode_text(ruling.note)}”"
    if ruling.by_a_player:
        line += " (decided by a moderator who played this round)"
    return line


def bonus_line(award):
    """`Ann: +5 League points — reason`; a bonus a moderator awarded themselves says so."""
    by_self = " (awarded by themselves, the league's only moderator)" if award.self_awarded else ""
    name = bbcode_text(player_display_name(award.player))
    return f"{name}: {award.points:+d} League points — {bbcode_text(award.reason)}{by_self}"


def cell_safe(value):
    """Text a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return before one) is
    quoted: hand names are typed by players."""
    text = str(value)
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def results_csv(table, decisions_by_hand=None):
    """One line per hand in entry order: number, player, hand name, a column per opponent, PT, Points,
    rank, then a column per decision the round asks (7.2b; headed by its key) with the player's answer."""
    keys = [decision["key"] for decision in (table.round.decisions or [])]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["number", "player", "hand_name", *table.numbers, "points", "league_points", "rank", *keys]
    )
    for row in table.rows:
        answers = (decisions_by_hand or {}).get(row.hand.pk) or {}
        cells = ["X" if cell.is_self else ("" if cell.points is None else cell.points) for cell in row.cells]
        writer.writerow(
            [
                row.number,
                cell_safe(row.player),
                cell_safe(row.hand_name),
                *cells,
                row.points,
                row.league_points,
                row.rank,
                *(cell_safe(answers.get(key, "")) for key in keys),
            ]
        )
    return out.getvalue()
