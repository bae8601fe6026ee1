"""Reading a round or a match with the permission checks every result change makes: a draft round and an
unrevealed match are not found, only a moderator of the league decides, and a moderator who plays in the round
may not decide it while someone else can (rounds.permissions)."""

from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from rounds.models import Round, RoundState
from rounds.permissions import can_manage_league, own_interest_refusal
from submissions import selectors as hand_selectors
from submissions.models import Hand

from ..models import Match, RoundTally
from .errors import ScoringForbidden, ScoringNotFound
from .table import table_of


def scoring_round(round_id: int | str) -> Round:
    """The round, unless it is unknown or a draft (ScoringNotFound)."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None or round_.state == RoundState.DRAFT:
        raise ScoringNotFound("No such round.")
    return round_


def visible_match(match_id: int | str, now: datetime | None = None) -> Match:
    """The match, with its round and hands, once its round is revealed; ScoringNotFound otherwise."""
    match = (
        Match.objects.select_related(
            "round__league", "hand_a__player__profile", "hand_b__player__profile", "decided_by__profile"
        )
        .filter(pk=match_id)
        .first()
    )
    if match is None or not hand_selectors.is_revealed(match.round, now or timezone.now()):
        raise ScoringNotFound("No such match.")
    return match


def revealed_round_table(round_: Round, now: datetime | None = None) -> RoundTally:
    """The round's scoring bookkeeping; ScoringNotFound before the reveal (nothing of it is public yet)."""
    tally = table_of(round_, now)
    if tally is None:
        raise ScoringNotFound("The results of this round are not open yet: its hands are not revealed.")
    return tally


def _require_moderator(actor, round_):
    if not can_manage_league(actor, round_.league):
        raise ScoringForbidden("Only a moderator of this league can do that.")


def plays_in(actor: AbstractBaseUser | AnonymousUser | None, round_id: int) -> bool:
    """Whether `actor` has a hand in the round (whatever became of it): the round's results are theirs too."""
    return Hand.objects.filter(round_id=round_id, player_id=getattr(actor, "pk", None)).exists()


ROUND_INTEREST = "you play in this round, so its results are yours to win too"


def own_match_refusal(actor: AbstractBaseUser | AnonymousUser, match: Match) -> str:
    """Why `actor` may not decide `match` (set its result, resolve its challenges), or "" when they may: they
    play in its round — their own match, or another one whose result moves their rank — and someone else can
    manage the league (rounds.permissions). For the services and the match page."""
    if actor.pk in _players_of(match):
        return own_interest_refusal(actor, match.round.league, what="decide a match you played")
    if plays_in(actor, match.round_id):
        return own_interest_refusal(
            actor, match.round.league, what="decide a match of this round", why=ROUND_INTEREST
        )
    return ""


def challenge_refusal(user: AbstractBaseUser | AnonymousUser, match: Match) -> str:
    """Why `user` may not challenge the result of `match`, or "" when they may. Rule 6.3c speaks of players:
    the league's players (a hand in any of its rounds) and whoever can manage the league may challenge;
    anyone may still verify a result (6.3a). For the service and the match page (one or two queries)."""
    league = match.round.league
    if not user.is_authenticated:
        return "Log in to challenge a result."
    if can_manage_league(user, league):
        return ""
    if Hand.objects.filter(round__league_id=league.pk, player_id=user.pk).exists():
        return ""
    return (
        f"Only the players of {league.name} (a hand in any of its rounds) and its moderators may challenge "
        "a result (rule 6.3c). You can still verify it: report the result you see (rule 6.3a)."
    )


def _players_of(match):
    return {match.hand_a.player_id, match.hand_b.player_id}
