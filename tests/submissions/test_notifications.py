"""Before the reveal: who is told that a round opened (and who is not), deadline reminders only to those who
have not submitted and never twice, a tie-break invitation, a moderator's review — and nothing about anyone's
hand reaches anyone else."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.services import profile_for
from outbox.models import Message, Notification
from rounds.services import leagues as round_services
from submissions import notifications
from submissions import services as hand_services
from submissions.models import DeadlineReminder
from tests import builders
from tests.factories import LeagueFactory, RoundFactory
from tests.scoring.conftest import make_hands

from .conftest import KJELD

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]


@pytest.fixture
def league_players(league, alice, bob, carol, dave):
    """alice and bob played an earlier round of the league, carol follows it, dave plays another league."""
    past = RoundFactory(league=league, deadline=timezone.now() - timedelta(days=7), state="final")
    make_hands(past, [alice, bob])
    league.followers.add(carol)
    make_hands(RoundFactory(league=LeagueFactory(number=99, name="League 99")), [dave])
    return alice, bob, carol, dave


def open_new_round(league, moderator, **rules):
    rules.setdefault("deadline", timezone.now() + timedelta(days=3))
    return builders.open_round(league=league, actor=moderator, title="4 Card Goblins", hand_size=4, **rules)


def told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def mailed(kind):
    return sorted(Message.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def test_a_round_opening_tells_the_league_s_players_and_followers_only(league, moderator, league_players):
    alice = league_players[0]
    profile = profile_for(alice)
    profile.time_zone = "Europe/Berlin"
    profile.save()
    alice.refresh_from_db()
    round_ = open_new_round(league, moderator, extra_banned=["Goblin Lackey"])
    assert told("round.opened") == ["alice", "bob", "carol"]
    assert mailed("round.opened") == ["alice", "bob", "carol"]
    note = Notification.objects.get(kind="round.opened", recipient=alice)
    assert note.url == f"/rounds/{round_.pk}/my-hand/" and round_.code in note.text
    body = Message.objects.get(kind="round.opened", recipient=alice).body
    assert "4 Card Goblins" in body and "Hand size: 4 cards" in body and "Goblin Lackey" in body
    local = timezone.localtime(round_.deadline, timezone=timezone.get_fixed_timezone(0))
    assert local.strftime("%H:%M:%S") in body and "UTC" in body and "CET" in body  # both zones, to the second


def test_a_draft_tells_nobody(league, moderator, league_players):
    round_services.create_round(
        actor=moderator,
        league=league,
        now=timezone.now(),
        title="Draft",
        deadline=timezone.now() + timedelta(days=3),
    )
    assert not Notification.objects.exists() and not Message.objects.exists()


def test_a_tie_break_round_invites_only_the_tied_players(league, moderator, league_players):
    alice, bob, _carol, _ = league_players
    round_ = round_services.create_round(
        actor=moderator,
        league=league,
        now=timezone.now(),
        title="Tie-break 1",
        deadline=timezone.now() + timedelta(days=3),
    )
    round_.tiebreak = True
    round_.save()
    round_.eligible_players.set([alice, bob])
    round_services.open_round(actor=moderator, round_id=round_.pk, now=timezone.now())
    assert told("league.tiebreak") == ["alice", "bob"] and told("round.opened") == []
    assert "invited to a tie-break round" in Message.objects.filter(kind="league.tiebreak").first().body


# Reminders --------------------------------------------------------------------------------------------------


def test_reminders_go_only_to_who_has_not_submitted_and_never_twice(league, moderator, league_players):
    alice, _bob, _carol, _dave = league_players
    round_ = open_new_round(league, moderator)
    builders.submit(alice, round_, KJELD[:4], name="Secret Goblins")
    day_before = round_.deadline - timedelta(hours=23)
    assert notifications.send_reminders(now=round_.deadline - timedelta(hours=25)) == 0  # too early
    assert notifications.send_reminders(now=day_before) == 2
    assert told("round.reminder") == ["bob", "carol"]
    assert notifications.send_reminders(now=day_before) == 0  # never twice
    assert notifications.send_reminders(now=day_before + timedelta(hours=5)) == 0
    hour_before = round_.deadline - timedelta(minutes=50)
    assert notifications.send_reminders(now=hour_before) == 2
    assert sorted(DeadlineReminder.objects.values_list("player__username", "lead")) == [
        ("bob", "1h"),
        ("bob", "24h"),
        ("carol", "1h"),
        ("carol", "24h"),
    ]
    reminders = Message.objects.filter(kind="round.reminder")
    assert {message.subject for message in reminders} == {
        f"[PHM] 24 hours left to submit a hand for {round_.code}",
        f"[PHM] 1 hour left to submit a hand for {round_.code}",
    }
    for message in reminders:  # nothing of alice's hand, not even that she submitted
        assert "Secret Goblins" not in message.body and "alice" not in message.body.lower()
        assert "WhammeWhamme" not in message.body
    assert notifications.send_reminders(now=round_.deadline + timedelta(seconds=1)) == 0


def test_a_moved_deadline_gets_its_own_reminders(league, moderator, league_players):
    round_ = open_new_round(league, moderator)
    notifications.send_reminders(now=round_.deadline - timedelta(minutes=30))
    assert len(told("round.reminder")) == 3
    new_deadline = round_.deadline + timedelta(days=1)
    round_services.extend_deadline(
        actor=moderator,
        round_id=round_.pk,
        now=round_.deadline - timedelta(minutes=20),
        new_deadline=new_deadline,
    )
    assert notifications.send_reminders(now=new_deadline - timedelta(minutes=30)) == 3


def test_a_round_opened_late_skips_the_24_hour_reminder(league, moderator, league_players):
    round_ = open_new_round(league, moderator, deadline=timezone.now() + timedelta(hours=10))
    assert notifications.send_reminders(now=timezone.now()) == 0
    assert notifications.send_reminders(now=round_.deadline - timedelta(minutes=30)) == 3


def test_a_moderator_who_declared_gets_no_reminder(league, moderator, league_players):
    round_ = open_new_round(league, moderator)
    league.followers.add(moderator)
    hand_services.declare_not_playing(moderator=moderator, round_id=round_.pk)
    notifications.send_reminders(now=round_.deadline - timedelta(minutes=30))
    assert "mod" not in told("round.reminder")


def test_reminder_task_is_on_the_beat(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["send-deadline-reminders"]
    assert entry["task"] == "submissions.send_reminders"


# A moderator's review ---------------------------------------------------------------------------------------


def test_a_flag_tells_only_the_hand_s_player(open_round, moderator, alice, bob):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    builders.submit(bob, open_round, KJELD, name="Other")
    hand = alice.hands.get(round=open_round)
    hand_services.declare_not_playing(moderator=moderator, round_id=open_round.pk)
    hand_services.review_hand(
        actor=moderator, hand_id=hand.pk, action="flag", message="Wheel of Torture is banned"
    )
    assert told("hand.review") == ["alice"] and mailed("hand.review") == ["alice"]
    note = Notification.objects.get(kind="hand.review")
    assert note.url == f"/rounds/{open_round.pk}/my-hand/"
    message = Message.objects.get(kind="hand.review")
    assert message.secret and "Wheel of Torture is banned" in message.body
    assert mail.outbox  # sent


def test_nothing_told_before_the_reveal_names_another_player_s_hand(league, moderator, league_players):
    alice, _bob, _carol, _dave = league_players
    round_ = open_new_round(league, moderator)
    builders.submit(alice, round_, KJELD[:4], name="Secret Goblins")
    notifications.send_reminders(now=round_.deadline - timedelta(hours=23))
    notifications.send_reminders(now=round_.deadline - timedelta(minutes=30))
    for note in Notification.objects.exclude(recipient=alice):
        assert "Secret Goblins" not in note.text and "Leyline" not in note.text
    for message in Message.objects.exclude(recipient=alice):
        assert "Secret Goblins" not in message.body and "Leyline" not in message.body
