"""The table API: the same document as the serializer wrote, built once per state of the
table and cached, revalidated by its ETag, compressed only because it is public and secret-free."""

import gzip
from unittest import mock

import brotli
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from accounts.models import Profile
from scoring import selectors, table_reply
from scoring.serializers import TableRowSerializer
from scoring.services.bonus import award_bonus
from scoring.services.tally import store_tally

from .conftest import make_hands, match_between


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def _url(round_):
    return f"/api/rounds/{round_.pk}/table/"


def _as(player):
    client = APIClient()
    client.force_authenticate(player)
    return client


def _report_everything(round_, players):
    """Player 1 reports a row: a mix of results and cells left unknown."""
    row = " ".join(["X", *["6", "0", "2", "4", "1"][: len(players) - 1]])
    _as(players[0]).post(f"/api/rounds/{round_.pk}/rows/", {"row": f"1 | {row}"}, format="json")


def _serializer_bytes(round_):
    table = selectors.results_table(round_, cells=False)
    return JSONRenderer().render(TableRowSerializer(table.by_rank, many=True).data)


def test_the_reply_is_the_document_the_serializer_wrote(revealed_round, moderator, api_client):
    round_, players = revealed_round(5)
    _report_everything(round_, players)
    Profile.objects.filter(user=players[2]).update(forum_username='Zoë \u2028 "quoted"')
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[1].username, points=3, reason="7.7"
    )
    response = api_client.get(_url(round_))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.content == _serializer_bytes(round_)
    body = response.json()
    assert [row["rank"] for row in body] == sorted(row["rank"] for row in body)
    first = next(row for row in body if row["number"] == 1)
    assert first["cells"] == {"2": 6, "3": 0, "4": 2, "5": 4}
    assert next(row for row in body if row["number"] == 2)["bonus_points"] == 3


def test_stale_and_stored_tallies_give_the_same_reply(revealed_round, api_client):
    round_, players = revealed_round(4)
    _report_everything(round_, players)
    stale = api_client.get(_url(round_)).content
    cache.clear()
    store_tally(round_.pk)
    round_.tally.refresh_from_db()
    assert round_.tally.is_current
    assert api_client.get(_url(round_)).content == stale


def test_a_disqualified_hand_leaves_the_reply(revealed_round, moderator, api_client):
    from submissions.services.review import review_hand

    round_, players = revealed_round(4)
    _report_everything(round_, players)
    hand = match_between(round_, 1, 3).hand_b
    review_hand(actor=moderator, hand_id=hand.pk, action="disqualify", message="Illegal")
    body = api_client.get(_url(round_)).json()
    assert [row["number"] for row in body if row["number"] == 3] == []
    assert all("3" not in row["cells"] for row in body)
    round_.refresh_from_db()
    assert api_client.get(_url(round_)).content == _serializer_bytes(round_)


def _queries(client, url, **headers):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code in (200, 304)
    return len(captured)


def test_queries_do_not_grow_with_the_hands(revealed_round, make_players, api_client):
    counts = []
    for size in (3, 12):
        round_, players = revealed_round(size, players=make_players(size, prefix=f"q{size}-"))
        _report_everything(round_, players)
        url = _url(round_)
        built = _queries(api_client, url)  # cache miss: the body is built
        cached = _queries(api_client, url)  # served from the cache
        etag = api_client.get(url)["ETag"]
        not_modified = _queries(api_client, url, HTTP_IF_NONE_MATCH=etag)
        counts.append((built, cached, not_modified))
    assert counts[0] == counts[1], counts
    built, cached, not_modified = counts[0]
    # The round, its tally, the hands' header; building adds the stored lines (or the points) and the matches.
    assert cached == not_modified == 3, counts
    assert built <= 8, counts


def test_etag_304_and_a_new_etag_when_the_table_changes(revealed_round, moderator, api_client):
    round_, players = revealed_round(3)
    url = _url(round_)
    first = api_client.get(url)
    etag = first["ETag"]
    assert etag.startswith('W/"')
    assert first["Cache-Control"] == "public, no-cache"
    assert "Accept-Encoding" in first["Vary"]

    again = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    assert api_client.get(url, HTTP_IF_NONE_MATCH=f'"other", {etag}').status_code == 304
    assert api_client.get(url, HTTP_IF_NONE_MATCH=etag.removeprefix("W/")).status_code == 304  # weak compare

    # A result: the tally's revision moves, so does the ETag.
    _as(players[0]).post(f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X 6 0"}, format="json")
    changed = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()[0]["points"] == 6

    # A bonus and a forum name change the reply without a result: they change the ETag too.
    etag = changed["ETag"]
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[2].username, points=2, reason="6.2"
    )
    after_bonus = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after_bonus.status_code == 200 and after_bonus["ETag"] != etag
    etag = after_bonus["ETag"]
    Profile.objects.filter(user=players[1]).update(forum_username="Renamed")
    after_name = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert after_name.status_code == 200 and after_name["ETag"] != etag
    assert "Renamed" in after_name.content.decode()


