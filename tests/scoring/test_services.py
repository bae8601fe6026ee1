"""Match table, reports, statuses, challenges, moderator results, finalization, reopening, tally."""

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import TestCase

from audit.models import AuditEntry
from rounds.models import RoundState
from scoring.models import Challenge, HandTally, Match, MatchReport, MatchStatus, RoundTally
from scoring.services.access import revealed_round_table
from scoring.services.bonus import award_bonus
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound
from scoring.services.finalization import finalize_round, reopen_round
from scoring.services.reports import report_match, report_row
from scoring.services.table import build_match_table, matches_in_table, table_of
from scoring.services.tally import compute_tally, hands_in_table, store_tally, stored_tally
from submissions.models import HandStatus
from submissions.services.review import review_hand

from .conftest import match_between, plays_in_the_league

pytestmark = pytest.mark.django_db(transaction=False)


def test_table_has_one_match_per_pair_and_building_twice_adds_nothing(revealed_round):
    round_, _ = revealed_round(6)
    assert Match.objects.filter(round=round_).count() == 15  # 6·5/2
    build_match_table(round_.pk)
    build_match_table(round_.pk)
    assert Match.objects.filter(round=round_).count() == 15
    assert RoundTally.objects.filter(round=round_).count() == 1
    for match in Match.objects.filter(round=round_).select_related("hand_a", "hand_b"):
        assert match.hand_a.number < match.hand_b.number
        assert match.status == MatchStatus.UNREPORTED


def test_table_is_built_on_first_use_when_no_task_ran(revealed_round):
    round_, _ = revealed_round(4, build=False)
    assert not Match.objects.filter(round=round_).exists()
    assert table_of(round_) is not None
    assert Match.objects.filter(round=round_).count() == 6


def test_no_table_before_the_deadline(league, make_players):
    from tests.factories import RoundFactory

    from .conftest import make_hands

    round_ = RoundFactory(league=league)
    make_hands(round_, make_players(3))
    assert table_of(round_) is None
    assert build_match_table(round_.pk) is None
    with pytest.raises(ScoringNotFound):
        revealed_round_table(round_)


def test_disqualified_hands_are_out_of_the_table(revealed_round, moderator):
    round_, players = revealed_round(4, build=False)
    hand = round_.hands.get(player=players[1])
    review_hand(actor=moderator, hand_id=hand.pk, action="disqualify", message="Rule 3.1")
    build_match_table(round_.pk)
    assert Match.objects.filter(round=round_).count() == 3  # 3 valid hands


def test_disqualifying_after_the_table_takes_its_matches_out_and_keeps_reports(revealed_round, moderator):
    round_, players = revealed_round(4)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    review_hand(actor=moderator, hand_id=match.hand_b.pk, action="disqualify", message="Illegal")
    assert matches_in_table(round_.pk).count() == 3
    assert MatchReport.objects.filter(match=match).exists()
    lines = compute_tally(round_.pk)
    assert [line.hand.number for line in lines] == [1, 3, 4]
    assert all(line.points == 0 and line.opponents == 2 for line in lines)
    with pytest.raises(ScoringConflict, match="disqualified"):
        report_match(reporter=players[0], match_id=match.pk, points_a=4, points_b=1)


@pytest.mark.parametrize(
    ("first", "second", "status", "points"),
    [
        ((6, 0), None, MatchStatus.REPORTED, (6, 0)),
        ((4, 1), (4, 1), MatchStatus.AGREED, (4, 1)),
        ((2, 2), (2, 2), MatchStatus.AGREED, (2, 2)),
        ((6, 0), (4, 1), MatchStatus.DISPUTED, (None, None)),
        ((1, 4), (0, 6), MatchStatus.DISPUTED, (None, None)),
    ],
)
def test_status_follows_the_two_players_reports(revealed_round, first, second, status, points):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 3)
    report_match(reporter=players[0], match_id=match.pk, points_a=first[0], points_b=first[1])
    if second:
        report_match(reporter=players[2], match_id=match.pk, points_a=second[0], points_b=second[1])
    match.refresh_from_db()
    assert (match.status, match.points_a, match.points_b) == (status, *points)


