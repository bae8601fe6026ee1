"""Connects scoring to the hands' life cycle: the match table is built after a reveal; a disqualification
makes the stored tally stale (its matches leave the table) and a replacement makes its matches that had
results need a new result (4.2a); both keep the old reports as superseded history. A change of results
schedules the tally task after its commit, and a league's changed settings can settle its winners.
Connected in ScoringConfig.ready()."""

from django.db import transaction
from django.dispatch import receiver

from phm.tasks import publish
from rounds.signals import league_changed
from submissions.signals import hand_disqualified, hand_replaced, round_revealed

from . import tasks
from .services.league import settle_computed_winners
from .services.superseded import supersede_results
from .services.tally import note_results_changed
from .signals import results_changed


@receiver(round_revealed, dispatch_uid="scoring.build_table_after_reveal")
def build_table_after_reveal(sender, round_id, **kwargs):
    publish(tasks.build_match_table, round_id)  # the backstop builds it if the broker is down


@receiver(hand_disqualified, dispatch_uid="scoring.tally_after_disqualification")
def tally_after_disqualification(sender, round_id, hand_id=None, actor=None, **kwargs):
    if hand_id is not None:
        supersede_results(round_id=round_id, hand_id=hand_id, actor=actor, disqualified=True)
    note_results_changed(round_id)


@receiver(hand_replaced, dispatch_uid="scoring.results_after_replacement")
def results_after_replacement(sender, round_id, hand_id, actor=None, **kwargs):
    """Rule 4.2a: the replaced hand's matches that had results need a new result."""
    supersede_results(round_id=round_id, hand_id=hand_id, actor=actor)


@receiver(league_changed, dispatch_uid="scoring.winners_after_league_change")
def winners_after_league_change(sender, league_id, actor=None, **kwargs):
    """More (or fewer) tie-break rounds allowed can make or unmake computed joint winners (5.3a)."""
    settle_computed_winners(league_id, actor=actor)


@receiver(results_changed, dispatch_uid="scoring.tally_after_results_changed")
def tally_after_results_changed(sender, round_id, **kwargs):
    """The tally task after the commit (bursts of changes coalesce into one run: tasks.schedule_tally)."""
    transaction.on_commit(lambda: tasks.schedule_tally(round_id), robust=True)
