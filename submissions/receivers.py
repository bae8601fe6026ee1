"""The submissions app's reactions to other apps' signals, connected in SubmissionsConfig.ready(): the
exact-time reveal is scheduled whenever rounds announce a deadline (rounds.signals.deadline_set), and an open
round's hands are judged again whenever the cards it allows change (rounds.signals.round_cards_changed)."""

from celery import current_app

from phm.tasks import publish_at
from rounds.signals import deadline_set, round_cards_changed

from .services import rules_check

REVEAL_TASK = (
    "submissions.reveal_round"  # submissions.tasks.reveal_round, found by name: tasks import services
)


def schedule_reveal(sender, round_id, deadline, **kwargs):
    """A deadline close enough is scheduled now; a later one by the backstop when it comes near
    (submissions.tasks.reveal_due_rounds). Pages derive the reveal from the clock either way."""
    publish_at(current_app.tasks[REVEAL_TASK], deadline, round_id)


def check_hands_again(sender, round_id, **kwargs):
    """Inside the change's transaction: one row saying the round's hands are to be judged again; a worker
    judges them after the commit (rules_check), so the change's author learns nothing of them."""
    rules_check.request_check(round_id)


def connect():
    deadline_set.connect(schedule_reveal, dispatch_uid="submissions.schedule_reveal")
    round_cards_changed.connect(check_hands_again, dispatch_uid="submissions.check_hands_again")
