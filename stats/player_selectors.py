"""Read side of a player's page: every revealed round they entered, with their hand, its line of the
round table and their League totals per league.

Secrecy: only rounds revealed by time count (revealed or final, or open with the deadline
passed); a hand in a round still open is not listed, counted or hinted at, not even to its owner, and drafts
never. A disqualified hand is out of the round's table: it is listed with no points.

Queries are bounded whatever the number of rounds: the stored `HandTally` lines are used where the round's
stored table is current; every other round is tallied for all of them at once (`compute_tallies`).
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from rounds.models import RoundState
from rounds.variants import decision_answer_rows
from scoring.models import BonusAward
from scoring.services.tally import compute_tallies
from submissions.models import Hand, HandStatus, HandVersion
from submissions.selectors import player_display_name
from submissions.similar_hands import describe_card_changes


def revealed_rounds_q(now, prefix=""):
    """Rounds whose hands are public at `now` (`submissions.selectors.is_revealed` as a query): never a draft,
    never an open round before its deadline. `prefix` reaches the round from elsewhere ("hand__round__")."""
    return Q(**{f"{prefix}state__in": [RoundState.REVEALED, RoundState.FINAL]}) | Q(
        **{f"{prefix}state": RoundState.OPEN, f"{prefix}deadline__lte": now}
    )


@dataclass
class PlayerEntry:
    """One revealed round the player entered: their hand and its line of the round's table."""

    round: object
    hand: object
    number: int | None
    hand_name: str
    cards: list
    disqualified: bool
    points: int | None = None  # None: no table yet (the match table is built at the reveal) or disqualified
    opponents: int | None = None
    league_points: int | None = None
    rank: int | None = None
    computed: bool = False  # the stored table was behind: these numbers were computed for this request
    bonus: list = field(default_factory=list)  # this player's BonusAward rows in this round
    decisions: list = field(default_factory=list)  # [(label, answer)] of the hand's decisions (7.2b)
    replaced_note: str = ""  # a moderator's similar hand (4.2a): what it changed

    @property
    def final(self):
        return self.round.state == RoundState.FINAL

    @property
    def tiebreak(self):
        return is_tiebreak(self.round)

    @property
    def archive_only(self):
        return not self.round.counts_in_standings

    @property
    def hands_in_table(self):
        return None if self.opponents is None else self.opponents + 1

    @property
    def bonus_points(self):
        return sum(award.points for award in self.bonus)


@dataclass
class LeagueTotal:
    league: object
    rounds: int = 0  # revealed rounds entered
    league_points: int = 0  # from the round tables
    bonus_points: int = 0
    bonus_reasons: list = field(default_factory=list)  # ["45:02: +20 (reason)", ...] as the standings say
    provisional: bool = False  # a round counted is not final yet
    last_deadline: object = None

    @property
    def total(self):
        return self.league_points + self.bonus_points

    @property
    def bonus_title(self):
        return "; ".join(self.bonus_reasons)


@dataclass
class PlayerPage:
    player: object
    display_name: str
    entries: list  # chronological (deadline, then round id)
    leagues: list  # LeagueTotal, most recent league first

    @property
    def newest_first(self):
        return list(reversed(self.entries))

    @property
    def chart_series(self):
        """(x labels, League points per round or None) for the chart, oldest round first."""
        return [entry.round.code for entry in self.entries], [entry.league_points for entry in self.entries]


def player_by_username(username):
    """The user named `username` (any case), with their profile; None when unknown. One query."""
    return (
        get_user_model()
        .objects.select_related("profile")
        .filter(username__iexact=str(username))
        .order_by("pk")
        .first()
    )


