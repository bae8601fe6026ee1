"""The results page of a round before its deadline: a friendly page saying when the results open, with the
deadline in the viewer's zone and UTC and a countdown, links to the round and the viewer's own hand, and
nothing at all about the other hands (not even how many). Unknown rounds and drafts stay 404."""

import re

import pytest

from rounds.models import RoundState
from scoring.models import Match, MatchReport
from tests.factories import RoundFactory

from .conftest import make_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_round(league, make_players):
    round_ = RoundFactory(league=league, title="Five Card Secrets")
    players = make_players(3)
    make_hands(round_, players)
    return round_, players


def results_page(client, round_, status=200):
    response = client.get(f"/rounds/{round_.pk}/results/")
    assert response.status_code == status
    return response.content.decode()


def without_tokens(html):
    """The page without its CSRF tokens, which differ on every response."""
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html)


def assert_no_hint_of_hands(html, players):
    # A CSRF token is random letters and digits: "p1" turns up in one page of twenty.
    html = without_tokens(html)
    for player in players:
        assert player.profile.forum_username not in html
        assert player.username not in html
        assert f"Hand of {player.username}" not in html
    assert "3 hand" not in html and "submitted" not in html
    assert "Black Lotus" not in html


def test_anonymous_sees_when_results_open(client, open_round):
    round_, players = open_round
    html = results_page(client, round_)
    assert "The results of" in html and "are not open yet" in html
    assert round_.deadline.isoformat() in html  # <time datetime=…> and the countdown
    assert f'data-countdown="{round_.deadline.isoformat()}"' in html
    assert "js/countdown.js" in html
    assert f'href="/rounds/{round_.pk}/"' in html
    assert "Log in to submit a hand" in html
    assert_no_hint_of_hands(html, players)


def test_the_deadline_in_the_viewers_zone_and_utc(client, make_user, open_round):
    round_, players = open_round
    viewer = make_user("tokyo", forum_username="Tokyo Viewer")
    viewer.profile.time_zone = "Asia/Tokyo"
    viewer.profile.save(update_fields=["time_zone"])
    client.force_login(viewer)
    html = results_page(client, round_)
    assert "JST" in html and " UTC)" in html
    assert "Submit a hand" in html
    assert_no_hint_of_hands(html, players)


def test_a_player_gets_a_link_to_their_hand_and_nothing_of_the_others(client, open_round):
    round_, players = open_round
    client.force_login(players[0])
    html = results_page(client, round_)
    assert f'href="/rounds/{round_.pk}/my-hand/"' in html and "Your hand" in html
    assert_no_hint_of_hands(html.replace(players[0].profile.forum_username, ""), players[1:])
    # The player's own hand is a link, never shown here.
    assert f"Hand of {players[0].username}" not in html


def test_the_page_is_the_same_whoever_entered(client, league, make_players, make_user):
    """Two rounds, one with hands and one without: an outsider cannot tell them apart."""
    busy = RoundFactory(league=league, title="Same Title")
    make_hands(busy, make_players(4))
    empty = RoundFactory(league=league, title="Same Title", deadline=busy.deadline)
    client.force_login(make_user("outsider"))
    busy_html = results_page(client, busy).replace(f"/rounds/{busy.pk}/", "/rounds/N/")
    empty_html = results_page(client, empty).replace(f"/rounds/{empty.pk}/", "/rounds/N/")
    assert without_tokens(busy_html.replace(busy.code, "CODE")) == without_tokens(
        empty_html.replace(empty.code, "CODE")
    )


def test_a_row_posted_before_the_reveal_is_refused_with_409(client, open_round):
    round_, players = open_round
    client.force_login(players[0])
    response = client.post(f"/rounds/{round_.pk}/results/", {"row": "1 | X 6 6 | PT | Points"})
    assert response.status_code == 409
    assert "Nothing was reported" in response.content.decode()
    assert not Match.objects.filter(round=round_).exists()
    assert not MatchReport.objects.exists()


def test_unknown_and_draft_rounds_stay_404(client, league, moderator):
    draft = RoundFactory(league=league, state=RoundState.DRAFT)
    assert client.get(f"/rounds/{draft.pk}/results/").status_code == 404
    client.force_login(moderator)
    assert client.get(f"/rounds/{draft.pk}/results/").status_code == 404
    assert client.get("/rounds/999999/results/").status_code == 404


def test_the_api_keeps_its_404_before_the_reveal(client, open_round):
    round_, _ = open_round
    assert client.get(f"/api/rounds/{round_.pk}/table/").status_code == 404


@pytest.mark.parametrize("hands", [2, 20])
def test_bounded_queries(client, league, make_players, django_assert_max_num_queries, hands):
    round_ = RoundFactory(league=league)
    players = make_players(hands)
    make_hands(round_, players)
    client.force_login(players[0])
    with django_assert_max_num_queries(8):
        results_page(client, round_)
