"""A player's submission: the checks made under the round's shared lock (deadline, moderator preview,
tie-break eligibility, attestations, decisions, legality), then a new version when anything changed, with its
audit entry and e-mail receipt, written by one of the two write paths (write, or pg_write on PostgreSQL)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from audit.services import audit_entry
from rounds.legality import HandVerdict, accepted_cards_matter, check_hand, rules_for_round
from rounds.models import Round, RoundState
from submissions import selectors
from submissions.errors import HandConflict, HandInputError, HandNotFound, IllegalHand
from submissions.models import Hand, HandVersion
from submissions.services import pg_write, write
from submissions.services.inputs import clean_cards, clean_decisions, clean_hand_name
from submissions.services.locks import lock_own_hand, lock_round_for_submission, lower_current_version
from submissions.services.preview import PREVIEWED_MESSAGE
from submissions.services.receipts import receipt_message


@dataclass
class Submission:
    hand: Hand
    version: HandVersion
    created: bool  # the player's first hand in the round
    changed: bool  # a new version was stored (False: the same hand sent again)


def deadline_passed_message(round_: Round) -> str:
    return (
        f"Submissions for round {round_.code} closed at {round_.deadline:%Y-%m-%d %H:%M} UTC: "
        "your hand was not saved."
    )


def submittable_round(round_id: int) -> Round:
    """The round a player may submit to, or HandNotFound for unknown rounds and drafts."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None or round_.state == RoundState.DRAFT:
        raise HandNotFound("No such round.")
    return round_


def attestations_for(round_: Round) -> list[str]:
    """The game-state rules a player attests: 3.1 unless backbuild ignores it (7.6a)."""
    rules = [] if round_.backbuild else ["3.1"]
    if round_.life_rule:
        rules.append("7.5b")
    if round_.backbuild:
        rules.append("7.6a")
    return rules


class _EveryListedRule:
    """`attested=EVERY_LISTED_RULE`: the player attested, in one confirmation (the API's "attest": true),
    every rule the round asks them to attest; resolved under the round's lock to attestations_for(round)."""

    def __repr__(self) -> str:
        return "EVERY_LISTED_RULE"


EVERY_LISTED_RULE = _EveryListedRule()


def attestation_error(round_: Round) -> HandInputError:
    """The 400 a submission without the attestation gets: the rules it must attest, by number."""
    rules = attestations_for(round_)
    named = f"rule{'s' if len(rules) > 1 else ''} {' and '.join(rules)}"
    return HandInputError(
        {
            "attest": [
                f"This round asks you to attest that your hand follows {named} of the PHM rules, which the "
                'software cannot check: send "attest": true.'
            ]
        }
    )


def may_enter_tiebreak(player: User, round_: Round) -> bool:
    """Rule 5.3a: a tie-break round is open only to the players it names (none named: anyone)."""
    eligible = list(round_.eligible_players.values_list("pk", flat=True))
    return not eligible or player.pk in eligible


def tiebreak_message(round_: Round) -> str:
    players = round_.eligible_players.select_related("profile")
    names = ", ".join(sorted((selectors.player_display_name(user) for user in players), key=str.casefold))
    return f"Round {round_.code} is a tie-break round (rule 5.3a) open only to {names}."


def judge(round_: Round, cards: list[str]) -> HandVerdict:
    # Cards the moderator accepted only matter for names the catalog lacks or cards not legal in Vintage: in
    # the common case (every card resolves and is legal) the query for them is skipped.
    accepted = None if accepted_cards_matter(cards, round_) else ()
    verdict: HandVerdict = check_hand(cards, rules_for_round(round_, accepted_cards=accepted))
    return verdict


@dataclass
class HandCheck:
    """Everything wrong with one submission, found at once: `errors` by field (as HandInputError has them:
    `name`, `cards`, `attest`, `decisions` by key) and the verdict on its cards (None when the cards could not
    be read). The cleaned values are those a submission stores."""

    name: str
    cards: list[str]
    attested: list[str]
    answers: dict[str, Any]
    errors: dict[str, Any]
    verdict: HandVerdict | None

    def refusal(self) -> HandInputError | IllegalHand | None:
        """The one error that reports every problem: IllegalHand (with the field errors too) when a card or
        the hand breaks the round's rules, else HandInputError; None when nothing is wrong."""
        if self.verdict is not None and not self.verdict.legal:
            return IllegalHand(self.verdict, errors=self.errors)
        if self.errors:
            return HandInputError(self.errors)
        return None


# check_submission: a part of the input left unchecked (its caller knows its error).
NOT_GIVEN: Any = object()


