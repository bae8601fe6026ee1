"""The moderator's webhooks page: add, list with the last deliveries, test, remove; only for the league's
moderators; a bounded number of queries; linked from the dashboard."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from webhooks import services
from webhooks.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db


def page(league):
    return f"/moderate/leagues/{league.pk}/webhooks/"


def add(moderator, league, n=0, kind="discord"):
    url = f"https://discord.com/api/webhooks/{n}/token-{n:08d}"
    return services.create_webhook(
        actor=moderator, league=league, url=url, kind=kind, events=["round_opened"]
    )[0]


def test_the_dashboard_links_to_each_leagues_webhooks(client, moderator, league):
    client.force_login(moderator)
    response = client.get("/moderate/")
    assert page(league).encode() in response.content


def test_a_moderator_adds_a_discord_webhook(client, moderator, league, receiver):
    client.force_login(moderator)
    response = client.get(page(league))
    assert response.status_code == 200
    assert b"No webhooks yet." in response.content and b"Add a webhook" in response.content
    response = client.post(
        page(league),
        {"url": receiver.url, "kind": "discord", "events": ["round_opened", "hands_revealed"]},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == page(league)
    webhook = Webhook.objects.get()
    assert webhook.events == ["round_opened", "hands_revealed"] and webhook.created_by == moderator
    assert b"Webhook added." in response.content and b"Round opened \xc2\xb7 Hands posted" in response.content
    assert AuditEntry.objects.filter(action="league.webhook_added", object_id=league.pk).exists()


def test_a_json_webhooks_secret_is_shown_once(client, moderator, league):
    client.force_login(moderator)
    data = {"url": "https://example.org/hook", "kind": "json", "events": ["results_final"]}
    response = client.post(page(league), data, follow=True)
    secret = Webhook.objects.get().secret
    assert secret.encode() in response.content and b"shown this once" in response.content
    again = client.get(page(league))
    assert secret.encode() not in again.content and ("…" + secret[-4:]).encode() in again.content


def test_bad_input_is_explained_on_the_form(client, moderator, league, settings):
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = False
    client.force_login(moderator)
    response = client.post(page(league), {"url": "http://example.org/hook", "kind": "discord", "events": []})
    assert response.status_code == 200
    assert b"Use an https:// URL" in response.content
    assert b"This field is required." in response.content  # no event chosen
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "url", ["https://0x7f000001/hook", "https://0177.0.0.1/hook", "https://localhost./hook"]
)
def test_a_local_or_private_address_in_any_spelling_is_explained_on_the_form(client, moderator, league, url):
    client.force_login(moderator)
    response = client.post(page(league), {"url": url, "kind": "discord", "events": ["round_opened"]})
    assert response.status_code == 200
    assert b"is a local or private address" in response.content
    assert not Webhook.objects.exists()


def test_test_button_and_removal(client, moderator, league, receiver):
    webhook = services.create_webhook(
        actor=moderator, league=league, url=receiver.url, kind="discord", events=["round_opened"]
    )[0]
    client.force_login(moderator)
    response = client.get(page(league))
    content = response.content.decode()
    assert f'action="/moderate/webhooks/{webhook.pk}/test/"' in content
    assert 'data-confirm="Remove this webhook? Nothing more will be sent to it."' in content
    client.post(f"/moderate/webhooks/{webhook.pk}/test/")
    delivery = WebhookDelivery.objects.get(event="test")
    services.deliver(delivery.pk)
    response = client.get(page(league))
    assert b"Test message" in response.content and b">204<" in response.content
    response = client.post(f"/moderate/webhooks/{webhook.pk}/delete/", follow=True)
    assert b"Webhook removed" in response.content and not Webhook.objects.exists()
    assert AuditEntry.objects.filter(action="league.webhook_removed", object_id=league.pk).exists()


def test_only_the_leagues_moderators_see_the_page(client, moderator, other_moderator, player, league):
    webhook = add(moderator, league)
    assert client.get(page(league)).status_code == 302  # to the login page
    client.force_login(player)
    assert client.get(page(league)).status_code == 403
    client.force_login(other_moderator)
    assert client.get(page(league)).status_code == 403
    assert client.post(f"/moderate/webhooks/{webhook.pk}/test/").status_code == 403
    assert client.post(f"/moderate/webhooks/{webhook.pk}/delete/").status_code == 403
    assert client.get("/moderate/leagues/999999/webhooks/").status_code == 404
    assert client.post("/moderate/webhooks/999999/delete/").status_code == 404
    assert Webhook.objects.count() == 1 and not WebhookDelivery.objects.exists()
    assert client.get(f"/moderate/webhooks/{webhook.pk}/delete/").status_code == 405


def test_the_page_takes_the_same_number_of_queries_for_many_webhooks_and_deliveries(
    client, moderator, league
):
    client.force_login(moderator)

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(page(league)).status_code == 200
        return len(captured)

    first = add(moderator, league, 1)
    WebhookDelivery.objects.create(webhook=first, event="test", payload="{}")
    queries()  # the first page of a session does some once-only work (session, the navbar's cached counts)
    few = queries()
    for n in range(2, 8):
        hook = add(moderator, league, n, kind="json")
        WebhookDelivery.objects.bulk_create(
            [WebhookDelivery(webhook=hook, event="test", payload="{}") for _ in range(15)]
        )
    assert queries() == few
    assert few <= 12


def test_without_site_url_the_page_warns(client, moderator, league, settings):
    settings.SITE_URL = ""
    client.force_login(moderator)
    assert b"SITE_URL is not set" in client.get(page(league)).content
