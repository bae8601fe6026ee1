"""Hand operations: submit (with versions and commitments), moderator review, reveal. Pages, the API, tasks
and tests all call these; none of them decides a rule by itself.

Every write that depends on the deadline locks the round row first, then reads the clock: a submission and the
reveal can therefore never interleave, and a request that waited for the lock past the deadline is refused.
"""

import dataclasses
import functools
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from outbox import deferred as outbox_deferred
from outbox import rendering
from outbox import services as outbox
from outbox.models import Message
from phm.links import site_url
from phm.text import clean_name
from rounds.catalog.resolve import resolve_name
from rounds.legality import accepted_cards_matter, check_hand, rules_for_round
from rounds.locks import lock_round, lock_round_shared
from rounds.models import MAX_HAND_SIZE, League, Round, RoundState
from rounds.models.audit import audit_entry, log_action
from rounds.permissions import can_manage_league, own_hand_refusal, own_interest_refusal
from rounds.variants import MAX_DECISION_TEXT

from . import commitments, notifications, rows, selectors, signals
from .models import Hand, HandReview, HandsPreview, HandStatus, HandVersion
from .similar_hands import card_changes

logger = logging.getLogger(__name__)

MAX_NAME_LENGTH = 100
MAX_CARD_INPUTS = 20  # more than any hand size (at most 15): refuse absurd payloads before judging them
MAX_CARD_NAME_LENGTH = 200
NOTICE_4_2B = "This hand does not enable its player to win the game against any possible hand (rule 4.2b)."


# Errors -----------------------------------------------------------------------------------------------------


class HandNotFound(Exception):
    """No such hand or round — or one the caller may not see (HTTP 404, never a 403 that confirms it)."""


class HandInputError(ValueError):
    """Malformed input: `errors` maps field names to plain sentences (HTTP 400)."""

    def __init__(self, errors):
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(value)}" for key, value in errors.items()))


class IllegalHand(ValueError):
    """The hand breaks the round's rules; `verdict` says where, per card (HTTP 400)."""

    def __init__(self, verdict):
        self.verdict = verdict
        super().__init__("The hand is not legal for this round.")


class HandConflict(Exception):
    """The round's state forbids it: deadline passed, or too early for an after-deadline action (HTTP 409)."""


class ReviewNotAllowed(Exception):
    """The viewer may see the hand but not review it (HTTP 403)."""


# Submitting -------------------------------------------------------------------------------------------------


@dataclass
class Submission:
    hand: Hand
    version: HandVersion
    created: bool  # the player's first hand in the round
    changed: bool  # a new version was stored (False: the same hand sent again)


def deadline_passed_message(round_):
    return (
        f"Submissions for round {round_.code} closed at {round_.deadline:%Y-%m-%d %H:%M} UTC: "
        "your hand was not saved."
    )


def _clean_name(name):
    name = clean_name(name)  # no bidi overrides, zero-width or control characters (phm.text)
    if len(name) > MAX_NAME_LENGTH:
        raise HandInputError({"name": [f"A hand name has at most {MAX_NAME_LENGTH} characters."]})
    return name


def _clean_cards(cards):
    if not isinstance(cards, list | tuple) or not all(isinstance(card, str) for card in cards):
        raise HandInputError({"cards": ["Send the cards as a list of card names."]})
    if len(cards) > MAX_CARD_INPUTS:
        raise HandInputError({"cards": [f"A hand has at most {MAX_HAND_SIZE} cards, not {len(cards)}."]})
    cleaned = [" ".join(card.split()) for card in cards]
    if any(len(card) > MAX_CARD_NAME_LENGTH for card in cleaned):
        raise HandInputError({"cards": ["A card name that long is not a card name."]})
    return cleaned


