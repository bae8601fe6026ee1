"""Name resolution: the one function that turns what a player typed into a catalog card.

Order: exact (case-insensitive) → normalised (accents, quotes, punctuation, spacing, `//`, face names) →
fuzzy suggestions. A fuzzy match is never accepted: it comes back with `card=None` and suggestions the user
must confirm. Lookups run against an in-memory index built lazily from the database (three queries) and
rebuilt when the catalog changes, so a resolution costs microseconds and no query. Autocomplete ranks with
the index's words (rounds.catalog.word_index) and this site's play counts (rounds.catalog.popularity).
"""

import bisect
import heapq
import threading
import time
from dataclasses import dataclass

import numpy as np
from django.core.cache import cache
from django.db.models import Count
from rapidfuzz import fuzz, process

from .names import name_variants, normalize_name
from .popularity import play_counts
from .prefilter import LetterCountFilter
from .word_index import WordIndex

SUGGESTION_LIMIT = 5
AUTOCOMPLETE_LIMIT = 20
# Below this, a fuzzy candidate is noise; at or above FUZZY_CONFIDENT_SCORE it is a likely typo ("fuzzy"),
# between the two the name is "unknown" but the candidates are still offered.
SUGGESTION_CUTOFF = 60.0
FUZZY_CONFIDENT_SCORE = 85.0
FUZZY_POOL = 40  # candidates kept from the full scan, and names sharing the first word
PREFIX_SCORE_WEIGHT = 0.84  # a typed fragment matching the start of a name: at most 84, below "fuzzy"
# How often a process re-checks whether another process (import_cards) changed the catalog.
REVALIDATE_SECONDS = 2.0
REVISION_CACHE_KEY = "rounds:catalog-revision"
REVISION_CACHE_SECONDS = 30


class Status:
    EXACT = "exact"
    NORMALIZED = "normalized"
    FUZZY = "fuzzy"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class CardRef:
    """What resolution and autocomplete need of a card, without touching the database."""

    id: int
    name: str
    oracle_name: str
    slug: str
    type_line: str
    mana_value: float | None


@dataclass(frozen=True, slots=True)
class Suggestion:
    card: CardRef
    score: float

    @property
    def name(self):
        return self.card.name


class Resolution:
    """The outcome of resolving one typed name. A plain slotted class: resolution runs in a microsecond
    budget, and a frozen dataclass costs more to build than the lookup itself."""

    __slots__ = ("card", "input", "status", "suggestions")

    def __init__(self, input, status, card=None, suggestions=()):
        self.input = input
        self.status = status
        self.card = card
        self.suggestions = suggestions

    def __repr__(self):
        return f"Resolution({self.input!r}, {self.status!r}, card={self.card and self.card.name!r})"

    def __eq__(self, other):
        return isinstance(other, Resolution) and (self.input, self.status, self.card, self.suggestions) == (
            other.input, other.status, other.card, other.suggestions,
        )  # fmt: skip

    __hash__ = None

    @property
    def resolved(self):
        return self.card is not None

    @property
    def suggestion_names(self):
        return [suggestion.name for suggestion in self.suggestions]


