"""A round's rules in a few plain lines, for messages (e-mail, notifications, feeds, webhooks)."""

from .bbcode import ordered_rule_lines
from .card_rules import card_rule_lines

FORMAT_RULE_CHARS = 500


def rules_summary_lines(round_):
    extra = list(round_.extra_banned or [])  # the round's own bans, as the moderator typed them (no query)
    lines = [
        f"Hand size: {round_.hand_size_text}",
        *(f"{label}: {text}" for label, text in ordered_rule_lines(round_)),  # in the round's order (7.2a)
        f"Additional banned: {' / '.join(extra) if extra else 'none'} (plus the PHM Banned List)",
        *(f"Card rule: {line}" for line in card_rule_lines(round_)),
    ]
    if round_.unbanned:
        lines.append(f"Lifted for this round: {' / '.join(round_.unbanned)}")
    format_rule = " ".join(round_.format_rule.split())
    if format_rule:
        cut = format_rule[:FORMAT_RULE_CHARS]
        lines.append(f"Format rule: {cut}{'…' if len(format_rule) > FORMAT_RULE_CHARS else ''}")
    return lines
