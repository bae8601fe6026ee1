"""The moderator's review pages: the hands of a round with their verdicts and histories, the declaration of
not playing that opens them before the deadline, and a review action (flag, notice, rename, similar hand,
disqualification). Who may see them is decided by submissions.selectors (can_review, early_access)."""

from dataclasses import replace

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from audit.models import AuditEntry
from audit.selectors import name_people
from rounds.catalog.handlist import parse_hand_list
from rounds.catalog.resolve import is_known_card
from rounds.legality import check_hand, rules_for_round
from rounds.models import Round, RoundState
from rounds.moderation_views import moderator_required

from . import errors, selectors
from .models import Hand, HandReview, HandVersion
from .services import preview, review


def _moderated_round(round_id):
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None or round_.state == RoundState.DRAFT:
        raise Http404("No such round.")
    return round_


def _reviewable_round(request, round_id):
    round_ = _moderated_round(round_id)
    if not selectors.can_review(request.user, round_, timezone.now()):
        raise PermissionDenied(
            "Only a moderator of this league who has no hand in the round can review its hands "
            "before the deadline."
        )
    return round_


def _judge_all(round_, hands):
    """Verdicts for every hand with one call of check_hand: its queries do not grow with the hands."""
    inputs, spans = [], []
    for hand in hands:
        cards = hand.current_version.cards if hand.current_version else []
        spans.append((len(inputs), len(cards)))
        inputs.extend(cards)
    rules = replace(rules_for_round(round_), hand_size=None)
    verdict = check_hand(inputs, rules)
    for hand, (start, count) in zip(hands, spans, strict=True):
        hand.card_verdicts = verdict.cards[start : start + count]
        version = hand.current_version
        similar = version is not None and version.source == HandVersion.Source.MODERATOR
        hand.legal = all(card.legal for card in hand.card_verdicts) and round_.hand_size_allows(
            count, similar_hand=similar
        )


@moderator_required
@never_cache
def review_hands(request, round_id):
    now = timezone.now()
    round_ = _moderated_round(round_id)
    if selectors.is_revealed(round_, now):
        round_ = _reviewable_round(request, round_id)
    else:
        access = selectors.early_access(request.user, round_)
        if access == "undeclared":
            # Seeing the hands bars the moderator from playing: that takes a deliberate POST, never a page
            # view (a link in a forum post must not cost anyone their entry).
            context = {"round": round_, "entries": Hand.objects.filter(round=round_).count()}
            return render(request, "submissions/review_declare.html", context)
        if access != "declared":
            raise PermissionDenied(
                "Only a moderator of this league who has no hand in the round can review its hands "
                "before the deadline."
            )
    hands = selectors.hands_of_round(round_)
    _judge_all(round_, hands)
    # The audit trail of every hand (versions, flags, renames…) in one query, newest first.
    hand_type = ContentType.objects.get_for_model(Hand)
    entries = (
        AuditEntry.objects.filter(content_type=hand_type, object_id__in=[hand.pk for hand in hands])
        .select_related("actor__profile")
        .order_by("-created_at", "-id")
    )
    by_hand = {}
    for entry in name_people(entries):
        by_hand.setdefault(entry.object_id, []).append(entry)
    refusals = review.review_refusals(request.user, round_, hands)
    for hand in hands:
        hand.history = by_hand.get(hand.pk, [])
        hand.review_refusal = refusals.get(hand.pk, "")
    plays = bool(refusals)
    opponents = [hand for hand in hands if hand.player_id != request.user.pk]
    opponent_refusal = opponents[0].review_refusal if plays and opponents else ""
    context = {
        # A moderator who plays (after the reveal): their own hand is never theirs to review; the others only
        # where nobody else can manage the league, and then it shows (rounds.permissions).
        "plays": plays,
        "plays_alone": plays and bool(opponents) and not opponent_refusal,
        "opponent_refusal": opponent_refusal,
        "round": round_,
        "hands": hands,
        "state": round_.state_at(now),
        "past_deadline": not round_.accepts_hands_at(now),
        "actions": HandReview.Action,
    }
    return render(request, "submissions/review.html", context)


@moderator_required
@require_POST
def declare_not_playing(request, round_id):
    try:
        preview.declare_not_playing(moderator=request.user, round_id=round_id)
    except errors.HandNotFound:
        raise Http404("No such round.") from None
    except errors.ReviewNotAllowed as error:
        raise PermissionDenied(str(error)) from None
    except errors.HandConflict as error:
        messages.error(request, str(error))
        return redirect("rounds:moderate-round", round_id)
    return redirect("submissions:review", round_id)


@moderator_required
@require_POST
def review_action(request, hand_id):
    try:
        hand = review.reviewable_hand(request.user, hand_id)
    except errors.HandNotFound:
        raise Http404("No such hand.") from None
    except errors.ReviewNotAllowed as error:
        raise PermissionDenied(str(error)) from None
    except errors.HandConflict as error:  # not declared yet: the review page asks first
        messages.error(request, str(error))
        round_id = Hand.objects.filter(pk=hand_id).values_list("round_id", flat=True).first()
        return redirect("submissions:review", round_id)
    cards_text = request.POST.get("cards", "")[:5000]
    try:
        review.review_hand(
            actor=request.user,
            hand_id=hand.pk,
            action=request.POST.get("action", ""),
            message=request.POST.get("message", "")[:2000],
            cards=parse_hand_list(cards_text, is_card=is_known_card) if cards_text.strip() else None,
            name=request.POST.get("name", "")[:500],
        )
    except errors.HandInputError as error:
        messages.error(request, " ".join(p for problems in error.errors.values() for p in problems))
    except errors.IllegalHand as error:
        problems = [p.message for card in error.verdict.cards for p in card.problems]
        messages.error(request, "The similar hand is not legal: " + " ".join(problems))
    except errors.HandConflict as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "Review saved; the player is notified.")
    return redirect(f"{reverse('submissions:review', args=[hand.round_id])}#hand-{hand.pk}")