def player_page(player, now=None):
    """Everything the player's page shows; 3 queries, plus at most 4 when some round's stored table is behind
    or some revealed round was not numbered yet, whatever the number of rounds."""
    now = now or timezone.now()
    hands = list(
        Hand.objects.filter(revealed_rounds_q(now, "round__"), player=player)
        .select_related("round__league", "round__tally", "tally")
        .order_by("round__deadline", "round_id")
    )
    # Cards, decisions (7.2b) and a moderator's similar-hand changes (4.2a): fields of the version, one query.
    versions = {
        hand_id: (cards, decisions, changes, source)
        for hand_id, cards, decisions, changes, source in HandVersion.objects.filter(
            hand__in=[hand.pk for hand in hands], is_current=True
        ).values_list("hand_id", "cards", "decisions", "card_changes", "source")
    }
    bonuses = defaultdict(list)
    awards = list(
        BonusAward.objects.counted()
        .filter(revealed_rounds_q(now, "round__"), player=player)
        .select_related("round__league")
        .order_by("round__deadline", "created_at", "pk")
    )
    for award in awards:
        bonuses[award.round_id].append(award)

    stale_rounds, unnumbered_rounds = [], []
    entries = []
    for hand in hands:
        disqualified = hand.status == HandStatus.DISQUALIFIED
        cards, decisions, changes, source = versions.get(hand.pk, ([], {}, {}, ""))
        entry = PlayerEntry(
            round=hand.round,
            hand=hand,
            number=hand.number,
            hand_name=hand.name,
            cards=cards,
            disqualified=disqualified,
            bonus=bonuses.get(hand.round_id, []),
            decisions=decision_answer_rows(hand.round, decisions),
            replaced_note=_replaced_note(hand, changes, source),
        )
        if hand.number is None:
            unnumbered_rounds.append(hand.round_id)
        table = getattr(hand.round, "tally", None)
        stored = getattr(hand, "tally", None)
        if disqualified or table is None:
            pass  # out of the table, or no table yet: no line
        elif table.is_current and stored is not None:
            entry.points, entry.opponents = stored.points, stored.opponents
            entry.league_points, entry.rank = stored.league_points, stored.rank
        else:
            stale_rounds.append(hand.round_id)
        entries.append(entry)

    if stale_rounds:
        lines = compute_tallies(stale_rounds)
        for entry in entries:
            line = lines.get(entry.hand.pk)
            if entry.round.pk in stale_rounds and line is not None:
                entry.points, entry.opponents = line.points, line.opponents
                entry.league_points, entry.rank = line.league_points, line.rank
                entry.computed = True
    if unnumbered_rounds:
        # Past the deadline before the reveal task ran: the number it will give (first submission first).
        positions = _positions(unnumbered_rounds)
        for entry in entries:
            if entry.number is None:
                entry.number = positions.get(entry.hand.pk)

    return PlayerPage(
        player=player,
        display_name=player_display_name(player),
        entries=entries,
        leagues=_league_totals(entries, awards),
    )


def _replaced_note(hand, changes, source):
    """What a moderator's similar hand changed (4.2a), as the round page says it; "" unless replaced."""
    if hand.status != HandStatus.REPLACED:
        return ""
    note = describe_card_changes(changes) if source == HandVersion.Source.MODERATOR else ""
    return note or "Replaced by a similar hand (rule 4.2a)."


def _positions(round_ids):
    """{hand id: entry number the reveal will give} for rounds not numbered yet (one query)."""
    positions, counters = {}, defaultdict(int)
    for round_id, hand_id in (
        Hand.objects.filter(round_id__in=round_ids)
        .order_by("round_id", "created_at", "pk")
        .values_list("round_id", "pk")
    ):
        counters[round_id] += 1
        positions[hand_id] = counters[round_id]
    return positions


def is_tiebreak(round_):
    """Rule 5.3a: a tie-break round is listed but not counted in the league's totals (as in the standings)."""
    return bool(getattr(round_, "tiebreak", False))


def counts_in_league_totals(round_):
    """Whether the round adds to the league's totals, as in the standings: not a tie-break round (5.3a), not
    an archive-only round (imported from the forum, listed only)."""
    return not is_tiebreak(round_) and round_.counts_in_standings


def _league_totals(entries, awards):
    totals = {}

    def total_for(round_):
        league_total = totals.get(round_.league_id)
        if league_total is None:
            league_total = totals[round_.league_id] = LeagueTotal(round_.league)
        if league_total.last_deadline is None or round_.deadline > league_total.last_deadline:
            league_total.last_deadline = round_.deadline
        if round_.state != RoundState.FINAL:
            league_total.provisional = True
        return league_total

    for entry in entries:
        if not counts_in_league_totals(entry.round):
            continue
        league_total = total_for(entry.round)
        league_total.rounds += 1
        league_total.league_points += entry.league_points or 0
    for award in awards:
        if not counts_in_league_totals(award.round):
            continue
        league_total = total_for(award.round)
        league_total.bonus_points += award.points
        league_total.bonus_reasons.append(f"{award.round.code}: {award.points:+d} ({award.reason})")
    return sorted(totals.values(), key=lambda item: (item.last_deadline, item.league.pk), reverse=True)
