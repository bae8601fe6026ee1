"""The secret of a player's calendar link: long, random, one per user, replaced from the profile page."""

import re

import pytest
from django.urls import reverse

from accounts import services
from accounts.models import CalendarToken

pytestmark = pytest.mark.django_db


def test_a_token_is_made_once_and_is_long_and_urlsafe(player):
    token = services.calendar_token_for(player)
    assert re.fullmatch(r"[A-Za-z0-9_-]{43,}", token)  # 32 random bytes
    assert services.calendar_token_for(player) == token
    assert CalendarToken.objects.filter(user=player).count() == 1
    assert services.user_for_calendar_token(token) == player


def test_tokens_differ_between_users(make_user):
    tokens = {services.calendar_token_for(make_user(f"user{n}")) for n in range(5)}
    assert len(tokens) == 5


def test_renewing_replaces_the_token(player):
    old = services.calendar_token_for(player)
    new = services.renew_calendar_token(player)
    assert new != old
    assert services.user_for_calendar_token(old) is None
    assert services.user_for_calendar_token(new) == player
    assert services.calendar_token_for(player) == new


def test_renewing_before_any_token_makes_one(player):
    new = services.renew_calendar_token(player)
    assert services.calendar_token_for(player) == new


@pytest.mark.parametrize("secret", ["", None, "x" * 500, "nope"])
def test_unknown_secrets_find_nobody(player, secret):
    services.calendar_token_for(player)
    assert services.user_for_calendar_token(secret) is None


def test_profile_shows_the_link_to_copy_and_a_confirmed_renew_form(client, player, password):
    client.login(username="player", password=password)
    page = client.get(reverse("profile")).content.decode()
    token = services.calendar_token_for(player)
    assert f'value="http://testserver/calendar/{token}.ics"' in page
    assert f'href="webcal://testserver/calendar/{token}.ics"' in page
    assert 'data-copy-target="#calendar-url"' in page
    assert 'id="calendar"' in page
    assert f'action="{reverse("calendar-renew")}"' in page
    assert "data-confirm=" in page
    assert "Make a new link (the old one stops working)" in page
    assert "js/copy.js" in page


def test_the_renew_button_makes_the_old_link_404(client, player, password):
    client.login(username="player", password=password)
    old = services.calendar_token_for(player)
    assert client.get(f"/calendar/{old}.ics").status_code == 200
    response = client.post(reverse("calendar-renew"))
    assert response.status_code == 302
    assert response["Location"] == reverse("profile") + "#calendar"
    new = services.calendar_token_for(player)
    assert new != old
    page = client.get(reverse("profile")).content.decode()
    assert "the old one no longer works" in page
    assert new in page and old not in page
    assert client.get(f"/calendar/{old}.ics").status_code == 404
    assert client.get(f"/calendar/{new}.ics").status_code == 200


def test_renew_needs_a_post_and_a_login(client, player, password):
    token = services.calendar_token_for(player)
    response = client.post(reverse("calendar-renew"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert services.calendar_token_for(player) == token
    client.login(username="player", password=password)
    assert client.get(reverse("calendar-renew")).status_code == 405
    assert services.calendar_token_for(player) == token


def test_renew_needs_the_csrf_token(player):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    token = services.calendar_token_for(player)
    assert client.post(reverse("calendar-renew")).status_code == 403
    assert services.calendar_token_for(player) == token
