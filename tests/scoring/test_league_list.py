"""The leagues list: each league's leader (or winners, or the players tied for first), rounds played of
planned, its state, the round open now with its deadline, the round being reported, and its players; a constant
number of queries whatever the number of leagues, rounds and players. Nothing of a round before its deadline
beyond what its round page shows (its title and deadline)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.models import RoundState
from rounds.services.leagues import create_league
from scoring.services.finalization import finalize_round
from scoring.services.league import declare_winners
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db


def leagues_page(client):
    response = client.get("/leagues/")
    assert response.status_code == 200
    return response.content.decode()


def card_of(html, name):
    """The part of the page about one league."""
    start = html.index(f">{name}</a></h2>")
    end = html.find("phm-league-card", start)
    return html[start : end if end != -1 else len(html)]


def test_no_leagues(client, db):
    assert "No leagues yet." in leagues_page(client)


def test_a_running_league_with_its_leader_open_round_and_players(
    client, league, revealed_round, make_players
):
    round_, players = revealed_round(3)
    report_match(
        reporter=players[1], match_id=match_between(round_, 1, 2).pk, points_a=0, points_b=6
    )
    finalize_round(actor=league.moderators.first(), round_id=round_.pk)
    latecomer = make_players(1, prefix="late")[0]
    open_round = RoundFactory(league=league, title="Seven Card Secrets")
    make_hands(open_round, [latecomer])
    html = card_of(leagues_page(client), league.name)
    assert "Running" in html
    assert "Leader:" in html and "Forum p2" in html and "300 League points" in html
    assert "1 of 4 played" in html
    assert "Players</dt>" in html and '<dd class="col-7 col-sm-8 mb-1">3</dd>' in html
    assert f'href="/rounds/{open_round.pk}/"' in html and "Seven Card Secrets" in html
    assert open_round.deadline.isoformat() in html
    assert f'data-countdown="{open_round.deadline.isoformat()}"' in html
    # The open round's entrant is not named, nor counted, before its deadline.
    assert "Forum late" not in html and latecomer.username not in html


def test_a_round_being_reported(client, league, revealed_round):
    round_, _ = revealed_round(2)
    html = card_of(leagues_page(client), league.name)
    assert "Reporting" in html and f'href="/rounds/{round_.pk}/results/"' in html


def test_a_finished_league_shows_its_winners(client, league, revealed_round, moderator):
    league.rounds_planned = 1
    league.save(update_fields=["rounds_planned"])
    round_, players = revealed_round(2)
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0
    )
    finalize_round(actor=moderator, round_id=round_.pk)
    html = card_of(leagues_page(client), league.name)
    assert "Finished" in html and "Winner:" in html and "Forum p1" in html
    assert "600 League points" in html and "1 of 1 played" in html


def test_declared_joint_winners(client, league, revealed_round, moderator):
    _, players = revealed_round(3)
    declare_winners(
        actor=moderator, league_id=league.pk, usernames=[players[0].username, players[2].username]
    )
    html = card_of(leagues_page(client), league.name)
    assert "Finished" in html and "Joint winners:" in html
    assert "Forum p1" in html and "Forum p3" in html


def test_a_league_waiting_for_a_tiebreak(client, league, revealed_round, moderator):
    league.rounds_planned = 1
    league.save(update_fields=["rounds_planned"])
    round_, players = revealed_round(2)
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2
    )
    finalize_round(actor=moderator, round_id=round_.pk)
    html = card_of(leagues_page(client), league.name)
    assert "Waiting for a tie-break" in html
    assert "Tied for first:" in html and "Forum p1" in html and "Forum p2" in html


def test_drafts_never_show(client, league):
    RoundFactory(league=league, title="Secret Draft Round", state=RoundState.DRAFT)
    html = leagues_page(client)
    assert "Secret Draft Round" not in html and "No round played yet." in html


# The leagues; their standings all at once (scoring.standings.standings_of_leagues: past rounds, hands, hands
# in the tables, points twice, bonus awards, winners); the rounds open or being reported. Anonymous: no session.
QUERIES = 9


def _populate(moderator, leagues, players_per_round, make_players):
    for number in range(leagues):
        league = create_league(actor=moderator, name=f"League {100 + number}", moderators=[moderator])
        players = make_players(players_per_round, prefix=f"l{number}p")
        for position in range(2):
            round_ = RoundFactory(league=league, number=position + 1)
            make_hands(round_, players)
            round_.deadline = timezone.now() - timedelta(days=3 - position)
            round_.save(update_fields=["deadline"])
            build_match_table(round_.pk)
        RoundFactory(league=league, number=3, title=f"Open round {number}")


@pytest.mark.parametrize(("leagues", "players"), [(1, 2), (4, 6)])
def test_bounded_queries(client, moderator, make_players, django_assert_num_queries, leagues, players):
    _populate(moderator, leagues, players, make_players)
    with django_assert_num_queries(QUERIES):
        html = leagues_page(client)
    assert html.count("phm-league-card") == leagues
    assert html.count("Open round") == leagues
