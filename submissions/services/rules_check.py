"""Hands judged again when the cards an open round allows change (rounds.signals.round_cards_changed: a
ban added or lifted, the banned lists re-synced, an accepted card withdrawn or accepted). Rule 4.2a: the
moderator "will try to notify that player to change his or her hand prior to the deadline" — the site does it
at once.

A hand the change made illegal is flagged, with a note naming its cards and why, and its player is told; a
hand flagged so that is legal again (the ban lifted) is unflagged, and its player is told that too. A
moderator's own flag is never lifted here: it stays theirs to lift.

Secrecy: whoever made the change may play in the round. Their transaction only records that the round's hands
are to be judged again (`request_check`: one row, whatever the hands); the judging runs in a worker after the
commit (`check_round_hands`), so neither the answer they get nor its timing, the round's history or anything
they can read depends on which hands it flags (on the embedded default, without Redis, tasks run inside the
request after its commit: that set-up is for trying the site, docs/operations.md). The flags, reviews (by no
moderator) and hand audit entries it writes are seen only where a hand's flags already are: by its player,
and by moderators who declared they do not play (and by every moderator after the deadline).

Locks, in the order of docs/architecture.md: the round shared (a change of its cards takes it exclusively, so
the hands are judged under settled rules), then the round's hands, each FOR UPDATE in id order. A player's
edit at the same moment locks the round shared and its own hand: it is judged, and lands, before or after,
never between — and an edit lifts the flag, as any edit does.
"""

import dataclasses
from datetime import datetime

from celery import current_app
from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from phm.tasks import publish
from rounds.legality import check_hand, rules_for_round
from rounds.locks import lock_round_shared
from rounds.models import Round, RoundState
from submissions import notifications
from submissions.models import RULES_FLAG_PREFIX, Hand, HandReview, HandStatus, HandVersion, PendingHandCheck

# submissions.tasks.check_round_hands, found by name: the tasks module imports this one.
CHECK_TASK = "submissions.check_round_hands"
LEGAL_AGAIN = "The round's cards changed again: your hand is legal again, and the flag is lifted."


def request_check(round_id: int, now: datetime | None = None) -> None:
    """Inside the transaction that changed the round's cards: record that its hands are to be judged again
    (one statement, the same whatever the hands), and hand the work to a worker once it commits."""
    PendingHandCheck.objects.bulk_create(
        [PendingHandCheck(round_id=round_id, requested_at=now or timezone.now())],
        update_conflicts=True,
        unique_fields=["round"],
        update_fields=["requested_at"],
    )
    transaction.on_commit(lambda: publish(current_app.tasks[CHECK_TASK], round_id), robust=True)


def rounds_to_check() -> list[int]:
    """Rounds whose hands are still to be judged again (for the backstop)."""
    return list(PendingHandCheck.objects.order_by("requested_at").values_list("round_id", flat=True))


def flag_note(problems: list[str]) -> str:
    """What a player whose hand the change made illegal reads: the problems name the cards and the lists. It
    begins as only the site's flag does (Hand.flagged_by_rules)."""
    return f"{RULES_FLAG_PREFIX} {' '.join(problems)} Change your hand before the deadline (rule 4.2a)."


def check_round_hands(round_id: int, now: datetime | None = None) -> None:
    """Judge every submitted hand of an open round under its current rules: flag those that are illegal, lift
    the flags this set on those legal again, tell their players; then forget the round's pending check.
    Idempotent: a hand already flagged for the same reasons is left as it is. A round past its deadline is
    left to its moderators (their review after the deadline)."""
    with transaction.atomic():
        round_ = lock_round_shared(round_id)
        pending = PendingHandCheck.objects.filter(round_id=round_id)
        moment = now or timezone.now()
        if round_ is None or round_.state != RoundState.OPEN or not round_.accepts_hands_at(moment):
            pending.delete()
            return
        round_ = Round.objects.select_related("league").get(pk=round_id)  # the lock is held; the league too
        hands = list(
            Hand.objects.select_for_update(of=("self",))
            .filter(round_id=round_id, status=HandStatus.SUBMITTED)
            .select_related("player")
            .order_by("pk")
        )
        cards = dict(
            HandVersion.objects.filter(hand__in=hands, is_current=True).values_list("hand_id", "cards")
        )
        problems = _problems_by_hand(round_, hands, cards)
        for hand in hands:
            _settle(hand, round_, problems.get(hand.pk, []))
        pending.delete()


def _problems_by_hand(round_: Round, hands: list[Hand], cards: dict[int, list[str]]) -> dict[int, list[str]]:
    """{hand id: the problems of its cards}, every hand judged in one call of check_hand (its queries do not
    grow with the hands). Only the cards are judged: the hand size and card rules cannot change while a round
    is open, and each hand met them when it was submitted."""
    inputs: list[str] = []
    spans = []
    for hand in hands:
        own = list(cards.get(hand.pk, []))
        spans.append((hand.pk, len(inputs), len(own)))
        inputs.extend(own)
    rules = dataclasses.replace(rules_for_round(round_), hand_size=None, card_rules=())
    verdict = check_hand(inputs, rules)
    return {
        hand_id: [
            problem.message for card in verdict.cards[start : start + count] for problem in card.problems
        ]
        for hand_id, start, count in spans
    }


def _settle(hand: Hand, round_: Round, problems: list[str]) -> None:
    """Flag, re-word or unflag one locked hand as its problems say; audited, and its player told."""
    if problems:
        note = flag_note(problems)
        if hand.flagged and (note == hand.flag_message or note in hand.flag_message.split("\n\n")):
            return  # already told exactly this
        before = {"flagged": hand.flagged, "flag_message": hand.flag_message}
        if hand.flagged and not hand.flagged_by_rules:
            hand.flag_message = f"{hand.flag_message}\n\n{note}"  # the moderator's flag stays theirs
        else:
            hand.flag_message = note
        hand.flagged = True
        action, message = HandReview.Action.FLAG, note
    elif hand.flagged and hand.flagged_by_rules:
        before = {"flagged": True, "flag_message": hand.flag_message}
        hand.flagged, hand.flag_message = False, ""
        action, message = HandReview.Action.UNFLAG, LEGAL_AGAIN
    else:
        return
    hand.save(update_fields=["flagged", "flag_message", "updated_at"])
    review = HandReview.objects.create(hand=hand, action=action, message=message, moderator=None)
    log_action(
        hand,
        f"hand.{action}",
        actor=None,
        before=before,
        after={"flagged": hand.flagged, "flag_message": hand.flag_message},
        note="By the site: the cards the round allows changed while it was open (4.2a).",
    )
    notifications.hand_rules_changed(review, hand, round_)
