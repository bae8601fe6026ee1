"""Who may see which hands, and the read queries behind the pages and the API.

Secrecy: before a round's deadline only the owner sees a hand, plus a moderator of the
round's league who has no hand in it. Past the deadline (derived from time, whether or not the reveal task has
run) everyone sees every hand. Every query here is bounded: a constant number whatever the number of hands.
"""

from datetime import datetime, timedelta
from typing import Literal

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from accounts.names import display_name
from phm.pagination import Page
from rounds.models import League, Round, RoundState
from rounds.permissions import can_manage_league

from .models import Hand, HandReview, HandsPreview, HandVersion


def is_revealed(round_: Round, now: datetime) -> bool:
    return round_.state_at(now) in (RoundState.REVEALED, RoundState.FINAL)


def is_playing(user: AbstractBaseUser | AnonymousUser, round_: Round) -> bool:
    return user.is_authenticated and Hand.objects.filter(round=round_, player=user.pk).exists()


def has_declared_not_playing(user: AbstractBaseUser | AnonymousUser, round_: Round) -> bool:
    return user.is_authenticated and HandsPreview.objects.filter(round=round_, moderator=user.pk).exists()


def in_rounds_declared_by(user: User) -> Q:
    """A condition on rows with a `round`: those of the rounds `user` declared they will not play in (a
    moderator who may see who entered before the deadline; the outbox's secret messages, for one)."""
    return Q(Exists(HandsPreview.objects.filter(round=OuterRef("round"), moderator=user)))


def may_review_before_deadline(user: AbstractBaseUser | AnonymousUser, round_: Round) -> bool:
    """A moderator of the league who declared they will not play in the round, and has no hand in it (the
    playing-moderator rule). Declaring is an explicit POST (services.declare_not_playing), never a view."""
    return (
        can_manage_league(user, round_.league)
        and has_declared_not_playing(user, round_)
        and not is_playing(user, round_)
    )


def early_access(
    user: AbstractBaseUser | AnonymousUser, round_: Round
) -> Literal["declared", "undeclared", "playing"] | None:
    """What a user may do with a round's hands before its deadline, in three queries at most: "declared"
    (a moderator of the league who declared they will not play: review), "undeclared" (such a moderator who
    has not declared yet), "playing" (a moderator with a hand) or None (not a moderator of the league)."""
    if not can_manage_league(user, round_.league):
        return None
    if is_playing(user, round_):
        return "playing"
    return "declared" if has_declared_not_playing(user, round_) else "undeclared"


def needs_declaration(user: AbstractBaseUser | AnonymousUser, round_: Round, now: datetime) -> bool:
    """A moderator of the league, without a hand, who must first declare they will not play to see the
    hands of a round before its deadline."""
    return (
        round_.state != RoundState.DRAFT
        and not is_revealed(round_, now)
        and can_manage_league(user, round_.league)
        and not is_playing(user, round_)
        and not has_declared_not_playing(user, round_)
    )


def can_see_all_hands(user: AbstractBaseUser | AnonymousUser, round_: Round, now: datetime) -> bool:
    if round_.state == RoundState.DRAFT:
        return False
    return is_revealed(round_, now) or may_review_before_deadline(user, round_)


def can_review(user: AbstractBaseUser | AnonymousUser, round_: Round, now: datetime) -> bool:
    """Moderators of the league; before the deadline only those who declared they won't play (docs/api.md)."""
    if not can_manage_league(user, round_.league):
        return False
    return is_revealed(round_, now) or may_review_before_deadline(user, round_)


def _versions():
    return Prefetch("versions", queryset=HandVersion.objects.order_by("number"))


def by_a_player_of_the_round() -> Exists:
    """A filter of HandReview: reviews by a moderator who has a hand in the reviewed hand's round. Allowed
    only where nobody else can manage the league (rounds.permissions), and then shown with the hand ("decided
    by a moderator who played this round"): pages, the hands API and the results page all read it here."""
    players = Hand.objects.filter(round_id=OuterRef("hand__round_id"), player_id=OuterRef("moderator_id"))
    return Exists(players)


