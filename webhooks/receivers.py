"""Deliveries written in the transactions that open a round, reveal its hands and make its results final
(the domain signals are sent inside them), so a change that commits is never without its webhook posts and a
rolled-back change sends none."""

from django.dispatch import receiver

from rounds.signals import round_opened
from scoring.signals import round_finalized
from submissions.signals import hands_revealed

from . import services


@receiver(round_opened, dispatch_uid="webhooks.round_opened")
def post_round_opened(sender, round_id, **kwargs):
    services.queue_event("round_opened", round_id)


@receiver(hands_revealed, dispatch_uid="webhooks.hands_revealed")
def post_hands_revealed(sender, round_id, **kwargs):
    services.queue_event("hands_revealed", round_id)


@receiver(round_finalized, dispatch_uid="webhooks.results_final")
def post_results_final(sender, round_id, **kwargs):
    services.queue_event("results_final", round_id)
