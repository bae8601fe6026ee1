"""The bell in the browser: after the reveal a player sees "hands posted" in the navbar, opens it and lands on
their row; the list, the settings page and a rendered HTML e-mail look right on desktop and phone."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from outbox.models import Message
from rounds.models import Round
from submissions import services as hand_services
from tests import builders
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, shoot
from tests.submissions.conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db(transaction=True)


def test_after_the_reveal_the_bell_leads_the_player_to_their_row(
    live_server, page, make_user, password, vintage_round, tmp_path
):
    alice = make_user("alice", forum_username="WhammeWhamme", email="alice@example.org")
    bob = make_user("bob", forum_username="nerdyjoe", email="bob@example.org")
    builders.submit(alice, vintage_round, KJELD, name="Kjeld")
    builders.submit(bob, vintage_round, SCEPTER, name="Scepter")
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, "alice", password)
    bell = page.get_by_role("link", name=re.compile(r"^Notifications"))
    expect(bell).to_have_attribute("aria-label", "Notifications")  # nothing yet

    Round.objects.filter(pk=vintage_round.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert hand_services.reveal_round(vintage_round.pk)

    page.reload()
    expect(bell).to_have_attribute("aria-label", "Notifications: 1 unread")
    expect(bell.locator(".badge")).to_have_text("1")
    bell.click()
    expect(page).to_have_url(re.compile(r"/notifications/$"))
    item = page.get_by_role(
        "link", name=re.compile(r"Hands posted for 45:01 5 Card Vintage: score your row now")
    )
    expect(item).to_be_visible()
    shoot(page, "notifications-list")
    item.click()
    expect(page).to_have_url(re.compile(rf"/rounds/{vintage_round.pk}/results/\?rows=mine$"))
    expect(page.locator("table.phm-matrix tbody tr")).to_have_count(1)
    expect(page.locator("table.phm-matrix tbody tr th").first).to_contain_text("01")
    expect(bell).to_have_attribute("aria-label", "Notifications")  # read now

    page.goto(f"{live_server.url}/notifications/preferences/")
    expect(page.get_by_role("checkbox", name="Deadline reminders by e-mail")).to_be_checked()
    page.get_by_role("checkbox", name="Hands revealed by e-mail").uncheck()
    page.get_by_role("button", name="Save choices").click()
    expect(page.get_by_text("Your notification choices are saved.")).to_be_visible()
    expect(page.get_by_role("checkbox", name="Hands revealed by e-mail")).not_to_be_checked()
    shoot(page, "notification-preferences")

    email = Message.objects.get(kind="hands.revealed", recipient=alice)
    rendered = tmp_path / "email.html"  # opened as a file: the site's CSP does not apply to an e-mail
    rendered.write_text(email.html_body)
    page.goto(rendered.as_uri())
    expect(page.get_by_role("link", name="Score your row")).to_be_visible()
    shoot(page, "email-hands-revealed")