def decided_by_player() -> Exists:
    """An annotation of Hand: whether a moderator who plays in its round reviewed it."""
    return Exists(HandReview.objects.filter(by_a_player_of_the_round(), hand_id=OuterRef("pk")))


def hands_of_round(round_: Round, page: Page | None = None) -> list[Hand]:
    """Every hand with player, profile and all versions, in entry order, each with `decided_by_player`
    (decided_by_player()); two queries. `page` (phm.pagination.Page): only its hands, still two queries."""
    hands: QuerySet[Hand] | list[Hand] = (
        Hand.objects.filter(round=round_)
        .select_related("player__profile")
        .annotate(decided_by_player=decided_by_player())
        .prefetch_related(_versions())
        .order_by("created_at", "pk")
    )
    hands = list(page.of(hands) if page is not None else hands)
    for position, hand in enumerate(hands, start=1 + (page.offset if page is not None else 0)):
        # Numbers are given by the reveal task in this same order; until it runs the page shows the same ones.
        hand.display_number = hand.number or position  # type: ignore[attr-defined]
        _attach_versions(hand)
    return hands


def count_hands(round_: Round) -> int:
    return Hand.objects.filter(round=round_).count()


def _attach_versions(hand):
    versions = list(hand.versions.all())
    for version in versions:
        version.hand = hand  # no query when the canonical text needs the player
    hand.version_list = versions
    hand.current_version = next((v for v in versions if v.is_current), versions[-1] if versions else None)
    by_player = [v for v in versions if v.source == HandVersion.Source.PLAYER]
    # What the player committed to: their own last version, never one a moderator made (a replacement is not
    # theirs to prove); None for a hand without one (none is made so: a replacement needs a version before).
    hand.committed_version = by_player[-1] if by_player else None


def players_own_version(hand: Hand) -> HandVersion | None:
    """The player's own last version of the hand: what they submitted and committed to, never a version a
    moderator made (a similar hand, a forum correction); one query. None for a hand without one."""
    own: HandVersion | None = (
        HandVersion.objects.filter(hand=hand, source=HandVersion.Source.PLAYER).order_by("-number").first()
    )
    return own


def own_hand(user: AbstractBaseUser | AnonymousUser, round_: Round) -> Hand | None:
    """The viewer's hand in the round with its versions and reviews, or None; three queries at most."""
    if not user.is_authenticated:
        return None
    hand = (
        Hand.objects.filter(round=round_, player=user.pk)
        .select_related("player", "round")
        .prefetch_related(
            _versions(), Prefetch("reviews", queryset=HandReview.objects.order_by("created_at"))
        )
        .first()
    )
    if hand is not None:
        _attach_versions(hand)
    return hand


def visible_hand(user: AbstractBaseUser | AnonymousUser, hand_id: int, now: datetime) -> Hand | None:
    """The hand if the viewer may see it, else None (callers answer 404 either way: nothing is confirmed)."""
    hand = Hand.objects.select_related("round__league", "player").filter(pk=hand_id).first()
    if hand is None:
        return None
    if hand.player_id == getattr(user, "pk", None) or can_see_all_hands(user, hand.round, now):
        return hand
    return None


def player_display_name(user: User) -> str:
    return display_name(user)


# How far back a personal calendar keeps deadlines that have passed.
CALENDAR_PAST = timedelta(days=60)


def calendar_leagues(user: User) -> QuerySet[League]:
    """The leagues whose deadlines go in `user`'s calendar: the ones they have a hand in or follow."""
    played = Hand.objects.filter(player=user).values("round__league_id")
    followed = League.followers.through.objects.filter(user=user).values("league_id")
    return League.objects.filter(Q(pk__in=played) | Q(pk__in=followed))


def calendar_rounds(user: User, now: datetime) -> QuerySet[Round]:
    """The non-draft rounds of `user`'s leagues whose deadline is ahead or passed within CALENDAR_PAST; one
    query (the leagues are a subquery)."""
    return (
        Round.objects.filter(league__in=calendar_leagues(user), deadline__gte=now - CALENDAR_PAST)
        .exclude(state=RoundState.DRAFT)
        .select_related("league")
        .order_by("deadline", "pk")
    )
