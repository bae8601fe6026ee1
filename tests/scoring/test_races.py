"""Races on PostgreSQL: both players reporting at once, reports against finalization, concurrent table builds
and tallies. Row locks (round shared, match exclusive; finalization takes the round exclusively) keep every
outcome consistent."""

import pytest
from django.db.models import F

from rounds.models import Round, RoundState
from scoring.models import Match, MatchReport, RoundTally
from scoring.services.errors import ScoringConflict
from scoring.services.finalization import finalize_round
from scoring.services.reports import RowReport, agree_with_opponent, report_match, report_row
from scoring.services.table import build_match_table
from scoring.services.tally import compute_tally, hands_in_table, store_tally, stored_tally
from tests.rounds.test_round_races import on_postgres, run_together  # noqa: F401  (fixture)

from .conftest import match_between

pytestmark = pytest.mark.django_db(transaction=True)


def test_both_players_report_at_once_and_the_status_sees_both(on_postgres, revealed_round):  # noqa: F811
    for attempt in range(5):
        round_, players = revealed_round(2)
        match = match_between(round_, 1, 2)
        agree = attempt % 2 == 0
        results = run_together(
            [
                lambda players=players, match=match: report_match(
                    reporter=players[0], match_id=match.pk, points_a=6, points_b=0
                ),
                lambda players=players, match=match, agree=agree: report_match(
                    reporter=players[1],
                    match_id=match.pk,
                    points_a=6 if agree else 4,
                    points_b=0 if agree else 1,
                ),
            ]
        )
        assert all(isinstance(result, MatchReport) for result in results), results
        match.refresh_from_db()
        # Whoever committed second saw the first's report: never a lost "reported" status.
        assert match.status == ("agreed" if agree else "disputed")
        assert MatchReport.objects.filter(match=match, is_current=True).count() == 2


def test_an_agreement_racing_the_opponents_change_never_agrees_to_what_was_not_read(
    on_postgres,  # noqa: F811
    revealed_round,
):
    for _attempt in range(4):
        round_, players = revealed_round(2)
        match = match_between(round_, 1, 2)
        read = report_match(reporter=players[1], match_id=match.pk, points_a=1, points_b=4)
        results = run_together(
            [
                lambda players=players, match=match, read=read: agree_with_opponent(
                    player=players[0], match_id=match.pk, report_id=read.pk
                ),
                lambda players=players, match=match: report_match(
                    reporter=players[1], match_id=match.pk, points_a=0, points_b=6
                ),
            ]
        )
        agreed, changed = results
        assert isinstance(changed, MatchReport), results
        match.refresh_from_db()
        if isinstance(agreed, MatchReport):  # it came first: the result read, then the opponent changed it
            assert (agreed.points_a, agreed.points_b) == (1, 4) and match.status == "disputed"
        else:  # it came second: refused, nothing saved
            assert isinstance(agreed, ScoringConflict), results
            assert not MatchReport.objects.filter(match=match, reporter=players[0]).exists()
            assert match.status == "reported"


def test_many_rows_at_once_lose_nothing(on_postgres, revealed_round):  # noqa: F811
    round_, players = revealed_round(6)
    rows = [
        "1 | X 6 6 6 6 6",
        "2 | 0 X 6 6 6 6",
        "3 | 0 0 X 6 6 6",
        "4 | 0 0 0 X 6 6",
        "5 | 0 0 0 0 X 6",
        "6 | 0 0 0 0 0 X",
    ]
    results = run_together(
        [
            (lambda player=player, row=row: report_row(player=player, round_id=round_.pk, row=row))
            for player, row in zip(players, rows, strict=True)
        ]
    )
    assert all(isinstance(result, RowReport) for result in results), results
    statuses = set(Match.objects.filter(round=round_).values_list("status", flat=True))
    assert statuses == {"agreed"}
    lines = {line.hand.number: line.points for line in compute_tally(round_.pk)}
    assert lines == {1: 30, 2: 24, 3: 18, 4: 12, 5: 6, 6: 0}


