"""What players are told about rounds before their reveal: a round opened (or a tie-break invitation), the
deadline reminders 24 h and 1 h ahead to those who have not submitted, a moderator's review of their hand, and
a flag (or its lifting) when the cards the round allows changed while it was open.
Written to the outbox inside the transaction of the change.

Secrecy: the outbox's lists show a league's moderators who was sent what, and before a deadline who entered a
round is secret. So a message whose sending depends on a hand in a round still open is `secret` (hidden from
moderators who may play): a reminder (it goes to those who have not entered), and the announcement of a round
to someone who belongs to its league only by a hand in a round still open. Every message a playing moderator
can see follows from what is public: hands of revealed rounds, and who follows the league.

A new league has neither players nor followers, so its rounds are also announced to the site's recent
players (new_league_audience), as a kind of its own that each person can turn off; nobody gets both."""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone

from outbox import services as outbox
from outbox.services import Notice
from rounds.models import Round, RoundState
from rounds.signals import round_opened
from rounds.summary import rules_summary_lines

from .models import DeadlineReminder, Hand, HandsPreview

LEADS = [(DeadlineReminder.Lead.HOUR, timedelta(hours=1)), (DeadlineReminder.Lead.DAY, timedelta(hours=24))]
# A recent player has a hand in a round whose deadline passed within this span (six months), in any league.
RECENT_PLAYERS_SPAN = timedelta(days=183)


def known_league_people(league_id: int, now: datetime | None = None) -> list:
    """The people of a league anyone may know of: its followers and the players of its rounds past their
    deadline. A hand in a round still open is secret, so it makes nobody one of them."""
    now = now or timezone.now()
    played = Hand.objects.filter(round__league_id=league_id, round__deadline__lte=now).values("player_id")
    users = get_user_model().objects.select_related("profile")
    return list(users.filter(Q(pk__in=played) | Q(followed_leagues=league_id)).distinct().order_by("pk"))


def _known_and_secret(round_, now=None):
    """The people who hear about `round_`, as (known, secret_only): `known` follow from what is public — the
    league's followers and the players of its rounds past their deadline, or for a tie-break round the
    players it names (5.3a); `secret_only` belong to the league only by a hand in a round still open."""
    users = get_user_model().objects.select_related("profile")
    eligible = list(round_.eligible_players.values_list("pk", flat=True)) if round_.tiebreak else []
    if eligible:
        return list(users.filter(pk__in=eligible)), []
    now = now or timezone.now()
    known = known_league_people(round_.league_id, now)
    secret = Hand.objects.filter(round__league_id=round_.league_id, round__deadline__gt=now).values(
        "player_id"
    )
    secret_only = list(users.filter(pk__in=secret).exclude(pk__in=[user.pk for user in known]))
    return known, secret_only


def league_audience(round_):
    """Who hears about a round: the players of its league (a hand in any of its rounds) and its followers;
    for a tie-break round only the players it names (5.3a)."""
    known, secret_only = _known_and_secret(round_)
    return known + secret_only


def is_new_league(round_: Round) -> bool:
    """Whether `round_`'s league is new: none of its other rounds is final yet or comes from the forum
    archive. Such a league has no players of its own (its first rounds reach the site); once a round is final,
    it has. Never a tie-break round's league (one has final rounds). One query."""
    others = Round.objects.filter(league_id=round_.league_id).exclude(pk=round_.pk)
    return not others.filter(Q(state=RoundState.FINAL) | ~Q(imported_fingerprint="")).exists()


def new_league_audience(round_: Round, now: datetime | None = None) -> list:
    """The site's recent players told of a new league's round: active accounts with a hand in any league's
    round whose deadline passed within the last six months (RECENT_PLAYERS_SPAN), less the league's known
    audience (its followers, the players of its rounds past their deadline). All of it public: a hand in a
    round still open changes nobody's place here (its player hears of the round this way, and only this way).
    One query, however many they are."""
    now = now or timezone.now()
    revealed = Hand.objects.filter(round__deadline__lte=now)
    recent = revealed.filter(round__deadline__gt=now - RECENT_PLAYERS_SPAN).values("player_id")
    in_league = revealed.filter(round__league_id=round_.league_id).values("player_id")
    return list(
        get_user_model()
        .objects.filter(is_active=True, pk__in=recent)
        .exclude(pk__in=in_league)
        .exclude(followed_leagues=round_.league_id)
        .select_related("profile")
        .order_by("pk")
    )


def _round_context(round_):
    return {"round": round_, "rules": rules_summary_lines(round_)}


@receiver(round_opened, dispatch_uid="submissions.notify_round_opened")
def notify_round_opened(sender, round_id, **kwargs):
    round_ = Round.objects.select_related("league").get(pk=round_id)
    tiebreak = round_.tiebreak and round_.eligible_players.exists()
    path = reverse("submissions:my-hand", args=[round_id])
    what = "You are invited to the tie-break round" if tiebreak else "New round open"
    known, secret_only = _known_and_secret(round_)
    told_as_new = set()
    if not round_.tiebreak and is_new_league(round_):
        told_as_new = _announce_to_the_site(round_, path)

    def build(user):
        return Notice(
            text=f"{what} {round_.code} {round_.title}: submit your hand.",
            path=path,
            subject=f"[PHM] {what} {round_.code}: {round_.title}",
            template="submissions/email/round_opened.txt",
            context={**_round_context(round_), "tiebreak": tiebreak},
            action_label="Submit your hand",
        )

    kind = "league.tiebreak" if tiebreak else "round.opened"
    outbox.notify(known, kind=kind, round_=round_, build=build)
    # Told because of a hand in a round still open: secret, and only if not told already as a recent player.
    rest = [user for user in secret_only if user.pk not in told_as_new]
    outbox.notify(rest, kind=kind, round_=round_, build=build, secret=True)


