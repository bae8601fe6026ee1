"""Every API list whose size grows with a round, a league or the site comes a page at a time (phm.pagination,
docs/api.md: Pages of a list): the same items as before, `?limit=` and `?offset=`, `X-Total-Count` and a `Link`
header, a 400 past the maximum; each page in the same number of queries whatever the size of the list; the
guide names every paged list with its default and maximum, as the code has them."""

import re
from datetime import timedelta

import pytest
from django.test import RequestFactory
from django.utils import timezone
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.test import APIClient

from outbox import unread
from outbox.models import Notification
from phm.pagination import Page, page_of, with_page_headers
from scoring.services.table import build_match_table
from tests import builders

from .conftest import make_hands

pytestmark = pytest.mark.django_db

GUIDE = "docs/api.md"


def _links(response):
    return {
        rel: (int(re.search(r"offset=(\d+)", url).group(1)), int(re.search(r"limit=(\d+)", url).group(1)))
        for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', response["Link"])
    }


def _request(query=""):
    return Request(RequestFactory().get(f"/api/things/?{query}"))


# The helper ---------------------------------------------------------------------------------------------------


def test_a_page_is_read_from_the_query_and_checked():
    assert page_of(_request(), default=50, maximum=200) == Page(offset=0, limit=50)
    assert page_of(_request("limit=200&offset=400"), default=50, maximum=200) == Page(offset=400, limit=200)
    for query in (
        "limit=201",
        "limit=0",
        "limit=-1",
        "limit=1.5",
        "limit=%EF%BC%91",
        "offset=-3",
        "limit=9" * 900,
    ):
        with pytest.raises(ValidationError):
            page_of(_request(query), default=50, maximum=200)


def test_links_keep_the_other_parameters_and_stop_at_the_ends():
    from rest_framework.response import Response

    request = _request("unread=1&limit=10&offset=10")
    response = with_page_headers(Response([]), request, Page(offset=10, limit=10), 25)
    assert response["X-Total-Count"] == "25"
    assert response["Link"] == (
        '<http://testserver/api/things/?unread=1&offset=0&limit=10>; rel="first", '
        '<http://testserver/api/things/?unread=1&offset=0&limit=10>; rel="prev", '
        '<http://testserver/api/things/?unread=1&offset=20&limit=10>; rel="next", '
        '<http://testserver/api/things/?unread=1&offset=20&limit=10>; rel="last"'
    )
    empty = with_page_headers(Response([]), _request(), Page(offset=0, limit=10), 0)
    assert _links(empty) == {"first": (0, 10), "last": (0, 10)}


# The lists ------------------------------------------------------------------------------------------------------


@pytest.fixture
def revealed(league, make_players):
    def make(count, prefix="h"):
        from tests.factories import RoundFactory

        round_ = RoundFactory(league=league)
        make_hands(round_, make_players(count, prefix=prefix))
        round_.deadline = timezone.now() - timedelta(minutes=1)
        round_.save(update_fields=["deadline"])
        return round_

    return make


def test_the_hands_of_a_round_in_pages_keep_their_numbers(revealed, api_client):
    round_ = revealed(3)
    whole = api_client.get(f"/api/rounds/{round_.pk}/hands/")
    assert [hand["number"] for hand in whole.json()] == [1, 2, 3] and whole["X-Total-Count"] == "3"
    pages = [api_client.get(f"/api/rounds/{round_.pk}/hands/?limit=1&offset={offset}") for offset in range(3)]
    assert [page.json() for page in pages] == [[hand] for hand in whole.json()]
    assert _links(pages[1]) == {"first": (0, 1), "prev": (0, 1), "next": (2, 1), "last": (2, 1)}
    assert api_client.get(f"/api/rounds/{round_.pk}/hands/?limit=2001").status_code == 400


