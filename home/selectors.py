"""Read side of "My PHM": what a logged-in person's home page shows them.

For a player: the open rounds they may enter with their own status, their matches that still need a result,
disputes and challenges on their matches, their latest results and league positions. For a moderator: a to-do
list across the leagues they manage.

Secrecy: before a round's deadline a player sees only their own hand. A moderator sees
the hands of an open round only when `submissions.selectors.early_access` would let them ("declared": they
declared they will not play and have no hand); one who has not declared gets only a link to the review page,
which asks for the declaration; one who plays gets nothing about the round's hands. Nothing here counts or
names the hands of an open round beyond that.

Every function runs a constant number of queries whatever the number of leagues, rounds, hands and matches:
the per-round helpers of the lower apps are applied here in bulk (their logic, one query for all rounds).
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from accounts.services import is_moderator
from outbox.models import Message
from outbox.selectors import visible_messages
from rounds.catalog.names import normalize_name
from rounds.catalog.resolve import get_index, resolve_name
from rounds.models import AcceptedCard, League, Round, RoundState
from scoring.models import Challenge, Match, MatchReport, MatchStatus, RoundTally
from scoring.services.table import in_table
from scoring.standings import standings_of_leagues
from stats.player_selectors import player_page
from submissions.models import Hand, HandsPreview, HandVersion
from submissions.selectors import player_display_name

LATEST_RESULTS_SHOWN = 5
MATCHES_LISTED_PER_ROUND = 12  # more than this: a count and the "score your whole row" link
MATCHES_FETCHED = 200  # at most this many match rows are read for the list, whatever the rounds' sizes
ITEMS_LISTED = 25  # disputes, challenges, hands to review: at most this many listed, then "and n more"
MAIL_STALE_AFTER = timedelta(minutes=15)


# Player ----------------------------------------------------------------------------------------------------


@dataclass
class OpenRoundStatus:
    round: object
    version: object = None  # the player's current HandVersion, or None: not submitted

    @property
    def submitted(self):
        return self.version is not None


@dataclass
class RoundToReport:
    round: object
    hand: object  # the player's hand in the round
    matches: list  # [(match, opponent hand)], at most MATCHES_LISTED_PER_ROUND
    count: int  # every match of theirs that still needs their result

    @property
    def more(self):
        return self.count - len(self.matches)


@dataclass
class LeaguePosition:
    league: object
    rank: int
    league_points: int
    players: int
    provisional: bool


@dataclass
class PlayerHome:
    open_rounds: list
    to_report: list  # RoundToReport, soonest deadline first
    disputes: list  # matches of theirs whose two reports differ
    challenges: list  # open challenges on their matches or made by them
    latest: list  # stats.player_selectors.PlayerEntry, newest first
    positions: list  # LeaguePosition per active league they play in

    @property
    def has_anything(self):
        return bool(self.open_rounds or self.to_report or self.disputes or self.challenges or self.latest)


def enterable_rounds(user, now):
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


def _revealed_not_final(now, prefix=""):
    """Rounds past their deadline and not final: results are being reported."""
    return Q(**{f"{prefix}state": RoundState.REVEALED}) | Q(
        **{f"{prefix}state": RoundState.OPEN, f"{prefix}deadline__lte": now}
    )


def _theirs(user, prefix=""):
    return Q(**{f"{prefix}hand_a__player": user}) | Q(**{f"{prefix}hand_b__player": user})


def matches_to_report(user, now):
    """The user's matches in revealed, non-final rounds on which they have no current report, grouped by round
    (soonest deadline first); two queries."""
    reported = MatchReport.objects.filter(match=OuterRef("pk"), reporter=user, is_current=True)
    pending = (
        Match.objects.filter(_revealed_not_final(now, "round__"), in_table(), _theirs(user))
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
    groups = {}
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
            other.display_name = player_display_name(other.player)
            group.matches.append((match, other))
    return list(groups.values())


def _named(disputes, challenges):
    """Players as the pages name them (their forum name): `a_name`, `b_name` on each match, `challenger_name`
    on each challenge."""
    for match in [*disputes, *(challenge.match for challenge in challenges)]:
        match.a_name = player_display_name(match.hand_a.player)
        match.b_name = player_display_name(match.hand_b.player)
    for challenge in challenges:
        challenge.challenger_name = player_display_name(challenge.challenger)
    return disputes, challenges


def disputes_and_challenges(user, now, *, limit=ITEMS_LISTED):
    """(disputed matches of the user, open challenges on their matches or made by them) in rounds not final;
    two queries."""
    disputes = list(
        Match.objects.filter(
            _revealed_not_final(now, "round__"), in_table(), _theirs(user), status=MatchStatus.DISPUTED
        )
        .select_related("round__league", "hand_a__player__profile", "hand_b__player__profile")
        .order_by("round__deadline", "hand_a__number", "hand_b__number")[:limit]
    )
    challenges = list(
        Challenge.objects.filter(
            _revealed_not_final(now, "match__round__"),
            in_table("match__"),
            _theirs(user, "match__") | Q(challenger=user),
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
    return _named(disputes, challenges)


def league_positions(page):
    """Rank and League points in each active league the player has a revealed round in; `page` is their
    `stats.player_selectors.player_page`. The standings come from `scoring.standings` (eight queries)."""
    leagues = [total.league for total in page.leagues if total.league.state == League.State.ACTIVE]
    standings = standings_of_leagues(leagues)
    positions = []
    for league in leagues:
        table = standings[league.pk]
        row = next((row for row in table.rows if row.player.pk == page.player.pk), None)
        if row is not None:
            positions.append(
                LeaguePosition(league, row.rank, row.league_points, len(table.rows), table.provisional)
            )
    return positions


def player_home(user, now=None):
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


# Moderator -------------------------------------------------------------------------------------------------


def managed_leagues(user):
    """The leagues `user` manages (`rounds.services.leagues.can_manage_league`) in two queries: every league
    for a superuser; for a site moderator, the leagues naming them and those naming nobody."""
    if not is_moderator(user):
        return []
    leagues = League.objects.order_by("-created_at", "pk")
    if not user.is_superuser:
        named = League.moderators.through.objects.filter(league_id=OuterRef("pk"))
        leagues = leagues.filter(Q(moderators=user) | ~Exists(named)).distinct()
    return list(leagues)


@dataclass
class HandToReview:
    hand: object
    player: str
    reasons: list


@dataclass
class ReviewItem:
    """An open round of a managed league. `access` as `submissions.selectors.early_access` says it: only
    "declared" carries hands; "undeclared" is just the link to the review page, which asks first."""

    round: object
    access: str
    hands: list = field(default_factory=list)  # HandToReview, for "declared" only


@dataclass
class ResultsItem:
    """A managed round past its deadline, not final."""

    round: object
    built: bool  # its match table exists
    counts: Counter  # matches by status

    @property
    def disputed(self):
        return self.counts[MatchStatus.DISPUTED]

    @property
    def challenged(self):
        return self.counts[MatchStatus.CHALLENGED]

    @property
    def unreported(self):
        return self.counts[MatchStatus.UNREPORTED]

    @property
    def matches(self):
        return sum(self.counts.values())

    @property
    def has_open_items(self):
        return bool(self.disputed or self.challenged)

    @property
    def all_reported(self):
        return self.built and not self.has_open_items and not self.unreported


@dataclass
class ModeratorHome:
    leagues: list
    reviews: list  # ReviewItem: open rounds to look at before their deadline
    results: list  # ResultsItem, open items first
    disputes: list  # disputed matches of managed rounds (at most ITEMS_LISTED)
    challenges: list  # open challenges of managed rounds (at most ITEMS_LISTED)
    mail_failed: int
    mail_late: int  # pending for longer than MAIL_STALE_AFTER

    @property
    def review_items(self):
        """What the to-do list shows of the open rounds: declared rounds with hands to look at, and the
        undeclared ones (a link). A round where the moderator plays shows nothing."""
        return [item for item in self.reviews if item.access == "undeclared" or item.hands]

    @property
    def has_anything(self):
        return bool(
            self.review_items
            or self.results
            or self.disputes
            or self.challenges
            or self.mail_failed
            or self.mail_late
        )


def _hands_to_review(round_ids):
    """{round id: [HandToReview]}: flagged hands, and hands whose current cards the catalog does not know (nor
    the round accepted) or that have the wrong number of cards. Two queries; the full legality check is on
    the review page."""
    if not round_ids:
        return {}
    accepted = defaultdict(set)
    for round_id, name in AcceptedCard.objects.filter(round_id__in=round_ids).values_list("round_id", "name"):
        accepted[round_id].add(normalize_name(name))
    versions = HandVersion.objects.filter(hand__round_id__in=round_ids, is_current=True).select_related(
        "hand__round", "hand__player__profile"
    )
    index = get_index()
    result = defaultdict(list)
    for version in versions.order_by("hand__created_at", "hand_id"):
        hand = version.hand
        reasons = []
        if hand.flagged:
            reasons.append("flagged")
        unknown = [
            card
            for card in version.cards
            if not resolve_name(card, index=index).resolved
            and normalize_name(card) not in accepted[hand.round_id]
        ]
        if unknown:
            reasons.append("not in the catalog: " + ", ".join(unknown))
        if not hand.round.hand_size_allows(len(version.cards)):
            reasons.append(f"{len(version.cards)} cards")
        if reasons:
            result[hand.round_id].append(HandToReview(hand, player_display_name(hand.player), reasons))
    return result


def moderator_home(user, now=None):
    """The to-do list across the leagues `user` manages, or None for someone who is no moderator. Constant
    queries: leagues, rounds, own hands and declarations, hands to review, match counts, disputes,
    challenges, mail."""
    now = now or timezone.now()
    if not is_moderator(user):
        return None
    leagues = managed_leagues(user)
    league_ids = [league.pk for league in leagues]
    rounds = list(
        Round.objects.filter(league_id__in=league_ids, state__in=[RoundState.OPEN, RoundState.REVEALED])
        .select_related("league", "tally")
        .order_by("deadline", "pk")
    )
    open_rounds = [round_ for round_ in rounds if round_.accepts_hands_at(now)]
    past = [round_ for round_ in rounds if not round_.accepts_hands_at(now)]

    # early_access for every open round at once: playing, declared or undeclared.
    open_ids = [round_.pk for round_ in open_rounds]
    playing = set(Hand.objects.filter(round_id__in=open_ids, player=user).values_list("round_id", flat=True))
    declared = set(
        HandsPreview.objects.filter(round_id__in=open_ids, moderator=user).values_list("round_id", flat=True)
    )
    reviews = []
    for round_ in open_rounds:
        if round_.pk in playing:
            access = "playing"
        elif round_.pk in declared:
            access = "declared"
        else:
            access = "undeclared"
        reviews.append(ReviewItem(round_, access))
    to_review = _hands_to_review([item.round.pk for item in reviews if item.access == "declared"])
    for item in reviews:
        if item.access == "declared":
            item.hands = to_review.get(item.round.pk, [])

    past_ids = [round_.pk for round_ in past]
    counts = defaultdict(Counter)
    if past_ids:
        grouped = (
            Match.objects.filter(in_table(), round_id__in=past_ids)
            .values_list("round_id", "status")
            .annotate(n=Count("pk"))
            .order_by()
        )
        for round_id, status, number in grouped:
            counts[round_id][status] = number
    results = [ResultsItem(round_, _has_tally(round_), counts[round_.pk]) for round_ in past]
    results.sort(key=lambda item: (not item.has_open_items, not item.all_reported, item.round.deadline))
    disputes = list(
        Match.objects.filter(in_table(), round_id__in=past_ids, status=MatchStatus.DISPUTED)
        .select_related("round__league", "hand_a__player__profile", "hand_b__player__profile")
        .order_by("round__deadline", "hand_a__number", "hand_b__number")[:ITEMS_LISTED]
    )
    challenges = list(
        Challenge.objects.filter(
            in_table("match__"), match__round_id__in=past_ids, state=Challenge.State.OPEN
        )
        .select_related(
            "match__round__league",
            "match__hand_a__player__profile",
            "match__hand_b__player__profile",
            "challenger__profile",
        )
        .order_by("created_at", "pk")[:ITEMS_LISTED]
    )
    _named(disputes, challenges)
    failed, late = undelivered_mail(user, now)
    return ModeratorHome(leagues, reviews, results, disputes, challenges, failed, late)


def _has_tally(round_):
    try:
        return round_.tally is not None
    except RoundTally.DoesNotExist:
        return False


def undelivered_mail(user, now):
    """(failed, pending for over MAIL_STALE_AFTER) among the messages the outbox admin shows `user`; one
    query."""
    stale = Q(state=Message.State.FAILED) | Q(
        state=Message.State.PENDING, created_at__lt=now - MAIL_STALE_AFTER
    )
    states = dict(
        visible_messages(user, Message.objects.filter(stale))
        .values_list("state")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return states.get(Message.State.FAILED, 0), states.get(Message.State.PENDING, 0)
