"""The end of a league (rules 5.3, 5.3a): tie-break rounds for the players tied for first, and the winners."""

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from rounds.models import League, Round
from rounds.permissions import can_manage_league, own_interest_refusal
from rounds.services.errors import RoundConflict, RoundInputError
from rounds.services.lifecycle import create_round, open_round
from submissions.models import Hand

from .. import signals
from ..standings import league_standings
from .errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound

TIEBREAK_DAYS = 7
MAX_WINNERS_NOTE = 5_000


def managed_league(actor: AbstractBaseUser | AnonymousUser, league_id: int) -> League:
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise ScoringNotFound("No such league.")
    if not can_manage_league(actor, league):
        raise ScoringForbidden("Only a moderator of this league can do that.")
    return league


def add_tiebreak_round(
    *,
    actor: User,
    league_id: int,
    now: datetime | None = None,
    rules: Mapping[str, Any] | None = None,
    open_now: bool = False,
) -> Round:
    """A round open only to the players tied for first (5.3a). Without `rules`, a draft copying nothing but
    the league: the moderator sets its rules and opens it like any round. With `rules` (the fields of a new
    round) and `open_now`, it is opened at once (API: POST /api/leagues/{id}/tiebreak/)."""
    league = managed_league(actor, league_id)
    now = now or timezone.now()
    standings = league_standings(league, now)
    tied = standings.tied_for_first
    if not tied and standings.joint_winners and not standings.winners:
        allowed = league.tiebreak_rounds_allowed
        raise ScoringConflict(
            f"{' and '.join(row.name for row in standings.winner_rows)} are joint winners: they are still "
            f"level after the {allowed} tie-break round{'s' if allowed != 1 else ''} this league allows "
            "(5.3a). Allow more tie-break rounds in the league's settings to add another."
        )
    if not tied:
        raise ScoringConflict(
            "Nobody is tied for first: a tie-break round is for a league whose planned rounds are all final "
            "and whose lead is shared."
        )
    if standings.winners:
        raise ScoringConflict("This league already has its declared winners.")
    values = {
        "title": f"Tie-break {len(standings.tiebreak_rounds) + 1}",
        "hand_size": 5,
        "deadline": now + timedelta(days=TIEBREAK_DAYS),
        **(rules or {}),
    }
    try:
        with transaction.atomic():
            round_ = create_round(actor=actor, league=league, now=now, **values)
            round_.tiebreak = True
            round_.save(update_fields=["tiebreak", "updated_at"])
            # The eligible players are set before the round opens: its invitation goes to them only.
            round_.eligible_players.set([row.player for row in tied])
            log_action(
                round_,
                "round.tiebreak_added",
                actor=actor,
                after={"players": sorted(row.player.get_username() for row in tied)},
            )
            if open_now:
                round_ = open_round(actor=actor, round_id=round_.pk, now=now)
    except RoundInputError as error:
        raise ScoringInputError(error.errors) from None
    except RoundConflict as error:
        raise ScoringConflict(str(error)) from None
    return round_


def winners_refusal(actor: AbstractBaseUser | AnonymousUser | None, league: League) -> str:
    """Why `actor` may not declare the league's winners, or "": they play in the league (a hand in any of its
    rounds), so its winners are theirs to be too, and someone else can manage it (rounds.permissions, the
    rule of every moderator power)."""
    if not Hand.objects.filter(round__league_id=league.pk, player_id=getattr(actor, "pk", None)).exists():
        return ""
    return own_interest_refusal(
        actor,
        league,
        what="declare this league's winners",
        why="you play in it, so its winners are yours to be too",
    )


