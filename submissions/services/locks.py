"""The locks a submission takes, round first: the round row shared (with the moderator-preview check in the
same query), then the player's own hand row; and the lowering of the hand's current version under that lock.

On PostgreSQL these run as SQL written once per process (submissions.rows) rather than querysets compiled on
every submission; elsewhere by the ORM. Reviews and forum corrections lower versions through here too."""

import functools

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef

from rounds.models import League, Round
from submissions import rows
from submissions.errors import HandConflict
from submissions.models import Hand, HandsPreview, HandVersion
from submissions.services.preview import PREVIEWED_MESSAGE


def lock_round_for_submission(round_id: int, previewer: User) -> tuple[Round | None, bool]:
    """(the round row under a shared lock, or None if no such round; whether `previewer` saw the round's hands
    as its moderator before the deadline — a HandsPreview, which bars them from playing in it), in one query.

    Submissions to one round run side by side, while the operations that move its deadline or reveal it (FOR
    UPDATE) wait for them, and they for those. The round's league comes along (its name and number make the
    round's code, in the receipt's subject)."""
    if connection.vendor == "postgresql":
        db = rows.database()
        round_, extra = rows.fetch_one(db, Round, _round_lock_sql(), [previewer.pk, round_id])
        if round_ is None:
            return None, False
        previewed, league_name, league_number = extra
        # A League whose other fields load if read.
        round_.league = League.from_db(
            db.alias, ["id", "name", "number"], [round_.league_id, league_name, league_number]
        )
        return round_, bool(previewed)
    found = (  # SQLite locks the whole file anyway
        Round.objects.select_for_update()
        .select_related("league")
        .filter(pk=round_id)
        .annotate(previewed=Exists(HandsPreview.objects.filter(round=OuterRef("pk"), moderator=previewer)))
        .first()
    )
    if found is None:
        return None, False
    return found, bool(found.previewed)


@functools.cache
def _round_lock_sql() -> str:
    """The round FOR SHARE with the previewer's HandsPreview (EXISTS) and its league's name and number."""
    table, previews = Round._meta.db_table, HandsPreview._meta.db_table
    leagues = League._meta.db_table
    return (
        f'SELECT {rows.select_list(Round, "r")}, EXISTS (SELECT 1 FROM "{previews}" p '  # noqa: S608
        f'WHERE p."round_id" = r."id" AND p."moderator_id" = %s), l."name", l."number" FROM "{table}" r '
        f'JOIN "{leagues}" l ON l."id" = r."league_id" WHERE r."id" = %s FOR SHARE OF r'
    )


def lower_current_version(hand: Hand) -> HandVersion | None:
    """Mark the hand's current version as no longer current and return it (None if it has none), in one
    statement. Call it with the hand row locked: the UPDATE reads the latest committed versions, so a version
    another tab of the same player stored while this request waited for the lock is the one lowered."""
    if connection.vendor == "postgresql":
        lowered: HandVersion | None = rows.fetch_one(
            rows.database(), HandVersion, _lower_current_version_sql(), [False, hand.pk]
        )[0]
        return lowered
    table = HandVersion._meta.db_table
    found = list(
        HandVersion.objects.raw(
            f'UPDATE "{table}" SET "is_current" = %s WHERE "hand_id" = %s AND "is_current" RETURNING *',  # noqa: S608
            [False, hand.pk],
        )
    )
    return found[0] if found else None


@functools.cache
def _lower_current_version_sql() -> str:
    table = f'"{HandVersion._meta.db_table}"'
    return (
        f'UPDATE {table} SET "is_current" = %s WHERE "hand_id" = %s AND "is_current" '  # noqa: S608
        f"RETURNING {rows.select_list(HandVersion, table)}"
    )


def _locked_hand(round_id: int, player_id: int) -> Hand | None:
    """The player's hand in the round, FOR UPDATE, or None."""
    if connection.vendor != "postgresql":
        return Hand.objects.select_for_update().filter(round_id=round_id, player_id=player_id).first()
    found: Hand | None = rows.fetch_one(rows.database(), Hand, _locked_hand_sql(), [round_id, player_id])[0]
    return found


@functools.cache
def _locked_hand_sql() -> str:
    table = Hand._meta.db_table
    return (
        f'SELECT {rows.select_list(Hand, "h")} FROM "{table}" h '  # noqa: S608
        'WHERE h."round_id" = %s AND h."player_id" = %s FOR UPDATE'
    )


def lock_own_hand(round_: Round, player: User) -> tuple[Hand, bool]:
    """(the player's hand row, created): locked so two submissions of one player make versions one after the
    other; created when missing (a concurrent first submission of the same player loses the insert and
    retries)."""
    hand = _locked_hand(round_.pk, player.pk)
    if hand is not None:
        return hand, False
    # A first hand races a moderator's declaration that they will not play (declare_not_playing). That holds
    # the round FOR UPDATE; our round lock waited for it, but the lock query read the previews with a snapshot
    # taken before it committed. This query's snapshot is newer, so a declaration committed meanwhile is seen.
    if HandsPreview.objects.filter(round=round_, moderator=player).exists():
        raise HandConflict(PREVIEWED_MESSAGE)
    try:
        with transaction.atomic():
            return Hand.objects.create(round=round_, player=player), True
    except IntegrityError:
        return Hand.objects.select_for_update().get(round=round_, player=player), False
