"""League webhooks against a real HTTP receiver: Discord-shaped posts on open, reveal and final; signed JSON;
retries after a 500, back-off, Retry-After, failure at once on a 4xx."""

import hashlib
import hmac
import json
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from rounds.models import Round
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_row
from scoring.services.table import build_match_table
from tests import builders
from tests.submissions.conftest import KJELD, SCEPTER
from webhooks import payloads, services, tasks
from webhooks.models import WebhookDelivery

from .conftest import SITE

pytestmark = pytest.mark.django_db


def open_new_round(moderator, league, **rules):
    return builders.open_round(league=league, actor=moderator, **rules)


def past_deadline(round_):
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(minutes=1))


def deliver_all():
    pending = WebhookDelivery.objects.filter(state="pending").order_by("created_at", "pk")
    return [services.deliver(pk) for pk in pending.values_list("pk", flat=True)]


def assert_within_discord_limits(message):
    assert len(message["content"]) <= 2000
    assert message["allowed_mentions"] == {"parse": []}
    [embed] = message["embeds"]
    assert len(embed["title"]) <= 256 and len(embed.get("description", "")) <= 4096
    assert len(embed["fields"]) <= 25
    for field in embed["fields"]:
        assert len(field["name"]) <= 256 and 0 < len(field["value"]) <= 1024
    total = (
        len(embed["title"])
        + len(embed.get("description", ""))
        + sum(len(field["name"]) + len(field["value"]) for field in embed["fields"])
        + len(embed["footer"]["text"])
    )
    assert total <= 6000


def test_a_discord_webhook_gets_the_round_opened_hands_posted_and_results_final(
    receiver, add_webhook, moderator, league, alice, bob
):
    add_webhook(receiver.url)
    round_ = open_new_round(
        moderator, league, extra_banned=["Black Lotus"], format_rule="Only **artifacts**."
    )
    [opened] = WebhookDelivery.objects.all()
    assert opened.event == "round_opened" and opened.state == "pending" and opened.round == round_
    assert services.deliver(opened.pk) == "sent"
    opened.refresh_from_db()
    assert opened.last_status_code == 204 and opened.attempts == 1 and opened.sent_at
    [request] = receiver.requests
    assert request["path"] == "/hook" and request["headers"]["Content-Type"] == "application/json"
    assert request["headers"]["X-PHM-Event"] == "round_opened"
    assert request["headers"]["X-PHM-Delivery"] == str(opened.pk)
    assert request["body"] == opened.payload.encode()  # the stored payload is exactly what was sent
    message = json.loads(request["body"])
    assert message["username"] == "PHM Moderator"
    assert_within_discord_limits(message)
    [embed] = message["embeds"]
    assert embed["title"] == f"{round_.code} — 5 Card Vintage"
    assert embed["url"] == f"{SITE}/rounds/{round_.pk}/"
    assert embed["description"] == "Only **artifacts**."
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["Hand size"] == "5 cards" and fields["Land rule"] == "None"
    assert fields["Extra banned"] == "Black Lotus"
    unix = int(round_.deadline.timestamp())
    assert f"<t:{unix}:F>" in fields["Deadline"] and "UTC" in fields["Deadline"]
    assert f"<t:{unix}:F>" in message["content"]

    builders.submit(alice, round_, KJELD, name="The Might of Kjeld")
    builders.submit(bob, round_, SCEPTER, name="Scepter Tricks")
    assert WebhookDelivery.objects.count() == 1  # hands are nobody's business before the deadline
    past_deadline(round_)
    build_match_table(round_.pk)  # reveals the round first
    [revealed] = WebhookDelivery.objects.filter(event="hands_revealed")
    assert services.deliver(revealed.pk) == "sent"
    message = receiver.bodies[-1]
    assert_within_discord_limits(message)
    [embed] = message["embeds"]
    assert embed["title"] == f"Hands posted — {round_.code} 5 Card Vintage"
    assert embed["url"] == f"{SITE}/rounds/{round_.pk}/results/"
    assert "**01** WhammeWhamme :: “The Might of Kjeld”" in embed["description"]
    assert " / ".join(KJELD[:2]) in embed["description"]
    assert "**02** nerdyjoe :: “Scepter Tricks”" in embed["description"]
    assert "score your row" in message["content"]

    report_row(player=alice, round_id=round_.pk, row="1 | X 6")
    finalize_round(actor=moderator, round_id=round_.pk)
    [final] = WebhookDelivery.objects.filter(event="results_final")
    assert services.deliver(final.pk) == "sent"
    message = receiver.bodies[-1]
    assert_within_discord_limits(message)
    [embed] = message["embeds"]
    assert embed["title"] == f"Results final — {round_.code} 5 Card Vintage"
    lines = embed["description"].splitlines()
    assert lines[0].startswith("**1.** WhammeWhamme — “The Might of Kjeld” · 6 PT · ")
    assert lines[1].startswith("**2.** nerdyjoe") and "League points" in lines[1]
    assert "WhammeWhamme wins" in message["content"]
    assert any(f"{SITE}/leagues/{league.pk}/" in field["value"] for field in embed["fields"])
    assert len(receiver.requests) == 3


