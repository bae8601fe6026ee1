from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from rounds.models import Round, RoundState

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_moderator(api_client, moderator):
    api_client.force_authenticate(moderator)
    return api_client


def round_body(league, **overrides):
    return {
        "league": league.pk,
        "title": "4 Card Innistrad",
        "hand_size": 4,
        "land_rule": "DLR",
        "life_rule": False,
        "sanctioned_format": None,
        "allowed_sets": ["isd", "DKA"],
        "extra_banned": ["Delver of Secrets"],
        "format_rule": "Only Innistrad block.",
        "deadline": (timezone.now() + timedelta(days=4)).isoformat(),
        **overrides,
    }


def test_create_round_opens_it(as_moderator, league):
    response = as_moderator.post("/api/rounds/", round_body(league), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["state"] == "open"
    assert body["code"] == "45:01"
    assert body["hand_size"] == 4
    assert body["land_rule"] == "DLR"
    assert body["sanctioned_format"] is None
    assert body["allowed_sets"] == ["ISD", "DKA"]
    assert body["extra_banned"] == ["Delver of Secrets"]
    assert (
        "Force of Will" in body["banned"]
        and "Black Lotus" in body["banned"]
        and "Delver of Secrets" in body["banned"]
    )
    assert body["entries"] == 0
    assert Round.objects.get(pk=body["id"]).state == RoundState.OPEN


def test_create_round_400_names_each_problem(as_moderator, league):
    response = as_moderator.post(
        "/api/rounds/",
        round_body(league, hand_size=16, extra_banned=["Emrakul the Aeon's Torn"], sanctioned_format="chess"),
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["hand_size"] == ["A hand has 1 to 15 cards (rule 7.1: usually 1 to 7)."]
    assert "Emrakul, the Aeons Torn" in body["extra_banned"][0]
    assert "chess" in body["sanctioned_format"][0]
    assert not Round.objects.exists()


def test_create_round_type_errors_are_400(as_moderator, league):
    response = as_moderator.post("/api/rounds/", {"league": league.pk, "title": "x"}, format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"hand_size", "deadline"}


def test_list_and_detail_are_public(api_client, as_moderator, league):
    created = as_moderator.post("/api/rounds/", round_body(league), format="json").json()
    api_client.force_authenticate(None)
    listing = api_client.get("/api/rounds/").json()
    assert [r["id"] for r in listing] == [created["id"]]
    detail = api_client.get(f"/api/rounds/{created['id']}/").json()
    assert detail["title"] == "4 Card Innistrad"
    assert parse_datetime(detail["deadline"]) == parse_datetime(created["deadline"])


def test_patch_deadline_and_texts_while_open_but_not_hand_size(as_moderator, league):
    created = as_moderator.post("/api/rounds/", round_body(league), format="json").json()
    later = (timezone.now() + timedelta(days=6)).isoformat()
    response = as_moderator.patch(
        f"/api/rounds/{created['id']}/", {"deadline": later, "commentary": "Good luck"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["commentary"] == "Good luck"
    response = as_moderator.patch(f"/api/rounds/{created['id']}/", {"hand_size": 2}, format="json")
    assert response.status_code == 409
    assert "hand_size" in response.json()["detail"]
    assert response.json()["code"] == "conflict"


def test_patch_refuses_an_earlier_deadline_while_open_with_400_naming_end_submissions_now(
    as_moderator, league
):
    created = as_moderator.post("/api/rounds/", round_body(league), format="json").json()
    posted = parse_datetime(created["deadline"])
    earlier = (posted - timedelta(days=1)).isoformat()
    response = as_moderator.patch(
        f"/api/rounds/{created['id']}/", {"deadline": earlier, "commentary": "Sooner"}, format="json"
    )
    assert response.status_code == 400
    (message,) = response.json()["deadline"]
    assert "only move later" in message and "End submissions now" in message
    round_ = Round.objects.get(pk=created["id"])
    assert round_.deadline == posted and round_.commentary == ""


def test_close_is_idempotent_and_then_patch_is_409(as_moderator, league):
    created = as_moderator.post("/api/rounds/", round_body(league), format="json").json()
    first = as_moderator.post(f"/api/rounds/{created['id']}/close/")
    second = as_moderator.post(f"/api/rounds/{created['id']}/close/")
    assert first.status_code == second.status_code == 200
    assert first.json()["state"] == "revealed"
    assert first.json()["deadline"] == second.json()["deadline"]
    response = as_moderator.patch(f"/api/rounds/{created['id']}/", {"title": "late"}, format="json")
    assert response.status_code == 409
    assert "ended" in response.json()["detail"]


def test_create_league(as_moderator):
    response = as_moderator.post("/api/leagues/", {"name": "League 46", "rounds_planned": 5}, format="json")
    assert response.status_code == 201
    assert response.json()["number"] == 46
    assert response.json()["rounds_planned"] == 5
    again = as_moderator.post("/api/leagues/", {"name": "League 46"}, format="json")
    assert again.status_code == 400


def test_a_league_named_with_a_trailing_number_is_not_numbered_by_it(as_moderator):
    first = as_moderator.post("/api/leagues/", {"name": "Summer Cup 2"}, format="json")
    second = as_moderator.post("/api/leagues/", {"name": "Winter Cup 2"}, format="json")
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json()["number"] is None and second.json()["number"] is None


def test_a_league_may_be_given_its_number(as_moderator):
    response = as_moderator.post("/api/leagues/", {"name": "Summer Cup", "number": 7}, format="json")
    assert response.status_code == 201 and response.json()["number"] == 7
    taken = as_moderator.post("/api/leagues/", {"name": "Winter Cup", "number": 7}, format="json")
    assert taken.status_code == 400
    assert taken.json()["number"] == ["League number 7 is already taken."]
    disagree = as_moderator.post("/api/leagues/", {"name": "League 8", "number": 9}, format="json")
    assert disagree.status_code == 400 and "says league 8" in disagree.json()["number"][0]
    assert as_moderator.post("/api/leagues/", {"name": "Cup", "number": 0}, format="json").status_code == 400


def test_unknown_round_is_json_404(api_client):
    response = api_client.get("/api/rounds/999999/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_api_list_query_count_is_constant(client, moderator, league, django_assert_max_num_queries):
    from rest_framework.test import APIClient

    writer = APIClient()
    writer.force_authenticate(moderator)

    def add_rounds(count):
        for n in range(count):
            response = writer.post("/api/rounds/", round_body(league, title=f"R{n}"), format="json")
            assert response.status_code == 201

    add_rounds(3)
    with django_assert_max_num_queries(10) as few:
        assert len(client.get("/api/rounds/").json()) == 3
    baseline = len(few.captured_queries)  # read now: the next request resets Django's query log
    add_rounds(10)
    with django_assert_max_num_queries(baseline):
        assert len(client.get("/api/rounds/").json()) == 13