def submittable_round(round_id):
    """The round a player may submit to, or HandNotFound for unknown rounds and drafts."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None or round_.state == RoundState.DRAFT:
        raise HandNotFound("No such round.")
    return round_


def attestations_for(round_):
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

    def __repr__(self):
        return "EVERY_LISTED_RULE"


EVERY_LISTED_RULE = _EveryListedRule()


def attestation_error(round_):
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


def clean_decisions(round_, answers):
    """The player's answers to the round's decisions (rule 7.2b), checked and normalised: {key: value}.

    Every decision is required; a choice must be one of its choices, a card a name the catalog knows (spelled
    as the catalog does), a number a whole number. Raises HandInputError({"decisions": {key: [problem]}})."""
    specs = round_.decisions or []
    if not specs and not answers:
        return {}
    if answers is None:
        answers = {}
    if not isinstance(answers, dict):
        raise HandInputError({"decisions": ["Send the decisions as {key: answer}."]})
    known = {spec["key"] for spec in specs}
    problems = {key: ["This round asks no such decision."] for key in answers if key not in known}
    cleaned = {}
    for spec in specs:
        key, value = spec["key"], answers.get(spec["key"])
        answer, problem = _clean_answer(spec, value)
        if problem:
            problems[key] = [problem]
        else:
            cleaned[key] = answer
    if problems:
        raise HandInputError({"decisions": problems})
    return cleaned


def _clean_answer(spec, value):
    """(the answer to store, None) or (None, the problem) for one decision."""
    label = spec["label"]
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, f"“{label}” is required in this round (rule 7.2b)."
    kind = spec["kind"]
    if kind == "number":
        if isinstance(value, bool):
            return None, f"“{label}” takes a whole number."
        try:
            number = int(str(value).strip())
        except ValueError:
            return None, f"“{label}” takes a whole number, not “{str(value)[:40]}”."
        if abs(number) > 10**9:
            return None, f"“{label}” takes a number between -1,000,000,000 and 1,000,000,000."
        return number, None
    if not isinstance(value, str | int) or isinstance(value, bool):
        return None, f"“{label}” takes text."
    text = clean_name(str(value))
    if len(text) > MAX_DECISION_TEXT:
        return None, f"“{label}” has at most {MAX_DECISION_TEXT} characters."
    if kind == "choice":
        by_folded = {choice.casefold(): choice for choice in spec.get("choices", [])}
        if text.casefold() not in by_folded:
            return None, f"“{label}” is one of: {', '.join(spec.get('choices', []))}."
        return by_folded[text.casefold()], None
    if kind == "card":
        resolution = resolve_name(text)
        if resolution.resolved and resolution.status != "fuzzy":
            return resolution.card.name, None
        hint = ", ".join(resolution.suggestion_names[:5])
        return None, f"“{text}” is not a card name we know." + (f" Did you mean: {hint}?" if hint else "")
    return text, None


def may_enter_tiebreak(player, round_):
    """Rule 5.3a: a tie-break round is open only to the players it names (none named: anyone)."""
    eligible = list(round_.eligible_players.values_list("pk", flat=True))
    return not eligible or player.pk in eligible


def tiebreak_message(round_):
    players = round_.eligible_players.select_related("profile")
    names = ", ".join(sorted((selectors.player_display_name(user) for user in players), key=str.casefold))
    return f"Round {round_.code} is a tie-break round (rule 5.3a) open only to {names}."


def judge(round_, cards):
    # Cards the moderator accepted only matter for names the catalog lacks or cards not legal in Vintage: in
    # the common case (every card resolves and is legal) the query for them is skipped.
    accepted = None if accepted_cards_matter(cards, round_) else ()
    return check_hand(cards, rules_for_round(round_, accepted_cards=accepted))


def _lock_round_shared(round_id, previewer=None):
    """The round row under a shared lock: submissions to one round run side by side, while the operations that
    move its deadline or reveal it (FOR UPDATE) wait for them, and they for those. None if no such round.

    With `previewer`, the same query also tells (as `round_.previewed`) whether that user saw the round's
    hands as its moderator before the deadline (HandsPreview), which bars them from playing in it."""
    if previewer is None:
        return lock_round_shared(round_id)
    if connection.vendor == "postgresql":
        db = rows.database()
        round_, extra = rows.fetch_one(db, Round, _round_lock_sql(), [previewer.pk, round_id])
        if round_ is None:
            return None
        previewed, league_name, league_number = extra
        round_.previewed = previewed
        # The league's name and number come along (the round's code, in the receipt's subject), as a League
        # whose other fields load if read.
        round_.league = League.from_db(
            db.alias, ["id", "name", "number"], [round_.league_id, league_name, league_number]
        )
        return round_
    return (  # SQLite locks the whole file anyway
        Round.objects.select_for_update()
        .select_related("league")
        .filter(pk=round_id)
        .annotate(previewed=Exists(HandsPreview.objects.filter(round=OuterRef("pk"), moderator=previewer)))
        .first()
    )


@functools.cache
def _round_lock_sql():
    """The round FOR SHARE with the previewer's HandsPreview (EXISTS) and its league's name and number."""
    table, previews = Round._meta.db_table, HandsPreview._meta.db_table
    leagues = League._meta.db_table
    return (
        f'SELECT {rows.select_list(Round, "r")}, EXISTS (SELECT 1 FROM "{previews}" p '  # noqa: S608
        f'WHERE p."round_id" = r."id" AND p."moderator_id" = %s), l."name", l."number" FROM "{table}" r '
        f'JOIN "{leagues}" l ON l."id" = r."league_id" WHERE r."id" = %s FOR SHARE OF r'
    )


def _lower_current_version(hand):
    """Mark the hand's current version as no longer current and return it (None if it has none), in one
    statement. Call it with the hand row locked: the UPDATE reads the latest committed versions, so a version
    another tab of the same player stored while this request waited for the lock is the one lowered."""
    if connection.vendor == "postgresql":
        return rows.fetch_one(rows.database(), HandVersion, _lower_current_version_sql(), [False, hand.pk])[0]
    table = HandVersion._meta.db_table
    found = list(
        HandVersion.objects.raw(
            f'UPDATE "{table}" SET "is_current" = %s WHERE "hand_id" = %s AND "is_current" RETURNING *',  # noqa: S608
            [False, hand.pk],
        )
    )
    return found[0] if found else None


@functools.cache
def _lower_current_version_sql():
    table = f'"{HandVersion._meta.db_table}"'
    return (
        f'UPDATE {table} SET "is_current" = %s WHERE "hand_id" = %s AND "is_current" '  # noqa: S608
        f"RETURNING {rows.select_list(HandVersion, table)}"
    )


def _locked_hand(round_id, player_id):
    """The player's hand in the round, FOR UPDATE, or None. On PostgreSQL by SQL written once rather than a
    queryset compiled on every submission."""
    if connection.vendor != "postgresql":
        return Hand.objects.select_for_update().filter(round_id=round_id, player_id=player_id).first()
    return rows.fetch_one(rows.database(), Hand, _locked_hand_sql(), [round_id, player_id])[0]


@functools.cache
def _locked_hand_sql():
    table = Hand._meta.db_table
    return (
        f'SELECT {rows.select_list(Hand, "h")} FROM "{table}" h '  # noqa: S608
        'WHERE h."round_id" = %s AND h."player_id" = %s FOR UPDATE'
    )


def _lock_own_hand(round_, player):
    """The player's hand row, locked so two submissions of one player make versions one after the other;
    created when missing (a concurrent first submission of the same player loses the insert and retries)."""
    hand = _locked_hand(round_.pk, player.pk)
    if hand is not None:
        return hand, False
    # A first hand races a moderator's declaration that they will not play (declare_not_playing). That holds
    # the round FOR UPDATE; our round lock waited for it, but the lock query read the previews with a snapshot
    # taken before it committed. This query's snapshot is newer, so a declaration committed meanwhile is seen.
    if HandsPreview.objects.filter(round=round_, moderator=player).exists():
        raise HandConflict(PREVIEWED_MESSAGE)
    try:
        with transaction.atomic():
            return Hand.objects.create(round=round_, player=player), True
    except IntegrityError:
        return Hand.objects.select_for_update().get(round=round_, player=player), False


PREVIEWED_MESSAGE = (
    "You chose to see the other hands of this round as its moderator, so you cannot play in it "
    "(a moderator who plays may not see the other hands before the deadline)."
)


DECLARE_FIRST_MESSAGE = (
    "Before the deadline you see this round's hands only after declaring that you will not play in it "
    "(POST /api/rounds/{id}/preview/, or the button on the review page)."
)


@transaction.atomic
def declare_not_playing(*, moderator, round_id, now=None):
    """A moderator of the round's league declares "I will not play in this round" and may see its hands
    before the deadline. An explicit POST, never a page view.

    Serialised with submissions: the round row is locked FOR UPDATE, so a submission in flight (FOR SHARE)
    finishes first and its hand is seen below; a submission that starts later waits for this commit and then
    sees the declaration (_lock_own_hand). Returns the HandsPreview, or None past the deadline (everyone sees
    the hands then). Raises HandNotFound, ReviewNotAllowed, or HandConflict when they have a hand."""
    round_ = lock_round(round_id)
    if round_ is None or round_.state == RoundState.DRAFT:
        raise HandNotFound("No such round.")
    if not can_manage_league(moderator, round_.league):
        raise ReviewNotAllowed("Only a moderator of this league can see its hands before the deadline.")
    moment = now or timezone.now()
    if not round_.accepts_hands_at(moment):
        return None
    if Hand.objects.filter(round=round_, player=moderator).exists():
        raise HandConflict(
            "You have a hand in this round, so you cannot see the other hands before the deadline "
            "(a moderator who plays may not)."
        )
    preview, created = HandsPreview.objects.get_or_create(
        round=round_, moderator=moderator, defaults={"first_seen_at": moment}
    )
    if created:
        log_action(round_, "round.hands_previewed", actor=moderator, after={"plays": False})
    return preview


def submit_hand(*, player, round_id, name, cards, attested, decisions=None, now=None):
    """Store `cards` as the player's current hand in the round: a new version when anything changed.

    `attested`: the rules the player attested (their form's checkbox; EVERY_LISTED_RULE for the API's
    "attest": true); it must cover attestations_for(round), and the version records exactly it.
    `decisions`: {key: answer} for the round's decisions (rule 7.2b), stored on the version, secret like the
    cards and part of the commitment.
    Raises HandNotFound, HandInputError, IllegalHand or HandConflict (deadline). `now` is for tests; by
    default the clock is read after the round is locked: a request that waited past the deadline is refused.
    """
    name = _clean_name(name)
    cards = _clean_cards(cards)
    with transaction.atomic():
        round_ = _lock_round_shared(round_id, previewer=player)
        if round_ is None or round_.state == RoundState.DRAFT:
            raise HandNotFound("No such round.")
        moment = now or timezone.now()
        if not round_.accepts_hands_at(moment):
            raise HandConflict(deadline_passed_message(round_))
        if round_.previewed:
            raise HandConflict(PREVIEWED_MESSAGE)
        if round_.tiebreak and not may_enter_tiebreak(player, round_):
            raise HandConflict(tiebreak_message(round_))
        if attested is EVERY_LISTED_RULE:
            attested = attestations_for(round_)
        attested = [str(rule) for rule in (attested or ())]
        if not set(attestations_for(round_)) <= set(attested):
            raise attestation_error(round_)
        answers = clean_decisions(round_, decisions)
        verdict = judge(round_, cards)  # under the lock: the rules cannot move while the hand is judged
        if not verdict.legal:
            raise IllegalHand(verdict)
        names = verdict.names
        hand, created = _lock_own_hand(round_, player)
        hand.player = player  # already loaded: callers read the username without another query
        previous = None if created else _lower_current_version(hand)
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
        version = _new_version(
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
        _save_submission(hand, version, entry, receipt)
    return Submission(hand=hand, version=version, created=created, changed=True)


def _save_submission(hand, version, entry, receipt=None):
    """Write a submission: the hand's new name and flag, its new version, the audit entry and the receipt's
    outbox message (None: the player has no e-mail address), which names the new version (`source_id`).

    On PostgreSQL in one statement (data-modifying CTEs, the receipt's INSERT reading the version's new id),
    whose text is built once per process (_submission_sql) and whose values are prepared by the models' own
    fields, as `hand.save(update_fields=…)`, `version.save()`, `entry.save()` and `receipt.save()` would;
    elsewhere by those calls. The rows are independent of each other but for the receipt's version id (the old
    version was lowered before), so their order inside the statement does not matter."""
    if connection.vendor != "postgresql":
        hand.save(update_fields=["name", "flagged", "updated_at"])
        version.save(force_insert=True)
        entry.save(force_insert=True)
        if receipt is not None:
            receipt.source_id = version.pk
            outbox.queue([receipt])
        return
    hand.updated_at = timezone.now()  # what auto_now does on save()
    # The connection itself, not the `connection` proxy: every field's preparation reads it several times,
    # and each read of the proxy is a thread-local lookup.
    db = connections[DEFAULT_DB_ALIAS]
    params = [
        *_insert_params(version, db),
        *_field_params(Hand, HAND_UPDATE_FIELDS, hand, db),
        hand.pk,
        *_insert_params(entry, db),
    ]
    if receipt is not None:
        params.extend(_insert_params(receipt, db, without=("source_id",)))
    with db.cursor() as cursor:
        cursor.execute(_submission_sql(type(entry), with_receipt=receipt is not None), params)
        row = cursor.fetchone()
    version.pk = row[0]
    saved_rows = [version, entry]
    if receipt is not None:
        receipt.pk, receipt.source_id = row[1], version.pk
        saved_rows.append(receipt)
        outbox.send_after_commit([receipt.pk])
    for saved in saved_rows:
        saved._state.adding = False
        saved._state.db = db.alias


HAND_UPDATE_FIELDS = ("name", "flagged", "updated_at")


@functools.cache
def _inserted_fields(model, without=()):
    return [
        field
        for field in model._meta.local_concrete_fields
        if not field.primary_key and field.attname not in without
    ]


def _field_params(model, names, obj, db):
    """The values obj.save() would send for these fields (their own get_db_prep_save)."""
    return [model._meta.get_field(name).get_db_prep_save(getattr(obj, name), db) for name in names]


def _insert_params(obj, db, without=()):
    """The values obj.save() would INSERT for a new row, in _inserted_fields order."""
    fields = _inserted_fields(type(obj), without)
    return [field.get_db_prep_save(field.pre_save(obj, True), db) for field in fields]


@functools.cache
def _submission_sql(audit_model, with_receipt):
    """The text of the submission's one statement (PostgreSQL): built once per process, not compiled by the
    ORM on every PUT. Its placeholders follow _save_submission's params."""
    qn = connection.ops.quote_name

    def insert(model, without=()):
        fields = _inserted_fields(model, without)
        columns = ", ".join(qn(field.column) for field in fields)
        return f"INSERT INTO {qn(model._meta.db_table)} ({columns})", ", ".join(["%s"] * len(fields))

    version_insert, version_values = insert(HandVersion)
    audit_insert, audit_values = insert(audit_model)
    assignments = ", ".join(f"{qn(Hand._meta.get_field(name).column)} = %s" for name in HAND_UPDATE_FIELDS)
    ctes = [
        f'"version_insert" AS ({version_insert} VALUES ({version_values}) RETURNING "id")',
        f'"hand_update" AS (UPDATE {qn(Hand._meta.db_table)} SET {assignments} WHERE "id" = %s)',  # noqa: S608
        f'"audit_insert" AS ({audit_insert} VALUES ({audit_values}))',
    ]
    selected = ['(SELECT "id" FROM "version_insert")']
    if with_receipt:
        receipt_insert, receipt_values = insert(Message, without=("source_id",))
        receipt_cte = (
            f'"receipt_insert" AS ({receipt_insert[:-1]}, "source_id") '  # noqa: S608  (names from _meta)
            f'SELECT {receipt_values}, "id" FROM "version_insert" RETURNING "id")'
        )
        ctes.append(receipt_cte)
        selected.append('(SELECT "id" FROM "receipt_insert")')
    return f"WITH {', '.join(ctes)} SELECT {', '.join(selected)}"