def test_a_json_webhook_is_signed_and_says_what_happened(receiver, add_webhook, moderator, league):
    secret = "s3cret-s3cret-s3cret"
    webhook = add_webhook(receiver.url, kind="json", secret=secret)
    round_ = open_new_round(moderator, league)
    [delivery] = WebhookDelivery.objects.all()
    assert services.deliver(delivery.pk) == "sent"
    [request] = receiver.requests
    headers, body = request["headers"], request["body"]
    # The receiver's side: recompute the HMAC of "<timestamp>.<body>" with the shared secret.
    expected = hmac.new(secret.encode(), headers["X-PHM-Timestamp"].encode() + b"." + body, hashlib.sha256)
    assert hmac.compare_digest(headers["X-PHM-Signature"], "sha256=" + expected.hexdigest())
    assert abs(int(headers["X-PHM-Timestamp"]) - timezone.now().timestamp()) < 60
    assert headers["X-PHM-Event"] == "round_opened" and headers["X-PHM-Delivery"] == str(delivery.pk)
    data = json.loads(body)
    assert data["event"] == "round_opened"
    assert data["league"] == {"id": league.pk, "name": league.name}
    assert data["round"]["id"] == round_.pk and data["round"]["code"] == round_.code
    assert data["round"]["url"] == f"{SITE}/rounds/{round_.pk}/"
    assert data["round"]["deadline"] == round_.deadline.isoformat()
    assert data["round"]["hand_size"] == 5 and "sent_at" in data
    assert "hands" not in data and "table" not in data
    # A tampered body or another secret does not verify.
    forged = hmac.new(b"another secret", headers["X-PHM-Timestamp"].encode() + b"." + body, hashlib.sha256)
    assert headers["X-PHM-Signature"] != "sha256=" + forged.hexdigest()
    assert (
        services.signature(webhook.secret, headers["X-PHM-Timestamp"], body + b" ")
        != headers["X-PHM-Signature"]
    )


def test_a_json_webhook_after_the_reveal_and_when_final(receiver, add_webhook, moderator, league, alice, bob):
    add_webhook(receiver.url, kind="json")
    round_ = open_new_round(moderator, league)
    builders.submit(alice, round_, KJELD, name="Kjeld")
    builders.submit(bob, round_, SCEPTER, name="Scepter")
    past_deadline(round_)
    build_match_table(round_.pk)
    report_row(player=bob, round_id=round_.pk, row="2 | 4 X")
    finalize_round(actor=moderator, round_id=round_.pk)
    assert deliver_all() == ["sent", "sent", "sent"]
    _opened, revealed, final = receiver.bodies
    assert [hand["player"] for hand in revealed["hands"]] == ["alice", "bob"]
    assert revealed["hands"][0] == {
        "number": 1,
        "player": "alice",
        "player_name": "WhammeWhamme",
        "name": "Kjeld",
        "cards": KJELD,
        "status": "submitted",
        "disqualification_reason": "",
        "notice": "",
    }
    assert revealed["round"]["state"] == "revealed"
    assert final["round"]["state"] == "final"
    assert [(row["rank"], row["player"], row["points"]) for row in final["table"]] == [
        (1, "bob", 4),
        (2, "alice", 1),
    ]
    assert final["table"][0]["league_points"] > final["table"][1]["league_points"]


def test_a_receiver_that_answers_500_gets_the_post_again_later(
    receiver, add_webhook, moderator, league, settings
):
    settings.OUTBOX_RETRY_DELAY = 15
    add_webhook(receiver.url)
    receiver.answer(500, 200)
    open_new_round(moderator, league)
    [delivery] = WebhookDelivery.objects.all()
    now = timezone.now()
    assert services.deliver(delivery.pk, now=now) == "retry"
    delivery.refresh_from_db()
    assert delivery.state == "pending" and delivery.attempts == 1 and delivery.last_status_code == 500
    assert delivery.last_error == "delivery failed (HTTP 500)"
    assert delivery.next_attempt_at == now + timedelta(seconds=15)
    assert services.deliver(delivery.pk, now=now + timedelta(seconds=5)) == "skipped"  # not due yet
    assert services.deliver(delivery.pk, now=now + timedelta(seconds=16)) == "sent"
    delivery.refresh_from_db()
    assert delivery.state == "sent" and delivery.attempts == 2 and delivery.last_status_code == 200
    assert delivery.last_error == ""
    first, second = receiver.requests
    assert first["body"] == second["body"]  # the same post, byte for byte
    assert first["headers"]["X-PHM-Delivery"] == second["headers"]["X-PHM-Delivery"]


