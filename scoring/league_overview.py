"""The leagues list (/leagues/): for each league its leader or winners, rounds played of planned, its state,
the round open now (or the one being reported) with its deadline, and how many players it has.

Only what the league page already makes public: the standings count rounds past their deadline only, so a
round still open adds nothing about who entered it (its deadline is public on the round page). A constant
number of queries whatever the number of leagues, rounds and players: the standings of every league at once
(`standings_of_leagues`) and one query for the current rounds.
"""

from dataclasses import dataclass

from django.utils import timezone

from rounds.models import League, Round, RoundState

from .standings import standings_of_leagues

RUNNING = "running"
FINISHED = "finished"
TIEBREAK = (
    "tiebreak"  # complete, players tied for first, waiting for a tie-break round or a declaration (5.3a)
)


@dataclass(frozen=True)
class LeagueSummary:
    league: League
    state: str  # RUNNING, FINISHED or TIEBREAK
    rounds_played: int  # counted rounds past their deadline (tie-breaks apart)
    players: int  # players with a hand in those rounds (or a bonus)
    leaders: list  # standings rows ranked first (empty before any round is played)
    winners: list  # standings rows of the winners, once known
    tied: list  # standings rows tied for first, while waiting for a tie-break
    open_round: Round | None  # accepting hands now: the soonest deadline
    more_open: int  # further rounds of the league accepting hands now
    reporting_round: Round | None  # past its deadline, not final yet: results being reported

    @property
    def top_points(self):
        rows = self.winners or self.leaders
        return rows[0].league_points if rows else None


def _state(league, standings):
    if standings.winner_rows or league.state == League.State.FINISHED:
        return FINISHED
    if standings.tied_for_first:
        return TIEBREAK
    return RUNNING


def league_summaries(leagues=None, now=None):
    """[LeagueSummary] for `leagues` (default: every league, newest first)."""
    now = now or timezone.now()
    if leagues is None:
        leagues = League.objects.order_by("-created_at", "-pk")
    leagues = list(leagues)
    standings = standings_of_leagues(leagues, now)
    current = list(
        # Open (accepting hands, or past its deadline) or revealed: never a draft, never final.
        Round.objects.filter(
            league_id__in=[league.pk for league in leagues], state__in=[RoundState.OPEN, RoundState.REVEALED]
        ).order_by("deadline", "pk")
    )
    summaries = []
    for league in leagues:
        table = standings[league.pk]
        own = [round_ for round_ in current if round_.league_id == league.pk]
        for round_ in own:
            round_.league = league  # no query for its code
        accepting = [round_ for round_ in own if round_.accepts_hands_at(now)]
        reporting = [round_ for round_ in own if not round_.accepts_hands_at(now)]
        state = _state(league, table)
        summaries.append(
            LeagueSummary(
                league=league,
                state=state,
                rounds_played=len(table.rounds),
                players=len(table.rows),
                leaders=table.leaders if table.rows else [],
                winners=table.winner_rows,
                tied=table.tied_for_first if state == TIEBREAK else [],
                open_round=accepting[0] if accepting else None,
                more_open=max(len(accepting) - 1, 0),
                reporting_round=reporting[-1] if reporting else None,
            )
        )
    return summaries
