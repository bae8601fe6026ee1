"""After the reveal: who is told what — hands posted to the round's players, a dispute and a challenge to the
match's players, the moderator's decision with both reports, results final with each player's own figures, a
league's winners — and who is told nothing (other leagues, followers without a hand, anyone before the reveal)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from outbox.models import Message, Notification
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.finalization import finalize_round
from scoring.services.league import declare_winners
from scoring.services.reports import report_match
from submissions.services import reveal as hand_services
from tests.factories import LeagueFactory, RoundFactory

from .conftest import make_hands, match_between

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]


def told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def mailed(kind):
    return sorted(Message.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def test_the_reveal_tells_each_player_of_the_round_once(league, make_players):
    p1, p2, p3, follower, elsewhere = make_players(5)
    round_ = RoundFactory(league=league)
    make_hands(round_, [p1, p2, p3])
    league.followers.add(follower)
    make_hands(RoundFactory(league=LeagueFactory(number=99, name="League 99")), [elsewhere])
    assert hand_services.reveal_round(round_.pk) is False  # before the deadline: nothing, nobody
    assert not Notification.objects.exists() and not Message.objects.exists()
    round_.deadline = timezone.now() - timedelta(seconds=1)
    round_.save(update_fields=["deadline"])
    assert hand_services.reveal_round(round_.pk) is True
    assert hand_services.reveal_round(round_.pk) is False  # done once
    assert told("hands.revealed") == ["p1", "p2", "p3"] and mailed("hands.revealed") == ["p1", "p2", "p3"]
    note = Notification.objects.get(kind="hands.revealed", recipient=p2)
    assert note.url == f"/rounds/{round_.pk}/results/?rows=mine" and "score your row now" in note.text
    body = Message.objects.get(kind="hands.revealed", recipient=p2).body
    assert "Your hand is entry 02" in body and "plays 2 other hands" in body


def test_a_dispute_tells_both_players_with_both_reports(revealed_round, make_players):
    round_, (p1, p2, _p3) = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=p1, match_id=match.pk, points_a=6, points_b=0)
    assert told("match.dispute") == []
    report_match(reporter=p2, match_id=match.pk, points_a=0, points_b=6)
    assert told("match.dispute") == ["p1", "p2"]
    body = Message.objects.filter(kind="match.dispute").first().body
    assert "Forum p1: 6-0" in body and "Forum p2: 0-6" in body
    assert Notification.objects.get(kind="match.dispute", recipient=p1).url == f"/matches/{match.pk}/"


def test_a_challenge_tells_the_players_and_the_decision_tells_the_challenger_too(
    revealed_round, moderator, make_players
):
    round_, (p1, _p2, p3) = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=p1, match_id=match.pk, points_a=6, points_b=0)
    challenge = challenge_match(challenger=p3, match_id=match.pk, reason="Lotus wins on the play")
    assert told("match.challenge") == ["p1", "p2"]
    resolve_challenge(
        actor=moderator, challenge_id=challenge.pk, decision="upheld", points_a=2, points_b=2
    )
    assert told("match.decision") == ["p1", "p2", "p3"]
    body = Message.objects.filter(kind="match.decision").first().body
    assert "upheld" in body and "Forum p1: 6-0" in body and "2 - 2" in body


def test_a_moderator_s_result_tells_both_players(revealed_round, moderator):
    round_, (_p1, p2, p3) = revealed_round(3)
    match = match_between(round_, 2, 3)
    report_match(reporter=p2, match_id=match.pk, points_a=4, points_b=1)
    report_match(reporter=p3, match_id=match.pk, points_a=1, points_b=4)
    set_result(actor=moderator, match_id=match.pk, points_a=4, points_b=1, note="Checked the stack")
    assert told("match.decision") == ["p2", "p3"]
    body = Message.objects.filter(kind="match.decision").first().body
    assert "Decision: 02 4 - 1 03" in body and "Forum p2: 4-1" in body and "Forum p3: 1-4" in body
    assert "Checked the stack" in body


def test_results_final_tells_each_player_their_own_figures_and_the_standings(revealed_round, moderator):
    round_, (p1, p2, p3) = revealed_round(3)
    report_match(reporter=p1, match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)
    report_match(reporter=p1, match_id=match_between(round_, 1, 3).pk, points_a=6, points_b=0)
    report_match(reporter=p2, match_id=match_between(round_, 2, 3).pk, points_a=4, points_b=1)
    finalize_round(actor=moderator, round_id=round_.pk)
    assert told("results.final") == ["p1", "p2", "p3"]
    first = Notification.objects.get(kind="results.final", recipient=p1)
    assert "you ranked 1 with 12 PT" in first.text
    body = Message.objects.get(kind="results.final", recipient=p3).body
    assert 'You (03, "Hand of p3"): rank 3, 1 PT' in body
    assert "1. Forum p1" in body and "standings after this round" in body


def test_declared_winners_tell_the_league_s_players(revealed_round, moderator, league):
    round_, (p1, p2) = revealed_round(2)
    report_match(reporter=p1, match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)
    finalize_round(actor=moderator, round_id=round_.pk)
    declare_winners(actor=moderator, league_id=league.pk, usernames=["p1"], note="Well played")
    assert told("league.finished") == ["p1", "p2"]
    body = Message.objects.get(kind="league.finished", recipient=p2).body
    assert "The winner is Forum p1" in body and "Your place: 2" in body and "Well played" in body
