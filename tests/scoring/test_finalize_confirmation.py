"""Finalizing on the moderator's page says what it will do and needs an explicit tick (no JavaScript needed);
the API's finalize is a contract and stays as it is."""

import pytest

from scoring.selectors import finalization_consequences, moderator_queue, results_table
from scoring.services.decisions import challenge_match
from scoring.services.finalization import open_items
from scoring.services.reports import report_match

from .conftest import match_between, plays_in_the_league

pytestmark = pytest.mark.django_db


def page_of(client, round_):
    return client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()


def test_the_page_says_what_finalizing_does_before_it_is_done(
    revealed_round, client, moderator, make_players
):
    round_, players = revealed_round(4)  # 6 matches
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0
    )
    both = match_between(round_, 1, 3)
    report_match(reporter=players[0], match_id=both.pk, points_a=6, points_b=0)
    report_match(reporter=players[2], match_id=both.pk, points_a=2, points_b=2)  # disputed
    outsider = make_players(1, prefix="x")[0]
    plays_in_the_league(round_.league, outsider)
    challenge_match(challenger=outsider, match_id=match_between(round_, 1, 2).pk, reason="Mox")
    client.force_login(moderator)
    html = page_of(client, round_)
    assert "4 matches nobody reported become 0-0 (rule 6.3b)." in html
    assert "1 disputed match becomes 0-0 and 1 open challenge is closed, but only if you tick" in html
    assert "The table freezes: no result can change until you reopen the round." in html
    assert "4 players are told their PT, League points and rank" in html
    assert 'name="confirm" id="finalize-confirm" required' in html


def test_the_sentences_for_a_round_with_every_result_in(revealed_round):
    round_, players = revealed_round(2)
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=4, points_b=1
    )
    lines = finalization_consequences(
        results_table(round_), moderator_queue(round_.pk), open_items(round_.pk)
    )
    assert lines == [
        "Every match has a result: none becomes 0-0 by rule 6.3b.",
        "1 match reported by one side keeps that report.",
        "The table freezes: no result can change until you reopen the round.",
        "2 players are told their PT, League points and rank (on the site and by e-mail, as each chose).",
    ]


def test_without_the_tick_nothing_is_finalized_and_the_page_says_why(revealed_round, client, moderator):
    round_, _players = revealed_round(3)
    client.force_login(moderator)
    refused = client.post(f"/moderate/rounds/{round_.pk}/results/", {"action": "finalize"})
    assert refused.status_code == 200
    html = refused.content.decode()
    assert "Nothing was finalized: tick “I have checked the table and what finalizing does” first." in html
    assert "is-invalid" in html
    round_.refresh_from_db()
    assert round_.state != "final"

    done = client.post(
        f"/moderate/rounds/{round_.pk}/results/", {"action": "finalize", "confirm": "on"}, follow=True
    )
    assert "is final: the table is frozen and published" in done.content.decode()
    round_.refresh_from_db()
    assert round_.state == "final"


def test_the_tick_is_kept_when_finalizing_is_refused_for_open_items(revealed_round, client, moderator):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match.pk, points_a=2, points_b=2)
    client.force_login(moderator)
    html = client.post(
        f"/moderate/rounds/{round_.pk}/results/", {"action": "finalize", "confirm": "on"}
    ).content.decode()
    assert "open disputes or challenges" in html
    assert 'id="finalize-confirm" required checked' in html


def test_the_api_finalize_needs_no_tick(revealed_round, api_client, moderator):
    round_, _players = revealed_round(2)
    api_client.force_authenticate(moderator)
    assert api_client.post(f"/api/rounds/{round_.pk}/finalize/", {}, format="json").status_code == 200
