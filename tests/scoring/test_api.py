"""The results API as docs/api.md describes it: paths, fields, status codes."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Match
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db


def _as(api_client, user):
    api_client.force_authenticate(user)
    return api_client


def test_matches_list_after_the_reveal(revealed_round, api_client):
    round_, _players = revealed_round(3)
    body = api_client.get(f"/api/rounds/{round_.pk}/matches/").json()
    assert [(m["a"], m["b"], m["points_a"], m["points_b"], m["status"]) for m in body] == [
        (1, 2, None, None, "unreported"),
        (1, 3, None, None, "unreported"),
        (2, 3, None, None, "unreported"),
    ]
    assert set(body[0]) >= {"id", "a", "b", "points_a", "points_b", "status"}


def test_everything_is_404_before_the_reveal(league, make_players, api_client):
    round_ = RoundFactory(league=league)
    players = make_players(2)
    make_hands(round_, players)
    client = _as(api_client, players[0])
    for path in ("matches", "table", "export/bbcode", "export/csv"):
        assert client.get(f"/api/rounds/{round_.pk}/{path}/").status_code == 404, path
    assert client.post(f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X 6"}, format="json").status_code == 404


def test_report_then_dispute_then_agree(revealed_round, api_client):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    url = f"/api/matches/{match.pk}/reports/"
    response = _as(api_client, players[0]).post(
        url, {"points_a": 6, "points_b": 0, "comment": "gg"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["side"] == "a" and response.json()["version"] == 1
    assert (
        _as(api_client, players[1]).post(url, {"points_a": 4, "points_b": 1}, format="json").status_code
        == 201
    )
    assert api_client.get(f"/api/rounds/{round_.pk}/matches/").json()[0]["status"] == "disputed"
    _as(api_client, players[1]).post(url, {"points_a": 6, "points_b": 0}, format="json")
    assert api_client.get(f"/api/rounds/{round_.pk}/matches/").json()[0]["status"] == "agreed"


def test_report_of_an_impossible_result_is_400(revealed_round, api_client):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    response = _as(api_client, players[0]).post(
        f"/api/matches/{match.pk}/reports/", {"points_a": 6, "points_b": 6}, format="json"
    )
    assert response.status_code == 400
    assert "not a possible match result" in str(response.json())
    response = api_client.post(
        f"/api/matches/{match.pk}/reports/", {"points_a": 5, "points_b": 1}, format="json"
    )
    assert response.status_code == 400


def test_anonymous_gets_401_and_unknown_match_404(revealed_round, api_client):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    assert api_client.post(f"/api/matches/{match.pk}/reports/", {}, format="json").status_code == 401
    response = _as(api_client, players[0]).post("/api/matches/999999/reports/", {}, format="json")
    assert response.status_code == 404


def test_row_endpoint_reports_the_cells(revealed_round, api_client):
    round_, players = revealed_round(4)
    response = _as(api_client, players[1]).post(
        f"/api/rounds/{round_.pk}/rows/", {"row": "2 | 0 X 4 ?"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [(r["points_a"], r["points_b"], r["side"]) for r in body["reports"]] == [(6, 0, "b"), (4, 1, "a")]
    bad = api_client.post(f"/api/rounds/{round_.pk}/rows/", {"row": "2 | 0 X 5 ?"}, format="json")
    assert bad.status_code == 400 and "row" in bad.json()


def test_challenge_and_resolution(revealed_round, api_client, moderator):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    _as(api_client, players[0]).post(
        f"/api/matches/{match.pk}/reports/", {"points_a": 6, "points_b": 0}, format="json"
    )
    response = _as(api_client, players[2]).post(
        f"/api/matches/{match.pk}/challenges/", {"reason": "Karakas"}, format="json"
    )
    assert response.status_code == 201
    challenge_id = response.json()["id"]
    assert response.json()["state"] == "open"
    url = f"/api/challenges/{challenge_id}/resolve/"
    assert (
        _as(api_client, players[2])
        .post(url, {"decision": "rejected", "note": "x"}, format="json")
        .status_code
        == 403
    )
    missing_points = _as(api_client, moderator).post(url, {"decision": "upheld"}, format="json")
    assert missing_points.status_code == 400
    done = api_client.post(
        url, {"decision": "upheld", "points_a": 4, "points_b": 1, "note": "yes"}, format="json"
    )
    assert done.status_code == 200 and done.json()["state"] == "upheld"
    again = api_client.post(url, {"decision": "rejected", "note": "no"}, format="json")
    assert again.status_code == 409
    match.refresh_from_db()
    assert (match.points_a, match.points_b, match.status) == (4, 1, "set")


def test_moderator_sets_a_result(revealed_round, api_client, moderator):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    url = f"/api/matches/{match.pk}/result/"
    assert (
        _as(api_client, players[0]).put(url, {"points_a": 6, "points_b": 0}, format="json").status_code == 403
    )
    response = _as(api_client, moderator).put(
        url, {"points_a": 2, "points_b": 2, "note": "ok"}, format="json"
    )
    assert response.status_code == 200
    assert (response.json()["points_a"], response.json()["status"]) == (2, "set")


def test_finalize_409_lists_open_items_then_force(revealed_round, api_client, moderator):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    _as(api_client, players[0]).post(
        f"/api/matches/{match.pk}/reports/", {"points_a": 6, "points_b": 0}, format="json"
    )
    _as(api_client, players[1]).post(
        f"/api/matches/{match.pk}/reports/", {"points_a": 0, "points_b": 6}, format="json"
    )
    url = f"/api/rounds/{round_.pk}/finalize/"
    assert _as(api_client, players[0]).post(url, {}, format="json").status_code == 403
    refused = _as(api_client, moderator).post(url, {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["items"] == ["Match 01 v 02 is disputed."]
    done = api_client.post(url, {"force": True}, format="json")
    assert done.status_code == 200
    assert [(row["number"], row["points"], row["league_points"], row["rank"]) for row in done.json()] == [
        (1, 0, 0, 1),
        (2, 0, 0, 1),
    ]
    late = _as(api_client, players[0]).post(
        f"/api/matches/{match.pk}/reports/", {"points_a": 6, "points_b": 0}, format="json"
    )
    assert late.status_code == 409 and "final" in late.json()["detail"]
    assert (
        api_client.post(f"/api/matches/{match.pk}/challenges/", {"reason": "x"}, format="json").status_code
        == 409
    )


def test_table_shape(revealed_round, api_client, moderator):
    round_, players = revealed_round(3)
    _as(api_client, players[0]).post(f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X 4 6"}, format="json")
    body = api_client.get(f"/api/rounds/{round_.pk}/table/").json()
    first = body[0]
    assert set(first) >= {"number", "player", "hand_name", "cells", "points", "league_points", "rank"}
    assert (first["number"], first["player"], first["cells"], first["points"], first["league_points"]) == (
        1,
        players[0].username,
        {"2": 4, "3": 6},
        10,
        500,
    )
    assert body[1]["cells"] == {"1": 1, "3": None}


def test_bonus_endpoint(revealed_round, api_client, moderator):
    round_, players = revealed_round(2)
    url = f"/api/rounds/{round_.pk}/bonus/"
    assert (
        _as(api_client, players[0])
        .post(url, {"player": players[0].username, "points": 5, "reason": "x"}, format="json")
        .status_code
        == 403
    )
    response = _as(api_client, moderator).post(
        url, {"player": players[0].username, "points": 25, "reason": "Rule 7.7 bonus"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["player"] == players[0].username and response.json()["points"] == 25
    assert (
        api_client.post(url, {"player": "ghost", "points": 5, "reason": "x"}, format="json").status_code
        == 400
    )


def test_exports(revealed_round, api_client, moderator):
    round_, players = revealed_round(3)
    _as(api_client, players[0]).post(f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X 6 2"}, format="json")
    bbcode = api_client.get(f"/api/rounds/{round_.pk}/export/bbcode/")
    assert bbcode.status_code == 200 and bbcode["Content-Type"].startswith("text/plain")
    text = bbcode.content.decode()
    assert "[code]\nX | 1 2 3 | PT | Points\n1 | X 6 2 |  8 |    400\n" in text
    assert "Black Lotus / Mox Pearl" in text
    csv_response = api_client.get(f"/api/rounds/{round_.pk}/export/csv/")
    assert csv_response.status_code == 200 and csv_response["Content-Type"].startswith("text/csv")
    lines = csv_response.content.decode().splitlines()
    assert lines[0] == "number,player,hand_name,1,2,3,points,league_points,rank"
    assert lines[1].startswith("1,Forum p") and lines[1].endswith(",X,6,2,8,400,1")


def test_reopen_endpoint(revealed_round, api_client, moderator):
    round_, _ = revealed_round(2)
    _as(api_client, moderator).post(f"/api/rounds/{round_.pk}/finalize/", {}, format="json")
    assert api_client.post(f"/api/rounds/{round_.pk}/reopen/", {}, format="json").status_code == 400
    response = api_client.post(f"/api/rounds/{round_.pk}/reopen/", {"reason": "typo"}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "revealed"
    assert (
        api_client.post(f"/api/rounds/{round_.pk}/reopen/", {"reason": "x"}, format="json").status_code == 409
    )


@pytest.mark.parametrize("path", ["table", "matches"])
def test_query_count_is_the_same_for_5_and_40_hands(revealed_round, api_client, path):
    counts = []
    for size in (5, 40):
        round_, _players = revealed_round(size)
        api_client.get(f"/api/rounds/{round_.pk}/{path}/")  # warm: builds nothing more, fills caches
        with CaptureQueriesContext(connection) as ctx:
            response = api_client.get(f"/api/rounds/{round_.pk}/{path}/")
        counts.append(len(ctx.captured_queries))
        assert response.status_code == 200 and len(response.json()) == (
            size if path == "table" else size * (size - 1) // 2
        )
    assert counts[0] == counts[1] <= 7, counts
    assert Match.objects.count() == 10 + 780
