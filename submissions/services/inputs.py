"""The cleaning of what a player or moderator sends: a hand's name, its cards, its decisions (rule 7.2b).
Submissions, reviews and forum corrections all clean their input here; each raises HandInputError."""

from typing import Any

from phm.text import clean_name, strip_enclosing_quotes
from rounds.catalog.resolve import resolve_name
from rounds.models import MAX_HAND_SIZE, Round
from rounds.variants import MAX_DECISION_TEXT
from submissions.errors import HandInputError

MAX_NAME_LENGTH = 100
MAX_CARD_INPUTS = 20  # more than any hand size (at most 15): refuse absurd payloads before judging them
MAX_CARD_NAME_LENGTH = 200


def clean_hand_name(name: str) -> str:
    """A hand's name without bidi overrides, zero-width or control characters (phm.text), at most
    MAX_NAME_LENGTH characters, and without quotation marks around all of it (pages add their own)."""
    name = strip_enclosing_quotes(clean_name(name))
    if len(name) > MAX_NAME_LENGTH:
        raise HandInputError({"name": [f"A hand name has at most {MAX_NAME_LENGTH} characters."]})
    return name


def clean_cards(cards: object) -> list[str]:
    """The card names as sent, each with its whitespace collapsed: a list of strings of sane sizes."""
    if not isinstance(cards, list | tuple) or not all(isinstance(card, str) for card in cards):
        raise HandInputError({"cards": ["Send the cards as a list of card names."]})
    if len(cards) > MAX_CARD_INPUTS:
        raise HandInputError({"cards": [f"A hand has at most {MAX_HAND_SIZE} cards, not {len(cards)}."]})
    cleaned = [" ".join(card.split()) for card in cards]
    if any(len(card) > MAX_CARD_NAME_LENGTH for card in cleaned):
        raise HandInputError({"cards": ["A card name that long is not a card name."]})
    return cleaned


def clean_decisions(round_: Round, answers: object) -> dict[str, Any]:
    """The player's answers to the round's decisions (rule 7.2b), checked and normalised: {key: value}.

    Every decision is required; a choice must be one of its choices, a card a name the catalog knows (spelled
    as the catalog does), a number a whole number. Raises HandInputError({"decisions": {key: [problem]}})."""
    specs = round_.decisions or []
    if not specs and not answers:
        return {}
    if answers is None:
        answers = {}
    if not isinstance(answers, dict):
        raise HandInputError({"decisions": ["Send the decisions as {key: answer}."]})
    known = {spec["key"] for spec in specs}
    problems = {key: ["This round asks no such decision."] for key in answers if key not in known}
    cleaned = {}
    for spec in specs:
        key, value = spec["key"], answers.get(spec["key"])
        answer, problem = _clean_answer(spec, value)
        if problem:
            problems[key] = [problem]
        else:
            cleaned[key] = answer
    if problems:
        raise HandInputError({"decisions": problems})
    return cleaned


def _clean_answer(spec: dict[str, Any], value: object) -> tuple[Any, str | None]:
    """(the answer to store, None) or (None, the problem) for one decision."""
    label = spec["label"]
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, f"“{label}” is required in this round (rule 7.2b)."
    kind = spec["kind"]
    if kind == "number":
        if isinstance(value, bool):
            return None, f"“{label}” takes a whole number."
        try:
            number = int(str(value).strip())
        except ValueError:
            return None, f"“{label}” takes a whole number, not “{str(value)[:40]}”."
        if abs(number) > 10**9:
            return None, f"“{label}” takes a number between -1,000,000,000 and 1,000,000,000."
        return number, None
    if not isinstance(value, str | int) or isinstance(value, bool):
        return None, f"“{label}” takes text."
    text = clean_name(str(value))
    if len(text) > MAX_DECISION_TEXT:
        return None, f"“{label}” has at most {MAX_DECISION_TEXT} characters."
    if kind == "choice":
        by_folded = {choice.casefold(): choice for choice in spec.get("choices", [])}
        if text.casefold() not in by_folded:
            return None, f"“{label}” is one of: {', '.join(spec.get('choices', []))}."
        return by_folded[text.casefold()], None
    if kind == "card":
        resolution = resolve_name(text)
        if resolution.resolved and resolution.status != "fuzzy":
            return resolution.card.name, None
        hint = ", ".join(resolution.suggestion_names[:5])
        return None, f"“{text}” is not a card name we know." + (f" Did you mean: {hint}?" if hint else "")
    return text, None
