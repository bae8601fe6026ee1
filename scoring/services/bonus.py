"""Bonus League points (rules 6.2, 7.7): awarded to a player with a hand in a revealed regular round,
withdrawn when mistaken; who may do either. Either tells the player, and settles the league's winners again (a
bonus can change who leads a finished league)."""

from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from accounts.names import display_name
from audit.services import log_action
from rounds.locks import lock_round_shared
from rounds.models import Round
from rounds.permissions import own_interest_refusal
from submissions import selectors as hand_selectors
from submissions.models import Hand, HandStatus

from .. import correction_notices
from ..models import BonusAward
from .access import _require_moderator, plays_in, scoring_round
from .bonus_player import bonus_player
from .changes import _clean_text
from .errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound
from .league import settle_computed_winners

MAX_BONUS = 10_000


def bonus_round_refusal(round_: Round) -> str:
    """Why no bonus can be awarded in this round whoever asks, or "": a tie-break round (rule 5.3a) only ranks
    the players tied for first, and its League points are not added to the standings, so a bonus in it would
    count nowhere (rule 6.2 bonus points are League points)."""
    if not round_.tiebreak:
        return ""
    return (
        f"Round {round_.code} is a tie-break round: it only ranks the players tied for first (rule 5.3a) and "
        "its League points are not added to the league's standings, so a bonus in it would count nowhere. "
        "Award bonus League points (rule 6.2) in one of the league's regular rounds."
    )


def bonus_refusal(
    actor: AbstractBaseUser | AnonymousUser, round_: Round, player: AbstractBaseUser | None = None
) -> str:
    """Why `actor` may not award `player` (anyone, without one) bonus points in the round, or "": they play
    in it (the bonus is their own, or moves a rival) and someone else can manage the league."""
    if player is not None and player.pk == actor.pk:
        return own_interest_refusal(actor, round_.league, what="award bonus points to yourself")
    if plays_in(actor, round_.pk):
        return own_interest_refusal(
            actor,
            round_.league,
            what="award bonus points in a round you play in",
            why="the league's standings are yours to win too",
        )
    return ""


def award_bonus(
    *,
    actor: User,
    round_id: int | str,
    player_username: str,
    points: int | str,
    reason: str,
    now: datetime | None = None,
) -> BonusAward:
    """Rules 6.2 / 7.7: bonus League points for a player in a round, with the reason; audited.

    Rule 7.7a: a player earns bonus points when *their hand* meets the round's requirements, and 6.2 speaks of
    earning only: a bonus is a positive number of League points, for a player with a hand in the round (not
    disqualified). The rules know no penalty points; a mistaken award is corrected by withdrawing it.
    `player_username`: the login name, or the name the tables show (bonus_player)."""
    round_ = scoring_round(round_id)
    _require_moderator(actor, round_)
    refused = bonus_round_refusal(round_)
    if refused:
        raise ScoringConflict(refused)
    try:
        points = int(points)
    except (TypeError, ValueError):
        raise ScoringInputError({"points": ["Give the bonus as a whole number of League points."]}) from None
    if points <= 0:
        raise ScoringInputError(
            {
                "points": [
                    f"A bonus is a positive number of League points, not {points}: players earn bonus "
                    "points (rules 6.2, 7.7a); the rules know no penalty points."
                ]
            }
        )
    if points > MAX_BONUS:
        raise ScoringInputError({"points": [f"A bonus is at most {MAX_BONUS:,} League points."]})
    reason = _clean_text(reason, "reason", required=True, what="the reason for the bonus")
    if not hand_selectors.is_revealed(round_, now or timezone.now()):
        # Before the reveal, whether someone has a hand is secret (the name's suggestions would tell); and the
        # hand cannot be judged yet.
        raise ScoringConflict(
            f"Round {round_.code} is still open for hands: bonus points are awarded after its deadline."
        )
    player = bonus_player(round_, player_username)
    if not Hand.objects.filter(round=round_, player=player).exclude(status=HandStatus.DISQUALIFIED).exists():
        raise ScoringInputError(
            {
                "player": [
                    f"{display_name(player)} has no hand in round {round_.code} (or it was disqualified): "
                    "bonus points go to a player whose hand meets the round's requirements (rule 7.7a)."
                ]
            }
        )
    refusal = bonus_refusal(actor, round_, player)
    if refusal:
        raise ScoringForbidden(refusal)
    with transaction.atomic():
        lock_round_shared(round_.pk)  # the round before the league (settle_computed_winners): the lock order
        award = BonusAward.objects.create(
            round=round_, player=player, points=points, reason=reason, awarded_by=actor
        )
        log_action(
            round_,
            "round.bonus_awarded",
            actor=actor,
            after={"player": player.username, "points": points},
            note=reason,
        )
        correction_notices.bonus_awarded(award)
        # The standings changed: the league's winners follow, by the same path as finalizing (5.3, 5.3a).
        settle_computed_winners(
            round_.league_id,
            actor=actor,
            now=now,
            cause=f"{points:+,} bonus League points for {display_name(player)} in {round_.code}",
        )
    return award


def bonus_withdrawal_refusal(actor: AbstractBaseUser | AnonymousUser | None, round_: Round) -> str:
    """Why `actor` may not withdraw bonus points in the round (anyone's: the standings are theirs to win too),
    or "": they play in it and someone else can manage the league (rounds.permissions)."""
    if not plays_in(actor, round_.pk):
        return ""
    return own_interest_refusal(
        actor,
        round_.league,
        what="withdraw bonus points in a round you play in",
        why="the league's standings are yours to win too",
    )


def withdraw_bonus(
    *,
    actor: User,
    award_id: int | str,
    reason: str,
    round_id: int | str | None = None,
    now: datetime | None = None,
) -> BonusAward:
    """Withdraw a mistaken bonus award (the way to correct one, since a bonus cannot be negative): the award
    stays on record with who withdrew it, when and why, and counts nowhere any more; audited on the round.

    Same rules as awarding: a moderator of the league, at any time after the reveal (final rounds included,
    as bonus is kept apart from the frozen table). `round_id`: the round the caller reached the award through
    (the API's URL); an award of another round is not found."""
    award = BonusAward.objects.select_related("round__league").filter(pk=award_id).first()
    if award is None or (round_id is not None and award.round_id != int(round_id)):
        raise ScoringNotFound("No such bonus award in this round.")
    round_ = award.round
    _require_moderator(actor, round_)
    refusal = bonus_withdrawal_refusal(actor, round_)
    if refusal:
        raise ScoringForbidden(refusal)
    reason = _clean_text(reason, "reason", required=True, what="the reason for withdrawing the bonus")
    with transaction.atomic():
        lock_round_shared(round_.pk)
        award = BonusAward.objects.select_for_update().select_related("player").get(pk=award.pk)
        if award.withdrawn:
            raise ScoringConflict(f"This bonus was already withdrawn: {award.withdrawal_reason}")
        award.withdrawn_at = now or timezone.now()
        award.withdrawn_by = actor
        award.withdrawal_reason = reason
        award.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawal_reason"])
        log_action(
            round_,
            "round.bonus_withdrawn",
            actor=actor,
            before={"player": award.player.username, "points": award.points, "reason": award.reason},
            after={"award": award.pk, "withdrawn": True},
            note=reason,
        )
        correction_notices.bonus_withdrawn(award)
        settle_computed_winners(
            round_.league_id,
            actor=actor,
            now=now,
            cause=(
                f"the {award.points:+,} bonus League points for {display_name(award.player)} in "
                f"{round_.code} were withdrawn"
            ),
        )
    return award
