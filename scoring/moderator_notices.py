"""What the moderators of a league are told about results that wait for them: a match that became disputed
(its two players' reports differ) and a result challenged (rule 6.3c). Written to the outbox in the
transaction of the change, as the players' notices are (scoring.notifications), by site and e-mail as each
moderator chose.

Who is told: everyone who can manage the league (rounds.permissions: its named moderators, or every site
moderator when it names none, and the administrators) who can act on it. A moderator with a hand in the round
may not decide its matches while someone else can (scoring.services.access.own_match_refusal), so they are not
told as a moderator while a moderator who does not play is there to be; when every moderator plays, they all
are. A moderator who is a player of the match is told by the player's notice alone (never both), and whoever
caused the event (the challenger, the moderator who typed a player's row in) is not told of it.

One notice per event: a match that becomes disputed (not each report that keeps it so), a challenge opened. A
dispute that is settled and comes back is a new event. Both happen after the reveal only: a match has no
result to report or challenge before (scoring.services.access.visible_match)."""

from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser
from django.urls import reverse

from outbox import services as outbox
from outbox.services import Notice
from phm.links import site_url
from rounds.permissions import league_managers
from submissions.models import Hand
from submissions.selectors import player_display_name

from .models import Challenge, Match
from .notifications import _current_reports, _match, _match_label


def moderators_to_tell(match: Match, *, actor: AbstractBaseUser | None = None) -> list[AbstractBaseUser]:
    """The league's moderators to tell about an event of `match` (see the module's docstring): those who can
    manage the league and do not play in its round — or all of them when every one plays — less the match's
    two players and `actor`. Three queries."""
    managers = league_managers(match.round.league)
    playing = set(
        Hand.objects.filter(round_id=match.round_id, player__in=[user.pk for user in managers]).values_list(
            "player_id", flat=True
        )
    )
    free = [user for user in managers if user.pk not in playing]
    left_out = {match.hand_a.player_id, match.hand_b.player_id, getattr(actor, "pk", None)}
    return [user for user in free or managers if user.pk not in left_out]


def _tell(match: Match, users: Iterable[AbstractBaseUser], *, kind: str, what: str, template: str, **context):
    path = reverse("scoring:match", args=[match.pk])
    round_ = match.round
    outbox.notify(
        users,
        kind=kind,
        round_=round_,
        build=lambda user: Notice(
            text=f"{_match_label(match)} in {round_.league.name}, a league you moderate: {what}.",
            path=path,
            subject=f"[PHM] {_match_label(match)}: {what} — for the moderator",
            template=template,
            context={
                "match": match,
                "round": round_,
                "queue_url": site_url(reverse("scoring:moderate", args=[round_.pk])),
                "todo_url": site_url(f"{reverse('home')}#todo"),
                **context,
            },
            action_label="Open the match",
        ),
    )


def dispute_opened(match_id: int, *, actor: AbstractBaseUser | None = None) -> None:
    """The match just became disputed: its league's moderators are told, with both reports."""
    match = _match(match_id)
    _tell(
        match,
        moderators_to_tell(match, actor=actor),
        kind="moderation.dispute",
        what="results differ",
        template="scoring/email/moderator_dispute.txt",
        reports=_current_reports(match),
    )


def challenge_opened(challenge_id: int) -> None:
    """A result was challenged: its league's moderators are told, with the reason."""
    challenge = Challenge.objects.select_related("challenger__profile").get(pk=challenge_id)
    match = _match(challenge.match_id)
    _tell(
        match,
        moderators_to_tell(match, actor=challenge.challenger),
        kind="moderation.challenge",
        what=f"result challenged by {player_display_name(challenge.challenger)}",
        template="scoring/email/moderator_challenge.txt",
        challenge=challenge,
    )
