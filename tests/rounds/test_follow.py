"""Following a league: the button on its page (plain POST forms) and the API."""

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from rounds.services import following as services

pytestmark = pytest.mark.django_db


def league_page(client, league):
    response = client.get(reverse("scoring:league", args=[league.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_league_page_links_its_feeds(client, league):
    page = league_page(client, league)
    feed = reverse("rounds:league-feed", args=[league.pk])
    assert '<link rel="alternate" type="application/atom+xml"' in page
    assert f'href="{feed}"' in page
    assert f'href="{reverse("rounds:league-calendar", args=[league.pk])}"' in page
    assert "Log in to follow" in page
    assert reverse("rounds:league-follow", args=[league.pk]) not in page


def test_follow_and_unfollow_from_the_page(client, player, password, league):
    client.login(username="player", password=password)
    page = league_page(client, league)
    follow = reverse("rounds:league-follow", args=[league.pk])
    unfollow = reverse("rounds:league-unfollow", args=[league.pk])
    assert f'action="{follow}"' in page and unfollow not in page
    response = client.post(follow)
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:league", args=[league.pk])
    assert league.followers.filter(pk=player.pk).exists()
    page = league_page(client, league)
    assert f'action="{unfollow}"' in page and f'action="{follow}"' not in page
    assert "You follow League 45" in page
    client.post(follow)  # twice: still one follower row
    assert league.followers.count() == 1
    client.post(unfollow)
    assert not league.followers.filter(pk=player.pk).exists()
    assert f'action="{follow}"' in league_page(client, league)


def test_follow_needs_login_post_and_csrf(client, player, password, league):
    follow = reverse("rounds:league-follow", args=[league.pk])
    response = client.post(follow)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert league.followers.count() == 0
    client.login(username="player", password=password)
    assert client.get(follow).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(follow).status_code == 403
    assert league.followers.count() == 0


def test_following_an_unknown_league_is_404(client, player, password):
    client.login(username="player", password=password)
    assert client.post(reverse("rounds:league-follow", args=[999999])).status_code == 404
    assert client.post(reverse("rounds:league-unfollow", args=[999999])).status_code == 404


def test_services_are_idempotent(player, league):
    services.follow_league(player, league.pk)
    services.follow_league(player, league.pk)
    assert list(player.followed_leagues.all()) == [league]
    services.unfollow_league(player, league.pk)
    services.unfollow_league(player, league.pk)
    assert list(player.followed_leagues.all()) == []


# API ----------------------------------------------------------------------------------------------------


def test_api_follow_and_unfollow(api_client, player, league):
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=player).key}")
    url = f"/api/leagues/{league.pk}/follow/"
    assert api_client.get(url).json() == {"following": False}
    response = api_client.post(url)
    assert response.status_code == 200 and response.json() == {"following": True}
    assert api_client.post(url).json() == {"following": True}
    assert api_client.get(url).json() == {"following": True}
    response = api_client.delete(url)
    assert response.status_code == 200 and response.json() == {"following": False}
    assert api_client.delete(url).json() == {"following": False}
    assert not league.followers.exists()


def test_api_follow_needs_login(api_client, league):
    url = f"/api/leagues/{league.pk}/follow/"
    for method in (api_client.get, api_client.post, api_client.delete):
        response = method(url)
        assert response.status_code == 401
        assert set(response.json()) == {"detail", "code"}
    assert not league.followers.exists()


def test_api_follow_unknown_league(api_client, player):
    api_client.force_authenticate(player)
    response = api_client.post("/api/leagues/999999/follow/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
