"""What scoring operations raise: the project's error kinds (phm.errors), which the API and the pages turn
into one HTTP answer each (docs/api.md: Conventions)."""

from typing import Any

from phm import errors


class ScoringNotFound(errors.NotFound):
    """No such match, round or challenge — or one the caller may not see yet (404)."""


class ScoringInputError(errors.InputError):
    """Malformed input: `errors` maps field names to plain sentences (400)."""


class ScoringForbidden(errors.Forbidden):
    """The caller may see this but not do it (403)."""


class ScoringConflict(errors.Conflict):
    """The round's or the match's state forbids it (409); `items` lists what stands in the way, if
    anything (the API's answer carries them as `items`)."""

    def __init__(self, message: str, items: list[dict[str, Any]] | None = None) -> None:
        self.items = items or []
        super().__init__(message, details={"items": self.items} if self.items else None)


# Everything a scoring operation raises on purpose: callers catch these, never a bare Exception.
SCORING_ERRORS = (ScoringNotFound, ScoringInputError, ScoringForbidden, ScoringConflict)


def message_for(error: errors.DomainError) -> str:
    """What a page tells the user about a scoring error."""
    return errors.message_for(error)
