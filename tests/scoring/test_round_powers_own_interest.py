"""Finalizing and reopening a round, withdrawing bonus points in it and every other power in a moderator's own
interest follow one rule (rounds.permissions): refused, naming who can act, while anyone else can manage the
league — its named moderators, or every site moderator when it names none — and allowed where nobody else can,
then shown on the results page, the round page and the match page."""

import pytest
from rest_framework.test import APIClient

from accounts.services import make_moderator, register_player
from rounds.models import RoundState
from rounds.services.leagues import create_league
from scoring.models import BonusAward, Match, MatchStatus
from scoring.services.bonus import award_bonus, withdraw_bonus
from scoring.services.finalization import finalize_round
from scoring.services.posted_rows import import_posted_rows
from scoring.services.reports import report_match

from .conftest import match_between

pytestmark = pytest.mark.django_db


def api_as(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


@pytest.fixture
def played(revealed_round, make_players, moderator):
    """A revealed round of League 45 in which the moderator has hand 01, and their match against hand 02 is
    disputed: they say they won it, hand 02's player says they lost it."""
    round_, players = revealed_round(3, players=[moderator, *make_players(2)])
    match = match_between(round_, 1, 2)
    report_match(reporter=players[1], match_id=match.pk, points_a=0, points_b=6)
    report_match(reporter=moderator, match_id=match.pk, points_a=6, points_b=0)
    return round_, players, match


@pytest.fixture
def second_moderator(league, password):
    user = register_player(username="second", password=password, forum_username="Second Moderator")
    make_moderator(user)
    league.moderators.add(user)
    return user


def finalize(user, round_, force=True):
    return api_as(user).post(f"/api/rounds/{round_.pk}/finalize/", {"force": force}, format="json")


def reopen(user, round_):
    return api_as(user).post(f"/api/rounds/{round_.pk}/reopen/", {"reason": "Recount"}, format="json")


def state_of(round_):
    round_.refresh_from_db()
    return round_.state


# Finalizing -------------------------------------------------------------------------------------------------


def test_a_playing_moderator_cannot_force_finalize_their_own_disputed_match_into_0_0(
    played, moderator, second_moderator
):
    """As the tester did: POST /api/rounds/{id}/finalize/ {"force": true} answered 200 and the dispute the
    moderator was losing became 0-0 (rule 6.3b)."""
    round_, _, match = played
    response = finalize(moderator, round_)
    assert response.status_code == 403, response.content
    detail = response.json()["detail"]
    assert "you play in it" in detail and "Ask another moderator of this league (Second Moderator)" in detail
    assert state_of(round_) == RoundState.REVEALED
    assert Match.objects.get(pk=match.pk).status == MatchStatus.DISPUTED
    assert finalize(moderator, round_, force=False).status_code == 403  # nor when nothing is forced
    assert finalize(second_moderator, round_).status_code == 200
    assert state_of(round_) == RoundState.FINAL


def test_in_a_league_naming_no_moderator_another_site_moderator_finalizes(
    played, league, moderator, other_moderator
):
    round_, _, _ = played
    league.moderators.clear()
    response = finalize(moderator, round_)
    assert response.status_code == 403 and "Other Moderator" in response.json()["detail"]
    assert finalize(other_moderator, round_).status_code == 200


def test_the_other_moderators_finalizing_and_reopening_are_not_marked(played, second_moderator, client):
    round_, _, match = played
    assert finalize(second_moderator, round_).status_code == 200
    assert reopen(second_moderator, round_).status_code == 200
    for url in (f"/rounds/{round_.pk}/results/", f"/rounds/{round_.pk}/", f"/matches/{match.pk}/"):
        page = client.get(url).content.decode()
        assert "Decided by a moderator who played" not in page
        assert "decided by a moderator who played this round" not in page


def test_a_plain_player_and_another_leagues_moderator_cannot_finalize_or_reopen(
    played, moderator, other_moderator, password
):
    round_, players, _ = played
    elsewhere = register_player(username="elsewhere", password=password)
    make_moderator(elsewhere)
    create_league(actor=elsewhere, name="League 46", moderators=[elsewhere])
    for user in (players[1], other_moderator, elsewhere):
        assert finalize(user, round_).status_code == 403
    finalize_round(actor=moderator, round_id=round_.pk, force=True)
    for user in (players[1], other_moderator, elsewhere):
        assert reopen(user, round_).status_code == 403
    assert state_of(round_) == RoundState.FINAL


def test_the_sole_moderator_of_the_site_may_and_every_page_says_so(played, moderator, client):
    round_, _, match = played
    assert finalize(moderator, round_).status_code == 200
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "Decided by a moderator who played" in results
    assert "Round finalized with open disputes or challenges" in results and "by The Moderator" in results
    round_page = client.get(f"/rounds/{round_.pk}/").content.decode()
    assert "Round finalized" in round_page and "decided by a moderator who played this round" in round_page
    match_page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Round finalized by The Moderator" in match_page
    assert "decided by a moderator who played this round" in match_page
    assert reopen(moderator, round_).status_code == 200
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "Round reopened by The Moderator: Recount" in results


# Reopening --------------------------------------------------------------------------------------------------


def test_a_playing_moderator_cannot_reopen_while_another_moderator_can(played, moderator, second_moderator):
    round_, _, _ = played
    assert finalize(second_moderator, round_).status_code == 200
    response = reopen(moderator, round_)
    assert response.status_code == 403 and "Second Moderator" in response.json()["detail"]
    assert state_of(round_) == RoundState.FINAL
    assert reopen(second_moderator, round_).status_code == 200


# The moderator's page offers only what they may do ----------------------------------------------------------


def test_the_moderators_page_does_not_offer_finalizing_or_reopening_and_says_who_can(
    played, moderator, second_moderator, client
):
    round_, _, _ = played
    client.force_login(moderator)
    page = client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()
    assert 'value="finalize"' not in page and 'id="finalize-refusal"' in page
    assert "Ask another moderator of this league (Second Moderator)" in page
    finalize_round(actor=second_moderator, round_id=round_.pk, force=True)
    page = client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()
    assert 'value="reopen"' not in page and 'id="reopen-refusal"' in page
    client.force_login(second_moderator)
    page = client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()
    assert 'value="reopen"' in page and 'id="reopen-refusal"' not in page


def test_a_sole_playing_moderator_is_told_what_finalizing_will_show(played, moderator, client):
    round_, _, _ = played
    client.force_login(moderator)
    page = client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()
    assert 'value="finalize"' in page and "decided by a moderator who played this round" in page


def test_the_match_page_does_not_offer_a_playing_moderator_any_decision_of_their_round(
    played, moderator, second_moderator, client
):
    round_, _, match = played
    client.force_login(moderator)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'value="set"' not in page and 'id="decide-refusal"' in page and "Second Moderator" in page
    rivals = client.get(f"/matches/{match_between(round_, 2, 3).pk}/").content.decode()
    assert 'value="set"' not in rivals and 'id="decide-refusal"' in rivals and "play in this round" in rivals
    client.force_login(second_moderator)
    assert 'value="set"' in client.get(f"/matches/{match.pk}/").content.decode()


# Bonus points and the other powers: "another moderator" is anyone else who can manage the league -----------


def test_a_playing_moderator_cannot_withdraw_bonus_points_in_their_round(played, moderator, second_moderator):
    round_, players, _ = played
    award = award_bonus(
        actor=second_moderator,
        round_id=round_.pk,
        player_username=players[1].username,
        points=5,
        reason="7.7",
    )
    url = f"/api/rounds/{round_.pk}/bonus/{award.pk}/"
    response = api_as(moderator).delete(url, {"reason": "Not earned"}, format="json")
    assert response.status_code == 403 and "Second Moderator" in response.json()["detail"]
    assert not BonusAward.objects.get(pk=award.pk).withdrawn
    assert api_as(second_moderator).delete(url, {"reason": "Not earned"}, format="json").status_code == 200


def test_a_sole_moderators_withdrawal_in_their_round_is_shown(played, moderator, client):
    round_, players, _ = played
    award = award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[1].username, points=5, reason="7.7"
    )
    withdraw_bonus(actor=moderator, award_id=award.pk, reason="Not earned")
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "withdrawn by The Moderator: Not earned" in results