@pytest.mark.parametrize(("points_a", "points_b"), [(6, 6), (3, 3), (4, 2), (0, 0), (7, 0), ("x", 1)])
def test_impossible_results_are_refused_with_the_list(revealed_round, points_a, points_b):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    with pytest.raises(ScoringInputError) as error:
        report_match(reporter=players[0], match_id=match.pk, points_a=points_a, points_b=points_b)
    assert "6-0, 4-1, 2-2, 1-4, 0-6" in str(error.value) or "numbers" in str(error.value)
    assert not MatchReport.objects.exists()


def test_every_version_of_a_report_is_kept_and_a_repeat_stores_nothing(revealed_round):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    report_match(
        reporter=players[0], match_id=match.pk, points_a=6, points_b=0, comment="Lotus wins"
    )
    report_match(
        reporter=players[0], match_id=match.pk, points_a=6, points_b=0, comment="Lotus wins"
    )
    report_match(
        reporter=players[0], match_id=match.pk, points_a=4, points_b=1, comment="Missed a draw"
    )
    reports = list(MatchReport.objects.filter(match=match).order_by("version"))
    assert [(r.version, r.points_a, r.is_current) for r in reports] == [(1, 6, False), (2, 4, True)]


def test_a_third_players_report_is_a_verification_not_binding(revealed_round, make_players):
    round_, players = revealed_round(3)
    outsider = make_players(1, prefix="x")[0]
    match = match_between(round_, 1, 2)
    report = report_match(reporter=outsider, match_id=match.pk, points_a=6, points_b=0)
    assert report.side == MatchReport.Side.OTHER
    match.refresh_from_db()
    assert match.status == MatchStatus.UNREPORTED and match.points_a is None
    verify = report_match(reporter=players[2], match_id=match.pk, points_a=6, points_b=0)
    assert verify.side == MatchReport.Side.OTHER


def test_dispute_mails_both_players(revealed_round):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        report_match(reporter=players[1], match_id=match.pk, points_a=0, points_b=6)
    recipients = sorted(address for message in mail.outbox for address in message.to)
    assert recipients == sorted([players[0].email, players[1].email])
    assert "results differ" in mail.outbox[0].subject


def test_row_report_fills_the_players_matches_from_their_point_of_view(revealed_round):
    round_, players = revealed_round(5)
    outcome = report_row(player=players[2], round_id=round_.pk, row="3 | 6 0 X 2 ? | PT | Points")
    assert len(outcome.reports) == 3
    assert (match_between(round_, 1, 3).points_a, match_between(round_, 1, 3).points_b) == (0, 6)
    assert (match_between(round_, 2, 3).points_a, match_between(round_, 2, 3).points_b) == (6, 0)
    assert (match_between(round_, 3, 4).points_a, match_between(round_, 3, 4).points_b) == (2, 2)
    assert match_between(round_, 3, 5).status == MatchStatus.UNREPORTED


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("2 | 6 X 0 0 0", "your hand is number 03"),
        ("3 | 6 0 X 2", "5"),
        ("3 | 6 0 X 3 1", "3"),
        ("3 | ? ? X ? ?", "no result"),
        ("nonsense", ""),
    ],
)
def test_bad_rows_are_refused_with_a_message_and_store_nothing(revealed_round, row, message):
    round_, players = revealed_round(5)
    with pytest.raises(ScoringInputError) as error:
        report_row(player=players[2], round_id=round_.pk, row=row)
    assert message in str(error.value)
    assert not MatchReport.objects.exists()


def test_row_from_someone_without_a_hand_is_forbidden(revealed_round, make_players):
    round_, _ = revealed_round(3)
    with pytest.raises(ScoringForbidden):
        report_row(player=make_players(1, prefix="x")[0], round_id=round_.pk, row="1 | X 6 6")