class CatalogIndex:
    """Dictionaries from typed names to cards, and sorted keys for autocomplete and rapidfuzz."""

    def __init__(self, cards, faces, revision, as_of):
        self.revision = revision
        self.as_of = as_of
        # Card rows (id → Card) that rounds.legality fetched for this revision of the catalog.
        self.legality_rows = {}
        # A round's banned snapshot resolved against this revision (rounds.banned_matching.banned_entries).
        self.banned_by_snapshot = {}
        # What card filters need of every card (rounds.cardquery.records), built on the first filter.
        self.query_catalog = None
        self.cards = []
        self.exact = {}
        ranked = {}  # normalised key → (rank, card position): the best claim on a key wins
        position_by_id = {}
        printings = []  # by card position: how many sets printed the card
        for row in cards:
            position = len(self.cards)
            position_by_id[row["id"]] = position
            printings.append(row.get("printing_count") or 0)
            self.cards.append(
                CardRef(
                    row["id"],
                    row["name"],
                    row["oracle_name"],
                    row["slug"],
                    row["type_line"],
                    row["mana_value"],
                )
            )
            # Prefer paper cards, then the oldest, when two cards claim one key
            # ("Fire" is Fire // Ice, not Start // Fire).
            tiebreak = (not row["paper"], str(row["first_printed"] or "9999"), row["name"])
            for own_name in (row["name"], row["oracle_name"]):
                self.exact.setdefault(own_name.strip().casefold(), position)
                for variant_rank, key in enumerate(name_variants(own_name)):
                    self._claim(ranked, key, (variant_rank, *tiebreak), position)
        for card_id, face_name in faces:
            position = position_by_id.get(card_id)
            if position is None:
                continue
            card = self.cards[position]
            for variant_rank, key in enumerate(name_variants(face_name)):
                self._claim(ranked, key, (2 + variant_rank, card.name), position)
        self.normalized = {key: position for key, (_, position) in ranked.items()}
        self.sorted_keys = sorted(self.normalized)
        self.sorted_positions = [self.normalized[key] for key in self.sorted_keys]
        self.letter_counts = LetterCountFilter(self.sorted_keys)
        self.sorted_key_array = np.array(self.sorted_keys, dtype=object)
        # The catalog's own sign of the cards people want: the most reprinted first, then by name (position →
        # rank).
        self.popularity_rank = [0] * len(self.cards)
        by_popularity = sorted(range(len(self.cards)), key=lambda p: (-printings[p], self.cards[p].name))
        for rank, position in enumerate(by_popularity):
            self.popularity_rank[position] = rank
        self._word_index = None  # built on the first autocomplete (word_index)
        self._played = (None, {})  # (the play counts given, card position → revealed hands holding it)

    @staticmethod
    def _claim(ranked, key, rank, position):
        if key and (key not in ranked or rank < ranked[key][0]):
            ranked[key] = (rank, position)

    def __len__(self):
        return len(self.cards)

    def suggest(self, text, limit=SUGGESTION_LIMIT):
        """Closest catalog names, best first, one per card, with scores out of 100.

        rapidfuzz `ratio` (normalised Indel similarity) is the scorer: WRatio and the token scorers cost
        10-20x more and rank junk that shares a word ("Guardian of Faith" for a misspelt Thalia) as high as
        the card. The letter-count prefilter (rounds.catalog.prefilter) first drops the keys that cannot reach
        the cutoff, so only about a tenth of the 34k keys are scored.
        Names that start with the typed first word join the pool and are also scored as a prefix, so a short
        partial name (`Thalia Gaurdian`) still finds its card; that prefix score is capped below
        FUZZY_CONFIDENT_SCORE, because a fragment is not a likely typo of one card.
        """
        key = normalize_name(text)
        if not key:
            return ()
        keys = self.sorted_keys
        # Only keys whose letter counts allow the cutoff are scored; positions stay ascending, so ties rank
        # as in a scan of every key.
        candidates = self.letter_counts.candidates(key, SUGGESTION_CUTOFF)
        scores = {
            int(candidates[candidate_position]): score
            for _, score, candidate_position in process.extract(
                key,
                self.sorted_key_array[candidates].tolist(),
                scorer=fuzz.ratio,
                processor=None,
                limit=FUZZY_POOL,
                score_cutoff=SUGGESTION_CUTOFF,
            )
        }
        first_word = key.split(" ", 1)[0]
        if len(first_word) >= 3:
            start = bisect.bisect_left(keys, first_word)
            for key_position in range(start, min(start + FUZZY_POOL, len(keys))):
                candidate = keys[key_position]
                if not candidate.startswith(first_word):
                    break
                prefix_score = PREFIX_SCORE_WEIGHT * fuzz.ratio(key, candidate[: len(key)], processor=None)
                scores[key_position] = max(scores.get(key_position, 0.0), prefix_score)
        # Equal scores ("lightnig bo": Lightning Blow and Lightning Bolt alike) go to the card the catalog
        # shows more people want.
        rank, positions = self.popularity_rank, self.sorted_positions
        ranked = sorted(scores.items(), key=lambda item: (-item[1], rank[positions[item[0]]], keys[item[0]]))
        suggestions, seen = [], set()
        for key_position, score in ranked:
            if score < SUGGESTION_CUTOFF:
                break
            card = self.cards[self.sorted_positions[key_position]]
            if card.id not in seen:
                seen.add(card.id)
                suggestions.append(Suggestion(card, round(score, 1)))
            if len(suggestions) == limit:
                break
        return tuple(suggestions)

    def word_index(self):
        """Whole-word prefixes of the lookup keys (rounds.catalog.word_index), built on first use."""
        if self._word_index is None:
            self._word_index = WordIndex(self.sorted_keys, self.sorted_positions)
        return self._word_index

    def _played_positions(self, plays):
        """{card position: revealed hands holding it} for `plays` (card name → hands), kept while the same
        counts come back."""
        source, played = self._played
        if source is not plays:
            played = {}
            for name, hands in plays.items():
                position = self.exact.get(name.casefold()) if isinstance(name, str) else None
                if position is not None and hands > 0:
                    played[position] = played.get(position, 0) + hands
            self._played = (plays, played)
        return played

    def _likeliest(self, cards, count, played):
        """The `count` likeliest of `cards` (positions): the most played here first, then the most reprinted,
        then by name. The cards nobody played are ranked by a C-level key: a short prefix has thousands."""
        rank = self.popularity_rank
        hot = sorted(cards & played.keys(), key=lambda position: (-played[position], rank[position]))
        if len(hot) >= count:
            return hot[:count]
        cold = cards.difference(hot) if hot else cards
        return hot + heapq.nsmallest(count - len(hot), cold, key=rank.__getitem__)

    def autocomplete(self, text, limit=AUTOCOMPLETE_LIMIT, plays=None):
        """Cards for a name typed so far, the likeliest first: the card named exactly so; then the cards in
        whose name (or a face name) every typed word starts a word, in order (`lightnin bo`: Lightning Bolt,
        `bolt`: Lightning Bolt and Bolt Bend); then those whose name contains the text. Within each group the
        cards this site's players play most come first (`plays`: card name → revealed hands holding it), then
        the most reprinted."""
        key = normalize_name(text)
        if not key or limit < 1:
            return []
        played = self._played_positions(plays) if plays else {}
        found = []
        exact = self.normalized.get(key)
        if exact is not None:
            found.append(exact)
        cards = self.word_index().matching_cards(key.split(" "))
        cards.difference_update(found)
        found += self._likeliest(cards, limit - len(found), played)
        if len(found) < limit:
            containing = self.word_index().containing_cards(key)
            containing.difference_update(found)
            found += self._likeliest(containing, limit - len(found), played)
        return [self.cards[position] for position in found[:limit]]