def _new_version(
    hand, round_, player, name, cards, attested, moment, previous, *, by, source, save=True, decisions=None
):
    """The hand's next version, made current. `previous` must already be lowered (_lower_current_version):
    the partial unique index allows one current version at any instant. With save=False the version is
    returned unsaved, for _save_submission. `decisions` None: the previous version's (a moderator's similar
    hand keeps the player's decisions).

    `source` says who made it, explicitly: HandVersion.Source.PLAYER for the player's own submission only,
    MODERATOR for anything a moderator made of it — whoever `by` is. Only the player's own last version is
    the commitment the round page and the hands list publish (selectors._attach_versions)."""
    if decisions is None:
        decisions = dict(previous.decisions or {}) if previous is not None else {}
    number = (previous.number if previous else 0) + 1
    if previous is None and hand.pk:
        last = (
            HandVersion.objects.filter(hand=hand).order_by("-number").values_list("number", flat=True).first()
        )
        number = (last or 0) + 1
    nonce = commitments.new_nonce()
    commitment = commitments.commitment_for(
        round_id=round_.pk,
        username=player.get_username(),
        version=number,
        name=name,
        cards=cards,
        nonce=nonce,
        decisions=decisions,
    )
    version = HandVersion(
        hand=hand,
        number=number,
        name=name,
        cards=cards,
        attested=attested,
        decisions=decisions,
        nonce=nonce,
        commitment=commitment,
        source=source,
        created_by=by,
        submitted_at=moment,
        is_current=True,
    )
    if save:
        version.save(force_insert=True)
    return version


