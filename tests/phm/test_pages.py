from datetime import UTC, datetime, timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from rounds.models import League, Round, RoundState

pytestmark = pytest.mark.django_db


def make_round(league, number, *, deadline, state=RoundState.OPEN, title=None):
    return Round.objects.create(
        league=league,
        number=number,
        title=title or f"Round {number}",
        hand_size=5,
        deadline=deadline,
        state=state,
    )


def test_home_empty_state(client):
    page = client.get("/").content.decode()
    assert "No round is open right now." in page
    assert "No finished rounds yet." in page
    assert "/static/vendor/bootstrap/bootstrap.min.css" in page
    assert "/static/vendor/htmx/htmx.min.js" in page


def test_home_lists_open_and_recent_rounds_by_derived_state(client):
    league = League.objects.create(name="League 45")
    now = timezone.now()
    make_round(
        league, 1, deadline=now - timedelta(days=7), state=RoundState.FINAL, title="5 Card Alphabetized"
    )
    make_round(league, 2, deadline=now - timedelta(minutes=1), title="Deadline just passed")
    make_round(league, 3, deadline=now + timedelta(days=2), title="3 Card Vintage")
    make_round(league, 4, deadline=now + timedelta(days=9), state=RoundState.DRAFT, title="Secret draft")
    page = client.get("/").content.decode()
    open_part, recent_part = page.split("Recent rounds", 1)
    assert "3 Card Vintage" in open_part
    assert "Deadline just passed" not in open_part
    assert "Deadline just passed" in recent_part
    assert "5 Card Alphabetized" in recent_part
    assert "Secret draft" not in page


def test_home_query_count_is_constant(client, django_assert_max_num_queries):
    league = League.objects.create(name="League 1")
    now = timezone.now()
    for number in range(1, 30):
        make_round(league, number, deadline=now + timedelta(days=number - 15))
    with django_assert_max_num_queries(2):
        assert client.get("/").status_code == 200


def test_deadline_shown_in_viewer_time_zone_and_utc(client, make_user):
    user = make_user("tokyo", time_zone="Asia/Tokyo")
    league = League.objects.create(name="League 9")
    deadline = datetime(2099, 1, 5, 18, 0, tzinfo=UTC)
    make_round(league, 1, deadline=deadline)
    client.force_login(user)
    page = client.get("/").content.decode()
    assert "Tue 6 Jan 2099, 03:00 JST" in page
    assert "(Mon 5 Jan 2099, 18:00 UTC)" in page
    client.logout()
    page = client.get("/").content.decode()
    assert "Mon 5 Jan 2099, 18:00 UTC" in page
    assert "JST" not in page


def test_404_page(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "This page does not exist" in response.content.decode()


@override_settings(DEBUG=False)
def test_500_page_renders_without_request_context():
    from django.test import RequestFactory

    from phm.views import server_error

    response = server_error(RequestFactory().get("/boom"))
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()
    api = server_error(RequestFactory().get("/api/boom"))
    assert api.status_code == 500
    assert api["Content-Type"] == "application/json"
