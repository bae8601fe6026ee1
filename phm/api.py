"""API conventions shared by every endpoint (docs/api.md: Conventions)."""

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import DomainError
from .unavailable import RETRY_AFTER_SECONDS, UNAVAILABLE_DETAIL, database_unavailable


def as_api_exception(error: DomainError) -> exceptions.APIException:
    """The DRF exception that answers a domain error: its field errors as a 400's `{"field": [...]}`, else
    `{"detail": message}` with its status and code."""
    if error.field_errors:
        return exceptions.ValidationError(error.field_errors)
    answer = exceptions.APIException(str(error), code=error.code)
    answer.status_code = error.http_status
    return answer


def exception_handler(exc, context):
    """Errors as `{"detail", "code"}`; field errors of a 400 stay as DRF shapes them. A domain error
    (phm.errors) is answered here for every view: its status, code and message, its `details` as further
    members. A database that is down or out of connections is a 503
    (phm.unavailable.database_unavailable), as on the pages."""
    if isinstance(exc, DomainError):
        response = drf_exception_handler(as_api_exception(exc), context)
        if response is not None and not exc.field_errors:
            response.data["code"] = exc.code
            response.data.update(exc.details)
        return response
    if database_unavailable(exc):
        response = Response({"detail": UNAVAILABLE_DETAIL, "code": "unavailable"}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if isinstance(exc, RequestDataTooBig):
        from .input_guard import PayloadTooLarge

        exc = PayloadTooLarge()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        if isinstance(response.data, list):
            response.data = {"detail": response.data, "code": "invalid"}
        return response
    if isinstance(response.data, dict) and "detail" in response.data:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        response.data["code"] = codes if isinstance(codes, str) else getattr(exc, "default_code", "error")
    return response


class Conflict(exceptions.APIException):
    """409: the request is understood but the object's state forbids it (deadline passed, round final…)."""

    status_code = 409
    default_detail = "This cannot be done in the current state."
    default_code = "conflict"