def test_before_the_deadline_the_hands_are_the_same_404_whatever_the_page(league, make_players, api_client):
    from tests.factories import RoundFactory

    round_ = RoundFactory(league=league)
    make_hands(round_, make_players(2))
    for query in ("", "?limit=1", "?limit=999999"):
        response = api_client.get(f"/api/rounds/{round_.pk}/hands/{query}")
        assert response.status_code == 404
        assert response.json() == {
            "detail": "The hands of this round are not revealed yet.",
            "code": "not_found",
        }
        assert "X-Total-Count" not in response and "Link" not in response


@pytest.mark.parametrize("size", [3, 12])
def test_a_page_of_hands_costs_the_same_queries_whatever_the_round(revealed, size, django_assert_num_queries):
    round_ = revealed(size, prefix=f"n{size}-")
    client = APIClient()
    # The round, (reveal check) the hands, their versions, the total.
    with django_assert_num_queries(4):
        response = client.get(f"/api/rounds/{round_.pk}/hands/?limit=2&offset=1")
    assert len(response.json()) == 2 and response["X-Total-Count"] == str(size)


def _rounds(league, moderator, count):
    now = timezone.now()
    for index in range(count):
        builders.open_round(
            league=league,
            actor=moderator,
            now=now,
            title=f"Round {index}",
            hand_size=3,
            deadline=now + timedelta(days=1, hours=index),
        )


def test_the_rounds_in_pages(league, moderator, api_client):
    _rounds(league, moderator, 5)
    whole = api_client.get("/api/rounds/").json()
    assert [item["title"] for item in whole] == [f"Round {index}" for index in (4, 3, 2, 1, 0)]
    pieces = []
    for offset in (0, 2, 4):
        page = api_client.get(f"/api/rounds/?limit=2&offset={offset}")
        assert page["X-Total-Count"] == "5"
        pieces += page.json()
    assert pieces == whole
    assert api_client.get("/api/rounds/?limit=501").json() == {"limit": ["A whole number from 1 to 500."]}


@pytest.mark.parametrize("size", [2, 7])
def test_a_page_of_rounds_costs_the_same_queries_whatever_the_site(
    league, moderator, size, django_assert_num_queries
):
    _rounds(league, moderator, size)
    client = APIClient()
    client.get("/api/rounds/?limit=2")  # the standing banned lists and the catalog are read once per process
    with django_assert_num_queries(3):  # the standing banned lists, the page (entries counted), the total
        response = client.get("/api/rounds/?limit=2")
    assert len(response.json()) == 2 and response["X-Total-Count"] == str(size)


def test_the_standings_in_pages(league, revealed, api_client):
    round_ = revealed(4)
    build_match_table(round_.pk)
    whole = api_client.get(f"/api/leagues/{league.pk}/standings/")
    assert len(whole.json()) == 4 and whole["X-Total-Count"] == "4"
    first, second = (
        api_client.get(f"/api/leagues/{league.pk}/standings/?limit=3&offset={o}") for o in (0, 3)
    )
    assert first.json() + second.json() == whole.json()
    assert _links(first) == {"first": (0, 3), "next": (3, 3), "last": (3, 3)}


@pytest.mark.parametrize("size", [2, 6])
def test_a_page_of_standings_costs_the_same_queries_whatever_the_league(
    league, revealed, size, django_assert_num_queries
):
    round_ = revealed(size, prefix=f"s{size}-")
    build_match_table(round_.pk)
    client = APIClient()
    with django_assert_num_queries(8):
        response = client.get(f"/api/leagues/{league.pk}/standings/?limit=1")
    assert len(response.json()) == 1 and response["X-Total-Count"] == str(size)