def check_submission(
    round_: Round,
    *,
    name: Any = NOT_GIVEN,
    cards: Any = NOT_GIVEN,
    attested: Any = NOT_GIVEN,
    decisions: Any = NOT_GIVEN,
) -> HandCheck:
    """Every problem of a submission to `round_`, none hiding another: the hand's name, its cards (read,
    then judged under the round's rules), the attestation and the decisions (7.2b). Saves nothing and locks
    nothing: submit_hand calls it under the round's lock; a form or an API request that is refused before the
    service (a missing checkbox, a field of the wrong type) calls it to tell the rest at once. A part passed
    as NOT_GIVEN is left unchecked (its caller reports it)."""
    errors: dict[str, Any] = {}
    cleaned_name = ""
    if name is not NOT_GIVEN:
        try:
            cleaned_name = clean_hand_name(name)
        except HandInputError as error:
            errors.update(error.errors)
    verdict, cleaned_cards = None, []
    if cards is not NOT_GIVEN:
        try:
            cleaned_cards = clean_cards(cards)
        except HandInputError as error:
            errors.update(error.errors)
        else:
            verdict = judge(round_, cleaned_cards)
    rules: list[str] = []
    if attested is not NOT_GIVEN:
        every = attested is EVERY_LISTED_RULE
        rules = attestations_for(round_) if every else [str(rule) for rule in attested or ()]
        if not set(attestations_for(round_)) <= set(rules):
            errors.update(attestation_error(round_).errors)
    answers: dict[str, Any] = {}
    if decisions is not NOT_GIVEN:
        try:
            answers = clean_decisions(round_, decisions)
        except HandInputError as error:
            errors.update(error.errors)
    return HandCheck(cleaned_name, cleaned_cards, rules, answers, errors, verdict)


def check_submission_to(round_id: int, **parts: Any) -> HandCheck | None:
    """check_submission for the round `round_id` while it takes hands; None for a round that does not (no
    such round, a draft, past its deadline): its refusal is the service's, not a list of problems."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None or round_.state == RoundState.DRAFT or not round_.accepts_hands_at(timezone.now()):
        return None
    return check_submission(round_, **parts)


def submit_hand(
    *,
    player: User,
    round_id: int,
    name: str,
    cards: list[str],
    attested: Any,
    decisions: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> Submission:
    """Store `cards` as the player's current hand in the round: a new version when anything changed.

    `attested`: the rules the player attested (their form's checkbox; EVERY_LISTED_RULE for the API's
    "attest": true); it must cover attestations_for(round), and the version records exactly it.
    `decisions`: {key: answer} for the round's decisions (rule 7.2b), stored on the version, secret like the
    cards and part of the commitment.
    Raises HandNotFound, HandConflict (deadline), or one error with every problem of the input at once
    (check_submission): IllegalHand — which carries the field errors too — or HandInputError. `now` is for
    tests; by default the clock is read after the round is locked: a request that waited past the deadline
    is refused.
    """
    with transaction.atomic():
        round_, previewed = lock_round_for_submission(round_id, player)
        if round_ is None or round_.state == RoundState.DRAFT:
            raise HandNotFound("No such round.")
        moment = now or timezone.now()
        if not round_.accepts_hands_at(moment):
            raise HandConflict(deadline_passed_message(round_))
        if previewed:
            raise HandConflict(PREVIEWED_MESSAGE)
        if round_.tiebreak and not may_enter_tiebreak(player, round_):
            raise HandConflict(tiebreak_message(round_))
        # Under the lock: the rules cannot move while the hand is judged.
        checked = check_submission(
            round_,
            name=name,
            cards=cards,
            attested=attested,
            decisions=decisions if decisions is not None else {},
        )
        refusal = checked.refusal()
        if refusal is not None:
            raise refusal
        name, attested, answers = checked.name, checked.attested, checked.answers
        names = checked.verdict.names if checked.verdict is not None else []  # read: else a refusal
        hand, created = lock_own_hand(round_, player)
        hand.player = player  # already loaded: callers read the username without another query
        previous = None if created else lower_current_version(hand)
        if (
            previous is not None
            and previous.cards == names
            and previous.name == name
            and (previous.decisions or {}) == answers
        ):
            # The same hand again (rare): it stays the current version, and nothing else is written.
            HandVersion.objects.filter(pk=previous.pk).update(is_current=True)
            previous.is_current = True
            return Submission(hand=hand, version=previous, created=False, changed=False)
        version = write.new_version(
            hand,
            round_,
            player,
            name,
            names,
            attested,
            moment,
            previous,
            by=player,
            source=HandVersion.Source.PLAYER,
            save=False,
            decisions=answers,
        )
        before = {"flagged": hand.flagged, "name": hand.name}
        unflagged = hand.flagged
        hand.name = name
        hand.flagged = False  # changed after a warning (4.2a): the moderator looks again and may flag again
        # The audit names the version and its commitment, never the cards: moderators who play read it too.
        entry = audit_entry(
            hand,
            "hand.submitted" if created else "hand.changed",
            actor=player,
            before={} if created else {"version": previous.number if previous else None, **before},
            after={"version": version.number, "commitment": version.commitment, "flagged": False},
            note="The change lifted the moderator's flag." if unflagged else "",
        )
        receipt = receipt_message(version, hand, round_)
        if uses_one_statement_write():
            pg_write.save_submission(hand, version, entry, receipt)
        else:
            write.save_submission(hand, version, entry, receipt)
    return Submission(hand=hand, version=version, created=created, changed=True)


def uses_one_statement_write() -> bool:
    """Whether submissions are written by pg_write's one statement: on PostgreSQL, unless the setting
    SUBMISSIONS_ORM_WRITE asks for the ORM's saves (the benchmark's comparison; tests of the two paths)."""
    return connection.vendor == "postgresql" and not getattr(settings, "SUBMISSIONS_ORM_WRITE", False)
