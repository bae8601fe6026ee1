"""Read side of "My PHM" for a moderator: a to-do list across the leagues they manage — open rounds to look
at before their deadline, rounds whose results are being reported, disputes, challenges and undelivered mail.

Secrecy: a moderator sees the hands of an open round only when `submissions.selectors.early_access` would
let them ("declared": they declared they will not play and have no hand); one who has not declared gets only a
link to the review page, which asks for the declaration; one who plays gets nothing about the round's hands.
Nothing here counts or names the hands of an open round beyond that.

Every function runs a constant number of queries whatever the number of leagues, rounds, hands and matches:
the per-round helpers of the lower apps are applied here in bulk (their logic, one query for all rounds).
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from accounts.services import is_moderator
from outbox.models import Message
from outbox.selectors import visible_messages
from rounds.catalog.names import normalize_name
from rounds.catalog.resolve import get_index, resolve_name
from rounds.models import AcceptedCard, League, Round, RoundState
from scoring.models import Challenge, Match, MatchStatus, RoundTally
from scoring.services.table import in_table
from submissions.models import Hand, HandsPreview, HandVersion
from submissions.selectors import player_display_name

from .selectors import ITEMS_LISTED, name_players

MAIL_STALE_AFTER = timedelta(minutes=15)


def managed_leagues(user: User) -> list[League]:
    """The leagues `user` manages (`rounds.services.leagues.can_manage_league`) in two queries: every league
    for a superuser; for a site moderator, the leagues naming them and those naming nobody."""
    if not is_moderator(user):
        return []
    leagues = League.objects.order_by("-created_at", "pk")
    if not user.is_superuser:
        named = League.moderators.through.objects.filter(league_id=OuterRef("pk"))
        leagues = leagues.filter(Q(moderators=user) | ~Exists(named)).distinct()
    return list(leagues)


@dataclass
class HandToReview:
    hand: Hand
    player: str
    reasons: list


@dataclass
class ReviewItem:
    """An open round of a managed league. `access` as `submissions.selectors.early_access` says it: only
    "declared" carries hands; "undeclared" is just the link to the review page, which asks first."""

    round: Round
    access: str
    hands: list[HandToReview] = field(default_factory=list)  # HandToReview, for "declared" only


@dataclass
class ResultsItem:
    """A managed round past its deadline, not final."""

    round: Round
    built: bool  # its match table exists
    counts: Counter[str]  # matches by status

    @property
    def disputed(self):
        return self.counts[MatchStatus.DISPUTED]

    @property
    def challenged(self):
        return self.counts[MatchStatus.CHALLENGED]

    @property
    def unreported(self):
        return self.counts[MatchStatus.UNREPORTED]

    @property
    def matches(self):
        return sum(self.counts.values())

    @property
    def has_open_items(self):
        return bool(self.disputed or self.challenged)

    @property
    def all_reported(self):
        return self.built and not self.has_open_items and not self.unreported


@dataclass
class ModeratorHome:
    leagues: list[League]
    reviews: list[ReviewItem]  # open rounds to look at before their deadline
    results: list[ResultsItem]  # open items first
    disputes: list[Match]  # disputed matches of managed rounds (at most ITEMS_LISTED)
    challenges: list[Challenge]  # open challenges of managed rounds (at most ITEMS_LISTED)
    mail_failed: int
    mail_late: int  # pending for longer than MAIL_STALE_AFTER

    @property
    def review_items(self):
        """What the to-do list shows of the open rounds: declared rounds with hands to look at, and the
        undeclared ones (a link). A round where the moderator plays shows nothing."""
        return [item for item in self.reviews if item.access == "undeclared" or item.hands]

    @property
    def has_anything(self):
        return bool(
            self.review_items
            or self.results
            or self.disputes
            or self.challenges
            or self.mail_failed
            or self.mail_late
        )


def _hands_to_review(round_ids: list[int]) -> dict[int, list[HandToReview]]:
    """{round id: [HandToReview]}: flagged hands, and hands whose current cards the catalog does not know (nor
    the round accepted) or that have the wrong number of cards. Two queries; the full legality check is on
    the review page."""
    if not round_ids:
        return {}
    accepted = defaultdict(set)
    for round_id, name in AcceptedCard.objects.filter(round_id__in=round_ids).values_list("round_id", "name"):
        accepted[round_id].add(normalize_name(name))
    versions = HandVersion.objects.filter(hand__round_id__in=round_ids, is_current=True).select_related(
        "hand__round", "hand__player__profile"
    )
    index = get_index()
    result = defaultdict(list)
    for version in versions.order_by("hand__created_at", "hand_id"):
        hand = version.hand
        reasons = []
        if hand.flagged:
            reasons.append("flagged")
        unknown = [
            card
            for card in version.cards
            if not resolve_name(card, index=index).resolved
            and normalize_name(card) not in accepted[hand.round_id]
        ]
        if unknown:
            reasons.append("not in the catalog: " + ", ".join(unknown))
        if not hand.round.hand_size_allows(len(version.cards)):
            reasons.append(f"{len(version.cards)} cards")
        if reasons:
            result[hand.round_id].append(HandToReview(hand, player_display_name(hand.player), reasons))
    return result


def moderator_home(user: User, now: datetime | None = None) -> ModeratorHome | None:
    """The to-do list across the leagues `user` manages, or None for someone who is no moderator. Constant
    queries: leagues, rounds, own hands and declarations, hands to review, match counts, disputes,
    challenges, mail."""
    now = now or timezone.now()
    if not is_moderator(user):
        return None
    leagues = managed_leagues(user)
    league_ids = [league.pk for league in leagues]
    rounds = list(
        Round.objects.filter(league_id__in=league_ids, state__in=[RoundState.OPEN, RoundState.REVEALED])
        .select_related("league", "tally")
        .order_by("deadline", "pk")
    )
    open_rounds = [round_ for round_ in rounds if round_.accepts_hands_at(now)]
    past = [round_ for round_ in rounds if not round_.accepts_hands_at(now)]

    # early_access for every open round at once: playing, declared or undeclared.
    open_ids = [round_.pk for round_ in open_rounds]
    playing = set(Hand.objects.filter(round_id__in=open_ids, player=user).values_list("round_id", flat=True))
    declared = set(
        HandsPreview.objects.filter(round_id__in=open_ids, moderator=user).values_list("round_id", flat=True)
    )
    reviews = []
    for round_ in open_rounds:
        if round_.pk in playing:
            access = "playing"
        elif round_.pk in declared:
            access = "declared"
        else:
            access = "undeclared"
        reviews.append(ReviewItem(round_, access))
    to_review = _hands_to_review([item.round.pk for item in reviews if item.access == "declared"])
    for item in reviews:
        if item.access == "declared":
            item.hands = to_review.get(item.round.pk, [])

    past_ids = [round_.pk for round_ in past]
    counts: defaultdict[int, Counter[str]] = defaultdict(Counter)
    if past_ids:
        grouped = (
            Match.objects.filter(in_table(), round_id__in=past_ids)
            .values_list("round_id", "status")
            .annotate(n=Count("pk"))
            .order_by()
        )
        for round_id, status, number in grouped:
            counts[round_id][status] = number
    results = [ResultsItem(round_, _has_tally(round_), counts[round_.pk]) for round_ in past]
    results.sort(key=lambda item: (not item.has_open_items, not item.all_reported, item.round.deadline))
    disputes = list(
        Match.objects.filter(in_table(), round_id__in=past_ids, status=MatchStatus.DISPUTED)
        .select_related("round__league", "hand_a__player__profile", "hand_b__player__profile")
        .order_by("round__deadline", "hand_a__number", "hand_b__number")[:ITEMS_LISTED]
    )
    challenges = list(
        Challenge.objects.filter(
            in_table("match__"), match__round_id__in=past_ids, state=Challenge.State.OPEN
        )
        .select_related(
            "match__round__league",
            "match__hand_a__player__profile",
            "match__hand_b__player__profile",
            "challenger__profile",
        )
        .order_by("created_at", "pk")[:ITEMS_LISTED]
    )
    name_players(disputes, challenges)
    failed, late = undelivered_mail(user, now)
    return ModeratorHome(leagues, reviews, results, disputes, challenges, failed, late)


def _has_tally(round_: Round) -> bool:
    try:
        return round_.tally is not None
    except RoundTally.DoesNotExist:
        return False


def undelivered_mail(user: User, now: datetime) -> tuple[int, int]:
    """(failed, pending for over MAIL_STALE_AFTER) among the messages the outbox admin shows `user`; one
    query."""
    stale = Q(state=Message.State.FAILED) | Q(
        state=Message.State.PENDING, created_at__lt=now - MAIL_STALE_AFTER
    )
    states = dict(
        visible_messages(user, Message.objects.filter(stale))
        .values_list("state")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return states.get(Message.State.FAILED, 0), states.get(Message.State.PENDING, 0)
