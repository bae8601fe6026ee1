"""What scoring operations raise; the API and pages map each to one HTTP answer (docs/api.md: Conventions)."""


class ScoringNotFound(Exception):
    """No such match, round or challenge — or one the caller may not see yet (404)."""


class ScoringInputError(ValueError):
    """Malformed input: `errors` maps field names to plain sentences (400)."""

    def __init__(self, errors):
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(value)}" for key, value in errors.items()))

    @property
    def sentences(self):
        """The reasons alone, as a page shows them beside the form."""
        return " ".join(sentence for sentences in self.errors.values() for sentence in sentences)


class ScoringForbidden(Exception):
    """The caller may see this but not do it (403)."""


class ScoringConflict(Exception):
    """The round's or the match's state forbids it (409); `items` lists what stands in the way, if
    anything."""

    def __init__(self, message, items=None):
        self.items = items or []
        super().__init__(message)


# Everything a scoring operation raises on purpose: callers catch these, never a bare Exception.
SCORING_ERRORS = (ScoringNotFound, ScoringInputError, ScoringForbidden, ScoringConflict)


def message_for(error):
    """What a page tells the user about a scoring error."""
    return error.sentences if isinstance(error, ScoringInputError) else str(error)