# Mail -------------------------------------------------------------------------------------------------------

RECEIPT_KIND = "hand.receipt"
RECEIPT_TEMPLATE = "submissions/email/receipt.txt"


def receipt_message(version, hand, round_):
    """The receipt by e-mail: an unsaved outbox message (None without an address), its body rendered by the
    worker that sends it (render_receipt), so the submission only INSERTs a small row. The caller sets
    `source_id` to the version's id. Secret: the body lists the cards."""
    return outbox_deferred.email(
        kind=RECEIPT_KIND,
        user=hand.player,
        subject=receipt_subject(round_, version),
        round_=round_,
        secret=True,
    )


def receipt_subject(round_, version):
    return f"[PHM] Your hand for round {round_.code}, version {version.number}"


def render_receipt(message):
    """(text, HTML) of a receipt from its hand version: the same hand, time, version and commitment as the
    receipt page, to the hand's own player only."""
    version = (
        HandVersion.objects.select_related("hand__round__league", "hand__player__profile")
        .filter(pk=message.source_id)
        .first()
    )
    if version is None:
        raise outbox_deferred.SourceGone(f"hand version {message.source_id} is gone")
    hand, round_ = version.hand, version.hand.round
    if hand.player_id != message.recipient_id:
        raise outbox_deferred.SourceGone(f"hand version {version.pk} is not the recipient's")
    context = {
        "version": version,
        "hand": hand,
        "round": round_,
        "url": site_url(reverse("submissions:receipt", args=[round_.pk, version.number])),
    }
    return rendering.render_email(
        kind=RECEIPT_KIND,
        user=hand.player,
        subject=message.subject,
        template=RECEIPT_TEMPLATE,
        context=context,
    )