@pytest.mark.parametrize("status", [400, 401, 403, 404, 410])
def test_a_4xx_answer_fails_at_once(receiver, add_webhook, moderator, league, status):
    add_webhook(receiver.url)
    receiver.answer(status)
    open_new_round(moderator, league)
    [delivery] = WebhookDelivery.objects.all()
    assert services.deliver(delivery.pk) == "failed"
    delivery.refresh_from_db()
    assert delivery.state == "failed" and delivery.attempts == 1 and delivery.last_status_code == status
    assert delivery.last_error == f"delivery failed (HTTP {status})"
    assert services.deliver_due(now=timezone.now() + timedelta(days=1))["sent"] == 0
    assert len(receiver.requests) == 1


@pytest.mark.parametrize("status", [408, 429, 502, 503])
def test_timeouts_rate_limits_and_server_errors_are_retried(receiver, add_webhook, moderator, league, status):
    add_webhook(receiver.url)
    receiver.answer(status)
    open_new_round(moderator, league)
    [delivery] = WebhookDelivery.objects.all()
    assert services.deliver(delivery.pk) == "retry"
    delivery.refresh_from_db()
    assert delivery.last_status_code == status and delivery.state == "pending"
    assert delivery.last_error == f"delivery failed (HTTP {status})"


def test_429_waits_as_long_as_retry_after_says(receiver, add_webhook, moderator, league):
    add_webhook(receiver.url)
    receiver.answer((429, {"Retry-After": "120"}, 0))
    open_new_round(moderator, league)
    [delivery] = WebhookDelivery.objects.all()
    now = timezone.now()
    assert services.deliver(delivery.pk, now=now) == "retry"
    delivery.refresh_from_db()
    assert delivery.next_attempt_at == now + timedelta(seconds=120)


def test_a_redirect_is_not_followed(receiver, add_webhook, moderator, league):
    add_webhook(receiver.url)
    receiver.answer((302, {"Location": "http://10.0.0.1/"}, 0))
    open_new_round(moderator, league)
    [delivery] = WebhookDelivery.objects.all()
    assert services.deliver(delivery.pk) == "failed"
    delivery.refresh_from_db()
    assert delivery.last_status_code == 302 and delivery.last_error == "delivery failed (HTTP 302)"
    assert len(receiver.requests) == 1


def test_no_answer_is_retried_then_given_up(receiver, add_webhook, moderator, league, settings):
    settings.WEBHOOK_TIMEOUT = 0.3
    settings.OUTBOX_MAX_ATTEMPTS = 2
    add_webhook(receiver.url)
    receiver.answer((200, {}, 1.0))  # answers after the timeout
    open_new_round(moderator, league)
    [delivery] = WebhookDelivery.objects.all()
    now = timezone.now()
    assert services.deliver(delivery.pk, now=now) == "retry"
    delivery.refresh_from_db()
    assert delivery.last_status_code is None and delivery.last_error == "delivery failed (timeout)"
    receiver.server.shutdown()
    receiver.server.server_close()  # nobody listens any more: connection refused
    assert services.deliver(delivery.pk, now=now + timedelta(hours=1)) == "failed"
    delivery.refresh_from_db()
    assert delivery.state == "failed" and delivery.attempts == 2
    assert delivery.last_error == "delivery failed (refused)"


