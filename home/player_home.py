"""Read side of "My PHM" for a player: the open rounds they may enter with their own status, their matches
that still need a result, disputes and challenges on their matches, their latest results and league positions.

Secrecy: before a round's deadline a player sees only their own hand; nothing here counts or names the other
hands of an open round.

Every function runs a constant number of queries whatever the number of leagues, rounds, hands and matches:
the per-round helpers of the lower apps are applied here in bulk (their logic, one query for all rounds).
"""

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from rounds.models import League, Round, RoundState
from scoring.models import Challenge, Match, MatchReport, MatchStatus
from scoring.services.table import in_table
from scoring.standings import standings_of_leagues
from stats.player_selectors import PlayerEntry, PlayerPage, player_page
from submissions.models import Hand, HandsPreview, HandVersion
from submissions.selectors import player_display_name

from .selectors import ITEMS_LISTED, name_players, revealed_not_final, theirs

LATEST_RESULTS_SHOWN = 5
MATCHES_LISTED_PER_ROUND = 12  # more than this: a count and the "score your whole row" link
MATCHES_FETCHED = 200  # at most this many match rows are read for the list, whatever the rounds' sizes


@dataclass
class OpenRoundStatus:
    round: Round
    version: HandVersion | None = None  # the player's current version, or None: not submitted

    @property
    def submitted(self) -> bool:
        return self.version is not None


@dataclass
class RoundToReport:
    round: Round
    hand: Hand  # the player's hand in the round
    matches: list[tuple[Match, Hand]]  # (match, opponent hand), at most MATCHES_LISTED_PER_ROUND
    count: int  # every match of theirs that still needs their result

    @property
    def more(self) -> int:
        return self.count - len(self.matches)


@dataclass
class LeaguePosition:
    league: League
    rank: int
    league_points: int
    players: int
    provisional: bool


@dataclass
class PlayerHome:
    open_rounds: list[OpenRoundStatus]
    to_report: list[RoundToReport]  # soonest deadline first
    disputes: list[Match]  # matches of theirs whose two reports differ
    challenges: list[Challenge]  # open challenges on their matches or made by them
    latest: list[PlayerEntry]  # newest first
    positions: list[LeaguePosition]  # per active league they play in

    @property
    def has_anything(self) -> bool:
        return bool(self.open_rounds or self.to_report or self.disputes or self.challenges or self.latest)


def enterable_rounds(user: User, now: datetime) -> list[OpenRoundStatus]:
    """Open rounds (deadline ahead) the user may enter, with their status; four queries. Tie-break rounds only
    when eligible (`submissions.services.may_enter_tiebreak`), and not rounds whose hands the user saw as a
    moderator (they may not play there) — unless they already have a hand in it."""
    rounds = list(
        Round.objects.filter(state=RoundState.OPEN, deadline__gt=now)
        .select_related("league")
        .order_by("deadline", "pk")
    )
    ids = [round_.pk for round_ in rounds]
    versions = {
        version.hand.round_id: version
        for version in HandVersion.objects.filter(
            hand__player=user, hand__round_id__in=ids, is_current=True
        ).select_related("hand")
    }
    eligible = defaultdict(set)
    tiebreak_ids = [round_.pk for round_ in rounds if round_.tiebreak]
    if tiebreak_ids:
        links = Round.eligible_players.through.objects.filter(round_id__in=tiebreak_ids)
        for round_id, user_id in links.values_list("round_id", "user_id"):
            eligible[round_id].add(user_id)
    previewed = set(
        HandsPreview.objects.filter(round_id__in=ids, moderator=user).values_list("round_id", flat=True)
    )
    result = []
    for round_ in rounds:
        version = versions.get(round_.pk)
        if version is None:
            if round_.pk in previewed:
                continue
            if round_.tiebreak and eligible[round_.pk] and user.pk not in eligible[round_.pk]:
                continue
        result.append(OpenRoundStatus(round_, version))
    return result


def matches_to_report(user: User, now: datetime) -> list[RoundToReport]:
    """The user's matches in revealed, non-final rounds on which they have no current report, grouped by round
    (soonest deadline first); two queries."""
    reported = MatchReport.objects.filter(match=OuterRef("pk"), reporter=user, is_current=True)
    pending = (
        Match.objects.filter(revealed_not_final(now, "round__"), in_table(), theirs(user))
        .exclude(Exists(reported))
        .exclude(status=MatchStatus.FINAL)
    )
    counts = Counter(pending.values_list("round_id", flat=True).order_by())
    if not counts:
        return []
    rows = list(
        pending.select_related(
            "round__league", "hand_a__player__profile", "hand_b__player__profile"
        ).order_by("round__deadline", "round_id", "hand_a__number", "hand_b__number")[:MATCHES_FETCHED]
    )
    groups: dict[int, RoundToReport] = {}
    for match in rows:
        mine, other = (
            (match.hand_a, match.hand_b)
            if match.hand_a.player_id == user.pk
            else (match.hand_b, match.hand_a)
        )
        group = groups.get(match.round_id)
        if group is None:
            group = groups[match.round_id] = RoundToReport(match.round, mine, [], counts[match.round_id])
        if len(group.matches) < MATCHES_LISTED_PER_ROUND:
            other.display_name = player_display_name(other.player)  # type: ignore[attr-defined]
            group.matches.append((match, other))
    return list(groups.values())


def disputes_and_challenges(
    user: User, now: datetime, *, limit: int = ITEMS_LISTED
) -> tuple[list[Match], list[Challenge]]:
    """(disputed matches of the user, open challenges on their matches or made by them) in rounds not final;
    two queries."""
    disputes = list(
        Match.objects.filter(
            revealed_not_final(now, "round__"), in_table(), theirs(user), status=MatchStatus.DISPUTED
        )
        .select_related("round__league", "hand_a__player__profile", "hand_b__player__profile")
        .order_by("round__deadline", "hand_a__number", "hand_b__number")[:limit]
    )
    challenges = list(
        Challenge.objects.filter(
            revealed_not_final(now, "match__round__"),
            in_table("match__"),
            theirs(user, "match__") | Q(challenger=user),
            state=Challenge.State.OPEN,
        )
        .select_related(
            "match__round__league",
            "match__hand_a__player__profile",
            "match__hand_b__player__profile",
            "challenger__profile",
        )
        .order_by("created_at", "pk")[:limit]
    )
    return name_players(disputes, challenges)


def league_positions(page: PlayerPage) -> list[LeaguePosition]:
    """Rank and League points in each active league the player has a revealed round in; `page` is their
    `scoring.player_selectors.player_page`. The standings come from `scoring.standings` (eight queries)."""
    leagues = [total.league for total in page.leagues if total.league.state == League.State.ACTIVE]
    standings = standings_of_leagues(leagues)
    positions = []
    for league in leagues:
        table = standings[league.pk]
        player_pk = page.player.pk  # type: ignore[attr-defined]
        row = next((row for row in table.rows if row.player.pk == player_pk), None)
        if row is not None:
            positions.append(
                LeaguePosition(league, row.rank, row.league_points, len(table.rows), table.provisional)
            )
    return positions


def player_home(user: User, now: datetime | None = None) -> PlayerHome:
    """What the player's half of My PHM shows `user`."""
    now = now or timezone.now()
    page = player_page(user, now)
    disputes, challenges = disputes_and_challenges(user, now)
    return PlayerHome(
        open_rounds=enterable_rounds(user, now),
        to_report=matches_to_report(user, now),
        disputes=disputes,
        challenges=challenges,
        latest=page.newest_first[:LATEST_RESULTS_SHOWN],
        positions=league_positions(page),
    )
