"""Rule 4.2a after results: replacing a hand marks its matches that had results "needs a new result" (old
reports kept as superseded history, out of the tally, finalization refused without force, players told);
disqualifying one takes its matches out with their reports kept the same way."""

import pytest

from audit.models import AuditEntry
from outbox.models import Notification
from scoring import selectors
from scoring.models import Challenge, Match, MatchReport
from scoring.services.decisions import challenge_match, set_result
from scoring.services.errors import ScoringConflict
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match
from scoring.services.tally import compute_tally
from submissions.services import review as hand_services

from .conftest import match_between

pytestmark = pytest.mark.django_db

# The hands' cards less Mox Ruby: a similar hand of a legal hand only leaves cards out (rule 4.2a).
SIMILAR = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet"]


@pytest.fixture
def reported(revealed_round, moderator):
    """Three hands; 01 v 02 agreed 6-0, 01 v 03 reported by 03 (0-6), 02 v 03 agreed 2-2, a challenge on
    01 v 02 by 03."""
    round_, players = revealed_round(3)
    one_two, one_three, two_three = (match_between(round_, *pair) for pair in ((1, 2), (1, 3), (2, 3)))
    for player in players[:2]:
        report_match(reporter=player, match_id=one_two.pk, points_a=6, points_b=0)
    report_match(reporter=players[2], match_id=one_three.pk, points_a=0, points_b=6)
    for player in players[1:]:
        report_match(reporter=player, match_id=two_three.pk, points_a=2, points_b=2)
    challenge_match(challenger=players[2], match_id=one_two.pk, reason="Check the Lotus")
    return round_, players, (one_two, one_three, two_three)


def replace_first_hand(round_, moderator):
    hand = round_.hands.get(number=1)
    hand_services.review_hand(actor=moderator, hand_id=hand.pk, action="replace", cards=SIMILAR)
    return hand


def test_replacing_a_hand_after_results_makes_its_matches_need_a_new_result(reported, moderator):
    """Finding 1: today the old hand's results stand as if nothing happened."""
    round_, players, (one_two, one_three, two_three) = reported
    Notification.objects.all().delete()
    replace_first_hand(round_, moderator)
    for match in (one_two, one_three):
        match.refresh_from_db()
        assert (match.status, match.points_a, match.needs_new_result) == ("needs_result", None, True)
    two_three.refresh_from_db()
    assert (two_three.status, two_three.points_a) == ("agreed", 2)  # not about the replaced hand
    # The old reports are history, never deleted, marked superseded.
    old = MatchReport.objects.filter(match__in=[one_two, one_three])
    assert old.count() == 3 and not old.filter(is_current=True).exists()
    assert all(r.superseded_at and "replaced by a similar hand" in r.superseded_note for r in old)
    assert Challenge.objects.get(match=one_two).state == Challenge.State.CLOSED
    # Out of the tally until reported again: hand 01 has no points, 02 and 03 keep only 2 each.
    points = {line.hand.number: line.points for line in compute_tally(round_.pk)}
    assert points == {1: 0, 2: 2, 3: 2}
    # Everyone concerned is told, once each.
    told = Notification.objects.filter(kind="match.needs_result")
    assert sorted(told.values_list("recipient__username", flat=True)) == sorted(p.username for p in players)
    assert "2 matches of yours need a new result (01 v 02, 01 v 03)" in told.get(recipient=players[0]).text
    assert AuditEntry.objects.filter(action="round.results_superseded").count() == 1


def test_the_round_shows_them_and_finalization_waits_for_them(reported, moderator, client):
    round_, players, (one_two, one_three, _) = reported
    replace_first_hand(round_, moderator)
    table = selectors.results_table(round_)
    assert table.needs_result == 2 and ("need a new result", 2) in table.status_summary
    page = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "2 matches need a new result" in page
    match_page = client.get(f"/matches/{one_two.pk}/").content.decode()
    assert "Needs a new result" in match_page and "superseded" in match_page
    with pytest.raises(ScoringConflict) as refused:
        finalize_round(actor=moderator, round_id=round_.pk)
    assert refused.value.items == [
        "Match 01 v 02 needs a new result (a hand was replaced after results were reported, rule 4.2a).",
        "Match 01 v 03 needs a new result (a hand was replaced after results were reported, rule 4.2a).",
    ]
    # A new report is the new result: the flag goes, the version follows the superseded ones.
    report = report_match(reporter=players[0], match_id=one_two.pk, points_a=0, points_b=6)
    assert report.version == 2
    one_two.refresh_from_db()
    assert (one_two.status, one_two.points_a, one_two.needs_new_result) == ("reported", 0, False)
    set_result(actor=moderator, match_id=one_three.pk, points_a=4, points_b=1)
    finalize_round(actor=moderator, round_id=round_.pk)


def test_finalize_api_answers_409_listing_them_unless_forced(reported, moderator, api_client):
    round_, _, (one_two, _, _) = reported
    replace_first_hand(round_, moderator)
    api_client.force_authenticate(moderator)
    refused = api_client.post(f"/api/rounds/{round_.pk}/finalize/", {}, format="json")
    assert refused.status_code == 409 and len(refused.json()["items"]) == 2
    assert (
        api_client.post(f"/api/rounds/{round_.pk}/finalize/", {"force": True}, format="json").status_code
        == 200
    )
    one_two.refresh_from_db()
    assert (one_two.status, one_two.points_a, one_two.points_b) == ("final", 0, 0)  # rule 6.3b


def test_replacing_before_any_result_changes_no_match(revealed_round, moderator):
    round_, _ = revealed_round(2)
    replace_first_hand(round_, moderator)
    assert set(Match.objects.filter(round=round_).values_list("status", flat=True)) == {"unreported"}
    assert not Notification.objects.filter(kind="match.needs_result").exists()


def test_disqualifying_keeps_the_reports_as_history_and_tells_the_opponents(reported, moderator):
    round_, players, (one_two, one_three, _) = reported
    hand = round_.hands.get(number=1)
    hand_services.review_hand(actor=moderator, hand_id=hand.pk, action="disqualify", message="Illegal")
    assert MatchReport.objects.filter(match__in=[one_two, one_three]).count() == 3
    assert not MatchReport.objects.filter(match__in=[one_two, one_three], is_current=True).exists()
    one_two.refresh_from_db()
    assert not one_two.needs_new_result  # out of the table: no result is needed
    finalize_round(actor=moderator, round_id=round_.pk)  # nothing blocks it
    told = Notification.objects.filter(kind="match.needs_result")
    assert "no longer count" in told.get(recipient=players[1]).text
