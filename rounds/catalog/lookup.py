"""What a typed card name finds, decided once for every place that shows it: the live suggestions under a
card box (htmx) and the card search page after Enter give the same answer for the same text.

The answer is the cards that match what was typed, the likeliest first (CatalogIndex.autocomplete: every typed
word starting a word of the name, then the name containing the text; the most played and most reprinted
first); when there are none, the card the resolver recognises despite spelling (accents, punctuation, `//`),
else its "did you mean" suggestions.
"""

from dataclasses import dataclass

from .resolve import resolve_name, search_cards


@dataclass(frozen=True, slots=True)
class NameLookup:
    query: str
    matches: list  # CardRef: names matching the query, likeliest first, or the one card it resolves to
    suggestions: list  # CardRef: only when nothing matches, the resolver's closest names, best first

    @property
    def found_nothing(self):
        return bool(self.query) and not self.matches


def look_up_name(text, *, limit):
    """The answer for `text` (stripped), at most `limit` matches; never raises on odd input."""
    query = text.strip() if isinstance(text, str) else ""
    if not query:
        return NameLookup("", [], [])
    matches = search_cards(query, limit=limit)
    if matches:
        return NameLookup(query, matches, [])
    resolution = resolve_name(query)
    if resolution.card is not None:
        return NameLookup(query, [resolution.card], [])
    return NameLookup(query, [], [suggestion.card for suggestion in resolution.suggestions])
