"""A bonus changes the standings, so it settles the league's winners by the same path as finalizing (rules 5.3,
5.3a, 6.2): a bonus that gives a finished league another leader makes that player the stored winner (the
league stays finished, the change is audited) and tells the league's players and followers who won now and
who was announced before; withdrawing it gives the winners back, told the same way; a bonus that brings the
lead level withdraws the winners until a tie-break round decides. A moderator's declaration still stands."""

import pytest

from audit.models import AuditEntry
from outbox.models import Message, Notification
from rounds.models import League
from scoring.services.bonus import award_bonus, withdraw_bonus
from scoring.services.finalization import finalize_round
from scoring.services.league import declare_winners
from scoring.services.reports import report_match, report_row
from scoring.standings import league_standings
from tests.factories import LeagueFactory, RoundFactory

from .conftest import make_hands, match_between
from .test_tiebreak_standings import play_tiebreak

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]


@pytest.fixture
def finished(league, revealed_round, make_players, moderator):
    """A league of one planned round, final: 01 won both matches (600 League points), 02 and 03 have 0. Its
    computed winner is p1; a follower who never played, and a player of another league."""
    league.rounds_planned = 1
    league.save()
    round_, players = revealed_round(3)
    report_row(player=players[0], round_id=round_.pk, row="1 | X 6 6")
    finalize_round(actor=moderator, round_id=round_.pk)
    follower, elsewhere = make_players(2, prefix="f")
    league.followers.add(follower)
    make_hands(RoundFactory(league=LeagueFactory(number=99, name="League 99")), [elsewhere])
    league.refresh_from_db()
    assert list(league.winners.all()) == [players[0]] and league.state == League.State.FINISHED
    return league, round_, players, follower


def winners_of(league):
    league.refresh_from_db()
    return [user.username for user in league.winners.order_by("username")], league.state


def told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def test_a_bonus_that_gives_a_finished_league_another_leader_changes_its_stored_winners(finished, moderator):
    league, round_, (p1, p2, _), _ = finished
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=p2.username, points=1000, reason="Best story"
    )
    assert winners_of(league) == (["p2"], League.State.FINISHED)
    assert league.winners_computed
    standings = league_standings(league)
    assert [row.player for row in standings.winner_rows] == [p2]
    entry = AuditEntry.objects.filter(action="league.winners_computed").latest("pk")
    assert entry.before == {"winners": ["p1"]} and entry.after == {"winners": ["p2"]}
    # The league's players and its follower are told that the winners changed, nobody else.
    assert told("league.winners_changed") == ["f1", "p1", "p2", "p3"]
    text = Notification.objects.filter(kind="league.winners_changed").first().text
    assert "The winners of League 45 changed" in text and "Forum p2 won, not Forum p1" in text
    assert "+1,000 bonus League points for Forum p2" in text
    body = Message.objects.get(kind="league.winners_changed", recipient=p1).body
    assert "Forum p2 won (announced before: Forum p1)" in body and "1. Forum p2: 1000" in body
    assert "Your place: 2 with 600 League points" in body
    # Not a second "league finished" as if it were the first announcement.
    assert told("league.finished") == ["p1", "p2", "p3"]


def test_withdrawing_the_bonus_gives_the_winners_back_and_says_so(finished, moderator):
    league, round_, (p1, p2, _), _ = finished
    award = award_bonus(
        actor=moderator, round_id=round_.pk, player_username=p2.username, points=1000, reason="Best story"
    )
    Notification.objects.filter(kind="league.winners_changed").delete()
    withdraw_bonus(actor=moderator, award_id=award.pk, reason="Meant for another league")
    assert winners_of(league) == (["p1"], League.State.FINISHED)
    assert [row.player for row in league_standings(league).winner_rows] == [p1]
    text = Notification.objects.filter(kind="league.winners_changed").first().text
    assert "Forum p1 won, not Forum p2" in text and "were withdrawn" in text


