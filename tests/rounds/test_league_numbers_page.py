"""The new-league form: only a name of the community's form ("League 45") or the number field numbers a
league."""

import pytest

from rounds.models import League

pytestmark = pytest.mark.django_db


def test_the_form_numbers_a_league_by_its_number_field_not_by_a_trailing_number(client, moderator):
    client.force_login(moderator)
    page = client.get("/moderate/leagues/new/").content.decode()
    assert "League number" in page
    for name in ("Summer Cup 2", "Winter Cup 2"):
        response = client.post(
            "/moderate/leagues/new/", {"name": name, "rounds_planned": "4", "tiebreak_rounds_allowed": "1"}
        )
        assert response.status_code == 302, response.content.decode()
        assert League.objects.get(name=name).number is None
    response = client.post(
        "/moderate/leagues/new/",
        {"name": "Spring Cup", "number": "7", "rounds_planned": "4", "tiebreak_rounds_allowed": "1"},
    )
    assert response.status_code == 302
    assert League.objects.get(name="Spring Cup").number == 7


def test_a_taken_number_is_refused_beside_the_number_field(client, moderator):
    client.force_login(moderator)
    League.objects.create(name="League 7", number=7)
    response = client.post(
        "/moderate/leagues/new/",
        {"name": "Spring Cup", "number": "7", "rounds_planned": "4", "tiebreak_rounds_allowed": "1"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors == {"number": ["League number 7 is already taken."]}
    assert not League.objects.filter(name="Spring Cup").exists()
