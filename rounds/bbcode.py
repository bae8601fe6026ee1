"""Forum posts (BBCode) that announce a round, in the forum's own layout."""

from datetime import UTC

from django.utils.dateformat import format as format_date

from phm.text import bbcode_text

from .card_rules import card_rule_lines
from .legality import format_label, format_rule_text
from .markdown import markdown_to_bbcode
from .models import LandRule
from .services.leagues import effective_banned_entries

LAND_RULE_LINES = {
    LandRule.NONE: "None",
    LandRule.LR: "LR — basic land rule (7.3a); the Land Rule Banned List applies",
    LandRule.ELR: "ELR — extra land rule (7.3b); the Land Rule Banned List applies",
    LandRule.DLR: "DLR — draw land rule (7.3c); the Land Rule Banned List applies",
}


def variant_lines(round_):
    """The round's variants in the order of the rules text (7.3 land rule is shown on its own line)."""
    lines = []
    if round_.sanctioned_format:
        lines.append(
            f"Sanctioned format (7.4): {format_label(round_.sanctioned_format)}"
            f" — {format_rule_text(round_.sanctioned_format)}"
        )
    if round_.allowed_sets:
        lines.append(f"Allowed sets: {', '.join(round_.allowed_sets)}")
    if round_.life_rule:
        lines.append("Life Rule (7.5): the higher life total wins a game nobody would win otherwise")
    if round_.backbuild:
        lines.append("Backbuild (7.6): your hand must beat the specified hands")
    if round_.bonus_rule:
        lines.append(f"Bonus points (7.7): {round_.bonus_rule.strip()}")
    return lines


def deadline_utc_text(deadline):
    return format_date(deadline.astimezone(UTC), "l j F Y, H:i") + " UTC"


def announcement(round_, round_url):
    """Every text a moderator typed goes through bbcode_text (phm.text) or markdown_to_bbcode: it can open or
    close no tag of the post."""
    extra = [
        bbcode_text(entry["name"]) for entry in effective_banned_entries(round_) if entry["list"] == "round"
    ]
    parts = [f"[size=5][b]{round_.code} — {bbcode_text(round_.title)}[/b][/size]", ""]
    if round_.format_rule.strip():
        parts += [markdown_to_bbcode(round_.format_rule), ""]
    parts.append(f"[b]Deck Size:[/b] {round_.hand_size}")
    parts.append(f"[b]Land Rule:[/b] {LAND_RULE_LINES[LandRule(round_.land_rule)]}")
    for line in variant_lines(round_):
        label, text = line.split(":", 1)
        parts.append(f"[b]{label}:[/b]{bbcode_text(text)}")
    if round_.backbuild and round_.backbuild_hands.strip():
        parts += ["", "[b]Specified hands for backbuild:[/b]", bbcode_text(round_.backbuild_hands.strip())]
    parts.append(
        "[b]Additional Banned list:[/b] "
        + (" / ".join(extra) if extra else "None")
        + " (please remember to check the regular PHM Banned List"
        + (" and the Land Rule Banned List" if round_.land_rule != LandRule.NONE else "")
        + ")"
    )
    parts += [f"[b]Card rule:[/b] {bbcode_text(line)}" for line in card_rule_lines(round_)]
    parts += [
        "",
        f"[b]Deadline:[/b] {deadline_utc_text(round_.deadline)}",
        "",
        f"[b]How to submit:[/b] log in at [url={round_url}]{round_url}[/url] and enter your hand there "
        "(you can change it until the deadline). Hands stay secret until the deadline.",
    ]
    if round_.commentary.strip():
        parts += ["", markdown_to_bbcode(round_.commentary)]
    return "\n".join(parts) + "\n"
