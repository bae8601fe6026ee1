"""Rule 6.3c speaks of players: the league's players (a hand in any of its rounds) and whoever can manage the
league may challenge a result; anyone else is refused (403, saying who may) and may still verify it (6.3a). The
match page offers the button only to those who may, and says why where it would be; the API's schema names the
403 of that operation."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.services.leagues import create_league
from scoring.models import Challenge
from scoring.services.decisions import challenge_match
from scoring.services.errors import ScoringForbidden
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from tests.factories import RoundFactory

from .conftest import make_hands, match_between, plays_in_the_league

pytestmark = pytest.mark.django_db

WHO_MAY = "Only the players of League 45 (a hand in any of its rounds) and its moderators may challenge"


@pytest.fixture
def reported(revealed_round):
    """A revealed round of 3 hands in League 45 whose match 01 v 02 is reported 6-0 by hand 01's player."""
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    return round_, players, match


def test_someone_with_no_hand_in_the_league_may_verify_but_not_challenge(reported, make_players):
    _round, _players, match = reported
    [stranger] = make_players(1, prefix="x")
    with pytest.raises(ScoringForbidden, match=re.escape(WHO_MAY)):
        challenge_match(challenger=stranger, match_id=match.pk, reason="I saw it")
    assert not Challenge.objects.exists()
    report_match(reporter=stranger, match_id=match.pk, points_a=4, points_b=1)  # a verification (6.3a) stands


def test_a_hand_in_another_league_does_not_make_a_player_of_this_one(reported, make_players, moderator):
    [elsewhere] = make_players(1, prefix="x")
    make_hands(RoundFactory(league=create_league(actor=moderator, name="League 46")), [elsewhere])
    with pytest.raises(ScoringForbidden, match=re.escape(WHO_MAY)):
        challenge_match(challenger=elsewhere, match_id=reported[2].pk, reason="Me too")


def test_the_league_s_players_and_moderators_may_challenge(reported, make_players, moderator):
    round_, players, match = reported
    [earlier] = make_players(1, prefix="x")
    plays_in_the_league(round_.league, earlier)  # a hand in another round of the league
    assert challenge_match(challenger=earlier, match_id=match.pk, reason="Karakas").state == "open"
    assert challenge_match(challenger=players[2], match_id=match.pk, reason="From the table").state == "open"
    assert challenge_match(challenger=moderator, match_id=match.pk, reason="The rulings").state == "open"


def test_in_a_league_that_names_no_moderator_every_site_moderator_may_challenge(
    make_players, moderator, other_moderator
):
    unnamed = create_league(actor=moderator, name="League 47")
    players = make_players(2)
    round_ = RoundFactory(league=unnamed, deadline=timezone.now() - timedelta(minutes=1))
    make_hands(round_, players)
    build_match_table(round_.pk)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    assert challenge_match(challenger=other_moderator, match_id=match.pk, reason="Check").state == "open"


def test_a_moderator_of_another_league_is_no_moderator_of_this_one(reported, other_moderator):
    with pytest.raises(ScoringForbidden, match=re.escape(WHO_MAY)):
        challenge_match(challenger=other_moderator, match_id=reported[2].pk, reason="Hmm")


def test_the_api_answers_403_saying_who_may_and_the_schema_names_it(reported, api_client, make_players):
    _round, players, match = reported
    [stranger] = make_players(1, prefix="x")
    api_client.force_authenticate(stranger)
    response = api_client.post(f"/api/matches/{match.pk}/challenges/", {"reason": "Why"}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"].startswith(WHO_MAY) and response.json()["code"] == "permission_denied"
    api_client.force_authenticate(players[2])
    assert (
        api_client.post(f"/api/matches/{match.pk}/challenges/", {"reason": "Why"}, format="json").status_code
        == 201
    )
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    forbidden = schema["paths"]["/api/matches/{match_id}/challenges/"]["post"]["responses"]["403"]
    assert "players" in forbidden["description"] and "moderators may challenge" in forbidden["description"]


def test_the_match_page_offers_the_button_only_to_who_may_and_says_why_to_the_others(
    reported, client, make_players, moderator
):
    _round, players, match = reported
    [stranger] = make_players(1, prefix="x")
    client.force_login(stranger)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'value="challenge"' not in page and WHO_MAY in page and "Verify or propose a result" in page
    for allowed in (players[2], moderator):
        client.force_login(allowed)
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert 'value="challenge"' in page and WHO_MAY not in page
