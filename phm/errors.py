"""The one error model of the project: what a service raises on purpose when it refuses (docs/api.md: Errors).

Every app's errors derive from `DomainError` through one of its four kinds: `InputError` (400),
`Forbidden` (403), `NotFound` (404), `Conflict` (409). A service raises them in plain words; the API turns
them into HTTP in one place (phm.api.exception_handler). Nothing here knows HTTP beyond the status number
each kind stands for.
"""

from collections.abc import Mapping
from typing import Any, ClassVar

# Field name -> plain sentences; a field made of parts (a hand's decisions) maps each part to its sentences.
FieldErrors = Mapping[str, Any]


class DomainError(Exception):
    """A refusal a service raises on purpose. `code` is stable, for programs; the message is for people;
    `field_errors` maps a field to its messages when the refusal is about given fields; `details` are extra
    members of the API's answer (what stands in the way, for instance)."""

    code: ClassVar[str] = "error"
    http_status: ClassVar[int] = 400

    def __init__(
        self,
        message: str = "",
        *,
        field_errors: FieldErrors | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field_errors: dict[str, Any] = dict(field_errors or {})
        self.details: dict[str, Any] = dict(details or {})


def _joined(errors: FieldErrors) -> str:
    return "; ".join(f"{field}: {' '.join(messages)}" for field, messages in errors.items())


class InputError(DomainError, ValueError):
    """Malformed input (400). Built from `errors` (field -> plain sentences, also kept as `errors`); the
    message is those sentences by field unless one is given."""

    code = "invalid"
    http_status = 400

    def __init__(
        self,
        errors: FieldErrors | None = None,
        message: str | None = None,
        *,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        errors = errors or {}
        super().__init__(
            _joined(errors) if message is None else message, field_errors=errors, details=details
        )
        self.errors = errors

    @property
    def sentences(self) -> str:
        """The reasons alone, as a page shows them beside the form."""
        if not self.errors:
            return self.message
        return " ".join(sentence for sentences in self.errors.values() for sentence in sentences)


class Forbidden(DomainError):
    """The caller may see this but not do it (403)."""

    code = "permission_denied"
    http_status = 403


class NotFound(DomainError):
    """No such thing, or one the caller may not see (404, never a 403 that would confirm it exists)."""

    code = "not_found"
    http_status = 404


class Conflict(DomainError):
    """The request is understood but the state of things forbids it: deadline passed, round final… (409)."""

    code = "conflict"
    http_status = 409


def message_for(error: DomainError) -> str:
    """What a page tells the user about a domain error: the reasons alone for an input error."""
    return error.sentences if isinstance(error, InputError) else str(error)
