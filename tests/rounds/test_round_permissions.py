"""Who may use each moderator page and API endpoint: anonymous, player, moderator of another league, moderator."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from rounds.models import RoundState
from rounds.services.leagues import create_league
from tests.factories import RoundFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def rounds(league):
    return {
        "open": RoundFactory(league=league),
        "draft": RoundFactory(league=league, state=RoundState.DRAFT),
    }


@pytest.fixture
def viewers(player, moderator, other_moderator, league):
    # other_moderator manages another league only: league 45 names `moderator` as its moderator.
    create_league(actor=other_moderator, name="League 99", moderators=[other_moderator])
    return {"anonymous": None, "player": player, "other_moderator": other_moderator, "moderator": moderator}


def page_urls(rounds):
    open_id, draft_id = rounds["open"].pk, rounds["draft"].pk
    return {
        "dashboard": ("get", "/moderate/", None),
        "new league": ("get", "/moderate/leagues/new/", None),
        "new round": ("get", "/moderate/rounds/new/", None),
        "manage open": ("get", f"/moderate/rounds/{open_id}/", open_id),
        "edit open": ("get", f"/moderate/rounds/{open_id}/edit/", open_id),
        "close open": ("post", f"/moderate/rounds/{open_id}/close/", open_id),
        "extend open": ("post", f"/moderate/rounds/{open_id}/extend/", open_id),
        "resync open": ("post", f"/moderate/rounds/{open_id}/resync/", open_id),
        "manage draft": ("get", f"/moderate/rounds/{draft_id}/", draft_id),
        "open draft": ("post", f"/moderate/rounds/{draft_id}/open/", draft_id),
    }


# What each viewer gets: anonymous → login redirect; player → 403; a moderator of another league → 403 on
# this league's open round, 404 on its draft, 200 on site-wide pages; the league's moderator → 200 or a redirect.
EXPECTED_PAGES = {
    "anonymous": lambda name: 302,
    "player": lambda name: 403,
    "other_moderator": lambda name: (
        200 if name in {"dashboard", "new league", "new round"} else 404 if "draft" in name else 403
    ),
    "moderator": lambda name: 302 if name.split()[0] in {"close", "extend", "resync", "open"} else 200,
}


@pytest.mark.parametrize("viewer", ["anonymous", "player", "other_moderator", "moderator"])
def test_moderator_pages_matrix(client, viewers, rounds, viewer):
    if viewers[viewer]:
        client.force_login(viewers[viewer])
    for name, (method, url, _) in page_urls(rounds).items():
        response = getattr(client, method)(url)
        expected = EXPECTED_PAGES[viewer](name)
        assert response.status_code == expected, f"{viewer} {name}: {response.status_code}"
        if viewer == "anonymous":
            assert response["Location"].startswith("/accounts/login/")


def api_calls(rounds, league):
    open_id, draft_id = rounds["open"].pk, rounds["draft"].pk
    deadline = (timezone.now() + timedelta(days=3)).isoformat()
    return {
        "create league": ("post", "/api/leagues/", {"name": "League 77"}),
        "create round": (
            "post",
            "/api/rounds/",
            {"league": league.pk, "title": "T", "hand_size": 3, "deadline": deadline},
        ),
        "patch open": ("patch", f"/api/rounds/{open_id}/", {"commentary": "hello"}),
        "close open": ("post", f"/api/rounds/{open_id}/close/", {}),
        "get draft": ("get", f"/api/rounds/{draft_id}/", None),
        "patch draft": ("patch", f"/api/rounds/{draft_id}/", {"title": "x"}),
        "close draft": ("post", f"/api/rounds/{draft_id}/close/", {}),
    }


EXPECTED_API = {
    # Anonymous writes are 401 whether the round exists or not, so they reveal nothing.
    "anonymous": {
        "create league": 401,
        "create round": 401,
        "patch open": 401,
        "close open": 401,
        "get draft": 404,
        "patch draft": 401,
        "close draft": 401,
    },
    "player": {
        "create league": 403,
        "create round": 403,
        "patch open": 403,
        "close open": 403,
        "get draft": 404,
        "patch draft": 404,
        "close draft": 404,
    },
    "other_moderator": {
        "create league": 201,
        "create round": 403,
        "patch open": 403,
        "close open": 403,
        "get draft": 404,
        "patch draft": 404,
        "close draft": 404,
    },
    "moderator": {
        "create league": 201,
        "create round": 201,
        "patch open": 200,
        "close open": 200,
        "get draft": 200,
        "patch draft": 200,
        "close draft": 409,
    },
}


@pytest.mark.parametrize("viewer", ["anonymous", "player", "other_moderator", "moderator"])
def test_api_matrix(api_client, viewers, rounds, league, viewer):
    if viewers[viewer]:
        token = Token.objects.create(user=viewers[viewer])
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    for name, (method, url, body) in api_calls(rounds, league).items():
        response = (
            getattr(api_client, method)(url, body, format="json") if body is not None else api_client.get(url)
        )
        assert response.status_code == EXPECTED_API[viewer][name], (
            f"{viewer} {name}: {response.content[:300]}"
        )
        if response.status_code >= 400:
            assert set(response.json()) >= {"detail", "code"}, response.json()


def test_drafts_are_invisible_to_the_public(client, rounds):
    assert client.get(f"/rounds/{rounds['draft'].pk}/").status_code == 404
    assert client.get(f"/rounds/{rounds['draft'].pk}/export/announcement.bbcode").status_code == 404
    assert rounds["draft"].title not in client.get("/rounds/").content.decode()
    assert rounds["draft"].title not in client.get("/api/rounds/").content.decode()