def test_the_etag_is_the_same_for_every_viewer(revealed_round, moderator, api_client):
    round_, players = revealed_round(3)
    url = _url(round_)
    anonymous = api_client.get(url)
    for viewer in (players[0], moderator):
        reply = _as(viewer).get(url)
        assert (reply["ETag"], reply.content) == (anonymous["ETag"], anonymous.content)


def test_compressed_only_as_the_client_accepts(revealed_round, api_client):
    round_, players = revealed_round(6)
    _report_everything(round_, players)
    url = _url(round_)
    plain = api_client.get(url)
    assert "Content-Encoding" not in plain
    zipped = api_client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == plain.content
    assert int(zipped["Content-Length"]) == len(zipped.content)
    broken = api_client.get(url, HTTP_ACCEPT_ENCODING="gzip;q=0.5, br")
    assert broken["Content-Encoding"] == "br"
    assert brotli.decompress(broken.content) == plain.content
    assert api_client.get(url, HTTP_ACCEPT_ENCODING="br;q=0, gzip")["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in api_client.get(url, HTTP_ACCEPT_ENCODING="identity")
    assert api_client.get(url, HTTP_ACCEPT_ENCODING="*")["Content-Encoding"] == "br"
    for response in (plain, zipped, broken):
        assert response["ETag"] == plain["ETag"]


def test_accepted_encodings():
    assert table_reply.accepted_encodings("") == set()
    assert table_reply.accepted_encodings("gzip, deflate, br, zstd") >= {"gzip", "br"}
    assert table_reply.accepted_encodings("GZIP;q=1.0, br;q=0") == {"gzip"}
    assert table_reply.accepted_encodings("br;q=nonsense, gzip;q=0.000") == set()


def test_secret_and_unrevealed_replies_are_neither_compressed_nor_stored(revealed_round, api_client):
    from tests.factories import RoundFactory

    round_, players = revealed_round(3)
    compressed = {"HTTP_ACCEPT_ENCODING": "gzip, br"}
    own_hand = _as(players[0]).get(f"/api/rounds/{round_.pk}/my-hand/", **compressed)
    assert own_hand.status_code == 200
    assert "Content-Encoding" not in own_hand
    assert "no-store" in own_hand["Cache-Control"] and "private" in own_hand["Cache-Control"]

    # Before the deadline: 404 for everyone, with nothing that tells the table apart from no table at all.
    open_round = RoundFactory(league=round_.league)
    make_hands(open_round, players)
    for client in (api_client, _as(players[0])):
        hidden = client.get(_url(open_round), **compressed)
        assert hidden.status_code == 404
        assert "ETag" not in hidden and "Content-Encoding" not in hidden
        assert "no-store" in hidden["Cache-Control"]
        unknown = client.get("/api/rounds/999999/table/", **compressed)
        assert (unknown.status_code, unknown.json()["code"]) == (404, hidden.json()["code"])


def test_a_cache_outage_only_costs_speed(revealed_round, api_client):
    round_, players = revealed_round(4)
    _report_everything(round_, players)
    expected = _serializer_bytes(round_)
    with (
        mock.patch.object(table_reply.cache, "get", side_effect=ConnectionError("cache down")),
        mock.patch.object(table_reply.cache, "set", side_effect=ConnectionError("cache down")),
    ):
        response = api_client.get(_url(round_))
    assert response.status_code == 200 and response.content == expected


def test_the_body_is_built_once_per_state(revealed_round, api_client):
    round_, players = revealed_round(3)
    url = _url(round_)
    with mock.patch.object(table_reply, "json_chunks", wraps=table_reply.json_chunks) as build:
        api_client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        api_client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        api_client.get(url)  # the plain reply is the gzip copy inflated
        assert build.call_count == 1
        _as(players[0]).post(f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X 6 0"}, format="json")
        api_client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert build.call_count == 2
