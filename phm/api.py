"""API conventions shared by every endpoint (docs/api.md: Conventions)."""

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .views import RETRY_AFTER_SECONDS, UNAVAILABLE_DETAIL, database_unavailable


def exception_handler(exc, context):
    """Errors as `{"detail", "code"}`; field errors of a 400 stay as DRF shapes them. A database that is down
    or out of connections is a 503 (phm.views.database_unavailable), as on the pages."""
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
