"""Builds the demo of `demo.data` through the services, exactly as the site would: rounds are created and
opened, hands submitted (judged by the hand form's check, with their commitments and receipts), revealed,
reported row by row, disputed, challenged, decided and finalized, so tallies, standings, audit trails and
notifications are all the real ones. Past rounds are built at their own moments: the services get `now=`,
and Django's clock says the same meanwhile (Clock.set_to), so every timestamp tells the demo's story.

All or nothing: everything is written in one transaction, and a hand that is not legal, a row that does not
add up or a service that refuses stops the whole seeding (DemoError), leaving the database as it was.
Idempotent: a league the demo already built is left as it is; a league of the same name that the demo did
not build is refused, never touched. One job, in one module: the story of each round told to the services in
order, inside the one transaction.
"""

from dataclasses import dataclass
from datetime import timedelta
from io import StringIO

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone as django_timezone

from accounts import services as account_services
from outbox import inbox
from phm.tasks import publishing_held
from rounds.models import League
from rounds.services import leagues as round_services
from rounds.services import lifecycle as round_lifecycle
from rounds.services.errors import RoundConflict, RoundInputError
from scoring.forum_rows import RowFormatError, parse_row, parse_table
from scoring.models import Match
from scoring.outcomes import is_legal_pair
from scoring.services.bonus import award_bonus
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.errors import SCORING_ERRORS
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match, report_row
from scoring.services.table import build_match_table
from submissions.errors import HandConflict, HandInputError, HandNotFound, IllegalHand, ReviewNotAllowed
from submissions.services.preview import declare_not_playing
from submissions.services.review import review_hand
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand

from . import data
from .clock import Clock
from .data import DEMO_USERNAME
from .specs import Version, split_cards

SERVICE_ERRORS = (
    RoundConflict,
    RoundInputError,
    HandNotFound,
    HandInputError,
    HandConflict,
    ReviewNotAllowed,
    *SCORING_ERRORS,
)


class DemoError(Exception):
    """The demo's data, or the database it was to go into, is not as the demo expects; nothing was stored."""


@dataclass
class SeededLeague:
    league: League
    created: bool  # False: it was already there, left as it was


def seed_demo(now=None):
    """Build whatever of the demo is missing; returns a SeededLeague per league of the demo, in build order.

    Nothing is published to the workers meanwhile (phm.tasks.publishing_held): the command does the tasks'
    work itself, and the mail it causes waits in the outbox as usual, for the workers' backstop or
    `send_pending_mail` — the command itself sends nothing."""
    clock = Clock(now or django_timezone.now())
    with publishing_held(), transaction.atomic():
        moderator = _demo_moderator()
        with clock.set_to(_first_opening(clock) - timedelta(days=2)):
            players = _players()
        seeded = []
        for spec in data.LEAGUES:
            league = _existing_league(spec, moderator)
            if league is not None:
                seeded.append(SeededLeague(league, created=False))
                continue
            seeded.append(SeededLeague(_build_league(spec, moderator, players, clock), created=True))
    return seeded


# People -----------------------------------------------------------------------------------------------------


def _demo_moderator():
    """The demo moderator of `make run`, created (or its password reset) by its own command."""
    call_command("create_demo_moderator", force=True, stdout=StringIO())
    return get_user_model().objects.get(username=DEMO_USERNAME)


def _players():
    """{username: user} of the demo's players; the missing ones are registered. They share the published
    password, hashed once: a hash per player would cost the seeding a second or more."""
    User = get_user_model()
    existing = {user.username: user for user in User.objects.filter(username__in=_usernames())}
    password_hash = None
    players = {}
    for spec in data.PLAYERS:
        user = existing.get(spec.username)
        if user is None:
            user = account_services.register_player(
                username=spec.username,
                password=None,
                email=spec.email,
                forum_username=spec.forum_name,
                time_zone=spec.time_zone,
            )
            password_hash = password_hash or make_password(data.PLAYER_PASSWORD)
            user.password = password_hash
            user.save(update_fields=["password"])
        players[spec.username] = user
    return players


def _usernames():
    return [spec.username for spec in data.PLAYERS]


def _first_opening(clock):
    return min(clock.at(r.schedule.opened, 18) for league in data.LEAGUES for r in league.rounds)


# Leagues ----------------------------------------------------------------------------------------------------


def _existing_league(spec, moderator):
    """The league if the demo built it before (same name, the demo moderator among its moderators, the demo's
    round titles); None if there is no such league; DemoError for a league of that name that is not the
    demo's."""
    league = League.objects.filter(name__iexact=spec.name).first()
    if league is None:
        return None
    titles = list(league.rounds.order_by("number").values_list("title", flat=True))
    if league.moderators.filter(pk=moderator.pk).exists() and titles == [r.title for r in spec.rounds]:
        return league
    raise DemoError(
        f"A league called “{league.name}” already exists and the demo did not build it: the demo leaves it "
        "alone. Seed the demo into another database (DATABASE_URL), or rename that league first."
    )