# Moderator review -------------------------------------------------------------------------------------------

REVIEW_ACTIONS = [choice for choice, _ in HandReview.Action.choices]
AFTER_DEADLINE_ONLY = {HandReview.Action.DISQUALIFY, HandReview.Action.REPLACE}


def reviewable_hand(actor, hand_id, now=None):
    """The hand `actor` may review: HandNotFound when they may not even see it, ReviewNotAllowed otherwise."""
    now = now or timezone.now()
    hand = selectors.visible_hand(actor, hand_id, now)
    if hand is None:
        hidden = Hand.objects.select_related("round__league").filter(pk=hand_id).first()
        if hidden is not None and selectors.needs_declaration(actor, hidden.round, now):
            raise HandConflict(DECLARE_FIRST_MESSAGE.format(id=hidden.round_id))
        raise HandNotFound("No such hand.")
    if not selectors.can_review(actor, hand.round, now):
        if hand.player_id == actor.pk and not selectors.is_revealed(hand.round, now):
            raise HandNotFound("No such hand.")  # a player's own hand is theirs to change, not to review
        raise ReviewNotAllowed("Only a moderator of this league can review hands.")
    refusal = review_refusal(actor, hand)
    if refusal:
        raise ReviewNotAllowed(refusal)
    return hand


def review_refusal(actor: AbstractBaseUser | AnonymousUser, hand: Hand) -> str:
    """Why a moderator who may see `hand` may not review it, or "" (docs/api.md: review). Their own hand:
    never, even as the league's only moderator. Any hand of a round they play in (possible only after the
    reveal): only when nobody else can manage the league — then it is shown as decided by a moderator who
    played this round (selectors.by_a_player_of_the_round). rounds.permissions holds the rule."""
    if hand.player_id == actor.pk:
        return own_hand_refusal(actor, hand.round.league)
    if Hand.objects.filter(round_id=hand.round_id, player_id=actor.pk).exists():
        return _opponent_refusal(actor, hand.round.league)
    return ""


