"""A round's rules in a few plain lines, for messages (e-mail, notifications, feeds, webhooks)."""

from .bbcode import LAND_RULE_LINES, variant_lines
from .card_rules import card_rule_lines
from .models import LandRule

FORMAT_RULE_CHARS = 500


def rules_summary_lines(round_):
    extra = list(round_.extra_banned or [])  # the round's own bans, as the moderator typed them (no query)
    lines = [
        f"Hand size: {round_.hand_size} card{'s' if round_.hand_size != 1 else ''}",
        f"Land rule: {LAND_RULE_LINES[LandRule(round_.land_rule)]}",
        *variant_lines(round_),
        f"Additional banned: {' / '.join(extra) if extra else 'none'} (plus the PHM Banned List)",
        *(f"Card rule: {line}" for line in card_rule_lines(round_)),
    ]
    format_rule = " ".join(round_.format_rule.split())
    if format_rule:
        cut = format_rule[:FORMAT_RULE_CHARS]
        lines.append(f"Format rule: {cut}{'…' if len(format_rule) > FORMAT_RULE_CHARS else ''}")
    return lines
