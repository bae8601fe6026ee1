"""3 (webhooks) in the browser: a moderator adds a Discord webhook from the dashboard, sends a test
message and sees its delivery with the receiver's answer; a JSON webhook's secret is shown once."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests import builders
from tests.e2e.test_accounts_browser import field
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, PHONE, shoot
from tests.webhooks.conftest import receiver  # noqa: F401  (fixture)
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db(transaction=True)


def test_moderator_adds_a_webhook_and_sends_a_test(
    live_server,
    page,
    settings,
    moderator,
    password,
    vintage_round,
    receiver,  # noqa: F811
):
    settings.DEBUG = True  # the receiver is plain http on 127.0.0.1: the development exception needs both
    settings.WEBHOOK_ALLOW_LOCAL_HTTP = True
    settings.SITE_URL = live_server.url
    league = vintage_round.league
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "mod", password)
    page.goto(f"{live_server.url}/moderate/")
    shoot(page, "dashboard-webhooks-link")
    page.get_by_role("link", name="Webhooks").click()
    expect(page.get_by_role("heading", name="Webhooks of League 45")).to_be_visible()
    expect(page.get_by_text("No webhooks yet.")).to_be_visible()

    page.get_by_label(field("Webhook URL")).fill(receiver.url)
    page.get_by_role("button", name="Add webhook").click()
    expect(page.get_by_text("Webhook added.")).to_be_visible()
    page.get_by_role("button", name="Send a test message").click()
    expect(page.get_by_text("Test message queued")).to_be_visible()
    row = page.locator("tbody tr").first
    expect(row).to_contain_text("Test message")
    expect(row).to_contain_text("Sent")
    expect(row).to_contain_text("204")
    assert receiver.bodies[0]["embeds"][0]["title"] == "Test message"

    # A JSON receiver that fails once; and a round that opens: each webhook gets its post.
    page.get_by_label(field("Webhook URL")).fill(receiver.url + "?signed")
    page.get_by_label("Generic JSON (signed)").check()
    page.get_by_label("Hands posted").uncheck()
    page.get_by_role("button", name="Add webhook").click()
    secret = Webhook.objects.get(kind="json").secret
    expect(page.get_by_text(secret)).to_be_visible()
    receiver.answer(204, 500)
    now = timezone.now()
    builders.open_round(
        league=league, actor=moderator, now=now, title="Highlander 7", deadline=now + timedelta(days=3)
    )
    page.goto(f"{live_server.url}/moderate/leagues/{league.pk}/webhooks/")
    expect(page.get_by_text(secret)).to_have_count(0)  # shown once only
    expect(page.get_by_text("delivery failed (HTTP 500)")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= DESKTOP["width"] + 1
    shoot(page, "webhooks-page")
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, width

    page.set_viewport_size(DESKTOP)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Remove the Generic JSON (signed) webhook").click()
    expect(page.get_by_text("Webhook removed")).to_be_visible()
    assert Webhook.objects.count() == 1