def review_refusals(
    actor: AbstractBaseUser | AnonymousUser, round_: Round, hands: Iterable[Hand]
) -> dict[int, str]:
    """{hand id: review_refusal(actor, hand)} for the hands of `round_` (all of them, as the review page lists
    them), in a constant number of queries; empty when `actor` has no hand among them."""
    if not any(hand.player_id == actor.pk for hand in hands):
        return {}
    own, others = own_hand_refusal(actor, round_.league), _opponent_refusal(actor, round_.league)
    return {hand.pk: own if hand.player_id == actor.pk else others for hand in hands}


def _opponent_refusal(actor, league):
    return own_interest_refusal(
        actor,
        league,
        what="review hands in this round",
        why="you play in it, and each of its hands is your opponent",
    )


def review_hand(*, actor, hand_id, action, message="", cards=None, name="", now=None):
    """Apply one review action (POST /api/hands/{id}/review/ in docs/api.md); audited; the player is told."""
    if action not in REVIEW_ACTIONS:
        raise HandInputError({"action": [f"Choose one of: {', '.join(REVIEW_ACTIONS)}."]})
    message = (message or "").strip()
    hand = reviewable_hand(actor, hand_id, now)
    with transaction.atomic():
        round_ = _lock_round_shared(hand.round_id)
        # Only the hand's row: locking its player's row too would deadlock with a report by that player, whose
        # insert checks the player's key while this review waits for the round's tally (4.2a supersession).
        hand = Hand.objects.select_for_update(of=("self",)).select_related("player").get(pk=hand.pk)
        moment = now or timezone.now()
        past_deadline = not round_.accepts_hands_at(moment)
        if action in AFTER_DEADLINE_ONLY and not past_deadline:
            raise HandConflict(
                "A hand can be disqualified or replaced only after the deadline (rule 4.2a); "
                "before it, flag the hand so the player can fix it."
            )
        if action in AFTER_DEADLINE_ONLY and round_.state == RoundState.FINAL:
            raise HandConflict(
                f"Round {round_.code} is final: reopen it before disqualifying or replacing a hand."
            )
        before, after = _apply_review(hand, round_, actor, action, message, cards, name, moment)
        hand.save()
        review = HandReview.objects.create(
            hand=hand, action=action, message=message or after.get("notice", ""), moderator=actor
        )
        log_action(hand, f"hand.{action}", actor=actor, before=before, after=after, note=message)
        notifications.hand_reviewed(review, hand, round_)
    return hand


