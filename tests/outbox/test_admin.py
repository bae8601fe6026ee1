"""Undelivered mail in the admin: moderators see their leagues' messages, never the body of a hand's receipt,
and a moderator who plays in a round sees none of its receipts before the deadline."""

import pytest
import time_machine
from django.urls import reverse

from outbox.models import Message
from rounds.services.leagues import create_league
from submissions import services as hand_services
from tests import builders
from tests.submissions.conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db

LIST_URL = reverse("admin:outbox_message_changelist")


def subjects(client):
    response = client.get(LIST_URL)
    assert response.status_code == 200
    return sorted(message.subject for message in response.context["cl"].result_list)


def test_a_moderator_sees_their_leagues_messages_without_bodies(client, moderator, open_round, alice):
    builders.submit(alice, open_round, KJELD)
    message = Message.objects.get()
    hand_services.declare_not_playing(moderator=moderator, round_id=open_round.pk)
    client.force_login(moderator)
    assert subjects(client) == [message.subject]
    detail = client.get(reverse("admin:outbox_message_change", args=[message.pk])).content.decode()
    assert message.subject in detail
    assert "Kjeldoran Warrior" not in detail and message.to_address not in detail


def test_a_moderator_of_another_league_sees_nothing(client, other_moderator, open_round, alice):
    builders.submit(alice, open_round, KJELD)
    client.force_login(other_moderator)
    assert subjects(client) == []
    message = Message.objects.get()
    response = client.get(reverse("admin:outbox_message_change", args=[message.pk]))
    assert response.status_code == 302  # "does not exist" for them: back to the admin index


def test_before_the_deadline_receipts_are_shown_only_to_moderators_who_declared(
    client, moderator, open_round, alice
):
    builders.submit(alice, open_round, KJELD)
    client.force_login(moderator)
    assert subjects(client) == []  # who entered is not for a moderator who may still play
    hand_services.declare_not_playing(moderator=moderator, round_id=open_round.pk)
    assert len(subjects(client)) == 1


def test_a_playing_moderator_sees_the_rounds_receipts_only_after_the_deadline(
    client, moderator, other_moderator, league, open_round, alice
):
    league.moderators.add(other_moderator)
    builders.submit(other_moderator, open_round, SCEPTER)
    builders.submit(alice, open_round, KJELD)
    client.force_login(other_moderator)
    assert subjects(client) == []  # not even their own receipt's neighbours: who entered stays secret
    with time_machine.travel(open_round.deadline, tick=False):
        assert subjects(client) == [Message.objects.get(recipient=alice).subject]


def test_players_and_visitors_cannot_see_the_outbox(client, alice, open_round):
    builders.submit(alice, open_round, KJELD)
    assert client.get(LIST_URL).status_code == 302  # to the admin login
    client.force_login(alice)
    assert client.get(LIST_URL).status_code == 302


def test_an_administrator_reads_the_body_and_address(admin_client, open_round, alice):
    builders.submit(alice, open_round, KJELD)
    message = Message.objects.get()
    detail = admin_client.get(reverse("admin:outbox_message_change", args=[message.pk])).content.decode()
    assert "Kjeldoran Warrior" in detail and "alice@example.org" in detail


def test_a_moderator_sends_failed_messages_again_from_the_list(client, moderator, open_round, alice):
    builders.submit(alice, open_round, KJELD)
    Message.objects.update(state=Message.State.FAILED, attempts=12, last_error="SMTPRecipientsRefused: full")
    client.force_login(moderator)
    hand_services.declare_not_playing(moderator=moderator, round_id=open_round.pk)
    message = Message.objects.get()
    response = client.post(LIST_URL, {"action": "send_again", "_selected_action": [message.pk]}, follow=True)
    assert "1 message(s) queued to be sent again" in response.content.decode()
    message.refresh_from_db()
    assert message.state == Message.State.PENDING and message.attempts == 0


def test_unrelated_league_has_its_own_messages(client, moderator, other_moderator, alice):
    create_league(actor=other_moderator, name="League 46", moderators=[other_moderator])
    client.force_login(moderator)
    assert subjects(client) == []