_lock = threading.Lock()
_index = None
_checked_at = 0.0


def _current_revision():
    """Identifier of the catalog's latest load; cached so that most processes never ask the database."""
    revision = cache.get(REVISION_CACHE_KEY)
    if revision is None:
        from rounds.models import CatalogVersion

        revision = CatalogVersion.objects.order_by("-id").values_list("id", flat=True).first() or 0
        cache.set(REVISION_CACHE_KEY, revision, REVISION_CACHE_SECONDS)
    return revision


def _build_index():
    from rounds.models import Card, CardFace, CatalogVersion

    latest = CatalogVersion.objects.order_by("-id").values("id", "as_of").first() or {"id": 0, "as_of": None}
    cards = (
        Card.objects.order_by("id")
        .values("id", "name", "oracle_name", "slug", "type_line", "mana_value", "first_printed", "paper")
        .annotate(printing_count=Count("printings"))
    )
    faces = CardFace.objects.order_by("card_id", "position").values_list("card_id", "name")
    return CatalogIndex(
        cards.iterator(chunk_size=5000), faces.iterator(chunk_size=5000), latest["id"], latest["as_of"]
    )


def get_index():
    """The process's index, built on first use and rebuilt when another load changed the catalog."""
    global _index, _checked_at
    now = time.monotonic()
    index = _index
    if index is not None and now - _checked_at < REVALIDATE_SECONDS:
        return index
    with _lock:
        if _index is not None and now - _checked_at < REVALIDATE_SECONDS:
            return _index
        if _index is None or _current_revision() != _index.revision:
            _index = _build_index()
            cache.set(REVISION_CACHE_KEY, _index.revision, REVISION_CACHE_SECONDS)
        _checked_at = time.monotonic()
        return _index


def invalidate_index():
    """Drop this process's index and tell the others (through the cache) to rebuild theirs."""
    global _index
    with _lock:
        _index = None
    cache.delete(REVISION_CACHE_KEY)


def known_card(text, *, index=None):
    """The card a name spells exactly or after normalisation, else None: `resolve_name` without the fuzzy
    suggestions, for deciding whether a line of text is a card list (cheap enough to ask of every line)."""
    if index is None:
        index = get_index()
    if not isinstance(text, str):
        return None
    position = index.exact.get(text.strip().casefold())
    if position is None:
        key = normalize_name(text)
        position = index.normalized.get(key) if key else None
    return index.cards[position] if position is not None else None


def resolve_name(text, *, index=None):
    """Resolve one typed name: exact, then normalised, then fuzzy suggestions. Never raises on odd input."""
    if index is None:
        index = get_index()
    if not isinstance(text, str):
        text = ""
    position = index.exact.get(text.strip().casefold())
    if position is not None:
        return Resolution(text, Status.EXACT, index.cards[position])
    key = normalize_name(text)
    if not key:
        return Resolution(text, Status.UNKNOWN)
    position = index.normalized.get(key)
    if position is not None:
        return Resolution(text, Status.NORMALIZED, index.cards[position])
    suggestions = index.suggest(text)
    confident = bool(suggestions) and suggestions[0].score >= FUZZY_CONFIDENT_SCORE
    return Resolution(text, Status.FUZZY if confident else Status.UNKNOWN, suggestions=suggestions)


def search_cards(text, limit=AUTOCOMPLETE_LIMIT):
    """Autocomplete: up to `limit` cards matching what was typed so far, the likeliest first (the cards this
    site's players play most among equals: rounds.catalog.popularity, one query at most every few minutes)."""
    text = text if isinstance(text, str) else ""
    return get_index().autocomplete(text, limit=limit, plays=play_counts() if text.strip() else None)


def catalog_as_of():
    return get_index().as_of


def is_known_card(text):
    """Predicate for the hand-list parser: the name resolves exactly or by normalisation."""
    return resolve_name(text).resolved