def test_a_bonus_that_brings_the_lead_level_withdraws_the_winners_until_a_tiebreak(finished, moderator):
    league, round_, (p1, p2, _), _ = finished
    award_bonus(actor=moderator, round_id=round_.pk, player_username=p2.username, points=600, reason="7.7")
    assert winners_of(league) == ([], League.State.ACTIVE)
    standings = league_standings(league)
    assert standings.winner_rows == [] and [row.player for row in standings.tied_for_first] == [p1, p2]
    assert told("league.winners_changed") == ["f1", "p1", "p2", "p3"]
    text = Notification.objects.filter(kind="league.winners_changed").first().text
    assert "announced before (Forum p1) no longer stand" in text
    assert "Forum p1 and Forum p2 are tied for first: a tie-break round decides" in text


def test_a_bonus_that_leaves_the_leader_alone_changes_nothing_and_tells_nobody_of_winners(
    finished, moderator
):
    league, round_, (_, p2, _), _ = finished
    award_bonus(actor=moderator, round_id=round_.pk, player_username=p2.username, points=50, reason="7.7")
    assert winners_of(league) == (["p1"], League.State.FINISHED)
    assert told("league.winners_changed") == []


def test_a_moderators_declaration_stands_over_a_bonus(finished, moderator):
    league, round_, (_, p2, p3), _ = finished
    declare_winners(actor=moderator, league_id=league.pk, usernames=[p3.username], note="By the rules")
    award_bonus(actor=moderator, round_id=round_.pk, player_username=p2.username, points=1000, reason="7.7")
    assert winners_of(league) == (["p3"], League.State.FINISHED)


def test_a_bonus_in_a_league_still_being_played_records_no_winner(league, revealed_round, moderator):
    round_, players = revealed_round(2)  # four rounds planned: one played
    report_row(player=players[0], round_id=round_.pk, row="1 | X 6")
    finalize_round(actor=moderator, round_id=round_.pk)
    award_bonus(actor=moderator, round_id=round_.pk, player_username="p2", points=1000, reason="7.7")
    assert winners_of(league) == ([], League.State.ACTIVE)
    assert told("league.winners_changed") == [] and told("league.finished") == []


def test_after_a_tiebreak_a_bonus_that_ends_the_shared_lead_decides_and_the_page_says_so(
    league, revealed_round, moderator, client
):
    """5.3a: tie-break rounds decide only between players who share the most League points. A bonus that gives
    the tie-break's loser the most League points makes them the winner (5.3), and the league page no longer
    says the tie-break round decided it."""
    league.rounds_planned = 1
    league.save()
    round_, (p1, p2) = revealed_round(2)
    report_match(reporter=p1, match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2)
    finalize_round(actor=moderator, round_id=round_.pk)
    play_tiebreak(league, [p1, p2], moderator, 4, 1)
    assert winners_of(league)[0] == ["p1"]
    assert "decided by the tie-break round" in client.get(f"/leagues/{league.pk}/").content.decode()
    award_bonus(actor=moderator, round_id=round_.pk, player_username="p2", points=1000, reason="7.7")
    assert winners_of(league) == (["p2"], League.State.FINISHED)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Forum p2</a> wins" in page and "decided by the tie-break round" not in page


def test_a_hand_still_secret_makes_nobody_one_of_those_told_the_winners_changed(
    finished, moderator, make_players
):
    """The outbox's lists show a league's moderators who was told: someone tied to the league only by a hand in
    a round still open is not told (that would tell who entered it), though the league's known people are."""
    league, round_, (_, p2, _), _ = finished
    [newcomer] = make_players(1, prefix="n")
    make_hands(RoundFactory(league=league, number=2), [newcomer])  # open: its deadline is ahead
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=p2.username, points=1000, reason="Best story"
    )
    assert told("league.winners_changed") == ["f1", "p1", "p2", "p3"]
