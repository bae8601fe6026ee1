"""The end of a league (rules 5.3, 5.3a): tie-break rounds for the players tied for first, and the winners."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from rounds.models import League
from rounds.models.audit import log_action
from rounds.services.leagues import can_manage_league, create_round

from .. import signals
from .errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound

TIEBREAK_DAYS = 7
MAX_WINNERS_NOTE = 5_000


def managed_league(actor, league_id):
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise ScoringNotFound("No such league.")
    if not can_manage_league(actor, league):
        raise ScoringForbidden("Only a moderator of this league can do that.")
    return league


def add_tiebreak_round(*, actor, league_id, now=None):
    """A draft round open only to the players tied for first (5.3a), copying nothing but the league; the
    moderator sets its rules and opens it like any round."""
    from ..standings import league_standings

    league = managed_league(actor, league_id)
    now = now or timezone.now()
    standings = league_standings(league, now)
    tied = standings.tied_for_first
    if not tied:
        raise ScoringConflict(
            "Nobody is tied for first: a tie-break round is for a league whose planned rounds are all final "
            "and whose lead is shared."
        )
    if standings.winners:
        raise ScoringConflict("This league already has its declared winners.")
    with transaction.atomic():
        round_ = create_round(
            actor=actor,
            league=league,
            now=now,
            title=f"Tie-break {len(standings.tiebreak_rounds) + 1}",
            hand_size=5,
            deadline=now + timedelta(days=TIEBREAK_DAYS),
        )
        round_.tiebreak = True
        round_.save(update_fields=["tiebreak", "updated_at"])
        round_.eligible_players.set([row.player for row in tied])
        log_action(
            round_,
            "round.tiebreak_added",
            actor=actor,
            after={"players": sorted(row.player.get_username() for row in tied)},
        )
    return round_


def declare_winners(*, actor, league_id, usernames, note=""):
    """The moderator names the league's winner, or joint winners (5.3a), among its players; audited."""
    from ..standings import league_standings

    league = managed_league(actor, league_id)
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
        before = sorted(user.get_username() for user in league.winners.all())
        league.winners.set(chosen)
        league.winners_note = note
        league.state = League.State.FINISHED
        league.save(update_fields=["winners_note", "state"])
        log_action(
            league,
            "league.winners_declared",
            actor=actor,
            before={"winners": before},
            after={"winners": [user.get_username() for user in chosen]},
            note=league.winners_note,
        )
        signals.winners_declared.send(sender=League, league_id=league.pk)
    return league