def test_reports_racing_finalization_are_either_in_or_refused(on_postgres, revealed_round, moderator):  # noqa: F811
    round_, players = revealed_round(4)
    matches = [match_between(round_, 1, n) for n in (2, 3, 4)]

    def report(match):
        return lambda: report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)

    jobs = [report(match) for match in matches] + [
        lambda: finalize_round(actor=moderator, round_id=round_.pk, force=True)
    ]
    results = run_together(jobs)
    assert isinstance(results[-1], Round), results
    for match, result in zip(matches, results[:3], strict=True):
        match.refresh_from_db()
        if isinstance(result, MatchReport):
            assert (match.points_a, match.status) == (6, "final")  # committed before: finalized with it
        else:
            assert isinstance(result, ScoringConflict), result
            assert (match.points_a, match.status) == (0, "final")  # refused after: 6.3b zero
    round_.refresh_from_db()
    assert round_.state == RoundState.FINAL
    tally = RoundTally.objects.get(round=round_)
    assert tally.is_current


def test_concurrent_table_builds_create_each_pair_once(on_postgres, revealed_round):  # noqa: F811
    round_, _ = revealed_round(12, build=False)
    results = run_together([lambda: build_match_table(round_.pk) for _ in range(6)])
    assert all(isinstance(result, RoundTally) for result in results), results
    assert Match.objects.filter(round=round_).count() == 66
    assert RoundTally.objects.filter(round=round_).count() == 1


def test_concurrent_tallies_store_the_newest(on_postgres, revealed_round):  # noqa: F811
    round_, players = revealed_round(5)
    report_row(player=players[0], round_id=round_.pk, row="1 | X 6 6 6 6")
    RoundTally.objects.filter(round=round_).update(
        revision=F("revision") + 1
    )  # stale, as if the task was lost
    results = run_together([lambda: store_tally(round_.pk) for _ in range(4)])
    assert results.count(True) >= 1 and all(result in (True, False) for result in results), results
    tally = RoundTally.objects.get(round=round_)
    assert tally.is_current
    stored = stored_tally(round_.pk, hands_in_table(round_.pk))
    assert stored[0].points == 24


def test_a_report_racing_a_replacement_is_superseded_or_is_the_new_result(
    on_postgres,  # noqa: F811
    revealed_round,
    moderator,
):
    """Rule 4.2a: a player re-reports while the moderator replaces the opponent's hand. Both lock the round
    shared, then its tally row, then the match: the report lands before the replacement (and is superseded:
    the match needs a new result) or after it (and is that new result) — never a stale result that counts."""
    from submissions.services import review as hand_services

    similar = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet"]  # the hand's cards less one (4.2a)
    for _attempt in range(4):
        round_, players = revealed_round(2)
        match = match_between(round_, 1, 2)
        report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
        hand = round_.hands.get(number=2)
        results = run_together(
            [
                lambda match=match, players=players: report_match(
                    reporter=players[1], match_id=match.pk, points_a=6, points_b=0
                ),
                lambda hand=hand: hand_services.review_hand(
                    actor=moderator, hand_id=hand.pk, action="replace", cards=similar
                ),
            ]
        )
        assert not [result for result in results if isinstance(result, Exception)], results
        match.refresh_from_db()
        current = list(
            MatchReport.objects.filter(match=match, is_current=True).values_list("reporter", flat=True)
        )
        assert MatchReport.objects.filter(match=match).count() == 2  # nothing deleted
        if current:  # the report came second: it is the new result
            assert current == [players[1].pk]
            assert (match.status, match.points_a, match.needs_new_result) == ("reported", 6, False)
        else:  # the report came first: superseded with the other
            assert (match.status, match.points_a, match.needs_new_result) == ("needs_result", None, True)