def declare_winners(*, actor: User, league_id: int, usernames: Iterable[str], note: str = "") -> League:
    """The moderator names the league's winner, or joint winners (5.3a), among its players; audited. A
    moderator who plays in the league leaves it to someone else who can manage it (winners_refusal)."""
    league = managed_league(actor, league_id)
    refusal = winners_refusal(actor, league)
    if refusal:
        raise ScoringForbidden(refusal)
    note = str(note or "").strip()
    if len(note) > MAX_WINNERS_NOTE:
        raise ScoringInputError({"note": [f"Keep the note under {MAX_WINNERS_NOTE:,} characters."]})
    wanted = {str(name).strip().lower() for name in usernames if str(name).strip()}
    if not wanted:
        raise ScoringInputError({"winners": ["Choose at least one player."]})
    standings = league_standings(league)
    players = {row.player.get_username().lower(): row.player for row in standings.rows}
    unknown = sorted(wanted - set(players))
    if unknown:
        raise ScoringInputError({"winners": [f"Not a player of this league: {', '.join(unknown)}."]})
    chosen = [players[name] for name in sorted(wanted)]
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        _record_winners(league, chosen, actor=actor, note=note, computed=False)
    return league


def settle_computed_winners(
    league_id: int, *, actor: User | None = None, now: datetime | None = None, cause: str = ""
) -> League:
    """Rules 5.3 and 5.3a, computed: once the standings give the league's winners (a sole leader of a complete
    league, the leader after its tie-break rounds, or joint winners after the last tie-break round allowed),
    record them — once, and told to the players like a moderator's declaration. A moderator's declaration
    stands over the computed winners; winners computed earlier that the standings no longer give (a round
    reopened, more tie-break rounds allowed, a bonus awarded or withdrawn) are replaced by the ones they give,
    or withdrawn, and the league's players and followers are told. Call inside the transaction that changed
    the standings (finalization, reopening, a bonus), after the round row's lock; `cause`: what changed them,
    in words, for the message ("a bonus of +1,000 League points for Ann in 45:02"). Returns the league."""
    league = League.objects.select_for_update().get(pk=league_id)
    if league.winners.exists() and not league.winners_computed:
        return league  # declared by a moderator: theirs is the last word
    standings = league_standings(league, now)
    computed = [row.player for row in standings.computed_winners]
    stored = {user.pk for user in league.winners.all()}
    if {user.pk for user in computed} == stored:
        return league
    if computed:
        _record_winners(league, computed, actor=actor, note="", computed=True, cause=cause)
        return league
    league.winners.clear()  # computed earlier, no longer given by the standings
    league.winners_computed, league.state = False, League.State.ACTIVE
    league.save(update_fields=["winners_computed", "state"])
    log_action(
        league,
        "league.winners_computed",
        actor=actor,
        before={"winners": sorted(_usernames_of(stored))},
        after={"winners": []},
        note=f"The standings no longer give these winners{f': {cause}' if cause else ''}.",
    )
    signals.winners_withdrawn.send(sender=League, league_id=league.pk, before=sorted(stored), cause=cause)
    return league


def _usernames_of(user_ids):
    return get_user_model().objects.filter(pk__in=user_ids).values_list("username", flat=True)


def _record_winners(league, chosen, *, actor, note, computed, cause=""):
    """The one path by which a league gets its winners: stored, audited, and the players told (the
    `winners_declared` signal, inside the caller's transaction; with the winners it replaces, when it changes
    them)."""
    earlier = list(league.winners.all())
    before = sorted(user.get_username() for user in earlier)
    replaced = sorted(user.pk for user in earlier)
    if replaced == sorted(user.pk for user in chosen):
        replaced = []  # the same winners declared again: no change to tell
    league.winners.set(chosen)
    league.winners_note = note
    league.winners_computed = computed
    league.state = League.State.FINISHED
    league.save(update_fields=["winners_note", "winners_computed", "state"])
    log_action(
        league,
        "league.winners_computed" if computed else "league.winners_declared",
        actor=actor,
        before={"winners": before},
        after={"winners": [user.get_username() for user in chosen]},
        note=league.winners_note,
    )
    signals.winners_declared.send(sender=League, league_id=league.pk, before=replaced, cause=cause)
