"""Moderator review of a hand (POST /api/hands/{id}/review/ in docs/api.md): flag, unflag, notice, rename,
and after the deadline disqualify or replace by a similar hand (rule 4.2a); who may review which hand."""

import dataclasses
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from rounds.legality import check_hand, rules_for_round
from rounds.locks import lock_round_shared
from rounds.models import League, Round, RoundState
from rounds.permissions import own_hand_refusal, own_interest_refusal
from submissions import notifications, selectors, signals
from submissions.errors import HandConflict, HandInputError, HandNotFound, IllegalHand, ReviewNotAllowed
from submissions.models import Hand, HandReview, HandStatus, HandVersion
from submissions.services.inputs import clean_cards, clean_hand_name
from submissions.services.locks import lower_current_version
from submissions.services.preview import DECLARE_FIRST_MESSAGE
from submissions.services.write import new_version
from submissions.similar_hands import card_changes, similar_hand_refusal

NOTICE_4_2B = "This hand does not enable its player to win the game against any possible hand (rule 4.2b)."
REVIEW_ACTIONS = [choice for choice, _ in HandReview.Action.choices]
AFTER_DEADLINE_ONLY = {HandReview.Action.DISQUALIFY, HandReview.Action.REPLACE}


def reviewable_hand(
    actor: AbstractBaseUser | AnonymousUser, hand_id: int, now: datetime | None = None
) -> Hand:
    """The hand `actor` may review: HandNotFound when they may not even see it, ReviewNotAllowed otherwise."""
    now = now or timezone.now()
    hand: Hand | None = selectors.visible_hand(actor, hand_id, now)
    if hand is None:
        hidden = Hand.objects.select_related("round__league").filter(pk=hand_id).first()
        if hidden is not None and selectors.needs_declaration(actor, hidden.round, now):
            raise HandConflict(DECLARE_FIRST_MESSAGE.format(id=hidden.round_id))
        raise HandNotFound("No such hand.")
    if not selectors.can_review(actor, hand.round, now):
        if hand.player_id == actor.pk and not selectors.is_revealed(hand.round, now):
            raise HandNotFound("No such hand.")  # a player's own hand is theirs to change, not to review
        raise ReviewNotAllowed("Only a moderator of this league can review hands.")
    refusal = review_refusal(actor, hand)
    if refusal:
        raise ReviewNotAllowed(refusal)
    return hand


def review_refusal(actor: AbstractBaseUser | AnonymousUser, hand: Hand) -> str:
    """Why a moderator who may see `hand` may not review it, or "" (docs/api.md: review). Their own hand:
    never, even as the league's only moderator. Any hand of a round they play in (possible only after the
    reveal): only when nobody else can manage the league — then it is shown as decided by a moderator who
    played this round (selectors.by_a_player_of_the_round). rounds.permissions holds the rule."""
    if hand.player_id == actor.pk:
        refusal: str = own_hand_refusal(actor, hand.round.league)
        return refusal
    if Hand.objects.filter(round_id=hand.round_id, player_id=actor.pk).exists():
        return _opponent_refusal(actor, hand.round.league)
    return ""


def review_refusals(
    actor: AbstractBaseUser | AnonymousUser, round_: Round, hands: Iterable[Hand]
) -> dict[int, str]:
    """{hand id: review_refusal(actor, hand)} for the hands of `round_` (all of them, as the review page lists
    them), in a constant number of queries; empty when `actor` has no hand among them."""
    if not any(hand.player_id == actor.pk for hand in hands):
        return {}
    own, others = own_hand_refusal(actor, round_.league), _opponent_refusal(actor, round_.league)
    return {hand.pk: own if hand.player_id == actor.pk else others for hand in hands}


def _opponent_refusal(actor: AbstractBaseUser | AnonymousUser, league: League) -> str:
    refusal: str = own_interest_refusal(
        actor,
        league,
        what="review hands in this round",
        why="you play in it, and each of its hands is your opponent",
    )
    return refusal


def review_hand(
    *,
    actor: User,
    hand_id: int,
    action: str,
    message: str = "",
    cards: list[str] | None = None,
    name: str = "",
    now: datetime | None = None,
) -> Hand:
    """Apply one review action (POST /api/hands/{id}/review/ in docs/api.md); audited; the player is told."""
    if action not in REVIEW_ACTIONS:
        raise HandInputError({"action": [f"Choose one of: {', '.join(REVIEW_ACTIONS)}."]})
    message = (message or "").strip()
    hand = reviewable_hand(actor, hand_id, now)
    with transaction.atomic():
        round_ = lock_round_shared(hand.round_id)
        # Only the hand's row: locking its player's row too would deadlock with a report by that player, whose
        # insert checks the player's key while this review waits for the round's tally (4.2a supersession).
        hand = Hand.objects.select_for_update(of=("self",)).select_related("player").get(pk=hand.pk)
        moment = now or timezone.now()
        past_deadline = not round_.accepts_hands_at(moment)
        if action in AFTER_DEADLINE_ONLY and not past_deadline:
            raise HandConflict(
                "A hand can be disqualified or replaced only after the deadline (rule 4.2a); "
                "before it, flag the hand so the player can fix it."
            )
        if action in AFTER_DEADLINE_ONLY and round_.state == RoundState.FINAL:
            raise HandConflict(
                f"Round {round_.code} is final: reopen it before disqualifying or replacing a hand."
            )
        before, after = _apply_review(hand, round_, actor, action, message, cards, name, moment)
        hand.save()
        review = HandReview.objects.create(
            hand=hand, action=action, message=message or after.get("notice", ""), moderator=actor
        )
        log_action(hand, f"hand.{action}", actor=actor, before=before, after=after, note=message)
        notifications.hand_reviewed(review, hand, round_)
    return hand


