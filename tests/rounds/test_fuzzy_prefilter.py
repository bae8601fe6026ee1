"""The letter-count prefilter before rapidfuzz must never drop a key that could reach the cutoff: suggestions
with it are exactly those of a scan of every key."""

import random

import pytest
from rapidfuzz import fuzz, process

from rounds.catalog.names import normalize_name
from rounds.catalog.prefilter import LetterCountFilter
from rounds.catalog.resolve import FUZZY_POOL, SUGGESTION_CUTOFF, get_index

TYPED = [
    "Thalia, Gaurdian of Thraben",
    "Force of Wil",
    "jace the mind sculpter",
    "Lim Dul Vault",
    "Æther Vail",
    "Mishra Workshop 2",
    "black lotis",
    "Ancestrall Recall",
    "wear tear",
    "a",
    "zzzzzzzzzz",
    "ghfjdksla qwe",
]


def typo(rng, name):
    chars = list(name)
    position = rng.randrange(len(chars))
    action = rng.choice(["drop", "double", "swap", "replace"])
    if action == "drop":
        del chars[position]
    elif action == "double":
        chars.insert(position, chars[position])
    elif action == "swap" and position + 1 < len(chars):
        chars[position], chars[position + 1] = chars[position + 1], chars[position]
    else:
        chars[position] = rng.choice("aeiourstn")
    return "".join(chars)


@pytest.mark.parametrize("cutoff", [0.0, 40.0, SUGGESTION_CUTOFF, 85.0, 100.0])
def test_every_key_that_reaches_the_cutoff_is_a_candidate(cutoff):
    rng = random.Random(3)
    keys = sorted(
        {
            normalize_name(word)
            for word in [
                "Black Lotus",
                "Mox Pearl",
                "Time Walk",
                "Timetwister",
                "Ancestral Recall",
                "Lim-Dûl's Vault",
                "Jötun Grunt",
                "Borrowing 100,000 Arrows",
                "+2 Mace",
                "Ach! Hans, Run!",
            ]
        }
    )
    queries = [normalize_name(typo(rng, key)) for key in keys for _ in range(20)] + ["", "x", "1000000"]
    prefilter = LetterCountFilter(keys)
    for query in queries:
        kept = set(prefilter.candidates(query, cutoff).tolist())
        for position, key in enumerate(keys):
            if fuzz.ratio(query, key, processor=None) >= cutoff:
                assert position in kept, (query, key)


def test_the_prefilter_drops_most_of_the_catalog_and_changes_no_suggestion(catalog_index):
    index = get_index()
    keys = index.sorted_keys
    rng = random.Random(11)
    typed = TYPED + [typo(rng, rng.choice(index.cards).name) for _ in range(150)]
    kept_fractions = []
    for text in typed:
        key = normalize_name(text)
        candidates = index.letter_counts.candidates(key, SUGGESTION_CUTOFF)
        kept_fractions.append(len(candidates) / len(keys))
        full_scan = process.extract(
            key, keys, scorer=fuzz.ratio, processor=None, limit=FUZZY_POOL, score_cutoff=SUGGESTION_CUTOFF
        )
        filtered = process.extract(
            key,
            [keys[i] for i in candidates],
            scorer=fuzz.ratio,
            processor=None,
            limit=FUZZY_POOL,
            score_cutoff=SUGGESTION_CUTOFF,
        )
        assert [(name, score) for name, score, _ in filtered] == [
            (name, score) for name, score, _ in full_scan
        ]
    # The point of the prefilter: a typo is scored against a small part of the catalog, not all of it.
    kept_fractions.sort()
    assert kept_fractions[len(kept_fractions) // 2] < 0.25