def _apply_review(hand, round_, actor, action, message, cards, name, moment):
    Action = HandReview.Action
    if action == Action.FLAG:
        if not message:
            raise HandInputError({"message": ["Tell the player what is wrong with the hand."]})
        before = {"flagged": hand.flagged, "flag_message": hand.flag_message}
        hand.flagged, hand.flag_message = True, message
        return before, {"flagged": True, "flag_message": message}
    if action == Action.UNFLAG:
        before = {"flagged": hand.flagged, "flag_message": hand.flag_message}
        hand.flagged, hand.flag_message = False, ""
        return before, {"flagged": False, "flag_message": ""}
    if action == Action.NOTICE:
        before = {"notice": hand.notice}
        hand.notice = message or NOTICE_4_2B
        return before, {"notice": hand.notice}
    if action == Action.RENAME:
        new_name = _clean_name(name)
        if not new_name:
            raise HandInputError({"name": ["Give the hand its new name."]})
        before = {"name": hand.name}
        hand.name = new_name
        return before, {"name": new_name}
    if action == Action.DISQUALIFY:
        before = {"status": hand.status}
        hand.status, hand.disqualification_reason = HandStatus.DISQUALIFIED, message
        signals.hand_disqualified.send(sender=Hand, round_id=round_.pk, hand_id=hand.pk, actor=actor)
        return before, {"status": HandStatus.DISQUALIFIED}
    return _replace_with_similar_hand(hand, round_, actor, cards, moment)


