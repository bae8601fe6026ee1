"""Data every database needs: the card catalog snapshot and the banned lists.

Also `deadline_set`, which other apps listen to so that `rounds` needs no knowledge of them.

`fill_empty_catalog` runs after `migrate` (with the current models, so the loader is the same code
`import_cards` runs) and again after a test database flush, which empties tables without re-running
migrations.
"""

from django.conf import settings
from django.dispatch import Signal

from .banned_seed import seed_banned_lists
from .catalog.loader import catalog_tables_exist, load_snapshot_if_empty
from .catalog.names import normalize_name


def fill_empty_catalog(sender, using="default", verbosity=1, plan=None, **kwargs):
    if not getattr(settings, "PHM_LOAD_CARD_SNAPSHOT", True):
        return
    if not catalog_tables_exist(using):
        return  # migrated to an earlier state (e.g. `migrate rounds 0001`): nothing to fill yet
    from .models import BannedCard, BannedList

    seed_banned_lists(BannedList, BannedCard, normalize_name)
    result = load_snapshot_if_empty(using=using)
    if result is not None and verbosity:
        print(
            f"  Loaded the card catalog: {result.added} cards, {result.printings_added} printings "
            f"in {result.seconds:.1f} s (as of {result.version.as_of})."
        )


# Sent after the commit that opened a round or moved its deadline, with `round_id` and `deadline`: the
# submissions app schedules the reveal at that exact time (the every-minute backstop covers a missed one).
deadline_set = Signal()

# Sent inside the transaction that opened a round, with `round_id`: whatever tells people about it (site
# notifications, e-mail, webhooks) is written to the outbox in that same transaction.
round_opened = Signal()
# Sent inside the transaction that changed a league's settings (e.g. the tie-break rounds allowed, 5.3a), with
# `league_id` and `actor`: scoring settles the league's computed winners again.
league_changed = Signal()
# Sent inside the transaction that changed the cards an open round allows (extra bans added or lifted, the
# banned lists re-synced, a card accepted or withdrawn under 3.2a), with `round_id`: the submissions app
# judges the round's hands again, flags those the change made illegal and tells their players (4.2a). Whoever
# made the change learns nothing of them: the receiver's work does not depend on the hands.
round_cards_changed = Signal()
