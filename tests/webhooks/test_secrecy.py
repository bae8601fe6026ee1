"""Secrecy is the product: before a round's deadline no webhook receives anything about its hands — names,
cards, players, how many there are — whatever is done to the round; after the reveal the hands list goes out."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.models import Round
from rounds.services import leagues as round_services
from scoring import services as scoring_services
from scoring import tasks as scoring_tasks
from submissions import services as hand_services
from submissions import tasks as hand_tasks
from tests import builders
from tests.submissions.conftest import KJELD, SCEPTER, VOID
from webhooks import services, tasks
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db

HAND_NAMES = ["The Might of Kjeld", "Scepter Tricks", "Into the Void"]
PLAYERS = ["alice", "bob", "WhammeWhamme", "nerdyjoe"]
SECRETS = [*HAND_NAMES, *PLAYERS, *KJELD, *SCEPTER, *VOID]


def everything_sent(receiver):
    return [request["body"].decode() for request in receiver.requests] + list(
        WebhookDelivery.objects.values_list("payload", flat=True)
    )


def test_nothing_about_hands_goes_out_before_the_reveal_and_the_hands_list_after(
    receiver, add_webhook, moderator, league, alice, bob, django_capture_on_commit_callbacks
):
    discord = add_webhook(receiver.url)
    signed = add_webhook(receiver.url + "?json", kind="json")
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        round_ = builders.open_round(
            league=league, actor=moderator, now=now, title="5 Card Vintage", deadline=now + timedelta(days=2)
        )
    with django_capture_on_commit_callbacks(execute=True):
        builders.submit(alice, round_, KJELD, name="The Might of Kjeld")
    with django_capture_on_commit_callbacks(execute=True):
        builders.submit(bob, round_, SCEPTER, name="Scepter Tricks")
    with django_capture_on_commit_callbacks(execute=True):
        builders.submit(alice, round_, VOID, name="Into the Void")
    with django_capture_on_commit_callbacks(execute=True):
        round_services.extend_deadline(
            actor=moderator,
            round_id=round_.pk,
            now=timezone.now(),
            new_deadline=round_.deadline + timedelta(days=1),
        )
    with django_capture_on_commit_callbacks(execute=True):
        round_services.update_round(
            actor=moderator,
            round_id=round_.pk,
            now=timezone.now(),
            changes={"title": "5 Card Vintage, again"},
        )
    for webhook in (discord, signed):
        with django_capture_on_commit_callbacks(execute=True):
            services.send_test(actor=moderator, webhook_id=webhook.pk)
    with django_capture_on_commit_callbacks(execute=True):  # another round of the league opens meanwhile
        builders.open_round(
            league=league, actor=moderator, now=timezone.now(), title="Next", deadline=now + timedelta(days=9)
        )
    # Everything that could post early: reveals and tables before the deadline refuse, the backstops find nothing.
    assert hand_services.reveal_round(round_.pk) is False
    assert scoring_services.build_match_table(round_.pk) is None
    with pytest.raises(scoring_services.ScoringConflict):
        scoring_services.finalize_round(actor=moderator, round_id=round_.pk)
    with django_capture_on_commit_callbacks(execute=True):
        hand_tasks.reveal_due_rounds()
        scoring_tasks.score_due_rounds()
        tasks.send_pending()

    sent = everything_sent(receiver)
    assert len(receiver.requests) == 6  # two rounds opened and a test message, to each webhook
    assert {request["headers"]["X-PHM-Event"] for request in receiver.requests} == {"round_opened", "test"}
    for body in sent:
        for secret in SECRETS:
            assert secret not in body, (secret, body)
        data = json.loads(body)
        assert "hands" not in data and "table" not in data
        for embed in data.get("embeds", []):
            assert all(field["name"] not in ("Hands", "Entries") for field in embed["fields"])
        assert "entries" not in json.dumps(data).lower()
        assert "2 hand" not in body and '"hand_count"' not in body

    # The deadline passes: the reveal posts the hands list, as the round page shows it.
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    with django_capture_on_commit_callbacks(execute=True):
        hand_tasks.reveal_due_rounds()
    revealed = [
        request for request in receiver.requests if request["headers"]["X-PHM-Event"] == "hands_revealed"
    ]
    assert len(revealed) == 2
    bodies = {request["path"]: json.loads(request["body"]) for request in revealed}
    description = bodies["/hook"]["embeds"][0]["description"]
    assert "WhammeWhamme :: “Into the Void”" in description and "nerdyjoe :: “Scepter Tricks”" in description
    assert " / ".join(VOID[:2]) in description and "The Might of Kjeld" not in description  # the current hand
    hands = bodies["/hook?json"]["hands"]
    assert [(hand["player"], hand["name"], hand["cards"]) for hand in hands] == [
        ("alice", "Into the Void", VOID),
        ("bob", "Scepter Tricks", SCEPTER),
    ]
