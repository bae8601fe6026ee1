"""When announced results change, the people concerned are told: a reopened round's players hear that it was
reopened and why; when it is final again, each is told it replaces the earlier results, with what changed for
them; a player hears of a bonus awarded to them, and of its withdrawal, with the points and the reason. Nobody
else is told."""

import pytest

from outbox.kinds import BY_KEY
from outbox.models import Message, Notification
from scoring.services.bonus import award_bonus, withdraw_bonus
from scoring.services.decisions import set_result
from scoring.services.finalization import finalize_round, reopen_round
from scoring.services.reports import report_row
from tests.factories import LeagueFactory, RoundFactory

from .conftest import make_hands, match_between

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]


def told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def notes(kind, user):
    return list(
        Notification.objects.filter(kind=kind, recipient=user).order_by("pk").values_list("text", flat=True)
    )


@pytest.fixture
def final_round(league, revealed_round, make_players, moderator):
    """A final round of three: 01 won both matches (12 PT, 600 League points), 02 v 03 was never reported
    (0-0); a follower of the league and a player of another league, who are told nothing of the round."""
    round_, players = revealed_round(3)
    report_row(player=players[0], round_id=round_.pk, row="1 | X 6 6")
    finalize_round(actor=moderator, round_id=round_.pk)
    follower, elsewhere = make_players(2, prefix="f")
    league.followers.add(follower)
    make_hands(RoundFactory(league=LeagueFactory(number=99, name="League 99")), [elsewhere])
    return round_, players


def test_the_new_kinds_are_on_the_preferences_list():
    for key in ("results.reopened", "league.bonus", "league.winners_changed"):
        assert BY_KEY[key].label and BY_KEY[key].description


def test_reopening_tells_the_rounds_players_with_the_reason(final_round, moderator):
    round_, (p1, _, _) = final_round
    reopen_round(actor=moderator, round_id=round_.pk, reason="02 v 03 was played: 02 won both games")
    assert told("results.reopened") == ["p1", "p2", "p3"]
    [text] = notes("results.reopened", p1)
    assert f"{round_.code} {round_.title} was reopened" in text and "can change again" in text
    assert "The moderator's reason: 02 v 03 was played: 02 won both games" in text
    note = Notification.objects.get(kind="results.reopened", recipient=p1)
    assert note.url == f"/rounds/{round_.pk}/results/?rows=mine"
    body = Message.objects.get(kind="results.reopened", recipient=p1).body
    assert "was reopened by the moderator" in body and "02 v 03 was played: 02 won both games" in body


def test_final_again_says_it_replaces_the_earlier_results_and_what_changed_for_each(final_round, moderator):
    round_, (p1, p2, p3) = final_round
    reopen_round(actor=moderator, round_id=round_.pk, reason="Recount")
    set_result(actor=moderator, match_id=match_between(round_, 1, 2).pk, points_a=0, points_b=6)
    finalize_round(actor=moderator, round_id=round_.pk)
    # Each player has the first "results final" and a second one that says it replaces it.
    for player in (p1, p2, p3):
        first, second = notes("results.final", player)
        assert "is final:" in first and "again" not in first
        assert second.startswith("Results final again:") and "replacing the earlier results" in second
    # 01: 6 PT now (was 12); 02: 6 PT (was 0), level with 01; 03 alone last now (was level with 02).
    assert "you ranked 1 with 6 PT, 300 League points" in notes("results.final", p1)[1]
    assert "Before: ranked 1 with 12 PT, 600 League points." in notes("results.final", p1)[1]
    assert "you ranked 1 with 6 PT, 300 League points" in notes("results.final", p2)[1]
    assert "Before: ranked 2 with 0 PT, 0 League points." in notes("results.final", p2)[1]
    assert "you ranked 3 with 0 PT" in notes("results.final", p3)[1]
    assert "Before: ranked 2 with 0 PT, 0 League points." in notes("results.final", p3)[1]
    mail = Message.objects.filter(kind="results.final", recipient=p1).order_by("pk").last()
    assert "results final again (corrected)" in mail.subject
    assert "is final again" in mail.body and "replace the ones announced before" in mail.body
    assert "Before: ranked 1 with 12 PT, 600 League points." in mail.body
    # Reopened and final again with nothing changed: each is told so.
    reopen_round(actor=moderator, round_id=round_.pk, reason="Checking a report")
    finalize_round(actor=moderator, round_id=round_.pk)
    for player in (p1, p2, p3):
        assert "Your figures did not change." in notes("results.final", player)[2]
    assert told("results.reopened") == ["p1", "p1", "p2", "p2", "p3", "p3"]


def test_a_bonus_tells_its_player_the_points_and_the_reason_and_nobody_else(final_round, moderator):
    round_, (_, p2, _) = final_round
    award = award_bonus(
        actor=moderator,
        round_id=round_.pk,
        player_username=p2.username,
        points=25,
        reason="Rule 7.7: a story",
    )
    assert told("league.bonus") == ["p2"]
    [text] = notes("league.bonus", p2)
    assert f"{round_.code}: +25 bonus League points for you" in text and "Rule 7.7: a story" in text
    body = Message.objects.get(kind="league.bonus", recipient=p2).body
    assert "You were awarded +25 bonus League points" in body and "Rule 7.7: a story" in body
    withdraw_bonus(actor=moderator, award_id=award.pk, reason="Meant for 03")
    assert told("league.bonus") == ["p2", "p2"]
    withdrawn = notes("league.bonus", p2)[1]
    assert "your +25 bonus League points were withdrawn" in withdrawn and "Meant for 03" in withdrawn
