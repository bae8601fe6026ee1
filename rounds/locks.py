"""Row locks on a round, the one order every deadline- or state-dependent write follows (round first)."""

from django.db import connection

from .models import Round


def lock_round_shared(round_id):
    """The round row under a shared lock: writes inside one round (submissions, result reports) run side by
    side,
    while the operations that change its state (FOR UPDATE: deadline, reveal, finalization) wait for them, and
    they for those. None if there is no such round."""
    if connection.vendor == "postgresql":
        table = Round._meta.db_table
        found = list(Round.objects.raw(f'SELECT * FROM "{table}" WHERE "id" = %s FOR SHARE', [round_id]))  # noqa: S608
        return found[0] if found else None
    return Round.objects.select_for_update().filter(pk=round_id).first()  # SQLite locks the whole file anyway


def lock_round(round_id):
    """The round row, exclusively: for changes of the round's own state. None if there is no such round."""
    return Round.objects.select_for_update().select_related("league").filter(pk=round_id).first()
