"""The submissions app's reactions to other apps' signals, connected in SubmissionsConfig.ready(): the
exact-time reveal is scheduled whenever rounds announce a deadline (rounds.signals.deadline_set)."""

from celery import current_app

from phm.tasks import publish_at
from rounds.signals import deadline_set

REVEAL_TASK = (
    "submissions.reveal_round"  # submissions.tasks.reveal_round, found by name: tasks import services
)


def schedule_reveal(sender, round_id, deadline, **kwargs):
    """A deadline close enough is scheduled now; a later one by the backstop when it comes near
    (submissions.tasks.reveal_due_rounds). Pages derive the reveal from the clock either way."""
    publish_at(current_app.tasks[REVEAL_TASK], deadline, round_id)


def connect():
    deadline_set.connect(schedule_reveal, dispatch_uid="submissions.schedule_reveal")
