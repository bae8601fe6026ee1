"""Rules 6.2 and 7.7a: a player *earns* bonus League points when their hand meets the round's requirements —
so a bonus is positive, and goes to a player with a (valid) hand in that round; the database refuses the rest.
The round table's League points are the round's own (5.2), before bonus; the standings' total includes it."""

import pytest
from django.db import IntegrityError, transaction

from scoring.models import BonusAward
from scoring.services.bonus import award_bonus

pytestmark = pytest.mark.django_db


def test_a_negative_or_zero_bonus_is_a_400(revealed_round, moderator, api_client):
    """Finding 8: today -5 is stored."""
    round_, players = revealed_round(2)
    api_client.force_authenticate(moderator)
    url = f"/api/rounds/{round_.pk}/bonus/"
    for points in (-5, 0):
        response = api_client.post(url, {"player": players[0].username, "points": points, "reason": "x"})
        assert response.status_code == 400, response.content
        assert "positive" in response.json()["points"][0]
    assert not BonusAward.objects.exists()


def test_a_bonus_for_someone_without_a_hand_in_the_round_is_a_400(
    revealed_round, moderator, other_moderator, make_players, api_client
):
    """Finding 8: today a moderator with no hand got +5 and appeared in the standings."""
    round_, players = revealed_round(2)
    [outsider] = make_players(1, prefix="outsider")
    api_client.force_authenticate(moderator)
    url = f"/api/rounds/{round_.pk}/bonus/"
    for nobody in (outsider.username, other_moderator.username):
        response = api_client.post(url, {"player": nobody, "points": 5, "reason": "Nice"}, format="json")
        assert response.status_code == 400 and "has no hand in round" in response.json()["player"][0]
    hand = round_.hands.get(player=players[1])
    hand.status = "disqualified"
    hand.save(update_fields=["status"])
    refused = api_client.post(url, {"player": players[1].username, "points": 5, "reason": "x"}, format="json")
    assert refused.status_code == 400
    ok = api_client.post(
        url, {"player": players[0].username, "points": 5, "reason": "No lands"}, format="json"
    )
    assert ok.status_code == 201
    rows = api_client.get(f"/api/leagues/{round_.league_id}/standings/").json()
    assert [row["player"] for row in rows] == [players[0].username]


def test_the_page_form_says_why(revealed_round, moderator, client):
    round_, players = revealed_round(2)
    client.force_login(moderator)
    response = client.post(
        f"/moderate/rounds/{round_.pk}/results/",
        {"action": "bonus", "player": players[0].username, "points": "-3", "reason": "Oops"},
    )
    assert "positive number of League points" in response.content.decode()
    assert not BonusAward.objects.exists()


def test_the_database_refuses_a_bonus_that_is_not_positive(revealed_round, moderator):
    round_, players = revealed_round(1)
    with pytest.raises(IntegrityError), transaction.atomic():
        BonusAward.objects.create(
            round=round_, player=players[0], points=-1, reason="x", awarded_by=moderator
        )


def test_both_pages_say_whether_bonus_is_in_their_league_points(
    revealed_round, moderator, client, api_client
):
    round_, players = revealed_round(2)
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[0].username, points=7, reason="7.7"
    )
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "League points (before bonus)" in results and "+7" in results
    league = client.get(f"/leagues/{round_.league_id}/").content.decode()
    assert "Total (bonus included)" in league
    rows = api_client.get(f"/api/rounds/{round_.pk}/table/").json()
    mine = next(row for row in rows if row["player"] == players[0].username)
    assert (mine["league_points"], mine["bonus_points"]) == (0, 7)
