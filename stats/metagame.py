"""The metagame: which cards revealed hands played, in how many hands and rounds, and how those
hands did (their average League points).

Only hands of rounds revealed by time count (never an open round before its deadline, never a draft: not even
as a count), and only hands in the tables (a disqualified hand is out). A hand counts once per card whatever
the copies; cards are counted by the hand's current version (a moderator's replacement included), by the name
the catalog spells. Each figure is one query over the current versions and a Python pass: a site has thousands
of hands, not millions.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.urls import reverse
from django.utils import timezone

from rounds.models import Card
from submissions.models import HandStatus, HandVersion

from .player_selectors import revealed_rounds_q

MOST_PLAYED = 50


@dataclass(frozen=True)
class CardMetagame:
    """What the card page shows: `card_metagame(name)`."""

    name: str
    hands: int  # revealed hands in the tables that play the card
    rounds: int  # revealed rounds with at least one of those hands
    average_league_points: float | None  # over the hands with a stored tally; None when none has one
    tallied_hands: int  # how many hands the average is over
    all_hands: int  # revealed hands in the tables, to put `hands` in proportion

    @property
    def share(self):
        """Percentage of the revealed hands playing the card (None when there are none)."""
        return 100 * self.hands / self.all_hands if self.all_hands else None

    @property
    def most_played_url(self):
        return reverse("players:most-played")


@dataclass(frozen=True)
class CardStats:
    name: str
    slug: str  # "" when the catalog does not know the name (an archived hand)
    hands: int
    rounds: int
    average_league_points: float | None
    tallied_hands: int

    @property
    def url(self):
        return reverse("rounds:card-detail", kwargs={"slug": self.slug}) if self.slug else ""


@dataclass(frozen=True)
class MostPlayed:
    cards: list  # CardStats, most played first
    hands: int  # revealed hands counted
    rounds: int  # revealed rounds counted
    distinct_cards: int


def revealed_hand_cards(now=None, *, league_id=None):
    """[(hand id, round id, card names, League points or None)] of every hand in a revealed round's table (one
    query)."""
    now = now or timezone.now()
    versions = HandVersion.objects.filter(revealed_rounds_q(now, "hand__round__"), is_current=True).exclude(
        hand__status=HandStatus.DISQUALIFIED
    )
    if league_id is not None:
        versions = versions.filter(hand__round__league_id=league_id)
    return list(versions.values_list("hand_id", "hand__round_id", "cards", "hand__tally__league_points"))


def hands_per_card(now: datetime | None = None) -> dict[str, int]:
    """{card name: revealed hands in the tables holding it} (one query): what autocomplete ranks by
    (rounds.catalog.popularity). Only public hands count, so the ranking tells nothing before a deadline."""
    now = now or timezone.now()
    versions = HandVersion.objects.filter(revealed_rounds_q(now, "hand__round__"), is_current=True).exclude(
        hand__status=HandStatus.DISQUALIFIED
    )
    counts: dict[str, int] = defaultdict(int)
    for cards in versions.values_list("cards", flat=True):
        for name in set(cards or ()):
            if isinstance(name, str) and name:
                counts[name] += 1
    return dict(counts)


def _usage(rows):
    """{card name: [hands, set of rounds, League points sum, tallied hands]} over `rows`."""
    usage = defaultdict(lambda: [0, set(), 0, 0])
    for _, round_id, cards, points in rows:
        for name in set(cards or ()):
            if not isinstance(name, str) or not name:
                continue
            figures = usage[name]
            figures[0] += 1
            figures[1].add(round_id)
            if points is not None:
                figures[2] += points
                figures[3] += 1
    return usage


def _average(total, count):
    return total / count if count else None


def card_metagame(card_name, now=None):
    """The card's figures over every revealed hand (one query)."""
    rows = revealed_hand_cards(now)
    hands, rounds, points, tallied = 0, set(), 0, 0
    for _, round_id, cards, league in rows:
        if card_name in (cards or ()):
            hands += 1
            rounds.add(round_id)
            if league is not None:
                points += league
                tallied += 1
    return CardMetagame(
        name=card_name,
        hands=hands,
        rounds=len(rounds),
        average_league_points=_average(points, tallied),
        tallied_hands=tallied,
        all_hands=len(rows),
    )


def card_slugs(names):
    """{card name: slug} for the names the catalog knows (one query; none for no names)."""
    names = sorted({name for name in names if name})
    if not names:
        return {}
    slugs = {}
    for name, slug in Card.objects.filter(name__in=names).order_by("name", "pk").values_list("name", "slug"):
        slugs.setdefault(name, slug)
    return slugs


def most_played(now=None, *, league_id=None, limit=MOST_PLAYED):
    """The `limit` cards in the most revealed hands (then rounds, then name), overall or in one league; two
    queries."""
    rows = revealed_hand_cards(now, league_id=league_id)
    usage = _usage(rows)
    ranked = sorted(usage.items(), key=lambda item: (-item[1][0], -len(item[1][1]), item[0]))[:limit]
    slugs = card_slugs(name for name, _ in ranked)
    cards = [
        CardStats(
            name=name,
            slug=slugs.get(name, ""),
            hands=figures[0],
            rounds=len(figures[1]),
            average_league_points=_average(figures[2], figures[3]),
            tallied_hands=figures[3],
        )
        for name, figures in ranked
    ]
    return MostPlayed(
        cards=cards,
        hands=len(rows),
        rounds=len({round_id for _, round_id, _, _ in rows}),
        distinct_cards=len(usage),
    )
