"""The errors of hand operations (submissions.services.*): pages and the API map each to its HTTP status."""


class HandNotFound(Exception):
    """No such hand or round — or one the caller may not see (HTTP 404, never a 403 that confirms it)."""


class HandInputError(ValueError):
    """Malformed input: `errors` maps field names to plain sentences (HTTP 400)."""

    def __init__(self, errors):
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(value)}" for key, value in errors.items()))


class IllegalHand(ValueError):
    """The hand breaks the round's rules; `verdict` says where, per card (HTTP 400)."""

    def __init__(self, verdict):
        self.verdict = verdict
        super().__init__("The hand is not legal for this round.")


class HandConflict(Exception):
    """The round's state forbids it: deadline passed, or too early for an after-deadline action (HTTP 409)."""


class ReviewNotAllowed(Exception):
    """The viewer may see the hand but not review it (HTTP 403)."""
