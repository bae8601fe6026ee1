"""The webhooks API: moderators of the league only (403 for others, 401 without login, 404 for unknown)."""

import pytest
from rest_framework.authtoken.models import Token

from audit.models import AuditEntry
from webhooks import services
from webhooks.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db

BODY = {
    "url": "https://discord.com/api/webhooks/42/tokentokentokentoken",
    "kind": "discord",
    "events": ["round_opened"],
}


def as_user(api_client, user):
    if user is not None:
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return api_client


@pytest.fixture
def webhook(moderator, league):
    return services.create_webhook(actor=moderator, league=league, **BODY)[0]


def test_a_moderator_adds_lists_tests_and_removes_a_webhook(api_client, moderator, league, receiver):
    client = as_user(api_client, moderator)
    response = client.post(
        f"/api/leagues/{league.pk}/webhooks/",
        {"url": receiver.url, "kind": "json", "events": ["round_opened", "results_final"]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    webhook = Webhook.objects.get()
    assert created["id"] == webhook.pk and created["league"] == league.pk and created["kind"] == "json"
    assert created["url"] == receiver.url and created["events"] == ["round_opened", "results_final"]
    assert created["secret"] == webhook.secret and len(created["secret"]) >= 40  # in full, this once
    assert created["deliveries"] == [] and created["created_by"] == "mod"

    response = client.post(f"/api/webhooks/{webhook.pk}/test/")
    assert response.status_code == 202
    assert response.json()["event"] == "test"
    delivery = WebhookDelivery.objects.get()
    services.deliver(delivery.pk)

    response = client.get(f"/api/leagues/{league.pk}/webhooks/")
    assert response.status_code == 200
    [listed] = response.json()
    assert "secret" not in listed and listed["secret_hint"] == "…" + webhook.secret[-4:]
    assert webhook.secret not in response.content.decode()
    [shown] = listed["deliveries"]
    assert shown["event"] == "test" and shown["state"] == "sent" and shown["status_code"] == 204
    assert shown["attempts"] == 1 and shown["sent_at"]

    response = client.delete(f"/api/webhooks/{webhook.pk}/")
    assert response.status_code == 204
    assert not Webhook.objects.exists() and not WebhookDelivery.objects.exists()
    actions = list(AuditEntry.objects.filter(object_id=league.pk).values_list("action", flat=True))
    assert "league.webhook_added" in actions and "league.webhook_removed" in actions


def test_the_list_shows_the_last_ten_deliveries_newest_first(api_client, moderator, league, webhook):
    deliveries = [
        WebhookDelivery.objects.create(webhook=webhook, event="test", payload="{}") for _ in range(12)
    ]
    response = as_user(api_client, moderator).get(f"/api/leagues/{league.pk}/webhooks/")
    [listed] = response.json()
    assert [row["id"] for row in listed["deliveries"]] == [d.pk for d in reversed(deliveries)][:10]
    assert listed["url"] == "https://discord.com/api/webhooks/42/toke…oken"  # the token is not repeated


@pytest.mark.parametrize("who", ["other_moderator", "player"])
def test_others_get_403_everywhere(api_client, request, league, webhook, who):
    client = as_user(api_client, request.getfixturevalue(who))
    assert client.get(f"/api/leagues/{league.pk}/webhooks/").status_code == 403
    assert client.post(f"/api/leagues/{league.pk}/webhooks/", BODY, format="json").status_code == 403
    assert client.post(f"/api/webhooks/{webhook.pk}/test/").status_code == 403
    response = client.delete(f"/api/webhooks/{webhook.pk}/")
    assert response.status_code == 403 and response.json()["code"] == "permission_denied"
    assert Webhook.objects.count() == 1 and not WebhookDelivery.objects.exists()


def test_anonymous_gets_401(api_client, league, webhook):
    assert api_client.get(f"/api/leagues/{league.pk}/webhooks/").status_code == 401
    assert api_client.post(f"/api/leagues/{league.pk}/webhooks/", BODY, format="json").status_code == 401
    assert api_client.delete(f"/api/webhooks/{webhook.pk}/").status_code == 401
    assert api_client.post(f"/api/webhooks/{webhook.pk}/test/").status_code == 401
    assert Webhook.objects.count() == 1


def test_unknown_leagues_and_webhooks_are_404(api_client, moderator):
    client = as_user(api_client, moderator)
    response = client.get("/api/leagues/999999/webhooks/")
    assert response.status_code == 404 and response.json() == {
        "detail": "No such league.",
        "code": "not_found",
    }
    assert client.delete("/api/webhooks/999999/").status_code == 404
    assert client.post("/api/webhooks/999999/test/").status_code == 404


def test_bad_input_is_400_with_field_reasons_and_a_duplicate_is_409(
    api_client, moderator, league, webhook, settings
):
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = False
    client = as_user(api_client, moderator)
    response = client.post(
        f"/api/leagues/{league.pk}/webhooks/",
        {"url": "http://example.org/hook", "kind": "discord", "events": ["nope"]},
        format="json",
    )
    assert response.status_code == 400
    assert "https://" in response.json()["url"][0] and "Unknown event" in response.json()["events"][0]
    response = client.post(f"/api/leagues/{league.pk}/webhooks/", {"kind": "telegram"}, format="json")
    assert response.status_code == 400 and {"url", "kind", "events"} <= set(response.json())
    response = client.post(f"/api/leagues/{league.pk}/webhooks/", BODY, format="json")
    assert response.status_code == 409 and response.json()["code"] == "conflict"


def test_a_site_moderator_manages_a_league_that_names_no_moderators(api_client, other_moderator, moderator):
    from rounds.services.leagues import create_league

    open_league = create_league(actor=moderator, name="League 50")
    response = as_user(api_client, other_moderator).post(
        f"/api/leagues/{open_league.pk}/webhooks/", BODY, format="json"
    )
    assert response.status_code == 201


def test_the_schema_describes_the_webhook_endpoints(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert {"get", "post"} <= set(schema["paths"]["/api/leagues/{league_id}/webhooks/"])
    assert "delete" in schema["paths"]["/api/webhooks/{webhook_id}/"]
    assert "post" in schema["paths"]["/api/webhooks/{webhook_id}/test/"]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("https://127.1/hook", "127.1 means 127.0.0.1"),
        ("https://2852039166/latest/meta-data", "2852039166 means 169.254.169.254"),
        ("https://[::ffff:7f00:1]/hook", "means 127.0.0.1"),
        ("https://localhost./hook", "localhost. is a local or private address"),
    ],
)
def test_a_local_or_private_address_in_any_spelling_is_a_400_naming_it(
    api_client, moderator, league, url, says
):
    response = as_user(api_client, moderator).post(
        f"/api/leagues/{league.pk}/webhooks/", {**BODY, "url": url}, format="json"
    )
    assert response.status_code == 400
    [problem] = response.json()["url"]
    assert says in problem and "public https:// address" in problem
    assert not Webhook.objects.exists()


def test_deliveries_in_the_api_say_only_delivery_failed_and_why_in_one_word(
    api_client, moderator, league, receiver
):
    webhook = services.create_webhook(
        actor=moderator, league=league, url=receiver.url, kind="discord", events=["round_opened"]
    )[0]
    receiver.answer(503)
    services.deliver(services.send_test(actor=moderator, webhook_id=webhook.pk).pk)
    [delivery] = (
        as_user(api_client, moderator).get(f"/api/leagues/{league.pk}/webhooks/").json()[0]["deliveries"]
    )
    assert delivery["error"] == "delivery failed (HTTP 503)" and delivery["status_code"] == 503
