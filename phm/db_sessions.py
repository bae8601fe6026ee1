"""Time limits for the database sessions of worker processes (settings.DB_TASK_*)."""

from django.conf import settings
from django.db.backends.signals import connection_created

_limited = False


def _apply_limits(sender, connection, **kwargs):
    if connection.vendor != "postgresql":
        return
    statement_ms = settings.DB_TASK_STATEMENT_TIMEOUT * 1000
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('lock_timeout', %s, false), set_config('statement_timeout', %s, false), "
            "set_config('idle_in_transaction_session_timeout', %s, false)",
            [f"{settings.DB_TASK_LOCK_TIMEOUT * 1000}", f"{statement_ms}", f"{statement_ms}"],
        )


def limit_sessions_of_this_process():
    """From now on every new connection of this process gets the task limits (idempotent)."""
    global _limited
    if _limited:
        return
    _limited = True
    connection_created.connect(_apply_limits, dispatch_uid="phm.db_sessions.task_limits")