def _apply_review(
    hand: Hand,
    round_: Round,
    actor: User,
    action: str,
    message: str,
    cards: list[str] | None,
    name: str,
    moment: datetime,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(before, after) of the hand as the audit records them; the hand changed, not saved."""
    Action = HandReview.Action
    if action == Action.FLAG:
        if not message:
            raise HandInputError({"message": ["Tell the player what is wrong with the hand."]})
        before: dict[str, Any] = {"flagged": hand.flagged, "flag_message": hand.flag_message}
        hand.flagged, hand.flag_message = True, message
        return before, {"flagged": True, "flag_message": message}
    if action == Action.UNFLAG:
        before = {"flagged": hand.flagged, "flag_message": hand.flag_message}
        hand.flagged, hand.flag_message = False, ""
        return before, {"flagged": False, "flag_message": ""}
    if action == Action.NOTICE:
        before = {"notice": hand.notice}
        hand.notice = message or NOTICE_4_2B
        return before, {"notice": hand.notice}
    if action == Action.RENAME:
        new_name = clean_hand_name(name)
        if not new_name:
            raise HandInputError({"name": ["Give the hand its new name."]})
        before = {"name": hand.name}
        hand.name = new_name
        return before, {"name": new_name}
    if action == Action.DISQUALIFY:
        before = {"status": hand.status}
        hand.status, hand.disqualification_reason = HandStatus.DISQUALIFIED, message
        signals.hand_disqualified.send(sender=Hand, round_id=round_.pk, hand_id=hand.pk, actor=actor)
        return before, {"status": HandStatus.DISQUALIFIED}
    return _replace_with_similar_hand(hand, round_, actor, cards, moment)


def _replace_with_similar_hand(
    hand: Hand, round_: Round, actor: User, cards: list[str] | None, moment: datetime
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Rule 4.2a: "a similar hand, in which any cards causing that hand to be illegal have been removed or
    replaced". Removing cards makes it shorter than the round's hand size, so the replacement may have from
    one card up to the hand size; otherwise it must be legal under the round's rules, and keep every card of
    the player's own hand but those the rules find illegal (similar_hands.similar_hand_refusal). The new
    version records which cards of the player's own hand it removed or replaced — whatever a moderator's
    earlier similar hand held — for everyone to see with the hand after the reveal."""
    cards = clean_cards(cards if cards is not None else [])
    if not cards:
        raise HandInputError({"cards": ["Give the cards of the similar hand."]})
    if len(cards) > round_.hand_size:
        raise HandInputError(
            {
                "cards": [
                    f"A similar hand has at most the round's {round_.hand_size} cards, not {len(cards)}: "
                    "rule 4.2a removes or replaces cards, it adds none."
                ]
            }
        )
    # The round's rules but its hand size: the count was checked above (at most N, at least one).
    rules = dataclasses.replace(rules_for_round(round_), hand_size=None)
    verdict = check_hand(cards, rules)
    if not verdict.legal:
        raise IllegalHand(verdict)
    own = selectors.players_own_version(hand)
    if own is not None:
        refusal = similar_hand_refusal(list(own.cards), check_hand(list(own.cards), rules), verdict.names)
        if refusal:
            raise HandInputError({"cards": [refusal]})
    previous = lower_current_version(hand)
    old_cards = list(previous.cards) if previous else []
    version = new_version(
        hand,
        round_,
        hand.player,
        hand.name,
        verdict.names,
        [],
        moment,
        previous,
        by=actor,
        source=HandVersion.Source.MODERATOR,
        save=False,
    )
    version.card_changes = card_changes(list(own.cards) if own is not None else old_cards, version.cards)
    version.save(force_insert=True)
    before = {"status": hand.status, "cards": old_cards}
    hand.status = HandStatus.REPLACED
    signals.hand_replaced.send(sender=Hand, round_id=round_.pk, hand_id=hand.pk, actor=actor)
    return before, {
        "status": HandStatus.REPLACED,
        "cards": version.cards,
        "version": version.number,
        "card_changes": version.card_changes,
    }