def test_challenge_flow_upheld_sets_the_result_and_tells_everyone(revealed_round, make_players, moderator):
    round_, players = revealed_round(3)
    challenger = make_players(1, prefix="c")[0]
    plays_in_the_league(round_.league, challenger)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match.pk, points_a=6, points_b=0)
    with pytest.raises(ScoringInputError):
        challenge_match(challenger=challenger, match_id=match.pk, reason="  ")
    challenge = challenge_match(
        challenger=challenger, match_id=match.pk, reason="Karakas bounces it"
    )
    match.refresh_from_db()
    assert match.status == MatchStatus.CHALLENGED and (match.points_a, match.points_b) == (6, 0)
    with pytest.raises(ScoringConflict, match="already have an open challenge"):
        challenge_match(challenger=challenger, match_id=match.pk, reason="again")
    with pytest.raises(ScoringForbidden):
        resolve_challenge(
            actor=players[2], challenge_id=challenge.pk, decision="rejected", note="no"
        )
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        resolve_challenge(
            actor=moderator,
            challenge_id=challenge.pk,
            decision="upheld",
            points_a=4,
            points_b=1,
            note="Right",
        )
    match.refresh_from_db()
    assert (match.status, match.points_a, match.points_b) == (MatchStatus.SET, 4, 1)
    challenge.refresh_from_db()
    assert challenge.state == Challenge.State.UPHELD and challenge.resolved_by == moderator
    assert sorted(mail.outbox[0].to + mail.outbox[1].to + mail.outbox[2].to) == sorted(
        [players[0].email, players[1].email, challenger.email]
    )
    with pytest.raises(ScoringConflict, match="already upheld"):
        resolve_challenge(actor=moderator, challenge_id=challenge.pk, decision="rejected", note="x")


def test_challenge_rejected_needs_a_note_and_keeps_the_result(revealed_round, moderator):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=2, points_b=2)
    challenge = challenge_match(challenger=players[1], match_id=match.pk, reason="I win")
    with pytest.raises(ScoringInputError):
        resolve_challenge(actor=moderator, challenge_id=challenge.pk, decision="rejected")
    resolve_challenge(
        actor=moderator, challenge_id=challenge.pk, decision="rejected", note="Draw it is"
    )
    match.refresh_from_db()
    assert (match.status, match.points_a) == (MatchStatus.REPORTED, 2)


def test_nothing_to_challenge_on_an_unreported_match(revealed_round):
    round_, players = revealed_round(2)
    with pytest.raises(ScoringConflict, match="Nothing to challenge"):
        challenge_match(challenger=players[0], match_id=match_between(round_, 1, 2).pk, reason="x")


def test_moderator_result_outranks_reports_and_is_audited(revealed_round, moderator):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match.pk, points_a=0, points_b=6)
    with pytest.raises(ScoringForbidden):
        set_result(actor=players[0], match_id=match.pk, points_a=6, points_b=0)
    set_result(actor=moderator, match_id=match.pk, points_a=1, points_b=4, note="Checked")
    match.refresh_from_db()
    assert (match.status, match.points_a, match.points_b) == (MatchStatus.SET, 1, 4)
    entry = AuditEntry.objects.filter(action="match.result_set").get()
    assert entry.actor == moderator and entry.after["points_a"] == 1 and entry.note == "Checked"


def test_league_points_round_half_up_one_point_over_eight_opponents_is_13(revealed_round, moderator):
    round_, _players = revealed_round(9)
    match = match_between(round_, 1, 2)
    set_result(actor=moderator, match_id=match.pk, points_a=4, points_b=1)
    lines = {line.hand.number: line for line in compute_tally(round_.pk)}
    assert (lines[2].points, lines[2].opponents, lines[2].league_points) == (1, 8, 13)
    assert lines[1].league_points == 50
    assert [lines[n].rank for n in (1, 2, 3)] == [1, 2, 3]
    assert lines[9].rank == 3  # the seven hands on 0 share a rank


