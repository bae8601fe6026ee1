"""The results pages: matrix, row box, match page forms, the moderator's queue; bounded queries; 404 before the
reveal."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Challenge, MatchReport
from scoring.services.reports import report_match, report_row
from tests.factories import RoundFactory

from .conftest import make_hands, match_between, plays_in_the_league

pytestmark = pytest.mark.django_db


def test_pages_are_404_before_the_reveal(league, make_players, client, moderator):
    round_ = RoundFactory(league=league)
    players = make_players(2)
    make_hands(round_, players)
    client.force_login(moderator)
    # The public results page says when they open (tests/scoring/test_results_not_open.py); the rest is 404.
    assert client.get(f"/rounds/{round_.pk}/results/").status_code == 200
    assert client.get(f"/moderate/rounds/{round_.pk}/results/").status_code == 404


def test_results_page_shows_the_matrix_with_marks_and_the_players_row(revealed_round, client):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match.pk, points_a=4, points_b=1)
    client.force_login(players[0])
    page = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "Provisional" in page
    assert 'aria-label="disputed">!</span>' in page
    assert f'href="/matches/{match.pk}/"' in page
    assert "1 | X ? ? | PT | Points" in page  # the row box, ready to edit
    assert "1 disputed" in page
    mine = client.get(f"/rounds/{round_.pk}/results/?rows=mine").content.decode()
    assert mine.count('class="phm-my-row"') == 2  # matrix row and ranking row
    assert "Forum p2" in page and mine.count("Forum p2") < page.count("Forum p2")


def test_pasting_a_row_reports_it_and_a_bad_row_keeps_the_text(revealed_round, client):
    round_, players = revealed_round(3)
    client.force_login(players[1])
    bad = client.post(f"/rounds/{round_.pk}/results/", {"row": "2 | 6 X 5"})
    assert bad.status_code == 200
    body = bad.content.decode()
    assert "2 | 6 X 5" in body and "is-invalid" in body
    assert not MatchReport.objects.exists()
    good = client.post(f"/rounds/{round_.pk}/results/", {"row": "2 | 6 X 4 | PT | Points"}, follow=True)
    assert "Your row is reported: 2 matches." in good.content.decode()
    assert MatchReport.objects.count() == 2


def test_match_page_report_verify_and_challenge(revealed_round, client, make_players):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    client.force_login(players[1])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Report your result" in page and 'value="0-6"' in page  # b's 6-0 is 0-6 in a-b order
    response = client.post(
        f"/matches/{match.pk}/", {"action": "report", "result": "0-6", "comment": "Lotus"}, follow=True
    )
    assert "Your result is saved." in response.content.decode()
    assert MatchReport.objects.get().side == "b"
    empty = client.post(f"/matches/{match.pk}/", {"action": "report", "comment": "kept text"})
    assert "Choose a result." in empty.content.decode() and "kept text" in empty.content.decode()
    outsider, league_player = make_players(2, prefix="x")
    client.force_login(outsider)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    # Anyone may verify (6.3a); only the league's players and moderators challenge (6.3c): no button, the why.
    assert "Verify or propose a result" in page
    assert 'value="challenge"' not in page and "Only the players of League 45" in page
    refused = client.post(f"/matches/{match.pk}/", {"action": "challenge", "reason": "Mox"})
    assert "Only the players of League 45" in refused.content.decode()
    assert not Challenge.objects.exists()
    plays_in_the_league(round_.league, league_player)
    client.force_login(league_player)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'value="challenge"' in page and "Only the players of" not in page
    no_reason = client.post(f"/matches/{match.pk}/", {"action": "challenge", "reason": ""})
    assert "Give the reason for the challenge." in no_reason.content.decode()
    client.post(f"/matches/{match.pk}/", {"action": "challenge", "reason": "Mox"})
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Challenged" in page and "“Mox”" in page


def test_moderator_page_lists_the_queue_and_finalizes(revealed_round, client, moderator):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match.pk, points_a=2, points_b=2)
    client.force_login(moderator)
    page = client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()
    assert "Match 01 v 02 is disputed." in page
    refused = client.post(f"/moderate/rounds/{round_.pk}/results/", {"action": "finalize", "confirm": "on"})
    assert "open disputes or challenges" in refused.content.decode()
    done = client.post(
        f"/moderate/rounds/{round_.pk}/results/",
        {"action": "finalize", "force": "on", "confirm": "on"},
        follow=True,
    )
    assert "is final" in done.content.decode()
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "Final" in results and "Report your row" not in results


def test_players_cannot_use_the_moderator_page(revealed_round, client):
    round_, players = revealed_round(2)
    client.force_login(players[0])
    assert client.get(f"/moderate/rounds/{round_.pk}/results/").status_code in (403, 404)


def test_results_page_queries_do_not_grow_with_hands(revealed_round, client, make_players):
    counts = []
    for size in (5, 40):
        round_, players = revealed_round(size)
        report_row(
            player=players[0], round_id=round_.pk, row="1 | X " + " ".join(["6"] * (size - 1))
        )
        client.force_login(players[0])
        client.get(f"/rounds/{round_.pk}/results/")
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(f"/rounds/{round_.pk}/results/")
        counts.append(len(ctx.captured_queries))
        assert response.status_code == 200
    assert counts[0] == counts[1], counts


def test_moderator_page_queries_do_not_grow_with_hands(revealed_round, client, moderator):
    counts = []
    for size in (5, 40):
        round_, _players = revealed_round(size)
        client.force_login(moderator)
        client.get(f"/moderate/rounds/{round_.pk}/results/")
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(f"/moderate/rounds/{round_.pk}/results/")
        counts.append(len(ctx.captured_queries))
        assert response.status_code == 200
    assert counts[0] == counts[1], counts


def test_match_page_queries_do_not_grow_with_hands_or_reports(
    catalog_index, revealed_round, client, moderator, make_players
):
    counts = []
    for size in (3, 20):
        round_, players = revealed_round(size)
        match = match_between(round_, 1, 2)
        for points in ((6, 0), (4, 1), (2, 2))[: 1 if size == 3 else 3]:
            report_match(
                reporter=players[0], match_id=match.pk, points_a=points[0], points_b=points[1]
            )
        client.force_login(moderator)
        client.get(f"/matches/{match.pk}/")
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/matches/{match.pk}/").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts
