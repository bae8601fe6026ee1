"""How audit values read on the moderator's page: field labels, dates in the viewer's zone, lists as text."""

from django import template
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.dateparse import parse_datetime

from ..card_rules import CardRule
from ..variants import decision_summary

register = template.Library()

FIELD_LABELS = {
    "hand_size": "Hand size",
    "land_rule": "Land rule",
    "life_rule": "Life rule",
    "backbuild": "Backbuild",
    "backbuild_hands": "Backbuild hands",
    "sanctioned_format": "Sanctioned format",
    "allowed_sets": "Allowed sets",
    "extra_banned": "Extra bans",
    "unbanned": "Lifted bans",
    "hand_size_mode": "Cards per hand",
    "variant_order": "Order of the variants",
    "decisions": "Decisions",
    "format_rule": "Format rule",
    "bonus_rule": "Bonus rule",
    "catalog_as_of": "Catalog as of",
    "banned": "Banned cards",
    "rounds_planned": "Rounds planned",
    "tiebreak_rounds_allowed": "Tie-break rounds allowed (5.3a)",
    "card_changes": "Cards removed or replaced (4.2a)",
}


@register.filter
def audit_field(name):
    return FIELD_LABELS.get(name, name.replace("_", " ").capitalize())


@register.filter
def audit_value(value):
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, dict):
        return _structure(value)
    if isinstance(value, list):
        return " / ".join(_structure(item) if isinstance(item, dict) else str(item) for item in value)
    if isinstance(value, str) and "T" in value and (moment := _parse_moment(value)) is not None:
        return format_date(timezone.localtime(moment), "D j M Y, H:i T")
    return value


def _parse_moment(text):
    """An aware datetime from an ISO string, or None (dates such as "2026-01-23" stay text)."""
    try:
        moment = parse_datetime(text)
    except ValueError:
        return None
    return moment if moment is not None and timezone.is_aware(moment) else None


def _structure(item):
    """A stored rule or record in words, never as a Python dict: a card rule ("At most 1 card may match
    o:draw"), a decision ("Creature type (one of Goblin, Elf)"), a card that took another's place ("Mox
    Pearl → Mox Ruby"), else its fields as "Label: value" separated by semicolons (empty ones left out)."""
    keys = set(item)
    if "query" in keys and keys <= {"query", "at_least", "at_most", "message"}:
        return CardRule.from_dict(item).describe()
    if {"key", "label", "kind"} <= keys:
        return decision_summary({"choices": [], **item})
    if keys == {"card", "by"}:
        return f"{item['card']} → {item['by']}"
    parts = [
        f"{audit_field(str(key))}: {audit_value(value)}"
        for key, value in item.items()
        if value not in (None, "", [], {})
    ]
    return "; ".join(parts) or "—"
