"""The moderators of a league hear of what waits for them: a match that becomes disputed (the two players'
reports differ) and a result challenged, on the site and by e-mail as each chose, with a link to the match.

Who is told: everyone who can manage the league (its named moderators, or every site moderator when it names
none) — but a moderator who plays in the round is left to the others when there are any, a moderator who is a
player of the match gets the player's notice and never both, and whoever caused the event is not told of it.
One notice per event (not per report); a dispute settled and back again is a new one; nothing before the reveal.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.services import make_moderator
from outbox import preferences
from outbox.models import Message, Notification
from rounds.models import RoundState
from rounds.services.leagues import create_league
from scoring.services.decisions import challenge_match
from scoring.services.errors import ScoringNotFound
from scoring.services.posted_rows import import_posted_rows
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]

DISPUTE, CHALLENGE = "moderation.dispute", "moderation.challenge"


def told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def mailed(kind):
    return sorted(Message.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def dispute(match):
    """Hand a's player reports 6-0, hand b's player 0-6 for themselves: the reports differ."""
    report_match(reporter=match.hand_a.player, match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=match.hand_b.player, match_id=match.pk, points_a=0, points_b=6)


def revealed(league, players):
    round_ = RoundFactory(league=league)
    make_hands(round_, players)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    round_.refresh_from_db()
    return round_


@pytest.fixture
def site_moderators(make_user):
    """Two more site moderators (`ann`, `ben`), neither named by the fixture's League 45."""
    people = [
        make_user(name, forum_username=name.title(), email=f"{name}@example.org") for name in ("ann", "ben")
    ]
    for person in people:
        make_moderator(person)
    return people


def test_a_dispute_tells_the_league_s_moderator_once_with_both_reports_and_a_link(
    revealed_round, moderator, site_moderators
):
    round_, (p1, p2, _p3) = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=p1, match_id=match.pk, points_a=6, points_b=0)
    assert told(DISPUTE) == []
    report_match(reporter=p2, match_id=match.pk, points_a=0, points_b=6)
    # League 45 names its moderator: only they are told (the other site moderators do not manage it).
    assert told(DISPUTE) == ["mod"] and mailed(DISPUTE) == []  # the fixture's moderator has no address
    note = Notification.objects.get(kind=DISPUTE)
    assert (
        note.url == f"/matches/{match.pk}/"
        and "League 45, a league you moderate: results differ" in note.text
    )
    assert told("match.dispute") == ["p1", "p2"]  # the players' own notices, as before

    # Another report that keeps the match disputed is no new event; a dispute settled and back again is.
    report_match(reporter=p1, match_id=match.pk, points_a=4, points_b=1)
    assert told(DISPUTE) == ["mod"]
    report_match(reporter=p2, match_id=match.pk, points_a=4, points_b=1)  # agreed
    report_match(reporter=p2, match_id=match.pk, points_a=2, points_b=2)  # differs again
    assert told(DISPUTE) == ["mod", "mod"]


def test_the_e_mail_carries_both_reports_and_the_links(revealed_round, moderator):
    moderator.email = "mod@example.org"
    moderator.save(update_fields=["email"])
    round_, _players = revealed_round(3)
    match = match_between(round_, 2, 3)
    dispute(match)
    body = Message.objects.get(kind=DISPUTE).body
    assert "Forum p2: 6-0" in body and "Forum p3: 0-6" in body
    assert f"/matches/{match.pk}/" in body and f"/moderate/rounds/{round_.pk}/results/" in body
    assert "#todo" in body and "a league you moderate" in body


def test_a_challenge_tells_the_league_s_moderator_with_the_reason(revealed_round, moderator):
    round_, (p1, _p2, p3) = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=p1, match_id=match.pk, points_a=6, points_b=0)
    challenge_match(challenger=p3, match_id=match.pk, reason="Lotus wins on the play")
    assert told(CHALLENGE) == ["mod"] and told("match.challenge") == ["p1", "p2"]
    note = Notification.objects.get(kind=CHALLENGE)
    assert note.url == f"/matches/{match.pk}/" and "result challenged by Forum p3" in note.text


def test_a_league_that_names_no_moderator_tells_every_site_moderator(
    moderator, site_moderators, make_players
):
    unnamed = create_league(actor=moderator, name="League 46")
    administrator = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    players = make_players(3)
    match = match_between(revealed(unnamed, players), 1, 2)
    dispute(match)
    assert told(DISPUTE) == ["ann", "ben", "mod", "root"]
    assert mailed(DISPUTE) == ["ann", "ben", "root"]  # "mod" has no e-mail address
    assert administrator.pk in Notification.objects.filter(kind=DISPUTE).values_list("recipient", flat=True)