def test_every_notification_is_reachable(player, api_client):
    Notification.objects.bulk_create(
        [
            Notification(recipient=player, kind="round.opened", text=f"Note {index}", url="/")
            for index in range(7)
        ]
    )
    unread.forget([player.pk])  # bulk_create sends no signal: the cached count is dropped as the outbox does
    api_client.force_authenticate(player)
    first = api_client.get("/api/notifications/?limit=5")
    assert len(first.json()["results"]) == 5 and first.json()["unread"] == 7
    assert first["X-Total-Count"] == "7" and _links(first)["next"] == (5, 5)
    rest = api_client.get("/api/notifications/?limit=5&offset=5")
    seen = [item["id"] for item in first.json()["results"] + rest.json()["results"]]
    assert sorted(seen) == sorted(Notification.objects.values_list("pk", flat=True))
    assert api_client.get("/api/notifications/?limit=201").json() == {
        "limit": ["A whole number from 1 to 200."]
    }


# The guide ------------------------------------------------------------------------------------------------------


def test_the_guide_names_every_paged_list_with_its_default_and_maximum():
    from pathlib import Path

    from outbox import api as outbox_api
    from rounds import round_api
    from scoring import matches_reply
    from scoring.api import league as scoring_api
    from submissions import api as submissions_api

    text = (Path(__file__).resolve().parents[2] / GUIDE).read_text()
    section = text.split("## Pages of a list", 1)[1].split("\n## ", 1)[0]
    rows = {
        match.group(1): (int(match.group(2).replace(",", "")), int(match.group(3).replace(",", "")))
        for match in re.finditer(r"^\| `GET (\S+)` \| ([\d,]+) \| ([\d,]+) \|", section, re.MULTILINE)
    }
    assert rows == {
        "/api/rounds/<id>/matches/": (matches_reply.DEFAULT_LIMIT, matches_reply.MAX_LIMIT),
        "/api/rounds/<id>/hands/": (submissions_api.HANDS_PAGE, submissions_api.HANDS_MAX_PAGE),
        "/api/rounds/": (round_api.ROUNDS_PAGE, round_api.ROUNDS_MAX_PAGE),
        "/api/leagues/<id>/standings/": (scoring_api.STANDINGS_PAGE, scoring_api.STANDINGS_MAX_PAGE),
        "/api/notifications/": (outbox_api.DEFAULT_LIMIT, outbox_api.MAX_LIMIT),
    }


@pytest.mark.django_db
def test_the_guides_page_example_is_what_the_api_answers(league, api_client, settings):
    import json
    from pathlib import Path

    from django.contrib.auth import get_user_model

    from accounts.models import Profile
    from tests.factories import RoundFactory

    text = (Path(__file__).resolve().parents[2] / GUIDE).read_text()
    section = text.split("## Pages of a list", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w*)\n(.*?)```", section, re.DOTALL)
    command = next(code for language, code in blocks if language == "sh")
    shown = next(code for language, code in blocks if language == "")
    head, _, body = shown.partition("\n\n")
    status_line, *header_lines = head.splitlines()
    headers = dict(line.split(": ", 1) for line in header_lines)

    User = get_user_model()
    players = [User.objects.create(username=name, password="!") for name in ("whamme", "nerdyjoe", "subtle")]
    Profile.objects.bulk_create([Profile(user=player) for player in players])
    round_ = RoundFactory(league=league)
    make_hands(round_, players)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)

    settings.ALLOWED_HOSTS = ["phm.example"]
    path = re.search(r'"\$PHM(/[^"]+)"', command).group(1).replace("$ROUND", str(round_.pk))
    response = api_client.get(path, HTTP_HOST="phm.example", secure=True)
    assert f"HTTP/1.1 {response.status_code} OK" == status_line
    for name in ("Content-Type", "X-Total-Count", "Cache-Control"):
        assert response[name] == headers[name], name
    assert response["Link"] == headers["Link"].replace("/rounds/12/", f"/rounds/{round_.pk}/")
    assert response["ETag"].startswith('W/"') and headers["ETag"].startswith('W/"')
    real, example = response.json(), json.loads(body)
    assert [{**item, "id": None} for item in real] == [{**item, "id": None} for item in example]
