"""An exact candidate prefilter for fuzzy name suggestions: letter counts bound the rapidfuzz `ratio`.

`fuzz.ratio` is the normalised Indel similarity: 100 * 2 * LCS(a, b) / (|a| + |b|). A common subsequence
never holds more of a letter than either string has, so LCS(a, b) is at most the letters the two have in
common (the sum over letters of the smaller count). A key with too few letters in common with the query
cannot reach the cutoff: dropping it changes no result, and rapidfuzz then scores only the ~10 % of the
catalog that can still match (measured in bench/cards.py). Merging characters into shared buckets only
raises the common count, so the bound stays valid for digits, punctuation and letters outside a-z.
"""

import numpy as np

LETTERS = 26
OTHER_BUCKETS = 6  # digits, spaces, punctuation and non-ASCII letters share these, by code point
BUCKETS = LETTERS + OTHER_BUCKETS


def _buckets(code_points):
    """Bucket of each code point: a-z own one each, everything else shares OTHER_BUCKETS."""
    is_letter = (code_points >= ord("a")) & (code_points <= ord("z"))
    return np.where(is_letter, code_points - ord("a"), LETTERS + code_points % OTHER_BUCKETS).astype(np.intp)


def _code_points(text):
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)


class LetterCountFilter:
    """Letter counts of every key, column by column, so one query costs a pass per distinct letter it has."""

    def __init__(self, keys):
        lengths = [len(key) for key in keys]
        self.lengths = np.array(lengths, dtype=np.float64)
        counts = np.zeros((BUCKETS, len(keys)), dtype=np.int32)
        if keys:
            code_points = _code_points("".join(keys))
            key_of_char = np.repeat(np.arange(len(keys)), lengths)
            np.add.at(counts, (_buckets(code_points), key_of_char), 1)
        # A name has fewer than 256 of any letter; small columns keep each pass over the catalog short.
        self.counts = np.minimum(counts, 255).astype(np.uint8)

    def candidates(self, query, score_cutoff):
        """Positions (ascending) of the keys whose `fuzz.ratio` with `query` can reach `score_cutoff`."""
        query_counts = np.bincount(_buckets(_code_points(query)), minlength=BUCKETS)
        common = np.zeros(self.counts.shape[1], dtype=np.int16)
        in_bucket = np.empty(self.counts.shape[1], dtype=np.uint8)
        for bucket in np.flatnonzero(query_counts):
            np.minimum(self.counts[bucket], min(int(query_counts[bucket]), 255), out=in_bucket)
            common += in_bucket
        # ratio >= cutoff needs 200 * LCS >= cutoff * (|key| + |query|), and LCS <= common.
        return np.flatnonzero(common >= (self.lengths + len(query)) * (score_cutoff / 200.0))