def _announce_to_the_site(round_, path):
    """A new league's round, to the site's recent players who are not in its known audience; returns their
    ids."""
    league = round_.league
    audience = new_league_audience(round_)
    outbox.notify(
        audience,
        kind="round.opened_new_league",
        round_=round_,
        build=lambda user: Notice(
            text=f"A new league, {league.name}, opened {round_.code} {round_.title}: submit your hand.",
            path=path,
            subject=f"[PHM] A new league opens: {league.name}, {round_.code} {round_.title}",
            template="submissions/email/round_opened.txt",
            context={**_round_context(round_), "tiebreak": False, "new_league": True},
            action_label="Submit your hand",
        ),
    )
    return {user.pk for user in audience}


# Deadline reminders -----------------------------------------------------------------------------------------


def rounds_to_remind(now, lead, shorter_lead=None):
    """Open rounds whose `lead` reminder is due: the deadline is within `lead` (and not already within the
    shorter lead, whose reminder then takes over), and the round was open before the reminder's moment (a
    round opened 10 hours before its deadline gets no "24 hours left")."""
    rounds = Round.objects.filter(
        state=RoundState.OPEN, deadline__gt=now, deadline__lte=now + lead, opened_at__isnull=False
    ).select_related("league")
    if shorter_lead is not None:
        rounds = rounds.filter(deadline__gt=now + shorter_lead)
    return [round_ for round_ in rounds if round_.opened_at <= round_.deadline - lead]


def not_submitted(round_):
    """The round's audience less who has a hand in it and moderators who declared they will not play."""
    entered = set(Hand.objects.filter(round=round_).values_list("player_id", flat=True))
    entered |= set(HandsPreview.objects.filter(round=round_).values_list("moderator_id", flat=True))
    return [user for user in league_audience(round_) if user.pk not in entered]


def send_reminders(now=None):
    """Remind who has not submitted, 24 h and 1 h before each deadline, once per player, round, lead and
    deadline (a unique row decides, so two runs at once send one reminder). Returns how many were sent."""
    now = now or timezone.now()
    sent = 0
    shorter = None
    for lead, span in LEADS:
        for round_ in rounds_to_remind(now, span, shorter):
            sent += remind(round_, lead, now)
        shorter = span
    return sent


def remind(round_, lead, now):
    sent = 0
    for user in not_submitted(round_):
        with transaction.atomic():
            try:
                with transaction.atomic():
                    DeadlineReminder.objects.create(
                        round=round_, player=user, lead=lead, deadline=round_.deadline
                    )
            except IntegrityError:
                continue  # already reminded (or being reminded by another run this instant)
            if Hand.objects.filter(round=round_, player=user).exists():
                continue  # submitted a moment ago
            _send_reminder(round_, user, lead, now)
            sent += 1
    return sent


def _send_reminder(round_, user, lead, now):
    left = "1 hour" if lead == DeadlineReminder.Lead.HOUR else "24 hours"
    outbox.notify(
        [user],
        kind="round.reminder",
        round_=round_,
        secret=True,  # who is reminded is who has not entered: the others have
        build=lambda person: Notice(
            text=f"{left} left: you have no hand in {round_.code} {round_.title} yet.",
            path=reverse("submissions:my-hand", args=[round_.pk]),
            subject=f"[PHM] {left} left to submit a hand for {round_.code}",
            template="submissions/email/reminder.txt",
            context={**_round_context(round_), "left": left},
            action_label="Submit your hand",
        ),
    )


# A moderator's review ---------------------------------------------------------------------------------------


def hand_reviewed(review, hand, round_):
    """The player is told what the moderator did to their hand (flag, notice, rename, replace, disqualify)."""
    action = review.get_action_display().lower()
    outbox.notify(
        [hand.player],
        kind="hand.review",
        round_=round_,
        secret=True,
        build=lambda user: Notice(
            text=f"A moderator's note on your hand for {round_.code}: {action}.",
            path=reverse("submissions:my-hand", args=[round_.pk]),
            subject=f"[PHM] A moderator reviewed your hand for round {round_.code}",
            template="submissions/email/review.txt",
            context={"review": review, "hand": hand, "round": round_},
            action_label="See your hand",
        ),
    )


def hand_rules_changed(review, hand, round_):
    """The player is told at once that the cards the round allows changed: their hand is flagged, with the
    cards and why, or legal again (submissions.services.rules_check). Secret: it speaks of their hand."""
    flagged = review.action == review.Action.FLAG
    if flagged:
        text = (
            f"The cards round {round_.code} allows have changed, and your hand is no longer legal: change it "
        )
        text += "before the deadline."
        subject = f"[PHM] Your hand for round {round_.code} is no longer legal"
    else:
        text = f"The cards round {round_.code} allows have changed again: your hand is legal again."
        subject = f"[PHM] Your hand for round {round_.code} is legal again"
    outbox.notify(
        [hand.player],
        kind="hand.review",
        round_=round_,
        secret=True,
        build=lambda user: Notice(
            text=text,
            path=reverse("submissions:my-hand", args=[round_.pk]),
            subject=subject,
            template="submissions/email/rules_changed.txt",
            context={"review": review, "hand": hand, "round": round_},
            action_label="Change your hand" if flagged else "See your hand",
        ),
    )
