"""A round's variants in the order its moderator lists them (rule 7.2a), and the extra decisions each player
makes with their hand (rule 7.2b). Pure data checks: the round services call them, pages and posts read them.
"""

import re

# Keys of the variants a round can list, in the usual order (the order of the rules text, land rule first).
VARIANT_LABELS = {
    "land_rule": "Land rule (7.3)",
    "sanctioned_format": "Sanctioned format (7.4)",
    "allowed_sets": "Allowed sets",
    "life_rule": "Life Rule (7.5)",
    "backbuild": "Backbuild (7.6)",
    "bonus": "Bonus points (7.7)",
    "decisions": "Decisions (7.2b)",
}
DEFAULT_VARIANT_ORDER = list(VARIANT_LABELS)

DECISION_KINDS = {
    "text": "a short text",
    "choice": "a choice from a list",
    "card": "a card name",
    "number": "a whole number",
}
MAX_DECISIONS = 10
MAX_CHOICES = 50
MAX_LABEL = 100
MAX_CHOICE_TEXT = 100
MAX_DECISION_TEXT = 200  # a player's text answer
DECISION_KEY = re.compile(r"^[a-z][a-z0-9_]{0,29}$")


def variant_order(round_):
    """Every variant key in the round's order: the keys the moderator listed first, then the rest as usual."""
    chosen = [key for key in (round_.variant_order or []) if key in VARIANT_LABELS]
    return list(dict.fromkeys(chosen + DEFAULT_VARIANT_ORDER))


def clean_variant_order(keys):
    """(the order to store, [problems]): a list of known keys, each once; the missing ones follow as usual."""
    if isinstance(keys, str):
        keys = [key for key in re.split(r"[\s,>]+", keys) if key]
    if not isinstance(keys, list | tuple) or not all(isinstance(key, str) for key in keys):
        return [], ['Send the variants as a list of keys, such as ["life_rule", "land_rule"].']
    problems = []
    cleaned = [key.strip().lower() for key in keys]
    unknown = [key for key in cleaned if key not in VARIANT_LABELS]
    if unknown:
        problems.append(
            f"Unknown variant{'s' if len(unknown) > 1 else ''} {', '.join(f'“{key}”' for key in unknown)}: "
            f"use {', '.join(DEFAULT_VARIANT_ORDER)}."
        )
    repeated = sorted({key for key in cleaned if cleaned.count(key) > 1})
    if repeated:
        problems.append(
            f"Each variant once: {', '.join(repeated)} {'is' if len(repeated) == 1 else 'are'} repeated."
        )
    if problems or not cleaned:
        return [], problems
    return list(dict.fromkeys(cleaned + DEFAULT_VARIANT_ORDER)), []


def clean_decisions(specs):
    """(the decisions to store, [problems]) from [{"key","label","kind","choices"?}]."""
    if specs in (None, ""):
        return [], []
    if not isinstance(specs, list | tuple):
        return [], ['Send the decisions as a list of {"key","label","kind","choices"?}.']
    if len(specs) > MAX_DECISIONS:
        return [], [f"At most {MAX_DECISIONS} decisions, not {len(specs)}."]
    cleaned, problems, keys = [], [], set()
    for position, spec in enumerate(specs, start=1):
        where = f"Decision {position}"
        if not isinstance(spec, dict):
            problems.append(f'{where}: send {{"key","label","kind","choices"?}}.')
            continue
        key = str(spec.get("key") or "").strip().lower()
        label = " ".join(str(spec.get("label") or "").split())
        kind = str(spec.get("kind") or "").strip().lower()
        if not DECISION_KEY.match(key):
            problems.append(
                f"{where}: the key “{key}” must start with a letter and use only a-z, 0-9 and _ "
                "(at most 30 characters)."
            )
        elif key in keys:
            problems.append(f"{where}: the key “{key}” is used twice.")
        keys.add(key)
        if not label or len(label) > MAX_LABEL:
            problems.append(
                f"{where}: give a label of 1 to {MAX_LABEL} characters (what the player is asked)."
            )
        if kind not in DECISION_KINDS:
            problems.append(f"{where}: the kind “{kind}” is unknown: use {', '.join(DECISION_KINDS)}.")
        entry = {"key": key, "label": label, "kind": kind}
        raw_choices = spec.get("choices")
        if kind == "choice":
            if isinstance(raw_choices, str):
                raw_choices = raw_choices.split("|")
            choices = [" ".join(str(choice).split()) for choice in (raw_choices or []) if str(choice).strip()]
            choices = list(dict.fromkeys(choices))
            if not 2 <= len(choices) <= MAX_CHOICES or any(
                len(choice) > MAX_CHOICE_TEXT for choice in choices
            ):
                problems.append(
                    f"{where}: a choice needs 2 to {MAX_CHOICES} different choices of at most "
                    f"{MAX_CHOICE_TEXT} characters."
                )
            entry["choices"] = choices
        elif raw_choices:
            problems.append(f"{where}: only a decision of kind “choice” has choices.")
        cleaned.append(entry)
    return (cleaned if not problems else []), problems


def decision_answer_rows(round_, answers):
    """[(label, answer)] of a hand's decisions, in the order the round asks them."""
    answers = dict(answers or {})
    rows = [
        (decision["label"], answers.pop(decision["key"]))
        for decision in (round_.decisions or [])
        if decision["key"] in answers
    ]
    return rows + sorted(answers.items())


def decision_summary(decision):
    """ "Creature type (one of Goblin, Elf)" — how the rules summary names a decision."""
    if decision["kind"] == "choice":
        return f"{decision['label']} (one of {', '.join(decision['choices'])})"
    return f"{decision['label']} ({DECISION_KINDS.get(decision['kind'], decision['kind'])})"


def decisions_text(decisions):
    """Decision specs as the round form shows them: one per line, `key | label | kind | choice | choice…`."""
    lines = []
    for decision in decisions or []:
        parts = [decision["key"], decision["label"], decision["kind"], *decision.get("choices", [])]
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def parse_decisions_text(text):
    """The round form's decision lines back into specs (clean_decisions checks them)."""
    specs = []
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        parts = [part.strip() for part in line.split("|")]
        parts += [""] * (3 - len(parts))
        spec = {"key": parts[0], "label": parts[1], "kind": parts[2]}
        if parts[3:]:
            spec["choices"] = [part for part in parts[3:] if part]
        specs.append(spec)
    return specs
