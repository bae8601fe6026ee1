"""The outbox's lists show a league's moderators who was sent what. Before a deadline, who entered a round is
secret: so what a moderator who plays can read there must be the same whether or not someone entered. A
reminder goes to those who have not entered, and a round's announcement to someone whose only tie to the
league is a hand in a round still open: both are secret until the deadline, and still reach their person."""

from datetime import timedelta

import pytest
from django.utils import timezone

from outbox.models import Message, Notification
from outbox.selectors import visible_messages
from submissions import notifications
from tests import builders

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]


def person(make_user, username):
    return make_user(username, email=f"{username}@example.com")


def seen_by(moderator):
    """What the moderator's outbox list shows: (kind, recipient) of each message."""
    return sorted(visible_messages(moderator).values_list("kind", "recipient__username"))


def test_a_playing_moderator_reads_the_same_outbox_whether_or_not_a_newcomer_entered_the_open_round(
    moderator, league, make_user
):
    entrant, abstainer = person(make_user, "entrant"), person(make_user, "abstainer")
    first = builders.open_round(league=league, actor=moderator)
    builders.submit(moderator, first)  # the moderator plays
    builders.submit(entrant, first)  # the newcomer's only tie to the league: a hand still secret
    Message.objects.all().delete()

    builders.open_round(league=league, actor=moderator, title="4 Card Goblins", hand_size=4)

    # The entrant is told of the new round, as a player of the league ...
    assert Notification.objects.filter(recipient=entrant, kind="round.opened").exists()
    assert Message.objects.filter(recipient=entrant, kind="round.opened", secret=True).exists()
    assert not Notification.objects.filter(recipient=abstainer).exists()  # no tie to the league at all
    # ... and nothing the playing moderator can read tells the entrant from the abstainer.
    seen = seen_by(moderator)
    assert ("round.opened", "entrant") not in seen
    assert ("round.opened", "abstainer") not in seen


def test_deadline_reminders_are_hidden_from_a_moderator_who_plays(moderator, league, make_user):
    entrant, late = person(make_user, "entrant"), person(make_user, "late")
    played = builders.revealed_round(league=league, actor=moderator, players=[entrant, late, moderator])
    assert played.pk
    now = timezone.now()
    current = builders.open_round(league=league, actor=moderator, now=now, deadline=now + timedelta(days=2))
    builders.submit(moderator, current)
    builders.submit(entrant, current)
    Message.objects.all().delete()

    sent = notifications.send_reminders(now=current.deadline - timedelta(hours=23))

    assert sent == 1
    assert list(Message.objects.values_list("kind", "recipient__username", "secret")) == [
        ("round.reminder", "late", True)
    ]
    assert seen_by(moderator) == []  # who was reminded is who has not entered