def test_posts_go_out_after_the_commit_and_the_backstop_sends_what_is_left(
    receiver, add_webhook, moderator, league, django_capture_on_commit_callbacks
):
    add_webhook(receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        open_new_round(moderator, league)
    assert len(receiver.requests) == 1  # the delivery task ran after the commit
    assert WebhookDelivery.objects.get().state == "sent"
    open_new_round(moderator, league)  # its commit callbacks never run here: as if the broker was down
    assert len(receiver.requests) == 1
    assert tasks.send_pending() == {"sent": 1, "retry": 0, "failed": 0, "skipped": 0}
    assert len(receiver.requests) == 2
    assert tasks.send_delivery(WebhookDelivery.objects.first().pk) == "skipped"  # sent once only


def test_a_change_that_rolls_back_posts_nothing(receiver, add_webhook, moderator, league):
    add_webhook(receiver.url)
    with pytest.raises(RuntimeError), transaction.atomic():
        open_new_round(moderator, league)
        assert WebhookDelivery.objects.count() == 1
        raise RuntimeError("something after the opening failed")
    assert WebhookDelivery.objects.count() == 0


def test_only_subscribed_active_webhooks_of_the_league_get_the_event(
    receiver, add_webhook, moderator, league, other_moderator
):
    from rounds.services.leagues import create_league

    subscribed = add_webhook(receiver.url)
    add_webhook(receiver.url + "?final-only", events=["results_final"])
    switched_off = add_webhook(receiver.url + "?off")
    switched_off.active = False
    switched_off.save()
    elsewhere = create_league(actor=other_moderator, name="League 46", moderators=[other_moderator])
    add_webhook(receiver.url + "?elsewhere", actor=other_moderator, league=elsewhere)
    open_new_round(moderator, league)
    assert [delivery.webhook for delivery in WebhookDelivery.objects.all()] == [subscribed]


def test_a_switched_off_webhook_gets_no_pending_post(receiver, add_webhook, moderator, league):
    webhook = add_webhook(receiver.url)
    open_new_round(moderator, league)
    webhook.active = False
    webhook.save()
    [delivery] = WebhookDelivery.objects.all()
    assert services.deliver(delivery.pk) == "failed"
    assert receiver.requests == []


def test_a_test_message_is_harmless(receiver, add_webhook, moderator):
    webhook = add_webhook(receiver.url)
    delivery = services.send_test(actor=moderator, webhook_id=webhook.pk)
    assert services.deliver(delivery.pk) == "sent"
    [message] = receiver.bodies
    assert_within_discord_limits(message)
    assert message["embeds"][0]["title"] == "Test message"
    assert receiver.requests[0]["headers"]["X-PHM-Event"] == "test"


def test_user_text_cannot_ping_or_format_in_discord(receiver, add_webhook, moderator, league, make_user):
    add_webhook(receiver.url)
    round_ = open_new_round(moderator, league)
    mallory = make_user("mallory", forum_username="@everyone")
    builders.submit(mallory, round_, KJELD, name="**[click](https://evil)**")
    past_deadline(round_)
    build_match_table(round_.pk)
    deliver_all()
    message = receiver.bodies[-1]
    description = message["embeds"][0]["description"]
    assert "\\@everyone" in description
    assert "\\*\\*\\[click\\]\\(https://evil\\)\\*\\*" in description
    assert message["allowed_mentions"] == {"parse": []}


def test_discord_limits_hold_for_long_rules_and_many_hands(moderator, league):
    from rounds.models import Card

    names = list(Card.objects.order_by("-name").values_list("name", flat=True)[:300])
    round_ = open_new_round(
        moderator,
        league,
        title="T" * 200,
        format_rule="x" * 9000,
        extra_banned=names,
        bonus_rule="b" * 3000,
    )
    now = timezone.now()
    opened = payloads.discord_round_opened(round_, {}, now)
    assert_within_discord_limits(opened)
    assert opened["embeds"][0]["description"].endswith("…")
    hands = [
        {
            "number": n,
            "player": f"p{n}",
            "player_name": f"Player with a long name {n}",
            "name": "N" * 100,
            "cards": ["Some Long Card Name, the Card"] * 7,
            "status": "submitted",
            "disqualification_reason": "",
            "notice": "",
        }
        for n in range(1, 80)
    ]
    revealed = payloads.discord_hands_revealed(round_, {"hands": hands}, now)
    assert_within_discord_limits(revealed)
    description = revealed["embeds"][0]["description"]
    assert description.startswith("**01** Player with a long name 1")
    assert "more hands on the site." in description
    table = [
        {
            "rank": n,
            "player": f"p{n}",
            "player_name": "P" * 100,
            "hand_name": "H" * 100,
            "points": 1,
            "league_points": 1,
            "number": n,
        }
        for n in range(1, 11)
    ]
    assert_within_discord_limits(payloads.discord_results_final(round_, {"table": table}, now))


def test_without_site_url_discord_embeds_carry_no_relative_links(
    receiver, add_webhook, moderator, league, settings
):
    settings.SITE_URL = ""
    add_webhook(receiver.url)
    open_new_round(moderator, league)
    deliver_all()
    [message] = receiver.bodies
    assert "url" not in message["embeds"][0]


def test_a_past_round_imported_from_the_archive_is_not_posted(
    receiver, add_webhook, moderator, league, alice, bob
):
    from tests.factories import RoundFactory
    from tests.scoring.conftest import make_hands

    add_webhook(receiver.url)
    archived = RoundFactory(league=league)  # created as the archive import does: never opened here
    make_hands(archived, [alice, bob])
    past_deadline(archived)
    build_match_table(archived.pk)
    finalize_round(actor=moderator, round_id=archived.pk, force=True)
    assert Round.objects.get(pk=archived.pk).state == "final"
    assert not WebhookDelivery.objects.exists()
