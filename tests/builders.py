"""Factories for tests that build rounds, hands and results through the services, as the site builds them.

Each one is the set-up many tests share, written once: an open round, hands submitted into it, a round past its
deadline with its match table, a round with a reported match, a finalized round, a league with standings.
They call the same service functions the pages and the API call (`create_round`, `submit_hand`,
`build_match_table`, `report_match`, `finalize_round`), so what they make has its commitments, receipts,
audit entries and notifications, and a test that needs anything else passes it on as keyword arguments.

Only the passing of a deadline is not a service: the clock moves on (`pass_deadline` sets the deadline a
minute back), as every test of a revealed round did by hand. Rows that a read-only test needs without any of
the services' side effects come from the factory_boy factories of tests/factories.py instead.
"""

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.utils import timezone

from rounds.models import League, Round
from rounds.services import leagues as round_services
from rounds.services import lifecycle as round_lifecycle
from scoring.models import Match
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from scoring.standings import league_standings
from submissions.models import Hand
from submissions.services import submit as hand_services

DEFAULT_TITLE = "5 Card Vintage"
# Two legal hands of a 5-card Vintage round.
KJELD = ["Leyline of Singularity", "Karakas", "Kjeldoran Warrior", "Mishra's Workshop", "Wheel of Torture"]
SCEPTER = ["Ancient Tomb", "Gustha's Scepter", "Lodestone Golem", "Mishra's Workshop", "Sphere of Resistance"]


def open_round(
    *,
    league: League,
    actor,
    title: str = DEFAULT_TITLE,
    hand_size: int = 5,
    deadline: datetime | None = None,
    now: datetime | None = None,
    **rules,
) -> Round:
    """A round of `league` created and opened by `actor` (a moderator of it), due in two days unless
    `deadline` says otherwise; `rules` are create_round's other rules."""
    now = now or timezone.now()
    return round_lifecycle.create_round(
        actor=actor,
        league=league,
        now=now,
        open_now=True,
        title=title,
        hand_size=hand_size,
        deadline=deadline or now + timedelta(days=2),
        **rules,
    )


def submit(player, round_: Round, cards: Sequence[str] = KJELD, *, name: str = "", **options):
    """`player` submits `cards` into the round through submit_hand, attesting every rule listed; returns the
    service's Submission. `options`: submit_hand's others (`decisions`, `now`)."""
    return hand_services.submit_hand(
        player=player,
        round_id=round_.pk,
        name=name,
        cards=cards,
        attested=hand_services.EVERY_LISTED_RULE,
        **options,
    )


def submit_hands(round_: Round, players: Iterable, cards: Sequence[str] = KJELD, **options) -> list[Hand]:
    """Each player submits `cards` in turn (their hands are numbered in this order at the reveal), each hand
    named after its player; returns the hands."""
    return [
        submit(player, round_, cards, name=f"Hand of {player.username}", **options).hand for player in players
    ]


def pass_deadline(round_: Round) -> Round:
    """The clock moves past the round's deadline: it was a minute ago."""
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    return round_


def revealed_round(
    *, league: League, actor, players: Iterable, cards: Sequence[str] = KJELD, build: bool = True, **rules
) -> Round:
    """An open round into which each player submitted a hand, then past its deadline; its hands numbered and
    its match table built (build_match_table, which reveals) unless `build` is False."""
    round_ = open_round(league=league, actor=actor, **rules)
    submit_hands(round_, players, cards)
    pass_deadline(round_)
    if build:
        build_match_table(round_.pk)
    round_.refresh_from_db()
    return round_


def match_between(round_: Round, number_a: int, number_b: int) -> Match:
    """The match of hands `number_a` and `number_b` of a built round, either order."""
    return Match.objects.select_related("hand_a", "hand_b").get(
        round=round_, hand_a__number=min(number_a, number_b), hand_b__number=max(number_a, number_b)
    )


def report(match: Match, points_a: int, points_b: int, *, by=None, **options):
    """A report of the match's result (`points_a` for hand A) by `by`, by default hand A's player; with both
    players reporting the same result the match is agreed."""
    reporter = by or match.hand_a.player
    return report_match(reporter=reporter, match_id=match.pk, points_a=points_a, points_b=points_b, **options)


def round_with_reported_match(
    *, league: League, actor, players: Sequence, points: tuple[int, int] = (6, 0), agreed: bool = True
) -> tuple[Round, Match]:
    """A revealed round of the players' hands whose match 01 v 02 has `points` reported by hand 01's player,
    and by hand 02's too when `agreed`; returns the round and that match."""
    round_ = revealed_round(league=league, actor=actor, players=players)
    match = match_between(round_, 1, 2)
    report(match, *points)
    if agreed:
        report(match, *points, by=match.hand_b.player)
    match.refresh_from_db()
    return round_, match


def finalized_round(
    *,
    league: League,
    actor,
    players: Sequence,
    results: dict[tuple[int, int], tuple[int, int]] | None = None,
) -> Round:
    """A revealed round of the players' hands, every match reported by both its players and the round
    finalized by `actor`. `results`: {(number a, number b): (points a, points b)}; a match not named there
    goes to the lower number 6-0."""
    round_ = revealed_round(league=league, actor=actor, players=players)
    results = results or {}
    for match in Match.objects.filter(round=round_).select_related("hand_a__player", "hand_b__player"):
        points = results.get((match.hand_a.number, match.hand_b.number), (6, 0))
        report(match, *points)
        report(match, *points, by=match.hand_b.player)
    finalize_round(actor=actor, round_id=round_.pk)
    round_.refresh_from_db()
    return round_


def league_with_standings(*, actor, players: Sequence, name: str = "League 60", rounds: int = 2):
    """A league moderated by `actor` with `rounds` finalized rounds of the players' hands (the lower number
    winning every match); returns the league and its standings (scoring.standings.league_standings)."""
    league = round_services.create_league(actor=actor, name=name, moderators=[actor])
    for _ in range(rounds):
        finalized_round(league=league, actor=actor, players=players)
    return league, league_standings(league)
