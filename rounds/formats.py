"""The formats a round may sanction (rule 7.4): their names and the wording of what they admit."""

from .catalog.sources import CORE_FORMATS
from .models import Card


def format_label(format_key):
    return format_key.replace("_", " ").title()


# Rule 7.4a admits "cards contained in sets legal in the named format"; Pauper admits a card by its rarity
# instead: printed at common in a set legal in Pauper.
_FORMAT_RULE_TEXTS = {"pauper": "only cards printed at common in a set legal in it"}
_FORMAT_NOT_LEGAL_TEXTS = {"pauper": "{card} has never been printed at common in a set legal in Pauper"}


def format_rule_text(format_key):
    """What rule 7.4 admits in the format, for the round's variant line."""
    return _FORMAT_RULE_TEXTS.get(format_key, "only cards from sets legal in it")


def format_not_legal_message(card_name, format_key):
    text = _FORMAT_NOT_LEGAL_TEXTS.get(format_key, "{card} is not from a set legal in {format}")
    return text.format(card=card_name, format=format_label(format_key)) + " (rule 7.4)."


def known_format(format_key):
    return format_key in CORE_FORMATS or Card.objects.filter(legalities__has_key=format_key).exists()
