"""The errors of hand operations (submissions.services.*), each a kind of phm.errors.DomainError: the API's
exception handler and the pages map each to its HTTP status."""

from phm import errors


class HandNotFound(errors.NotFound):
    """No such hand or round — or one the caller may not see (HTTP 404, never a 403 that confirms it)."""


class HandInputError(errors.InputError):
    """Malformed input: `errors` maps field names to plain sentences (HTTP 400)."""


class IllegalHand(errors.InputError):
    """The hand breaks the round's rules; `verdict` says where, per card (HTTP 400, its body built by the API
    from the verdict). `errors`: the submission's other problems by field (a missing attestation, a decision),
    reported with it so that one answer tells everything."""

    code = "illegal_hand"

    def __init__(self, verdict, errors=None):
        self.verdict = verdict
        super().__init__(dict(errors or {}), message="The hand is not legal for this round.")


class HandConflict(errors.Conflict):
    """The round's state forbids it: deadline passed, or too early for an after-deadline action (HTTP 409)."""


class ReviewNotAllowed(errors.Forbidden):
    """The viewer may see the hand but not review it (HTTP 403)."""