def test_finalize_refuses_with_the_list_of_open_items_unless_forced(revealed_round, moderator):
    round_, players = revealed_round(3)
    disputed = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=disputed.pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=disputed.pk, points_a=0, points_b=6)
    one_sided = match_between(round_, 1, 3)
    report_match(reporter=players[2], match_id=one_sided.pk, points_a=4, points_b=1)
    challenged = match_between(round_, 2, 3)
    report_match(reporter=players[1], match_id=challenged.pk, points_a=2, points_b=2)
    challenge_match(challenger=players[0], match_id=challenged.pk, reason="No")
    with pytest.raises(ScoringConflict) as error:
        finalize_round(actor=moderator, round_id=round_.pk)
    assert len(error.value.items) == 2
    assert "01 v 02 is disputed" in error.value.items[0]
    assert "02 v 03 is challenged" in error.value.items[1]
    round_.refresh_from_db()
    assert round_.state != RoundState.FINAL

    finalize_round(actor=moderator, round_id=round_.pk, force=True)
    round_.refresh_from_db()
    assert round_.state == RoundState.FINAL
    statuses = {
        (m.hand_a.number, m.hand_b.number): (m.status, m.points_a, m.points_b)
        for m in Match.objects.filter(round=round_).select_related("hand_a", "hand_b")
    }
    assert statuses == {
        (1, 2): ("final", 0, 0),  # still disputed: undetermined, a loss for both (6.3b)
        (1, 3): ("final", 4, 1),  # one side only, unchallenged: stands
        (2, 3): ("final", 2, 2),  # the challenge closed with the round, the result stands
    }
    assert Challenge.objects.get().state == Challenge.State.CLOSED
    stored = {
        t.hand.number: (t.points, t.league_points, t.rank) for t in HandTally.objects.select_related("hand")
    }
    assert stored == {1: (4, 200, 1), 2: (2, 100, 3), 3: (3, 150, 2)}
    assert RoundTally.objects.get(round=round_).is_current


def test_unreported_matches_become_zero_zero_and_reopening_gives_them_back(revealed_round, moderator):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    finalize_round(actor=moderator, round_id=round_.pk)
    match.refresh_from_db()
    assert (match.status, match.points_a, match.points_b) == (MatchStatus.FINAL, 0, 0)
    with pytest.raises(ScoringConflict, match="final"):
        report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    with pytest.raises(ScoringConflict, match="already final"):
        finalize_round(actor=moderator, round_id=round_.pk)
    with pytest.raises(ScoringInputError):
        reopen_round(actor=moderator, round_id=round_.pk, reason="")
    reopen_round(actor=moderator, round_id=round_.pk, reason="A late report")
    match.refresh_from_db()
    assert (match.status, match.points_a) == (MatchStatus.UNREPORTED, None)
    assert AuditEntry.objects.filter(action="round.reopened", note="A late report").exists()
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)


def test_finalize_before_the_deadline_is_a_conflict(league, moderator, make_players):
    from tests.factories import RoundFactory

    round_ = RoundFactory(league=league)
    with pytest.raises(ScoringConflict, match="still open"):
        finalize_round(actor=moderator, round_id=round_.pk)


