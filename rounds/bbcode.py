"""Forum posts (BBCode) that announce a round, in the forum's own layout."""

from datetime import UTC

from django.utils.dateformat import format as format_date

from phm.text import bbcode_text

from .card_rules import card_rule_lines
from .formats import format_label, format_rule_text
from .markdown import markdown_to_bbcode
from .models import DeadlinePrecision, HandSizeMode, LandRule
from .services.effective_banned import effective_banned_entries
from .variants import VARIANT_LABELS, decision_summary, variant_order

LAND_RULE_LINES = {
    LandRule.NONE: "None",
    LandRule.LR: "LR — basic land rule (7.3a); the Land Rule Banned List applies",
    LandRule.ELR: "ELR — extra land rule (7.3b); the Land Rule Banned List applies",
    LandRule.DLR: "DLR — draw land rule (7.3c); the Land Rule Banned List applies",
}


def _variant_text(round_, key):
    """What a variant in use says, or None when the round does not use it."""
    if key == "land_rule":
        return LAND_RULE_LINES[LandRule(round_.land_rule)] if round_.land_rule != LandRule.NONE else None
    if key == "sanctioned_format" and round_.sanctioned_format:
        return f"{format_label(round_.sanctioned_format)} — {format_rule_text(round_.sanctioned_format)}"
    if key == "allowed_sets" and round_.allowed_sets:
        return ", ".join(round_.allowed_sets)
    if key == "life_rule" and round_.life_rule:
        return "the higher life total wins a game nobody would win otherwise"
    if key == "backbuild" and round_.backbuild:
        return "your hand must beat the specified hands"
    if key == "bonus" and round_.bonus_rule:
        return round_.bonus_rule.strip()
    if key == "decisions" and round_.decisions:
        return (
            "; ".join(decision_summary(decision) for decision in round_.decisions) + " — secret like the hand"
        )
    return None


def variant_entries(round_):
    """[(key, label, text)] of the variants the round uses, in the order it lists them (rule 7.2a)."""
    entries = []
    for key in variant_order(round_):
        text = _variant_text(round_, key)
        if text is not None:
            entries.append((key, VARIANT_LABELS[key], text))
    return entries


def variant_lines(round_):
    """The round's variants in its order (7.2a), but the land rule, which is shown on its own line."""
    return [f"{label}: {text}" for key, label, text in variant_entries(round_) if key != "land_rule"]


def variants_are_reordered(round_):
    """Whether the land rule is in use and listed after another variant (pages then say the order)."""
    keys = [key for key, _, _ in variant_entries(round_)]
    return "land_rule" in keys and keys[0] != "land_rule"


def ordered_rule_lines(round_, land_rule_label="Land rule"):
    """ "label: text" for the land rule and every variant, in the round's order; a round without a land rule
    says so first, as the forum's posts always do."""
    lines = []
    if round_.land_rule == LandRule.NONE:
        lines.append((land_rule_label, LAND_RULE_LINES[LandRule.NONE]))
    for key, label, text in variant_entries(round_):
        lines.append((land_rule_label if key == "land_rule" else label, text))
    return lines


def deadline_utc_text(deadline):
    return format_date(deadline.astimezone(UTC), "l j F Y, H:i") + " UTC"


def round_deadline_text(round_):
    """The round's deadline as text: exact in UTC; "about 4 March 2014" or "unknown" for an archived round
    whose deadline is not known exactly."""
    if round_.deadline_precision == DeadlinePrecision.APPROXIMATE:
        return f"about {format_date(round_.deadline.astimezone(UTC), 'j F Y')}"
    if round_.deadline_precision == DeadlinePrecision.UNKNOWN:
        return "unknown"
    return deadline_utc_text(round_.deadline)


def announcement(round_, round_url):
    """Every text a moderator typed goes through bbcode_text (phm.text) or markdown_to_bbcode: it can open or
    close no tag of the post."""
    extra = [
        bbcode_text(entry["name"]) for entry in effective_banned_entries(round_) if entry["list"] == "round"
    ]
    parts = [f"[size=5][b]{round_.code} — {bbcode_text(round_.title)}[/b][/size]", ""]
    if round_.format_rule.strip():
        parts += [markdown_to_bbcode(round_.format_rule), ""]
    up_to = "up to " if round_.hand_size_mode == HandSizeMode.UP_TO else ""
    parts.append(f"[b]Deck Size:[/b] {up_to}{round_.hand_size}")
    for label, text in ordered_rule_lines(round_, land_rule_label="Land Rule"):
        parts.append(f"[b]{label}:[/b] {bbcode_text(text)}")
    if round_.backbuild and round_.backbuild_hands.strip():
        parts += ["", "[b]Specified hands for backbuild:[/b]", bbcode_text(round_.backbuild_hands.strip())]
    parts.append(
        "[b]Additional Banned list:[/b] "
        + (" / ".join(extra) if extra else "None")
        + " (please remember to check the regular PHM Banned List"
        + (" and the Land Rule Banned List" if round_.land_rule != LandRule.NONE else "")
        + ")"
    )
    if round_.unbanned:
        lifted = " / ".join(bbcode_text(name) for name in round_.unbanned)
        parts.append(f"[b]Lifted for this round:[/b] {lifted} (not banned in this round although listed)")
    parts += [f"[b]Card rule:[/b] {bbcode_text(line)}" for line in card_rule_lines(round_)]
    parts += [
        "",
        f"[b]Deadline:[/b] {round_deadline_text(round_)}",
        "",
        f"[b]How to submit:[/b] log in at [url={round_url}]{round_url}[/url] and enter your hand there "
        "(you can change it until the deadline). Hands stay secret until the deadline.",
    ]
    if round_.commentary.strip():
        parts += ["", markdown_to_bbcode(round_.commentary)]
    return "\n".join(parts) + "\n"
