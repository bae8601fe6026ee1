"""Scoring's domain signals: the signal objects only (their reactions in scoring.receivers,
scoring.notifications and scoring.correction_notices, which are connected at start-up)."""

from django.dispatch import Signal

# Sent inside the transaction that made a round final, with `round_id` and `earlier`: None the first time,
# else each player's figures as the round was final before it was reopened ({login name: [rank, points,
# League points]}). "Results final" messages and webhooks are written to the outbox in that transaction.
round_finalized = Signal()
# Sent inside the transaction that reopened a final round, with `round_id` and the moderator's `reason`.
round_reopened = Signal()
# Sent inside the transaction that declared a league's winners, with `league_id`, `before` (the ids of the
# winners announced before, when these differ from them; [] for a league's first winners) and `cause` (what
# changed them, in words, or "").
winners_declared = Signal()
# Sent inside the transaction that withdrew a league's computed winners because the standings no longer give
# them, with `league_id`, `before` (their ids) and `cause` (what changed the standings, in words, or "").
winners_withdrawn = Signal()
# Sent inside the transaction that changed a round's results, with `round_id` (its stored tally is stale from
# the commit on): the tally task is scheduled after the commit.
results_changed = Signal()
