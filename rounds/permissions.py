"""Who may manage which league, and the "never self-serving" rule of every moderator power, in one place.

`can_manage_league` is the one test of a moderator's power over a league; `leagues_managed_by` lists the
leagues a user manages.

A moderator's power over a league (can_manage_league) is never used in their own
interest: where the actor has an interest (their own match, their own bonus, a round they play in), the power
is left to another person who can manage the league — its named moderators, or every site moderator when it
names none, and the site's administrators. The refusal names them. Where nobody else can act, the actor may,
and the pages then say it was decided by a moderator who played (docs/moderators.md).

Every power calls `guard_own_interest` (or reads `own_interest_refusal` to say so on a page before anyone
presses a button): results, challenges, bonus, accepted cards, hand reviews, finalizing, reopening and
players' posted rows.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from accounts.names import display_name
from accounts.services import is_moderator

from .models import League


def can_manage_league(user: AbstractBaseUser | AnonymousUser, league: League) -> bool:
    """Superusers always; site moderators when the league names none, else only the league's moderators."""
    if not is_moderator(user):
        return False
    if getattr(user, "is_superuser", False):
        return True
    named = list(league.moderators.all())
    return not named or user in named


def leagues_managed_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[League] | Sequence[League]:
    """The leagues `user` manages (can_manage_league): every league for a superuser, none for a
    non-moderator."""
    if not is_moderator(user):
        return League.objects.none()
    leagues = League.objects.prefetch_related("moderators")
    if getattr(user, "is_superuser", False):
        return leagues
    return [league for league in leagues if can_manage_league(user, league)]


# A league that names nobody is managed by every site moderator: the refusal names this many and adds "or any
# other site moderator".
NAMED_SITE_MODERATORS = 3


@dataclass(frozen=True)
class OtherModerators:
    """Who else can manage a league, as the refusal names them."""

    names: tuple  # display names, sorted case-insensitively
    every_site_moderator: bool = False  # the league names no moderator: any site moderator can act
    more: bool = False  # more site moderators than `names`

    def __bool__(self):
        return bool(self.names)

    def __str__(self):
        listed = ", ".join(self.names)
        if self.every_site_moderator and self.more:
            return f"{listed} or any other site moderator"
        return listed


def others_who_can_manage(league: League, actor: AbstractBaseUser | AnonymousUser | None) -> OtherModerators:
    """Everyone besides `actor` who can manage `league` (can_manage_league): its named moderators who are
    still moderators, or every site moderator when it names none, and the superusers; active accounts only.
    Two queries."""
    User = get_user_model()
    named_ids = list(league.moderators.values_list("pk", flat=True))
    in_group = Q(groups__name=settings.MODERATORS_GROUP)
    can_manage = Q(is_superuser=True) | (in_group & Q(pk__in=named_ids) if named_ids else in_group)
    candidates = User.objects.filter(can_manage, is_active=True)
    actor_pk = getattr(actor, "pk", None)  # None: an anonymous or missing actor, nobody to leave out
    if actor_pk is not None:
        candidates = candidates.exclude(pk=actor_pk)
    people = list(candidates.select_related("profile").distinct())
    names = sorted({display_name(user) for user in people}, key=str.casefold)
    if named_ids:
        return OtherModerators(tuple(names))
    shown = tuple(names[:NAMED_SITE_MODERATORS])
    return OtherModerators(shown, every_site_moderator=True, more=len(names) > len(shown))


def league_managers(league: League) -> list[AbstractBaseUser]:
    """Everyone who can manage `league` (can_manage_league), active accounts only, with their profiles: its
    named moderators who are still moderators, or every site moderator when it names none, and the
    superusers. Two queries, however many they are."""
    named_ids = list(league.moderators.values_list("pk", flat=True))
    in_group = Q(groups__name=settings.MODERATORS_GROUP)
    can_manage = Q(is_superuser=True) | (in_group & Q(pk__in=named_ids) if named_ids else in_group)
    managers = get_user_model().objects.filter(can_manage, is_active=True)
    return list(managers.select_related("profile").distinct().order_by("pk"))


def own_interest_refusal(
    actor: AbstractBaseUser | AnonymousUser | None,
    league: League,
    *,
    what: str,
    why: str = "it concerns your own hand",
) -> str:
    """The sentence refusing `actor` to "{what}" in their own interest while someone else can, naming who;
    "" when nobody else can manage the league (then the actor may, and it is shown)."""
    others = others_who_can_manage(league, actor)
    if not others:
        return ""
    return f"You cannot {what}: {why}. Ask another moderator of this league ({others})."


def guard_own_interest(
    actor: AbstractBaseUser | AnonymousUser | None,
    league: League,
    *,
    what: str,
    error: type[Exception],
    why: str = "it concerns your own hand",
) -> None:
    """Raise `error` (the caller's 403 exception) with own_interest_refusal's sentence, if it has one."""
    refusal = own_interest_refusal(actor, league, what=what, why=why)
    if refusal:
        raise error(refusal)


def own_hand_refusal(actor: AbstractBaseUser | AnonymousUser | None, league: League) -> str:
    """Why `actor` may not review their own hand: never, even as the league's only moderator (a review changes
    the hand: its flag, notice, name, status or cards). Names who can."""
    others = others_who_can_manage(league, actor)
    who = (
        f"Ask another moderator of this league ({others})."
        if others
        else "Nobody else moderates this league: a site administrator can name another moderator for it."
    )
    return (
        "This is your own hand: a moderator never reviews their own hand, not even a league's only "
        f"moderator. {who}"
    )
