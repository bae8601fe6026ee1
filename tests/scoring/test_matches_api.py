"""The matches API (`GET /api/rounds/{id}/matches/`, docs/api.md: Pages of a list): the v1 list of the same
items, a page at a time with `X-Total-Count` and a `Link` to the other pages; each page built once per state
of the table, cached, revalidated by its ETag, and never served once the state has changed; a 404 before the
reveal exactly as before."""

import gzip
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from accounts.models import Profile
from scoring import matches_reply
from scoring.serializers import MatchSerializer
from scoring.services.decisions import set_result
from scoring.services.finalization import finalize_round, reopen_round
from scoring.services.reports import report_match
from scoring.services.table import build_match_table, matches_in_table
from submissions.services import review as hand_services
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db

# The hands' cards less Mox Ruby: a similar hand of a legal hand only leaves cards out (rule 4.2a).
SIMILAR = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet"]


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _url(round_, **params):
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return f"/api/rounds/{round_.pk}/matches/" + (f"?{query}" if query else "")


def _as(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _serializer_items(round_):
    """The list as the v1 endpoint wrote it: MatchSerializer over every match in the table, rendered by DRF."""
    matches = (
        matches_in_table(round_.pk)
        .select_related("hand_a__player", "hand_b__player")
        .order_by("hand_a__number", "hand_b__number")
    )
    return JSONRenderer().render(MatchSerializer(matches, many=True).data)


def _links(response):
    """{rel: (offset, limit)} of the response's Link header."""
    found = {}
    for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', response["Link"]):
        offset = int(re.search(r"[?&]offset=(\d+)", url).group(1))
        limit = int(re.search(r"[?&]limit=(\d+)", url).group(1))
        found[rel] = (offset, limit)
    return found


def _round_with(league, count):
    """A revealed round of `count` hands, its table built; players made without password hashing."""
    User = get_user_model()
    players = User.objects.bulk_create(
        [User(username=f"bulk{league.pk}-{index:04d}", password="!") for index in range(count)]
    )
    Profile.objects.bulk_create([Profile(user=player, forum_username="") for player in players])
    round_ = RoundFactory(league=league)
    make_hands(round_, players)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    round_.refresh_from_db()
    return round_, players


def test_a_three_hand_round_in_pages_of_one(revealed_round, api_client):
    round_, _players = revealed_round(3)
    pages = [api_client.get(_url(round_, limit=1, offset=offset)) for offset in range(3)]
    assert [[(m["a"], m["b"]) for m in page.json()] for page in pages] == [[(1, 2)], [(1, 3)], [(2, 3)]]
    assert {page["X-Total-Count"] for page in pages} == {"3"}
    assert _links(pages[0]) == {"first": (0, 1), "next": (1, 1), "last": (2, 1)}
    assert _links(pages[1]) == {"first": (0, 1), "prev": (0, 1), "next": (2, 1), "last": (2, 1)}
    assert _links(pages[2]) == {"first": (0, 1), "prev": (1, 1), "last": (2, 1)}
    assert pages[0]["Link"].startswith(
        f"<http://testserver/api/rounds/{round_.pk}/matches/?offset=0&limit=1>"
    )


def test_every_item_keeps_the_v1_shape_and_the_pages_make_the_whole_list(
    revealed_round, api_client, moderator
):
    round_, players = revealed_round(5)
    api_client.force_authenticate(players[0])
    api_client.post(f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X 6 0 2 ?"}, format="json")
    set_result(
        actor=moderator,
        match_id=match_between(round_, 2, 3).pk,
        points_a=4,
        points_b=1,
        note='Ruled "fine" \u2028',
    )
    Profile.objects.filter(user=players[4]).update(forum_username="Zoë")
    whole = api_client.get(_url(round_))
    assert whole.content == _serializer_items(
        round_
    )  # no parameter: every match, as the v1 endpoint wrote it
    assert whole["X-Total-Count"] == "10" and "next" not in _links(whole)
    pieces, offset = [], 0
    while True:
        page = api_client.get(_url(round_, limit=3, offset=offset))
        pieces += page.json()
        if "next" not in _links(page):
            break
        offset = _links(page)["next"][0]
    assert pieces == whole.json()


def test_a_round_with_more_matches_than_the_default_gets_the_first_page_and_a_link_to_the_next(
    league, api_client
):
    round_, _players = _round_with(league, 46)  # 1,035 matches: more than one default page
    first = api_client.get(_url(round_))
    assert first.status_code == 200
    assert len(first.json()) == matches_reply.DEFAULT_LIMIT == 1000
    assert first["X-Total-Count"] == "1035"
    assert _links(first) == {"first": (0, 1000), "next": (1000, 1000), "last": (1000, 1000)}
    rest = api_client.get(_url(round_, offset=1000))
    assert len(rest.json()) == 35 and "next" not in _links(rest)
    assert [(m["a"], m["b"]) for m in first.json() + rest.json()] == [
        (a, b) for a in range(1, 47) for b in range(a + 1, 47)
    ]
    everything = api_client.get(_url(round_, limit=matches_reply.MAX_LIMIT))
    assert everything.content == _serializer_items(round_)


@pytest.mark.parametrize(
    "params", [{"limit": 5001}, {"limit": 0}, {"limit": "ten"}, {"offset": -1}, {"limit": "1e3"}]
)
def test_a_limit_or_offset_out_of_range_is_a_400_naming_it(revealed_round, api_client, params):
    round_, _players = revealed_round(2)
    response = api_client.get(_url(round_, **params))
    assert response.status_code == 400
    name = next(iter(params))
    assert response.json() == {
        name: [f"A whole number from {1 if name == 'limit' else 0} to {5000 if name == 'limit' else 10**9}."]
    }


def test_an_offset_past_the_end_is_an_empty_page(revealed_round, api_client):
    round_, _players = revealed_round(3)
    response = api_client.get(_url(round_, offset=10, limit=2))
    assert response.status_code == 200 and response.json() == []
    assert _links(response) == {"first": (0, 2), "prev": (1, 2), "last": (2, 2)}


def test_etag_304_and_a_fresh_page_after_every_change_of_state(revealed_round, moderator, api_client):
    round_, players = revealed_round(3)
    url = _url(round_, limit=2)
    first = api_client.get(url)
    etag = first["ETag"]
    assert etag.startswith('W/"') and first["Cache-Control"] == "public, no-cache"
    assert "Accept-Encoding" in first["Vary"]
    not_modified = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert api_client.get(_url(round_, limit=1), HTTP_IF_NONE_MATCH=etag).status_code == 200  # another page

    seen = {etag}

    def fresh():
        response = api_client.get(url, HTTP_IF_NONE_MATCH=" , ".join(seen))
        assert response.status_code == 200, "a cached page outlived a change of state"
        assert response["ETag"] not in seen
        seen.add(response["ETag"])
        return {(m["a"], m["b"]): m for m in response.json()}

    one_two = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=one_two.pk, points_a=6, points_b=0)
    assert fresh()[(1, 2)]["status"] == "reported"
    report_match(reporter=players[1], match_id=one_two.pk, points_a=0, points_b=6)
    assert fresh()[(1, 2)]["status"] == "disputed"
    set_result(actor=moderator, match_id=one_two.pk, points_a=4, points_b=1, note="Seen it")
    assert fresh()[(1, 2)] | {"id": None} == {
        "id": None,
        "a": 1,
        "b": 2,
        "player_a": players[0].username,
        "player_b": players[1].username,
        "points_a": 4,
        "points_b": 1,
        "status": "set",
        "decided_note": "Seen it",
    }
    finalize_round(actor=moderator, round_id=round_.pk, force=True)
    assert fresh()[(1, 2)]["status"] == "final"
    reopen_round(actor=moderator, round_id=round_.pk, reason="One more look")
    assert fresh()[(1, 2)]["status"] == "set"
    hand_services.review_hand(
        actor=moderator, hand_id=round_.hands.get(number=1).pk, action="replace", cards=SIMILAR
    )
    assert fresh()[(1, 2)]["status"] == "needs_result"
    get_user_model().objects.filter(pk=players[1].pk).update(username="renamed")
    assert fresh()[(1, 2)]["player_b"] == "renamed"
    hand_services.review_hand(
        actor=moderator, hand_id=round_.hands.get(number=2).pk, action="disqualify", message="Illegal"
    )
    assert set(fresh()) == {(1, 3)}


def test_the_page_is_the_same_for_every_viewer_and_gzip_when_asked(revealed_round, moderator, api_client):
    round_, players = revealed_round(4)
    anonymous = api_client.get(_url(round_))
    for viewer in (players[0], moderator):
        reply = _as(viewer).get(_url(round_))
        assert (reply["ETag"], reply.content) == (anonymous["ETag"], anonymous.content)
    zipped = api_client.get(_url(round_), HTTP_ACCEPT_ENCODING="gzip, br")
    assert zipped["Content-Encoding"] == "gzip" and gzip.decompress(zipped.content) == anonymous.content
    brotli_only = api_client.get(_url(round_), HTTP_ACCEPT_ENCODING="br")
    assert "Content-Encoding" not in brotli_only and brotli_only.content == anonymous.content


def test_before_the_reveal_it_is_the_same_404_whatever_the_page(league, make_players, api_client):
    round_ = RoundFactory(league=league)
    players = make_players(3)
    make_hands(round_, players)
    for url in (_url(round_), _url(round_, limit=1), _url(round_, limit=99999, offset="x")):
        response = _as(players[0]).get(url)
        assert response.status_code == 404
        assert response.json() == {
            "detail": "The results of this round are not open yet: its hands are not revealed.",
            "code": "not_found",
        }
        assert "ETag" not in response and "X-Total-Count" not in response and "Link" not in response
        assert "no-store" in response["Cache-Control"]


def _queries(client, url, django_assert_num_queries, expected, **headers):
    with django_assert_num_queries(expected):
        response = client.get(url, **headers)
    assert response.status_code in (200, 304)
    return response


@pytest.mark.parametrize("size", [3, 12])
def test_a_page_costs_the_same_queries_whatever_the_size(
    revealed_round, make_players, size, django_assert_num_queries
):
    round_, _players = revealed_round(size, players=make_players(size, prefix=f"q{size}-"))
    client = APIClient()
    url = _url(round_, limit=5, offset=1)
    # The round, its tally, the hands' header; a page built adds the list's total and the page's query.
    _queries(client, url, django_assert_num_queries, 5)
    cached = _queries(client, url, django_assert_num_queries, 3)
    _queries(client, _url(round_, limit=2), django_assert_num_queries, 4)  # another page: its total is cached
    _queries(client, url, django_assert_num_queries, 3, HTTP_IF_NONE_MATCH=cached["ETag"])


def test_the_schema_declares_the_page_parameters_and_headers(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/rounds/{round_id}/matches/"]["get"]
    parameters = {parameter["name"]: parameter for parameter in operation["parameters"]}
    assert parameters["limit"]["in"] == "query" and parameters["offset"]["in"] == "query"
    assert "5000" in parameters["limit"]["description"]
    assert set(operation["responses"]["200"]["headers"]) >= {"Link", "X-Total-Count"}


# The results exports: whole documents, not paged, but built once per state like the pages ---------------------


def _export(client, round_, kind):
    response = client.get(f"/api/rounds/{round_.pk}/export/{kind}/")
    assert response.status_code == 200
    return response.content.decode()


def test_an_export_is_built_once_per_state_of_the_round(revealed_round, moderator, api_client):
    from unittest import mock

    from scoring import exports

    round_, players = revealed_round(3)
    with (
        mock.patch.object(exports, "results_csv", wraps=exports.results_csv) as csv_built,
        mock.patch.object(exports, "results_bbcode", wraps=exports.results_bbcode) as bbcode_built,
    ):
        first = _export(api_client, round_, "csv")
        assert _export(_as(players[0]), round_, "csv") == first  # the same for every viewer, from the cache
        assert csv_built.call_count == 1
        post = _export(api_client, round_, "bbcode")
        assert _export(api_client, round_, "bbcode") == post and bbcode_built.call_count == 1

        report_match(
            reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0
        )
        changed = _export(api_client, round_, "csv")
        assert changed != first and csv_built.call_count == 2

        # A replacement before any result of its hand moves no result, but the post shows the new cards.
        hand_services.review_hand(
            actor=moderator, hand_id=round_.hands.get(number=3).pk, action="replace", cards=SIMILAR
        )
        replaced = _export(api_client, round_, "bbcode")
        assert (
            bbcode_built.call_count == 2 and "Mox Ruby removed" in replaced and "Mox Ruby removed" not in post
        )

        finalize_round(actor=moderator, round_id=round_.pk, force=True)
        assert "final results" in _export(api_client, round_, "bbcode") and bbcode_built.call_count == 3


@pytest.mark.parametrize("size", [3, 12])
def test_a_cached_export_costs_the_same_queries_whatever_the_size(
    revealed_round, make_players, size, django_assert_num_queries
):
    round_, _players = revealed_round(size, players=make_players(size, prefix=f"e{size}-"))
    client = APIClient()
    _export(client, round_, "csv")
    with django_assert_num_queries(4):  # the round, its tally, the hands' header, their current versions
        _export(client, round_, "csv")