def _build_league(spec, moderator, players, clock):
    try:
        with clock.set_to(clock.at(spec.rounds[0].schedule.opened, 12)):
            league = round_services.create_league(
                actor=moderator, name=spec.name, rounds_planned=spec.rounds_planned, moderators=[moderator]
            )
    except RoundInputError as error:
        raise DemoError(f"{spec.name}: {_errors_text(error.errors)}") from None
    for round_spec in spec.rounds:
        _RoundBuilder(league, round_spec, moderator, players, clock).build()
    league.refresh_from_db()
    planned_done = league.rounds.filter(state="final").count() >= spec.rounds_planned
    if planned_done and not league.winners.exists():
        raise DemoError(f"{spec.name}: every planned round is final, but the standings give no sole winner.")
    return league


# Rounds -----------------------------------------------------------------------------------------------------


class _RoundBuilder:
    """One round of the demo, from its opening to its finalization (or to now, for the open round)."""

    def __init__(self, league, spec, moderator, players, clock):
        self.league, self.spec, self.moderator, self.players = league, spec, moderator, players
        self.opened = clock.at(spec.schedule.opened, 18)
        self.deadline = clock.at(spec.schedule.deadline, 20)
        self.clock = clock
        self.round = None
        self.hands = {}  # username: Hand

    def where(self):
        code = self.round.code if self.round else self.spec.title
        return f"{self.league.name}, round {code} “{self.spec.title}”"

    def fail(self, message):
        raise DemoError(f"{self.where()}: {message}")

    def run(self, moment, service, **arguments):
        """`service(now=moment, …)`, with the clock at `moment` (Clock.set_to)."""
        with self.clock.set_to(moment):
            return service(now=moment, **arguments)

    def build(self):
        rows = self.result_rows() if self.spec.final else {}
        try:
            self.open()
            self.submit_hands()
            if self.spec.final:
                self.reveal()
                self.report(rows)
                self.decide()
                self.finalize()
        except IllegalHand as error:
            self.fail(_verdict_text(error.verdict))
        except SERVICE_ERRORS as error:
            self.fail(_error_text(error))
        return self.round

    # Before the deadline ------------------------------------------------------------------------------------

    def open(self):
        self.round = self.run(
            self.opened,
            round_lifecycle.create_round,
            actor=self.moderator,
            league=self.league,
            open_now=True,
            title=self.spec.title,
            deadline=self.deadline,
            **self.spec.rules,
        )
        if self.spec.moderator_previews:
            self.run(
                self.opened + timedelta(hours=1),
                declare_not_playing,
                moderator=self.moderator,
                round_id=self.round.pk,
            )

    def submit_hands(self):
        """First versions in entry order (the order is the entry numbers at the reveal), the moderator's
        flags and notices soon after each, then the players' changes, all before the deadline."""
        last = min(self.deadline, self.clock.now) - timedelta(hours=2)
        start = self.opened + timedelta(hours=2)
        count = len(self.spec.entries)
        step = (last - start) / (2 * count)
        versions = [[*entry.earlier, Version(entry.name, entry.cards)] for entry in self.spec.entries]
        for index, entry in enumerate(self.spec.entries):
            moment = start + step * index
            self.hands[entry.player] = self.submit(entry, versions[index][0], moment).hand
            if entry.flag:
                self.review(entry, "flag", moment + step / 2, message=entry.flag)
            if entry.notice:
                self.review(entry, "notice", moment + step / 2, message=entry.notice)
        for index, entry in enumerate(self.spec.entries):
            for later, version in enumerate(versions[index][1:]):
                self.submit(entry, version, start + step * (count + index) + timedelta(minutes=later))

    def submit(self, entry, version, moment):
        """A player on the site: they read their notifications, then send their hand."""
        player = self.player(entry.player)
        self.run(moment, inbox.mark_read, user=player, everything=True)
        return self.run(
            moment + timedelta(minutes=1),
            submit_hand,
            player=player,
            round_id=self.round.pk,
            name=version.name,
            cards=split_cards(version.cards),
            attested=EVERY_LISTED_RULE,
            decisions=entry.decisions,
        )

    def review(self, entry, action, moment, **details):
        self.run(
            moment,
            review_hand,
            actor=self.moderator,
            hand_id=self.hands[entry.player].pk,
            action=action,
            **details,
        )

    def player(self, username):
        if username not in self.players:
            self.fail(f"{username} is not one of the demo's players (data.PLAYERS).")
        return self.players[username]

    # After the deadline -------------------------------------------------------------------------------------

    def after_deadline(self, **delay):
        return self.deadline + timedelta(**delay)

    def reveal(self):
        self.run(self.after_deadline(minutes=5), build_match_table, round_id=self.round.pk)
        for number, entry in enumerate(self.spec.entries, start=1):
            hand = self.hands[entry.player]
            hand.refresh_from_db(fields=["number"])
            if hand.number != number:
                self.fail(f"{entry.player}'s hand was revealed as number {hand.number}, not {number}.")
            if entry.renamed:
                self.review(entry, "rename", self.after_deadline(hours=1), name=entry.renamed)

    def result_rows(self):
        """{number: row text} of the posted rows, checked first: numbered 1..N for the N hands, and every
        pair of cells a possible match result except where a dispute says the two players disagreed."""
        lines = [line.strip() for line in self.spec.results.splitlines() if line.strip()]
        try:
            table = parse_table(self.spec.results)
            rows = {parse_row(line, columns=len(lines)).number: line for line in lines}
        except RowFormatError as error:
            self.fail(f"the results table: {error}")
        if len(table) != len(self.spec.entries):
            self.fail(f"the results table has {len(table)} rows for {len(self.spec.entries)} hands.")
        disputed = {tuple(dispute.hands) for dispute in self.spec.disputes}
        for row in table:
            for column, cell in enumerate(row.cells, start=1):
                if column <= row.number:
                    continue
                other = table[column - 1].cells[row.number - 1]
                if not isinstance(cell, int) or not isinstance(other, int):
                    self.fail(f"rows {row.number:02d} and {column:02d}: fill every cell of the table.")
                agree = is_legal_pair(cell, other)
                if agree and (row.number, column) in disputed:
                    self.fail(f"{row.number:02d} v {column:02d} is said to be disputed, but the rows agree.")
                if not agree and (row.number, column) not in disputed:
                    self.fail(
                        f"rows {row.number:02d} and {column:02d} say {cell}-{other}, which no match can "
                        "score: fix the table, or add the dispute."
                    )
        return rows

    def report(self, rows):
        """Each player who reports comes to the site (reading their notifications) and posts their own row, a
        few hours apart; then the players who checked other matches (6.3a)."""
        for number, entry in enumerate(self.spec.entries, start=1):
            if entry.player in self.spec.silent:
                continue
            moment = self.after_deadline(hours=2 + 3 * number)
            player = self.player(entry.player)
            self.run(moment, inbox.mark_read, user=player, everything=True)
            self.run(
                moment, report_row, player=player, round_id=self.round.pk, row=rows[number]
            )
        for verification in self.spec.verifications:
            points_a, points_b = _points(verification.result)
            self.run(
                self.after_deadline(days=1, hours=8),
                report_match,
                reporter=self.player(verification.reporter),
                match_id=self.match(verification.hands).pk,
                points_a=points_a,
                points_b=points_b,
            )

    def decide(self):
        """Challenges raised, disputes decided, challenges answered, bonus points awarded."""
        challenges = [
            self.run(
                self.after_deadline(days=1, hours=12),
                challenge_match,
                challenger=self.player(spec.challenger),
                match_id=self.match(spec.hands).pk,
                reason=spec.reason,
            )
            for spec in self.spec.challenges
        ]
        for dispute in self.spec.disputes:
            points_a, points_b = _points(dispute.result)
            self.run(
                self.after_deadline(days=2),
                set_result,
                actor=self.moderator,
                match_id=self.match(dispute.hands).pk,
                points_a=points_a,
                points_b=points_b,
                note=dispute.note,
            )
        for challenge, spec in zip(challenges, self.spec.challenges, strict=True):
            points_a, points_b = _points(spec.result) if spec.result else (None, None)
            self.run(
                self.after_deadline(days=2, hours=12),
                resolve_challenge,
                actor=self.moderator,
                challenge_id=challenge.pk,
                decision=spec.decision,
                points_a=points_a,
                points_b=points_b,
                note=spec.note,
            )
        for bonus in self.spec.bonuses:
            self.run(
                self.after_deadline(days=3),
                award_bonus,
                actor=self.moderator,
                round_id=self.round.pk,
                player_username=self.player(bonus.player).username,
                points=bonus.points,
                reason=bonus.reason,
            )

    def finalize(self):
        """Without force: a round of the demo has no open dispute or challenge left when it is finalized."""
        self.run(
            self.clock.at(self.spec.schedule.finalized, 21),
            finalize_round,
            actor=self.moderator,
            round_id=self.round.pk,
        )

    def match(self, hands):
        low, high = sorted(hands)
        match = Match.objects.filter(round=self.round, hand_a__number=low, hand_b__number=high).first()
        if match is None:
            self.fail(f"there is no match {low:02d} v {high:02d}.")
        return match


# Messages ---------------------------------------------------------------------------------------------------


def _points(result):
    """ "4-1" → (4, 1)."""
    points_a, points_b = result.split("-")
    return int(points_a), int(points_b)


def _verdict_text(verdict):
    problems = [problem.message for problem in verdict.problems]
    problems += [problem.message for card in verdict.cards for problem in card.problems]
    return "a hand is not legal under the round's rules: " + " ".join(problems)


def _error_text(error):
    errors = getattr(error, "errors", None)
    if errors:
        return _errors_text(errors)
    items = getattr(error, "items", None) or []
    return " ".join([str(error), *items])


def _errors_text(errors):
    parts = []
    for field, problems in errors.items():
        if isinstance(problems, dict):
            problems = [f"{key}: {' '.join(value)}" for key, value in problems.items()]
        parts.append(f"{field}: {' '.join(str(problem) for problem in problems)}")
    return "; ".join(parts)
