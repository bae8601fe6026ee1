"""What people are told when results already announced change: a final round reopened (its players, with
the moderator's reason), the round final again (each player, with what changed for them: it replaces the
earlier "results final"), a bonus awarded to a player or withdrawn (that player, with the points and the
reason), and a league's announced winners changed or withdrawn (the league's followers and the players of
its rounds past their deadline: submissions.notifications.known_league_people).

Each is written to the outbox inside the transaction of the change, as scoring.notifications writes the first
announcements (which leaves these cases to this module). Nothing here runs before a round's reveal."""

from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.urls import reverse

from outbox import services as outbox
from outbox.services import Notice
from rounds.models import League
from submissions.notifications import known_league_people
from submissions.selectors import player_display_name

from . import signals
from .models import BonusAward
from .notifications import STANDINGS_SHOWN, notice_round, table_hands
from .selectors import results_table
from .standings import league_standings


def _players_of(round_id):
    """The round's players whose hands are in its table (not disqualified)."""
    return [hand.player for hand in table_hands(round_id)]


# A round reopened, and final again --------------------------------------------------------------------------


@receiver(signals.round_reopened, dispatch_uid="scoring.notify_results_reopened")
def results_reopened(sender, round_id, reason="", **kwargs):
    round_ = notice_round(round_id)
    path = reverse("scoring:results", args=[round_id])
    because = f" The moderator's reason: {reason}" if reason else ""
    outbox.notify(
        _players_of(round_id),
        kind="results.reopened",
        round_=round_,
        build=lambda user: Notice(
            text=(
                f"{round_.code} {round_.title} was reopened: its results can change again until it is final "
                f"once more.{because}"
            ),
            path=f"{path}?rows=mine",
            subject=f"[PHM] {round_.code} results reopened",
            template="scoring/email/results_reopened.txt",
            context={"round": round_, "reason": reason},
            action_label="See the results",
        ),
    )


def _figures(rank, points, league_points):
    return f"ranked {rank} with {points} PT, {league_points} League points"


def what_changed(row, earlier):
    """For one player, their figures now against `earlier` ([rank, points, League points] as the round was
    final before, or None when they were not in that table): "" when nothing changed, else the sentence."""
    now = [row.rank, row.points, row.league_points]
    if earlier is None:
        return "You were not in the earlier table."
    if list(earlier) == now:
        return ""
    return f"Before: {_figures(*earlier)}."


@receiver(signals.round_finalized, dispatch_uid="scoring.notify_results_final_again")
def results_final_again(sender, round_id, earlier=None, **kwargs):
    """The round is final again after a reopening: each player is told it replaces the earlier results, with
    their figures now and what they were (scoring.notifications tells the first finalization)."""
    if earlier is None:
        return
    round_ = notice_round(round_id)
    table = results_table(round_, cells=False)
    standings = league_standings(round_.league)
    row_of = {row.hand.player_id: row for row in table.rows}
    place_of = {row.player.pk: row for row in standings.rows}
    path = reverse("scoring:results", args=[round_id])

    def build(user):
        row = row_of[user.pk]
        change = what_changed(row, earlier.get(user.get_username()))
        mine = _figures(row.rank, row.points, row.league_points)
        return Notice(
            text=(
                f"Results final again: {round_.code} {round_.title} is final again, replacing the earlier "
                f"results: you {mine}. {change or 'Your figures did not change.'}"
            ),
            path=f"{path}?rows=mine",
            subject=f"[PHM] {round_.code} results final again (corrected): you ranked {row.rank}",
            template="scoring/email/results_final.txt",
            context={
                "round": round_,
                "row": row,
                "again": True,
                "change": change,
                "top": table.by_rank[:STANDINGS_SHOWN],
                "standings": standings.rows[:STANDINGS_SHOWN],
                "my_standing": place_of.get(user.pk),
                "league_url": reverse("scoring:league", args=[round_.league_id]),
            },
            action_label="See the results",
        )

    outbox.notify([row.hand.player for row in table.rows], kind="results.final", round_=round_, build=build)


# Bonus League points ----------------------------------------------------------------------------------------