def test_stored_tally_is_current_after_changes_and_matches_the_computed_one(revealed_round, monkeypatch):
    from scoring import tasks

    round_, players = revealed_round(4)
    cache.delete(
        tasks._tally_key(round_.pk)
    )  # a shared cache (CI's Redis) may remember an earlier round's key
    sent = []
    # The task runs here, whatever broker the settings name: what is tested is that one commit schedules it.
    monkeypatch.setattr(
        tasks.tally_round,
        "apply_async",
        lambda args, countdown: sent.append(args) or tasks.tally_round(*args),
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        report_row(player=players[0], round_id=round_.pk, row="1 | X 6 4 2")
    assert sent and sent[0] == [round_.pk]
    tally = RoundTally.objects.get(round=round_)
    assert tally.is_current
    stored = stored_tally(round_.pk, hands_in_table(round_.pk))
    computed = compute_tally(round_.pk)
    assert [(s.hand.pk, s.points, s.league_points, s.rank) for s in stored] == [
        (c.hand.pk, c.points, c.league_points, c.rank) for c in computed
    ]
    assert computed[0].points == 12 and computed[0].league_points == 400


def test_bonus_needs_a_reason_and_a_known_player(revealed_round, moderator):
    round_, players = revealed_round(2)
    with pytest.raises(ScoringInputError):
        award_bonus(
            actor=moderator, round_id=round_.pk, player_username="nobody", points=10, reason="x"
        )
    with pytest.raises(ScoringInputError):
        award_bonus(
            actor=moderator, round_id=round_.pk, player_username=players[0].username, points=10, reason=""
        )
    with pytest.raises(ScoringForbidden):
        award_bonus(
            actor=players[1], round_id=round_.pk, player_username=players[0].username, points=10, reason="Me"
        )
    award = award_bonus(
        actor=moderator,
        round_id=round_.pk,
        player_username=players[0].username.upper(),
        points=25,
        reason="7.7",
    )
    assert award.player == players[0]
    assert AuditEntry.objects.filter(action="round.bonus_awarded").exists()


def test_finalizing_freezes_hand_disqualification(revealed_round, moderator):
    from submissions.errors import HandConflict

    round_, _players = revealed_round(2)
    finalize_round(actor=moderator, round_id=round_.pk)
    hand = round_.hands.first()
    with pytest.raises(HandConflict, match="final"):
        review_hand(actor=moderator, hand_id=hand.pk, action="disqualify", message="late")
    hand.refresh_from_db()
    assert hand.status == HandStatus.SUBMITTED


def test_the_stored_table_equals_the_computed_one_with_ties_half_up_and_a_disqualified_hand(
    revealed_round, moderator
):
    """Rule 5.2 rounds a half up, never to the even neighbour (banker's rounding): with 8 opponents every odd
    number of points ends in exactly .5 (1 point = 12.5), and 12.5, 62.5 and 212.5 round down under banker's
    rounding but up here — in the SQL that stores the table and in the Python that computes it. Ten hands,
    the tenth disqualified after its matches were reported: those results count for nobody and the others
    have 8 opponents, not 9."""
    round_, players = revealed_round(10)
    report_row(player=players[0], round_id=round_.pk, row="1 | X 6 4 2 1 0 6 4 2 6")
    report_row(player=players[1], round_id=round_.pk, row="2 | 0 X 1 ? ? ? ? ? ? ?")
    report_row(player=players[4], round_id=round_.pk, row="5 | 4 ? ? ? X 6 6 ? 1 6")
    review_hand(actor=moderator, hand_id=round_.hands.get(number=10).pk, action="disqualify", message="3.1")
    RoundTally.objects.filter(round=round_).update(tallied_revision=None)
    assert store_tally(round_.pk) is True
    assert store_tally(round_.pk) is False  # already current
    stored = stored_tally(round_.pk, hands_in_table(round_.pk))
    computed = compute_tally(round_.pk)
    assert [(s.hand.number, s.points, s.opponents, s.league_points, s.rank) for s in stored] == [
        (c.hand.number, c.points, c.opponents, c.league_points, c.rank) for c in computed
    ]
    assert not HandTally.objects.filter(hand__number=10).exists()
    # (number, points, League points, rank), best first. Over 8 opponents: 25 -> 312.5 -> 313, 17 -> 212.5
    # -> 213, 5 -> 62.5 -> 63, 1 -> 12.5 -> 13 (banker's rounding: 312, 212, 62, 12). Equal League points share
    # a rank. Hand 1's 6 and hand 5's 6 against the disqualified hand 10 count for nobody.
    expected = [
        (1, 25, 313, 1),
        (5, 17, 213, 2),
        (6, 6, 75, 3),
        (9, 6, 75, 3),
        (3, 5, 63, 5),
        (4, 2, 25, 6),
        (2, 1, 13, 7),
        (8, 1, 13, 7),
        (7, 0, 0, 9),
    ]
    for table in (computed, stored):
        assert [(line.hand.number, line.points, line.league_points, line.rank) for line in table] == expected
        assert {line.opponents for line in table} == {8}