def _replace_with_similar_hand(hand, round_, actor, cards, moment):
    """Rule 4.2a: "a similar hand, in which any cards causing that hand to be illegal have been removed or
    replaced". Removing cards makes it shorter than the round's hand size, so the replacement may have from
    one card up to the hand size; otherwise it must be legal under the round's rules. The new version records
    which cards it removed or replaced, for everyone to see with the hand after the reveal."""
    cards = _clean_cards(cards if cards is not None else [])
    if not cards:
        raise HandInputError({"cards": ["Give the cards of the similar hand."]})
    if len(cards) > round_.hand_size:
        raise HandInputError(
            {
                "cards": [
                    f"A similar hand has at most the round's {round_.hand_size} cards, not {len(cards)}: "
                    "rule 4.2a removes or replaces cards, it adds none."
                ]
            }
        )
    # The round's rules but its hand size: the count was checked above (at most N, at least one).
    rules = dataclasses.replace(rules_for_round(round_), hand_size=None)
    verdict = check_hand(cards, rules)
    if not verdict.legal:
        raise IllegalHand(verdict)
    previous = _lower_current_version(hand)
    old_cards = list(previous.cards) if previous else []
    version = _new_version(
        hand,
        round_,
        hand.player,
        hand.name,
        verdict.names,
        [],
        moment,
        previous,
        by=actor,
        source=HandVersion.Source.MODERATOR,
        save=False,
    )
    version.card_changes = card_changes(old_cards, version.cards)
    version.save(force_insert=True)
    before = {"status": hand.status, "cards": old_cards}
    hand.status = HandStatus.REPLACED
    signals.hand_replaced.send(sender=Hand, round_id=round_.pk, hand_id=hand.pk, actor=actor)
    return before, {
        "status": HandStatus.REPLACED,
        "cards": version.cards,
        "version": version.number,
        "card_changes": version.card_changes,
    }


# Reveal -----------------------------------------------------------------------------------------------------


def reveal_round(round_id, now=None):
    """Materialise the reveal of a round past its deadline: number its hands 01, 02… by first submission and
    mark it revealed. Idempotent and safe concurrently (the round row is locked); True when it did the work.
    Pages never wait for this: past the deadline they show the same numbers computed the same way."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().filter(pk=round_id).first()
        if round_ is None or round_.state != RoundState.OPEN:
            return False
        if round_.deadline > (now or timezone.now()):
            return False  # the deadline moved: the task scheduled for the new one will do it
        hands = list(Hand.objects.select_for_update().filter(round=round_).order_by("created_at", "pk"))
        for position, hand in enumerate(hands, start=1):
            hand.number = position
        Hand.objects.bulk_update(hands, ["number"])
        round_.state = RoundState.REVEALED
        round_.save(update_fields=["state", "updated_at"])
        log_action(
            round_,
            "round.revealed",
            before={"state": RoundState.OPEN},
            after={"state": RoundState.REVEALED, "hands": len(hands)},
        )
        signals.hands_revealed.send(sender=Round, round_id=round_id)
        transaction.on_commit(
            lambda: signals.round_revealed.send(sender=Round, round_id=round_id), robust=True
        )
    return True


def rounds_nearing_deadline(now, within):
    """(round id, deadline) of open rounds whose deadline falls in (now, now + within]."""
    return list(
        Round.objects.filter(state=RoundState.OPEN, deadline__gt=now, deadline__lte=now + within).values_list(
            "pk", "deadline"
        )
    )


def rounds_due_for_reveal(now=None):
    return list(
        Round.objects.filter(state=RoundState.OPEN, deadline__lte=now or timezone.now()).values_list(
            "pk", flat=True
        )
    )
