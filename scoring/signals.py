"""Scoring's domain signals: the signal objects only (their reactions in scoring.receivers and
scoring.notifications, which are connected at start-up)."""

from django.dispatch import Signal

# Sent inside the transaction that made a round final, with `round_id`: "results final" messages and webhooks
# are written to the outbox in that transaction.
round_finalized = Signal()
# Sent inside the transaction that declared a league's winners, with `league_id`.
winners_declared = Signal()
# Sent inside the transaction that changed a round's results, with `round_id` (its stored tally is stale from
# the commit on): the tally task is scheduled after the commit.
results_changed = Signal()