def _tell_about_bonus(award: BonusAward, *, withdrawn: bool):
    round_ = award.round
    path = reverse("scoring:league", args=[round_.league_id])
    points = f"{award.points:+,}"
    if withdrawn:
        text = (
            f"{round_.code}: your {points} bonus League points were withdrawn by the moderator: "
            f"{award.withdrawal_reason}"
        )
        subject = f"[PHM] {round_.code}: your {points} bonus League points were withdrawn"
    else:
        text = f"{round_.code}: {points} bonus League points for you (rule 6.2): {award.reason}"
        subject = f"[PHM] {round_.code}: {points} bonus League points for you"
    outbox.notify(
        [award.player],
        kind="league.bonus",
        round_=round_,
        build=lambda user: Notice(
            text=text,
            path=path,
            subject=subject,
            template="scoring/email/bonus.txt",
            context={"round": round_, "award": award, "withdrawn": withdrawn},
            action_label="See the standings",
        ),
    )


def bonus_awarded(award: BonusAward) -> None:
    """Tell the player of a bonus awarded to them: the points, the round and the reason. Call inside the
    transaction that awarded it."""
    _tell_about_bonus(award, withdrawn=False)


def bonus_withdrawn(award: BonusAward) -> None:
    """Tell the player that a bonus of theirs was withdrawn, with the moderator's reason. Call inside the
    transaction that withdrew it."""
    _tell_about_bonus(award, withdrawn=True)


# A league's winners changed or withdrawn --------------------------------------------------------------------


def _names(users):
    return " and ".join(player_display_name(user) for user in users)


def _tell_about_winners(league, *, text, subject, context):
    path = reverse("scoring:league", args=[league.pk])
    standings = context["standings"]
    place_of = {row.player.pk: row for row in standings.rows}
    outbox.notify(
        known_league_people(league.pk),
        kind="league.winners_changed",
        league=league,
        build=lambda user: Notice(
            text=text,
            path=path,
            subject=subject,
            template="scoring/email/winners_changed.txt",
            context={
                **context,
                "league": league,
                "standings": standings.rows[:STANDINGS_SHOWN],
                "my_standing": place_of.get(user.pk),
            },
            action_label="See the standings",
        ),
    )


def _earlier(user_ids):
    users = get_user_model().objects.filter(pk__in=user_ids).select_related("profile").order_by("pk")
    return sorted(users, key=lambda user: player_display_name(user).casefold())


@receiver(signals.winners_declared, dispatch_uid="scoring.notify_winners_changed")
def winners_changed(sender, league_id, before=(), cause="", **kwargs):
    """The league's announced winners were replaced by others (a bonus, a round final again, a moderator's
    declaration): its players and followers are told who won now, who was announced before, and why."""
    if not before:
        return  # a league's first winners: scoring.notifications announces them
    league = League.objects.get(pk=league_id)
    winners = sorted(
        league.winners.select_related("profile"), key=lambda user: player_display_name(user).casefold()
    )
    now, was = _names(winners), _names(_earlier(before))
    why = f" ({cause})" if cause else ""
    _tell_about_winners(
        league,
        text=f"The winners of {league.name} changed{why}: {now} won, not {was} as announced before.",
        subject=f"[PHM] {league.name}: the winners changed — {now} won",
        context={
            "winners": now,
            "earlier": was,
            "cause": cause,
            "withdrawn": False,
            "standings": league_standings(league),
        },
    )


@receiver(signals.winners_withdrawn, dispatch_uid="scoring.notify_winners_withdrawn")
def winners_withdrawn(sender, league_id, before=(), cause="", **kwargs):
    """The league's computed winners no longer stand (a round reopened, a bonus, more tie-break rounds
    allowed): its players and followers are told, and what the standings say now."""
    league = League.objects.get(pk=league_id)
    standings = league_standings(league)
    was = _names(_earlier(before))
    why = f" ({cause})" if cause else ""
    tied = standings.tied_for_first
    if tied:
        tied_names = _names(row.player for row in tied)
        now = f"{tied_names} are tied for first: a tie-break round decides (rule 5.3a)."
    elif not standings.complete:
        now = "The league has no winner until all its rounds are final."
    else:
        now = "The standings give no winner yet."
    _tell_about_winners(
        league,
        text=f"The winners of {league.name} announced before ({was}) no longer stand{why}. {now}",
        subject=f"[PHM] {league.name}: the winners announced before no longer stand",
        context={
            "winners": "",
            "earlier": was,
            "cause": cause,
            "withdrawn": True,
            "now": now,
            "standings": standings,
        },
    )
