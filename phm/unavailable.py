"""A database that cannot answer: a 503 to retry, alike on the pages (phm.views) and the API (phm.api)."""

from django.db import InterfaceError, OperationalError

# Seconds a client is told to wait after a 503 before trying again.
RETRY_AFTER_SECONDS = 5
UNAVAILABLE_DETAIL = (
    "The site is too busy or its database is unreachable right now; nothing was saved. "
    "Try again in a few seconds."
)


def database_unavailable(error: BaseException) -> bool:
    """Connection refused or lost, too many connections, a lock or statement timeout: nothing is wrong with
    the request, so it is a 503 to retry rather than a 500."""
    return isinstance(error, OperationalError | InterfaceError)
