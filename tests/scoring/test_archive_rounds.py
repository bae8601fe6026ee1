"""Archive-only and imported rounds: listed on the round, results, league, player and "My PHM"
pages, never counted in the standings (pages, API, exports, the standings of several leagues at once)."""

import pytest

from scoring.services.reports import report_match
from scoring.standings import league_standings, standings_of_leagues

from .conftest import match_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted_and_archive(league, revealed_round, make_players):
    """Round 1 counts: 01 beats 02 (6-0). Round 2 is imported and archive-only: 02 beats 01."""
    players = make_players(2)
    counted, _ = revealed_round(2, players=players)
    report_match(
        reporter=players[0], match_id=match_between(counted, 1, 2).pk, points_a=6, points_b=0
    )
    archive, _ = revealed_round(2, players=players)
    report_match(
        reporter=players[1], match_id=match_between(archive, 1, 2).pk, points_a=0, points_b=6
    )
    archive.title = "Old forum round"
    archive.counts_in_standings = False
    archive.imported_fingerprint = "f" * 64
    archive.save()
    return league, players, counted, archive


def test_standings_count_only_the_counted_round(counted_and_archive):
    league, players, counted, archive = counted_and_archive
    standings = league_standings(league)
    assert standings.rounds == [counted] and standings.archive_rounds == [archive]
    rows = {row.player.username: row for row in standings.rows}
    assert rows[players[0].username].rounds == {counted.pk: 600}
    assert rows[players[1].username].league_points == 0
    several = standings_of_leagues([league])[league.pk]
    assert several.rounds == [counted] and several.archive_rounds == [archive]
    assert [row.league_points for row in several.rows] == [row.league_points for row in standings.rows]


def test_counting_it_again_changes_the_standings(counted_and_archive):
    league, _players, counted, archive = counted_and_archive
    archive.counts_in_standings = True
    archive.save()
    standings = league_standings(league)
    assert standings.rounds == [counted, archive] and standings.archive_rounds == []
    assert {row.league_points for row in standings.rows} == {600}


def test_standings_api_exports_and_page(counted_and_archive, client):
    league, _players, counted, archive = counted_and_archive
    body = client.get(f"/api/leagues/{league.pk}/standings/").json()
    assert [row["rounds"] for row in body] == [{str(counted.pk): 600}, {str(counted.pk): 0}]
    csv = client.get(f"/leagues/{league.pk}/export/standings.csv").content.decode()
    assert counted.code in csv and archive.code not in csv
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert (
        "Archive-only rounds" in page and "Old forum round" in page and "not counted in the standings" in page
    )


def test_player_page_lists_both_rounds_and_totals_only_the_counted(counted_and_archive, client):
    _league, players, counted, archive = counted_and_archive
    from stats.player_selectors import player_page

    page = player_page(players[1])
    assert [entry.round for entry in page.entries] == [counted, archive]
    assert [entry.archive_only for entry in page.entries] == [False, True]
    (total,) = page.leagues
    assert (total.rounds, total.league_points) == (1, 0)
    html = client.get(f"/players/{players[1].username}/").content.decode()
    assert counted.code in html and archive.code in html and "Archive only" in html


def test_round_and_results_pages_say_archive_only_and_imported(counted_and_archive, client):
    league, _players, counted, archive = counted_and_archive
    for url in (f"/rounds/{archive.pk}/", f"/rounds/{archive.pk}/results/"):
        page = client.get(url).content.decode()
        assert f"Archive only:</strong> imported from the forum, not counted in {league.name}" in page, url
    archive.counts_in_standings = True
    archive.save()
    for url in (f"/rounds/{archive.pk}/", f"/rounds/{archive.pk}/results/"):
        page = client.get(url).content.decode()
        assert "Imported from the forum." in page and "Archive only" not in page, url
    for url in (f"/rounds/{counted.pk}/", f"/rounds/{counted.pk}/results/"):
        page = client.get(url).content.decode()
        assert "Imported from the forum" not in page and "Archive only" not in page, url
