"""League standings as a forum post (BBCode) and as CSV, from the same `LeagueStandings` the page shows."""

import csv
import io

from phm.text import bbcode_text, display_width

from .exports import cell_safe, ordinal


def standings_bbcode(standings):
    """The standings post. Names and reasons are typed by users: they go through bbcode_text (phm.text), so
    a forum name such as `[/code][url=…]` cannot leave the [code] block or open a tag."""
    league = standings.league
    state = "provisional standings" if standings.provisional else "standings"
    lines = [f"[b]{bbcode_text(league.name)} — {state}[/b]"]
    header = ["Rank", "Player", *(round_.code for round_ in standings.rounds), "Bonus", "Total"]
    body = [
        [
            ordinal(row.rank),
            bbcode_text(row.name),
            *(str(row.rounds[round_.pk]) if round_.pk in row.played else "-" for round_ in standings.rounds),
            f"{row.bonus_points:+d}" if row.bonus_points else "",
            str(row.league_points),
        ]
        for row in standings.rows
    ]
    widths = [max(display_width(line[column]) for line in [header, *body]) for column in range(len(header))]

    def aligned(cells):
        return " | ".join(
            _pad(cell, width, left=column == 1)
            for column, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    lines.append("[code]\n" + "\n".join(aligned(cells) for cells in [header, *body]) + "\n[/code]")
    provisional = [round_.code for round_ in standings.rounds if round_.state != "final"]
    if provisional:
        lines.append(f"[i]Not final yet: {', '.join(provisional)}.[/i]")
    bonuses = [
        bbcode_text(f"{row.name}: {'; '.join(row.bonus_reasons)}")
        for row in standings.rows
        if row.bonus_reasons
    ]
    if bonuses:
        lines.append("[b]Bonus League points[/b]\n" + "\n".join(bonuses))
    if standings.winner_rows:
        names = " and ".join(bbcode_text(row.name) for row in standings.winner_rows)
        lines.append(f"[b]Winner{'s' if len(standings.winner_rows) > 1 else ''}: {names}[/b]")
    elif standings.tied_for_first:
        lines.append(
            f"[b]Tied for first:[/b] {', '.join(bbcode_text(row.name) for row in standings.tied_for_first)} "
            "(rule 5.3a)"
        )
    return "\n\n".join(lines) + "\n"


def _pad(cell, width, *, left):
    """`cell` padded to `width` columns of a monospace block (wide characters count twice)."""
    padding = " " * max(0, width - display_width(cell))
    return cell + padding if left else padding + cell


def standings_csv(standings):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["rank", "player", *(round_.code for round_ in standings.rounds), "bonus", "league_points"]
    )
    for row in standings.rows:
        writer.writerow(
            [
                row.rank,
                cell_safe(row.name),
                *(row.rounds[round_.pk] if round_.pk in row.played else "" for round_ in standings.rounds),
                row.bonus_points,
                row.league_points,
            ]
        )
    return out.getvalue()