def test_a_moderator_who_plays_in_the_round_is_left_to_the_others(moderator, site_moderators, make_players):
    ann, _ben = site_moderators
    unnamed = create_league(actor=moderator, name="League 46")
    p1, p2 = make_players(2)
    round_ = revealed(unnamed, [p1, p2, ann])  # ann plays in the round (hand 03), not in match 01 v 02
    match = match_between(round_, 1, 2)
    dispute(match)
    assert told(DISPUTE) == ["ben", "mod"]  # those who can decide it
    challenge_match(challenger=p2, match_id=match.pk, reason="Check it")
    assert told(CHALLENGE) == ["ben", "mod"]


def test_when_every_moderator_plays_they_are_all_told(league, moderator, make_players):
    p1, p2 = make_players(2)
    round_ = revealed(league, [p1, p2, moderator])  # the league's only moderator plays (hand 03)
    dispute(match_between(round_, 1, 2))
    assert told(DISPUTE) == ["mod"]  # nobody else can decide it: they are told, and may


def test_a_moderator_who_is_a_player_of_the_match_gets_the_player_s_notice_only(
    league, moderator, site_moderators, make_players
):
    ann, _ben = site_moderators
    [p2] = make_players(1)
    round_ = revealed(league, [moderator, p2])  # the only named moderator plays match 01 v 02 itself
    match = match_between(round_, 1, 2)
    dispute(match)
    assert told("match.dispute") == ["mod", "p1"] and told(DISPUTE) == []
    league.moderators.add(ann)  # a second moderator who does not play: told as the moderator
    report_match(reporter=p2, match_id=match.pk, points_a=6, points_b=0)  # agreed
    report_match(reporter=p2, match_id=match.pk, points_a=0, points_b=6)  # disputed again
    assert told(DISPUTE) == ["ann"] and told("match.dispute") == ["mod", "mod", "p1", "p1"]


def test_whoever_causes_the_event_is_not_told_of_it(league, moderator, site_moderators, make_players):
    ann, _ben = site_moderators
    league.moderators.add(ann)
    p1, p2, p3 = make_players(3)
    round_ = revealed(league, [p1, p2, p3])
    # A moderator's own challenge: the other moderator is told, not they.
    match = match_between(round_, 1, 2)
    report_match(reporter=p1, match_id=match.pk, points_a=6, points_b=0)
    challenge_match(challenger=moderator, match_id=match.pk, reason="Checked the rulings")
    assert told(CHALLENGE) == ["ann"]
    # The players' rows, pasted by a moderator, make a dispute: the moderator who pasted them is not told.
    import_posted_rows(actor=ann, round_id=round_.pk, text="2 | 6 X 0\n3 | 6 0 X")
    assert told(DISPUTE) == ["mod"]


def test_each_moderator_s_choices_hold_and_the_digest_may_gather_them(league, moderator, make_players):
    moderator.email = "mod@example.org"
    moderator.save(update_fields=["email"])
    preferences.update(moderator, {DISPUTE: {"site": False}, CHALLENGE: {"email": False}}, digest=True)
    p1, p2, p3 = make_players(3)
    round_ = revealed(league, [p1, p2, p3])
    match = match_between(round_, 1, 2)
    dispute(match)
    challenge_match(challenger=p3, match_id=match.pk, reason="Why")
    assert told(DISPUTE) == [] and mailed(DISPUTE) == ["mod"]
    assert told(CHALLENGE) == ["mod"] and mailed(CHALLENGE) == []
    assert Message.objects.get(kind=DISPUTE).state == Message.State.HELD  # waits for the daily digest


def test_nothing_reaches_a_moderator_before_the_reveal(revealed_round, moderator):
    """A match has no result to dispute or challenge before its round's deadline: the services refuse (404,
    as for a match that does not exist) and nobody is told anything."""
    round_, (p1, _p2, p3) = revealed_round(3)
    match = match_between(round_, 1, 2)
    # The same matches, as if the round were still taking hands (its deadline ahead, not revealed).
    round_.state, round_.deadline = RoundState.OPEN, timezone.now() + timedelta(hours=1)
    round_.save(update_fields=["state", "deadline"])
    with pytest.raises(ScoringNotFound):
        report_match(reporter=p1, match_id=match.pk, points_a=6, points_b=0)
    with pytest.raises(ScoringNotFound):
        challenge_match(challenger=p3, match_id=match.pk, reason="Early")
    assert not Notification.objects.filter(kind__in=[DISPUTE, CHALLENGE]).exists()
    assert not Message.objects.filter(kind__in=[DISPUTE, CHALLENGE]).exists()
