"""Import a league export (`document.py`) into this instance, in one transaction: nothing is written unless
all of it is. Rows keep their timestamps, the league keeps its round numbers, the audit trail points at the
new rows, and every hand version keeps the round id its commitment was computed with."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.contenttypes.models import ContentType
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone

from accounts.services import is_moderator
from audit.models import AuditEntry
from rounds.models import AcceptedCard, Card, League, Round, RoundState
from rounds.services.leagues import league_number_from_name, league_number_problem
from rounds.signals import deadline_set
from scoring.models import BonusAward, Challenge, HandTally, Match, MatchReport, RoundTally
from submissions.models import Hand, HandReview, HandsPreview, HandVersion

from .document import FORMAT, VERSION, TransferConflict, TransferFormatError, list_at, user_named, values_for
from .users import import_users

BATCH_SIZE = 1000
# Audit entries naming a challenge by id in `after` (scoring.services.decisions): remapped to the new id.
CHALLENGE_ACTIONS = {"match.challenged", "challenge.upheld", "challenge.rejected"}


@dataclass
class ImportResult:
    league: League
    users_created: list = field(default_factory=list)
    users_matched: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)


def import_league_json(text: str | bytes, *, rename: str | None = None) -> ImportResult:
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise TransferFormatError(f"The file is not JSON: {error}.") from None
    return import_league(document, rename=rename)


def import_league(document: object, *, rename: str | None = None) -> ImportResult:
    """Import `document` (parsed JSON); `rename` names the league (and so numbers it) unlike the file."""
    _check_header(document)
    try:
        with transaction.atomic():
            result = _Import(document, rename).run()
    except (IntegrityError, DataError) as error:
        raise TransferFormatError(
            f"The file's rows do not fit together or into this database: {error}"
        ) from None
    _announce_open_rounds(result.league)
    return result


def _check_header(document):
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise TransferFormatError(f'This is not a league export: "format" should be "{FORMAT}".')
    if document.get("version") != VERSION:
        raise TransferFormatError(
            f"This league export is version {document.get('version')!r}; "
            f"this instance reads version {VERSION}."
        )
    if not isinstance(document.get("league"), dict):
        raise TransferFormatError('The file has no "league" object.')


def _announce_open_rounds(league):
    """Schedule the reveal of rounds still taking hands, as opening a round does (the beat task is the
    backstop)."""
    for round_ in league.rounds.filter(state=RoundState.OPEN, deadline__gt=timezone.now()):
        round_id, deadline = round_.pk, round_.deadline
        transaction.on_commit(
            lambda r=round_id, d=deadline: deadline_set.send(sender=Round, round_id=r, deadline=d)
        )


def create_keeping_times(model, objects):
    """bulk_create `objects`, then put back the timestamps auto_now/auto_now_add replaced on insert (the
    compiler calls pre_save even in bulk_create); a queryset update does not touch them."""
    stamped = [
        f.attname
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    wanted = [tuple(getattr(obj, name) for name in stamped) for obj in objects]
    model.objects.bulk_create(objects, batch_size=BATCH_SIZE)
    by_values = defaultdict(list)
    for obj, values in zip(objects, wanted, strict=True):
        by_values[values].append(obj.pk)
        for name, value in zip(stamped, values, strict=True):
            setattr(obj, name, value)
    for values, pks in by_values.items() if stamped else ():
        for start in range(0, len(pks), BATCH_SIZE):
            model.objects.filter(pk__in=pks[start : start + BATCH_SIZE]).update(
                **dict(zip(stamped, values, strict=True))
            )
    return objects


def _is_key(value):
    """A value that can name a row in the file: text or a whole number."""
    return isinstance(value, str | int) and not isinstance(value, bool)


class _Import:
    """One import: reads the document model by model, all rows of a model written at once, in file order (so
    the new ids keep the old order, which orderings use to break ties)."""

    def __init__(self, document, rename):
        self.document = document
        self.rename = rename
        self.warnings = []
        self.pending = defaultdict(list)  # model → unsaved rows, written by _flush in dependency order
        self.rounds = {}  # number → Round
        self.hands = {}  # (round number, username) → Hand
        self.matches = {}  # (round number, username a, username b) → Match
        self.challenges = {}  # ref in the file → Challenge
        self.counts = {}  # what was written: verbose name → rows

    def run(self):
        league_row = self.document["league"]
        name, number = self._name_and_number(league_row)
        self.users, created = import_users(self.document, self.warnings)
        league = League(**values_for(League, league_row, self.users, "league", skip={"name", "number"}))
        league.name, league.number = name, number
        create_keeping_times(League, [league])
        league.moderators.set(self._people(league_row, "moderators", "league"))
        league.winners.set(self._people(league_row, "winners", "league"))
        self.league = league

        round_rows = list_at(self.document, "rounds", "document", required=True)
        self._rounds(round_rows)
        self._flush(Round, AcceptedCard, HandsPreview, BonusAward, RoundTally)
        self._eligible_players(round_rows)
        self._hands(round_rows)
        self._flush(Hand, HandVersion, HandReview, HandTally)
        self._matches(round_rows)
        self._flush(Match)
        self._match_rows(round_rows)
        self._flush(MatchReport, Challenge)
        self._audit_trail()
        self._flush(AuditEntry)
        self._warn_about(league)
        return ImportResult(
            league=league,
            users_created=sorted(created),
            users_matched=sorted(set(self.users) - set(created)),
            counts=self.counts,
            warnings=self.warnings,
        )

    # League -------------------------------------------------------------------------------------------------

    def _name_and_number(self, row):
        name = (self.rename if self.rename is not None else row.get("name")) or ""
        if not isinstance(name, str) or not name.strip():
            raise TransferFormatError("league.name: the league needs a name.")
        name = name.strip()
        if League.objects.filter(name__iexact=name).exists():
            raise TransferConflict(
                f"A league called “{name}” already exists here; import it under another name with --rename."
            )
        number = league_number_from_name(name) if self.rename is not None else row.get("number")
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
            raise TransferFormatError(f"league.number: expected a whole number, got {number!r}.")
        if number is not None and number < 0:
            raise TransferFormatError(f"league.number: {number} is below 0.")
        if league_number_problem(number):
            raise TransferFormatError(f"league.number: {league_number_problem(number)}")
        if number is not None and League.objects.filter(number=number).exists():
            raise TransferConflict(
                f"League number {number} is already taken here; import it with --rename and another number."
            )
        return name, number

    def _people(self, row, key, path):
        return [
            user_named(name, self.users, f"{path}.{key}[{i}]")
            for i, name in enumerate(list_at(row, key, path))
        ]

    # Rounds -------------------------------------------------------------------------------------------------

    def _rounds(self, round_rows):
        for index, row in enumerate(round_rows):
            path = f"rounds[{index}]"
            round_ = Round(league=self.league, **values_for(Round, row, self.users, path, skip={"league"}))
            if round_.number in self.rounds:
                raise TransferFormatError(f"{path}: round number {round_.number} appears twice.")
            self.rounds[round_.number] = round_
            self._add(Round, round_)
            for model, key in (
                (AcceptedCard, "accepted_cards"),
                (HandsPreview, "hands_previews"),
                (BonusAward, "bonus_awards"),
            ):
                for i, item in enumerate(list_at(row, key, path)):
                    self._add(
                        model,
                        model(
                            round=round_,
                            **values_for(model, item, self.users, f"{path}.{key}[{i}]", skip={"round"}),
                        ),
                    )
            if row.get("tally") is not None:
                tally = values_for(RoundTally, row["tally"], self.users, f"{path}.tally", skip={"round"})
                self._add(RoundTally, RoundTally(round=round_, **tally))

    def _eligible_players(self, round_rows):
        through = Round.eligible_players.through
        links = [
            through(round=self.rounds[row["number"]], user=user)
            for index, row in enumerate(round_rows)
            for user in self._people(row, "eligible_players", f"rounds[{index}]")
        ]
        through.objects.bulk_create(links)
        self.counts["tie-break eligible players"] = len(links)

    # Hands --------------------------------------------------------------------------------------------------

    def _hands(self, round_rows):
        for index, round_row in enumerate(round_rows):
            round_ = self.rounds[round_row["number"]]
            for h, row in enumerate(list_at(round_row, "hands", f"rounds[{index}]")):
                path = f"rounds[{index}].hands[{h}]"
                hand = Hand(round=round_, **values_for(Hand, row, self.users, path, skip={"round"}))
                key = (round_.number, hand.player.get_username())
                if key in self.hands:
                    raise TransferFormatError(f"{path}: a second hand of {key[1]} in round {round_.number}.")
                self.hands[key] = hand
                self._add(Hand, hand)
                self._hand_rows(hand, row, path)

    def _hand_rows(self, hand, row, path):
        for i, item in enumerate(list_at(row, "versions", path)):
            where = f"{path}.versions[{i}]"
            version = HandVersion(
                hand=hand, **values_for(HandVersion, item, self.users, where, skip={"hand"})
            )
            if not isinstance(version.cards, list) or not all(
                isinstance(card, str) for card in version.cards
            ):
                raise TransferFormatError(f"{where}.cards: expected a list of card names.")
            self._add(HandVersion, version)
        for i, item in enumerate(list_at(row, "reviews", path)):
            values = values_for(HandReview, item, self.users, f"{path}.reviews[{i}]", skip={"hand"})
            self._add(HandReview, HandReview(hand=hand, **values))
        if row.get("tally") is not None:
            values = values_for(HandTally, row["tally"], self.users, f"{path}.tally", skip={"round", "hand"})
            self._add(HandTally, HandTally(round=hand.round, hand=hand, **values))

    # Matches ------------------------------------------------------------------------------------------------

    def _matches(self, round_rows):
        for index, round_row in enumerate(round_rows):
            round_ = self.rounds[round_row["number"]]
            for m, row in enumerate(list_at(round_row, "matches", f"rounds[{index}]")):
                path = f"rounds[{index}].matches[{m}]"
                values = values_for(Match, row, self.users, path, skip={"round", "hand_a", "hand_b"})
                a, b = self._hand_of(round_, row, "hand_a", path), self._hand_of(round_, row, "hand_b", path)
                match = Match(round=round_, hand_a=a, hand_b=b, **values)
                self.matches[(round_.number, row["hand_a"], row["hand_b"])] = match
                self._add(Match, match)

    def _hand_of(self, round_, row, key, path):
        player = row.get(key)
        hand = self.hands.get((round_.number, player)) if _is_key(player) else None
        if hand is None:
            raise TransferFormatError(f"{path}.{key}: {player!r} has no hand in round {round_.number}.")
        return hand

    def _match_rows(self, round_rows):
        for index, round_row in enumerate(round_rows):
            number = round_row["number"]
            for m, row in enumerate(round_row.get("matches", [])):
                path = f"rounds[{index}].matches[{m}]"
                match = self.matches[(number, row["hand_a"], row["hand_b"])]
                for i, item in enumerate(list_at(row, "reports", path)):
                    values = values_for(MatchReport, item, self.users, f"{path}.reports[{i}]", skip={"match"})
                    self._add(MatchReport, MatchReport(match=match, **values))
                for i, item in enumerate(list_at(row, "challenges", path)):
                    where = f"{path}.challenges[{i}]"
                    challenge = Challenge(
                        match=match, **values_for(Challenge, item, self.users, where, skip={"match"})
                    )
                    ref = item.get("ref")
                    if not _is_key(ref) or ref in self.challenges:
                        raise TransferFormatError(f"{where}.ref: each challenge needs a ref of its own.")
                    self.challenges[ref] = challenge
                    self._add(Challenge, challenge)

    # Audit trail --------------------------------------------------------------------------------------------

    def _audit_trail(self):
        types = ContentType.objects.get_for_models(
            League, Round, Hand, Match, Challenge, for_concrete_models=False
        )
        for index, row in enumerate(list_at(self.document, "audit_trail", "document")):
            path = f"audit_trail[{index}]"
            subject = self._subject(row.get("subject") if isinstance(row, dict) else None, f"{path}.subject")
            values = values_for(AuditEntry, row, self.users, path, skip={"content_type", "object_id"})
            entry = AuditEntry(content_type=types[type(subject)], object_id=subject.pk, **values)
            if (
                entry.action in CHALLENGE_ACTIONS
                and isinstance(entry.after, dict)
                and "challenge" in entry.after
            ):
                ref = entry.after["challenge"]
                challenge = self.challenges.get(ref) if _is_key(ref) else None
                entry.after = {**entry.after, "challenge": challenge.pk if challenge else None}
            self._add(AuditEntry, entry)

    def _subject(self, subject, path):
        """The new row an audit entry is about, from its natural key in the file."""
        if not isinstance(subject, dict) or not all(_is_key(value) for value in subject.values()):
            raise TransferFormatError(f"{path}: expected an object of names and numbers.")
        model, number = subject.get("model"), subject.get("round")
        found = {
            "league": lambda: self.league,
            "round": lambda: self.rounds.get(number),
            "hand": lambda: self.hands.get((number, subject.get("player"))),
            "match": lambda: self.matches.get((number, subject.get("hand_a"), subject.get("hand_b"))),
            "challenge": lambda: self.challenges.get(subject.get("ref")),
        }.get(model, lambda: None)()
        if found is None:
            raise TransferFormatError(f"{path}: {json.dumps(subject)} is no row of this file.")
        return found

    # Writing ------------------------------------------------------------------------------------------------

    def _add(self, model, obj):
        self.pending[model].append(obj)

    def _flush(self, *models):
        for model in models:
            # Rows made before their parents were saved: bulk_create takes the parents' new ids itself.
            objects = self.pending.pop(model, [])
            create_keeping_times(model, objects)
            self.counts[model._meta.verbose_name_plural] = len(objects)

    # Warnings -----------------------------------------------------------------------------------------------

    def _warn_about(self, league):
        not_moderators = sorted(
            user.get_username() for user in league.moderators.all() if not is_moderator(user)
        )
        if not_moderators:
            self.warnings.append(
                "Not moderators on this instance, so they cannot manage the league yet "
                f"(python manage.py make_moderator USERNAME): {', '.join(not_moderators)}."
            )
        names = {
            card
            for version in HandVersion.objects.filter(hand__round__league=league)
            for card in version.cards
        }
        known = set(Card.objects.filter(name__in=names).values_list("name", flat=True))
        accepted = set(AcceptedCard.objects.filter(round__league=league).values_list("name", flat=True))
        unknown = sorted(names - known - accepted)
        if unknown:
            self.warnings.append(f"Cards this instance's catalog does not know: {', '.join(unknown)}.")