def test_in_a_league_naming_no_moderator_a_playing_moderator_cannot_pay_themselves(
    played, league, moderator, other_moderator
):
    """Before, only a league's named moderators counted as "another moderator": in a league naming none, a
    playing moderator could award themselves a bonus and set their own match, although other site moderators
    exist."""
    round_, _, match = played
    league.moderators.clear()
    body = {"player": "mod", "points": 100, "reason": "Mine"}
    response = api_as(moderator).post(f"/api/rounds/{round_.pk}/bonus/", body, format="json")
    assert response.status_code == 403 and "Other Moderator" in response.json()["detail"]
    result = {"points_a": 6, "points_b": 0}
    response = api_as(moderator).put(f"/api/matches/{match.pk}/result/", result, format="json")
    assert response.status_code == 403 and "Other Moderator" in response.json()["detail"]
    assert not BonusAward.objects.exists() and Match.objects.get(pk=match.pk).decided_points_a is None
    preview = import_posted_rows(actor=moderator, round_id=round_.pk, text="2 | 0 X 4", dry_run=True)
    assert preview.problems and "(Other Moderator)" in preview.problems[0]
    assert (
        api_as(other_moderator).put(f"/api/matches/{match.pk}/result/", result, format="json").status_code
        == 200
    )


def test_a_site_administrator_is_another_moderator_too(played, moderator, user_model):
    round_, _, _ = played
    user_model.objects.create_superuser("admin", "admin@example.org", "x")
    response = finalize(moderator, round_)
    assert response.status_code == 403 and "(admin)" in response.json()["detail"]
