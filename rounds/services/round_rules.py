"""The rules a moderator gives a round, checked and normalised before anything is saved: its title, hand
size, variants, decisions, format, allowed sets, banned and lifted cards, card rules, texts and deadline."""

import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from phm.text import clean_name

from ..card_rules import clean_card_rules
from ..catalog.resolve import resolve_name
from ..formats import known_format
from ..models import MAX_HAND_SIZE, USUAL_MAX_HAND_SIZE, CardSet, HandSizeMode
from ..variants import clean_decisions, clean_variant_order

MINIMUM_LEAD_TIME = timedelta(minutes=5)
# Bounds on what a moderator may store (forms and API alike): a deadline is at most a year ahead, a round's
# texts are a forum post's length, not a megabyte, and its own banned list is a list, not the catalog.
MAXIMUM_LEAD_TIME = timedelta(days=365)
MAX_ROUND_TEXT = 10_000
ROUND_TEXT_FIELDS = ("format_rule", "bonus_rule", "commentary", "backbuild_hands")
MAX_EXTRA_BANNED = 500
MAX_ALLOWED_SETS = 200


def clean_round_rules(values: dict[str, Any], errors: dict[str, list[str]]) -> None:
    """Check and normalise the rule fields present in `values`, card rules included (in place); problems go to
    `errors`, by field."""
    _clean_rules(values, errors)
    _clean_card_rules(values, errors)


def round_rule_problems(values: Mapping[str, Any]) -> dict[str, list[str]]:
    """The problems `create_round` or `update_round` would report for these rule values, saving nothing: a
    form with other errors shows them too, so the moderator sees every problem at once."""
    errors: dict[str, list[str]] = {}
    values = dict(values)
    clean_round_rules(values, errors)
    return errors


def _clean_rules(values, errors):
    """Check and normalise the rule fields present in `values` (in place); problems go to `errors`."""
    if "title" in values:
        values["title"] = clean_name(values["title"])
        if not values["title"]:
            errors["title"] = ["A round needs a title, such as “5 Card Alphabetized”."]
    if "hand_size" in values:
        size = values["hand_size"]
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_HAND_SIZE:
            errors["hand_size"] = [
                f"A hand has 1 to {MAX_HAND_SIZE} cards (rule 7.1: usually 1 to {USUAL_MAX_HAND_SIZE})."
            ]
    if "hand_size_mode" in values:
        values["hand_size_mode"] = values["hand_size_mode"] or HandSizeMode.EXACTLY
        if values["hand_size_mode"] not in HandSizeMode.values:
            errors["hand_size_mode"] = [f"Use one of: {', '.join(HandSizeMode.values)}."]
    if "variant_order" in values:
        values["variant_order"], problems = clean_variant_order(values["variant_order"] or [])
        if problems:
            errors["variant_order"] = problems
    if "decisions" in values:
        values["decisions"], problems = clean_decisions(values["decisions"])
        if problems:
            errors["decisions"] = problems
    if "unbanned" in values:
        values["unbanned"] = _clean_card_names("unbanned", values["unbanned"], errors, "lifted cards")
    if values.get("sanctioned_format"):
        key = values["sanctioned_format"].strip().lower()
        values["sanctioned_format"] = key
        if not known_format(key):
            errors["sanctioned_format"] = [f"“{key}” is not a format the card catalog knows."]
    elif "sanctioned_format" in values:
        values["sanctioned_format"] = ""
    for name in ROUND_TEXT_FIELDS:
        if name in values and len(values[name] or "") > MAX_ROUND_TEXT:
            errors[name] = [
                f"At most {MAX_ROUND_TEXT:,} characters (this one has {len(values[name]):,}): "
                "link to a longer text instead."
            ]
    if "allowed_sets" in values:
        if len(values["allowed_sets"] or []) > MAX_ALLOWED_SETS:
            errors["allowed_sets"] = [f"At most {MAX_ALLOWED_SETS} set codes."]
            values["allowed_sets"] = []
        else:
            values["allowed_sets"] = _clean_set_codes(values["allowed_sets"] or [], errors)
    if "extra_banned" in values:
        values["extra_banned"] = _clean_card_names(
            "extra_banned", values["extra_banned"], errors, "additional banned cards"
        )


def _clean_card_names(field, raw_names, errors, what):
    """Card names as the catalog spells them, each once; unknown names go to errors[field], with
    suggestions."""
    if len(raw_names or []) > MAX_EXTRA_BANNED:
        # Refused before any name is resolved: each one is a catalog lookup.
        errors[field] = [f"At most {MAX_EXTRA_BANNED} {what}, not {len(raw_names):,}."]
        return []
    names, problems = [], []
    for raw in raw_names or []:
        text = (raw or "").strip()
        if not text:
            continue
        resolution = resolve_name(text)
        if resolution.resolved and resolution.status != "fuzzy":
            if resolution.card.name not in names:
                names.append(resolution.card.name)
            continue
        hint = ", ".join(resolution.suggestion_names[:5])
        problems.append(f"“{text}” is not a card name we know." + (f" Did you mean: {hint}?" if hint else ""))
    if problems:
        errors[field] = problems
    return names


def _clean_card_rules(values, errors):
    if "card_rules" in values:
        values["card_rules"], problems = clean_card_rules(values["card_rules"])
        if problems:
            errors["card_rules"] = problems


def _clean_set_codes(codes, errors):
    if isinstance(codes, str):
        codes = re.split(r"[\s,]+", codes)
    wanted = [code.strip().upper() for code in codes if code and code.strip()]
    known = set(CardSet.objects.filter(code__in=wanted).values_list("code", flat=True))
    unknown = [code for code in wanted if code not in known]
    if unknown:
        errors["allowed_sets"] = [f"Unknown set code{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}."]
    return list(dict.fromkeys(wanted))


def check_deadline(deadline: datetime | None, now: datetime, errors: dict[str, list[str]]) -> None:
    if deadline is None:
        errors["deadline"] = ["Set a deadline."]
    elif deadline <= now + MINIMUM_LEAD_TIME:
        errors["deadline"] = ["The deadline must be at least 5 minutes in the future."]
    elif deadline > now + MAXIMUM_LEAD_TIME:
        errors["deadline"] = [too_far_message()]


def too_far_message() -> str:
    return f"The deadline must be within {MAXIMUM_LEAD_TIME.days} days from now."
