"""Races on PostgreSQL: a bonus that changes who leads, awarded while the league's deciding round is being
finalized. Both lock their round first and the league row last (settle_computed_winners), so whichever commits
second sees the other: the stored winners are always those the final standings give."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.models import League, Round
from rounds.services.leagues import create_league
from scoring.models import BonusAward
from scoring.services.bonus import award_bonus
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from scoring.standings import league_standings
from tests.factories import RoundFactory
from tests.rounds.test_round_races import on_postgres, run_together  # noqa: F401  (fixture)

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db(transaction=True)


def revealed(league, players):
    round_ = RoundFactory(league=league)
    make_hands(round_, players)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    return round_


def test_a_bonus_racing_the_deciding_finalization_leaves_the_winner_the_standings_give(
    on_postgres,  # noqa: F811
    make_players,
    moderator,
):
    for attempt in range(4):
        league = create_league(actor=moderator, name=f"Race League {'ABCD'[attempt]}", rounds_planned=2)
        players = make_players(2, prefix=f"r{attempt}p")
        first = revealed(league, players)
        report_match(reporter=players[0], match_id=match_between(first, 1, 2).pk, points_a=6, points_b=0)
        finalize_round(actor=moderator, round_id=first.pk)
        second = revealed(league, players)
        report_match(reporter=players[1], match_id=match_between(second, 1, 2).pk, points_a=1, points_b=4)
        # Without the bonus 01 leads (600 + 100 against 0 + 400); with it 02 does (1,400).
        results = run_together(
            [
                lambda second=second: finalize_round(actor=moderator, round_id=second.pk),
                lambda first=first, player=players[1]: award_bonus(
                    actor=moderator,
                    round_id=first.pk,
                    player_username=player.username,
                    points=1000,
                    reason="Rule 7.7",
                ),
            ]
        )
        assert isinstance(results[0], Round) and isinstance(results[1], BonusAward), results
        league.refresh_from_db()
        assert [row.player for row in league_standings(league).computed_winners] == [players[1]]
        assert list(league.winners.all()) == [players[1]] and league.state == League.State.FINISHED
