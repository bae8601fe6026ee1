"""League standings (rules 5.1-5.3a, 6.2, 7.7): League points per round and in total, bonus points apart,
shared ranks, provisional rounds marked, ties for first, tie-break rounds and declared winners.

Only rounds past their deadline count: a round still open says nothing about who entered it. An archive-only
round (`Round.counts_in_standings` off: imported from the forum) never counts; the league page lists it apart
(`LeagueStandings.archive_rounds`). Every figure
comes from a constant number of queries whatever the number of rounds and players.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils import timezone

from rounds.models import League, Round, RoundState
from submissions.models import Hand, HandStatus
from submissions.selectors import player_display_name

from .models import BonusAward
from .outcomes import league_points, shared_ranks
from .services.tally import points_by_hand_in_rounds


@dataclass
class StandingRow:
    player: object
    name: str
    rounds: dict  # round id -> League points (0 when the player did not play it)
    played: set
    bonus_points: int = 0
    bonus_reasons: list = field(default_factory=list)
    rank: int = 0
    cells: list = field(default_factory=list)  # [(round, League points or None when not played)], for pages
    tiebreak_points: int | None = None  # League points summed over the final tie-break rounds (5.3a)
    tiebreak_cells: list = field(default_factory=list)  # League points per final tie-break round, in order
    winner: bool = False
    bonus_by_round: dict = field(default_factory=dict)  # round id -> bonus League points awarded in it

    @property
    def round_points(self):
        return sum(self.rounds.values())

    @property
    def league_points(self):
        """The total, bonus included (docs/api.md)."""
        return self.round_points + self.bonus_points


@dataclass
class LeagueStandings:
    league: object
    rounds: list  # counted rounds, by number
    rows: list  # best first
    tiebreak_rounds: list
    tiebreak_points: dict  # player id -> League points summed over final tie-break rounds
    winners: list  # declared by a moderator (empty when the league's stored winners were computed)
    computed_winners: list = field(default_factory=list)  # rows: who won by the standings (5.3, 5.3a)
    still_tied: list = field(default_factory=list)  # rows still sharing the lead after the tie-breaks
    archive_rounds: list = field(default_factory=list)  # past archive-only rounds: listed, never counted

    @property
    def provisional(self):
        return any(round_.state != RoundState.FINAL for round_ in self.rounds)

    @property
    def complete(self):
        """Every planned round is played and final: the league can have a winner (5.3)."""
        return not self.provisional and len(self.rounds) >= self.league.rounds_planned

    @property
    def leaders(self):
        return [row for row in self.rows if row.rank == 1]

    @property
    def lead_shared(self):
        """More than one player has the most League points (bonus included): only then do tie-break rounds
        decide anything (5.3a). A bonus after a tie-break round can end the shared lead."""
        top = self.rows[0].league_points if self.rows else None
        return sum(1 for row in self.rows if row.league_points == top) > 1

    @property
    def final_tiebreak_rounds(self):
        return [round_ for round_ in self.tiebreak_rounds if round_.state == RoundState.FINAL]

    @property
    def tied_for_first(self):
        """Rule 5.3a: the players sharing the most League points at the end of the league, and still level
        after the final tie-break rounds played so far: who a further tie-break round is for. Empty once the
        league has its winners."""
        if not self.complete or self.winner_rows:
            return []
        return self.still_tied if len(self.still_tied) > 1 else []

    @property
    def joint_winners(self):
        return len(self.winner_rows) > 1

    @property
    def winner_rows(self):
        """Who won: the winners a moderator declared, else those the standings give (5.3, 5.3a) — the sole
        leader of a complete league, the leader after its tie-break rounds (played in order), or the players
        still level after the number of tie-break rounds the moderator allowed (joint winners)."""
        if self.winners:
            declared = {user.pk for user in self.winners}
            return [row for row in self.rows if row.player.pk in declared]
        return self.computed_winners

    def chart_series(self, top=8):
        """(name, [League points per round]) for the top players: what the standings chart draws."""
        return [
            (
                row.name,
                [row.rounds.get(round_.pk) if round_.pk in row.played else None for round_ in self.rounds],
            )
            for row in self.rows[:top]
        ]

    def cumulative_series(self, top=8):
        """(name, [League points after each round]) for the top players: the race the standings tell, each
        round's League points plus the bonus awarded in it, so the last point is the table's total. A round a
        player did not play adds 0 (5.2)."""
        series = []
        for row in self.rows[:top]:
            total, values = 0, []
            for round_ in self.rounds:
                total += row.rounds.get(round_.pk, 0) + row.bonus_by_round.get(round_.pk, 0)
                values.append(total)
            series.append((row.name, values))
        return series


def _past_rounds(league_ids, now):
    """The leagues' rounds past their deadline, archive-only ones included, by league and number (one
    query)."""
    return list(
        Round.objects.filter(league_id__in=league_ids)
        .filter(
            Q(state__in=[RoundState.REVEALED, RoundState.FINAL]) | Q(state=RoundState.OPEN, deadline__lte=now)
        )
        .select_related("league")
        .order_by("league_id", "number")
    )


def _split(rounds):
    """(regular, tie-break, archive-only) of past rounds: only the first two count in the standings."""
    counted = [r for r in rounds if r.counts_in_standings]
    return (
        [r for r in counted if not r.tiebreak],
        [r for r in counted if r.tiebreak],
        [r for r in rounds if not r.counts_in_standings],
    )


def counted_rounds(league, now=None):
    """The league's rounds past their deadline that count in its standings, tie-breaks apart: (regular,
    tie-break), by number (one query). Archive-only rounds are left out."""
    regular, tiebreaks, _ = _split(_past_rounds([league.pk], now or timezone.now()))
    return regular, tiebreaks


def round_league_points(rounds):
    """{round id: {player id: (League points, hand)}} for every valid numbered or past-deadline hand (two
    queries for the hands and three for the points, whatever the number of rounds)."""
    round_ids = [round_.pk for round_ in rounds]
    hands = list(
        Hand.objects.filter(round_id__in=round_ids)
        .exclude(status=HandStatus.DISQUALIFIED)
        .select_related("player__profile")
    )
    totals = points_by_hand_in_rounds(round_ids) if round_ids else {}
    by_round = defaultdict(list)
    for hand in hands:
        by_round[hand.round_id].append(hand)
    result = {}
    for round_id, round_hands in by_round.items():
        opponents = max(len(round_hands) - 1, 0)
        result[round_id] = {
            hand.player_id: (league_points(totals.get(hand.pk, 0), opponents), hand) for hand in round_hands
        }
    return result


def league_standings(league, now=None):
    rounds, tiebreaks, archive = _split(_past_rounds([league.pk], now or timezone.now()))
    points = round_league_points(rounds + tiebreaks)
    awards = (
        BonusAward.objects.counted()
        .filter(round_id__in=[round_.pk for round_ in rounds])
        .select_related("player__profile", "round__league")
    )
    standings = _standings(league, rounds, tiebreaks, points, awards, list(league.winners.all()))
    standings.archive_rounds = archive
    return standings


def standings_of_leagues(leagues, now=None):
    """{league id: LeagueStandings} for several leagues at once, as `league_standings` gives them one at a
    time: eight queries whatever the number of leagues, rounds and players (the "My PHM" page)."""
    leagues = list(leagues)
    if not leagues:
        return {}
    now = now or timezone.now()
    past = _past_rounds([league.pk for league in leagues], now)
    archive = [round_ for round_ in past if not round_.counts_in_standings]
    past = [round_ for round_ in past if round_.counts_in_standings]
    points = round_league_points(past)
    counted_ids = [round_.pk for round_ in past if not round_.tiebreak]
    awards = defaultdict(list)
    for award in (
        BonusAward.objects.counted()
        .filter(round_id__in=counted_ids)
        .select_related("player__profile", "round__league")
    ):
        awards[award.round.league_id].append(award)
    winners = defaultdict(list)
    for link in League.winners.through.objects.filter(
        league_id__in=[league.pk for league in leagues]
    ).select_related("user"):
        winners[link.league_id].append(link.user)
    result = {}
    for league in leagues:
        own = [round_ for round_ in past if round_.league_id == league.pk]
        rounds = [round_ for round_ in own if not round_.tiebreak]
        tiebreaks = [round_ for round_ in own if round_.tiebreak]
        result[league.pk] = _standings(
            league, rounds, tiebreaks, points, awards[league.pk], winners[league.pk]
        )
        result[league.pk].archive_rounds = [round_ for round_ in archive if round_.league_id == league.pk]
    return result


def _standings(league, rounds, tiebreaks, points, awards, winners):
    rows = {}

    def row_for(player):
        if player.pk not in rows:
            rows[player.pk] = StandingRow(
                player, player_display_name(player), {r.pk: 0 for r in rounds}, set()
            )
        return rows[player.pk]

    for round_ in rounds:
        for value, hand in points.get(round_.pk, {}).values():
            row = row_for(hand.player)
            row.rounds[round_.pk] = value
            row.played.add(round_.pk)
    for award in awards:
        row = row_for(award.player)
        row.bonus_points += award.points
        row.bonus_by_round[award.round_id] = row.bonus_by_round.get(award.round_id, 0) + award.points
        by_self = "; awarded by themselves, the league's only moderator" if award.self_awarded else ""
        row.bonus_reasons.append(f"{award.round.code}: {award.points:+d} ({award.reason}{by_self})")
    ordered = sorted(rows.values(), key=lambda row: (-row.league_points, row.name.lower()))
    for row, rank in zip(ordered, shared_ranks([row.league_points for row in ordered]), strict=True):
        row.rank = rank
        row.cells = [(r, row.rounds[r.pk] if r.pk in row.played else None) for r in rounds]
    final_tiebreaks = [round_ for round_ in tiebreaks if round_.state == RoundState.FINAL]
    tiebreak_points = defaultdict(int)
    for round_ in final_tiebreaks:
        for player_id, (value, _) in points.get(round_.pk, {}).items():
            tiebreak_points[player_id] += value
    for player_id, value in tiebreak_points.items():
        if player_id in rows:
            rows[player_id].tiebreak_points = value
    leaders = [row for row in ordered if row.rank == 1]
    still_tied = leaders
    if len(leaders) > 1:
        ordered, still_tied = _rank_by_tiebreaks(ordered, leaders, final_tiebreaks, points)
    complete = all(round_.state == RoundState.FINAL for round_ in rounds) and len(rounds) >= (
        league.rounds_planned
    )
    # One leader, or joint winners when still level after the last tie-break round allowed (5.3a).
    decided = len(still_tied) == 1 or len(final_tiebreaks) >= league.tiebreak_rounds_allowed
    computed = still_tied if complete and still_tied and decided else []
    declared = [] if league.winners_computed else list(winners)
    winner_ids = {user.pk for user in declared} if declared else {row.player.pk for row in computed}
    for row in ordered:
        row.winner = row.player.pk in winner_ids
    return LeagueStandings(
        league=league,
        rounds=rounds,
        rows=ordered,
        tiebreak_rounds=tiebreaks,
        tiebreak_points=dict(tiebreak_points),
        winners=declared,
        computed_winners=computed,
        still_tied=still_tied,
    )


def _rank_by_tiebreaks(ordered, leaders, final_tiebreaks, points):
    """Rule 5.3a: the players tied for first are ranked by the final tie-break rounds, in order — the first
    decides, and only if still level the next (a round a player did not play counts 0 for them). Returns the
    rows re-ordered and re-ranked within the tied group, and the rows still level at the top."""

    def record(row):
        return tuple(points.get(round_.pk, {}).get(row.player.pk, (0, None))[0] for round_ in final_tiebreaks)

    for row in leaders:
        row.tiebreak_cells = list(record(row))
    group = sorted(leaders, key=lambda row: tuple(-value for value in record(row)))
    records = [record(row) for row in group]
    for position, row in enumerate(group):
        level = position > 0 and records[position] == records[position - 1]
        row.rank = group[position - 1].rank if level else position + 1
    still_tied = [row for row in group if row.rank == 1]
    return group + ordered[len(leaders) :], still_tied
