"""Corrections to a round imported from the forum: the host's later post saying "entry 04 was actually …".

Each correction is a moderator's new version of the entry's hand (like a 4.2a replacement, `review_hand`'s
"replace"), with the hand's name updated and the correction post's text recorded as the reason. It fixes the
record: the forum played the corrected hand, so a final round's results stay as they are; in a round still
being reported, matches of a corrected hand that had results need a new one (as after a replacement).
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from audit.services import log_action
from rounds.locks import lock_round_shared
from rounds.models import RoundState
from rounds.permissions import can_manage_league

from . import signals
from .errors import HandConflict, HandInputError, HandNotFound, ReviewNotAllowed
from .models import Hand, HandReview, HandVersion
from .services.inputs import clean_cards, clean_hand_name
from .services.locks import lower_current_version
from .services.write import new_version
from .similar_hands import card_changes

NOT_IMPORTED_MESSAGE = (
    "Corrections from forum posts apply to imported rounds; use the review page for rounds played here."
)
MAX_REASON_LENGTH = 10_000


@dataclass(frozen=True)
class CorrectedEntry:
    number: int
    player: str  # the player's username
    old_name: str
    new_name: str
    old_cards: list
    new_cards: list

    @property
    def changed(self):
        return self.old_cards != self.new_cards or self.old_name != self.new_name


def _clean_corrections(corrections):
    """[(number, name, cards)] checked and normalised; HandInputError names every problem."""
    if not isinstance(corrections, list | tuple) or not corrections:
        raise HandInputError({"corrections": ["Give at least one corrected entry: (number, name, cards)."]})
    cleaned, seen, problems = [], set(), []
    for item in corrections:
        try:
            number, name, cards = item
        except (TypeError, ValueError):
            raise HandInputError(
                {"corrections": ["Each correction is (entry number, hand name, cards)."]}
            ) from None
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            problems.append(f"“{number}” is not an entry number.")
            continue
        if number in seen:
            problems.append(f"Entry {number:02d} is corrected twice.")
            continue
        seen.add(number)
        cards = clean_cards(cards)
        if not cards or not all(cards):
            problems.append(f"Entry {number:02d}: give the corrected hand's cards.")
            continue
        cleaned.append((number, clean_hand_name(name or ""), cards))
    if problems:
        raise HandInputError({"corrections": problems})
    return cleaned


def apply_correction(*, actor, round_id, corrections, reason, now=None):
    """Correct entries of an imported round from a forum post. `corrections`: [(entry number, hand name,
    cards)], the cards already catalog names; a blank name keeps the hand's. `reason`: the correction post's
    text. All or nothing: an entry number not in the round saves nothing. Returns [CorrectedEntry] in the
    order given. Raises HandNotFound, ReviewNotAllowed (not a moderator of the league), HandConflict (not an
    imported round, or not revealed), HandInputError (bad input, unknown entry numbers)."""
    reason = (reason or "").strip()
    if not reason:
        raise HandInputError({"reason": ["Give the correction post's text: it is recorded as the reason."]})
    if len(reason) > MAX_REASON_LENGTH:
        raise HandInputError({"reason": [f"At most {MAX_REASON_LENGTH:,} characters."]})
    cleaned = _clean_corrections(corrections)
    moment = now or timezone.now()
    with transaction.atomic():
        round_ = lock_round_shared(round_id)
        if round_ is None:
            raise HandNotFound("No such round.")
        if not can_manage_league(actor, round_.league):
            raise ReviewNotAllowed("Only a moderator of this league can correct its rounds.")
        if not round_.imported_fingerprint:
            raise HandConflict(NOT_IMPORTED_MESSAGE)
        if round_.state_at(moment) not in (RoundState.REVEALED, RoundState.FINAL):
            raise HandConflict(f"Round {round_.code} is not revealed: there is no entry to correct yet.")
        numbers = [number for number, _, _ in cleaned]
        hands = {
            hand.number: hand
            for hand in Hand.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(round=round_, number__in=numbers)
            .order_by("pk")
        }
        missing = [number for number in numbers if number not in hands]
        if missing:
            labels = ", ".join(f"{number:02d}" for number in missing)
            raise HandInputError(
                {"corrections": [f"Round {round_.code} has no entry {labels}: nothing was corrected."]}
            )
        final = round_.state == RoundState.FINAL
        result = []
        for number, name, cards in cleaned:
            result.append(_correct_hand(hands[number], round_, actor, name, cards, reason, moment, final))
        log_action(
            round_,
            "round.correction_imported",
            actor=actor,
            before={
                f"{e.number:02d}": {"name": e.old_name, "cards": e.old_cards} for e in result if e.changed
            },
            after={
                f"{e.number:02d}": {"name": e.new_name, "cards": e.new_cards} for e in result if e.changed
            },
            note=_audit_note(reason, final),
        )
    return result


def _correct_hand(hand, round_, actor, name, cards, reason, moment, final):
    previous = hand.versions.filter(is_current=True).first()
    old_cards = list(previous.cards) if previous else []
    old_name, new_name = hand.name, name or hand.name
    entry = CorrectedEntry(hand.number, hand.player.get_username(), old_name, new_name, old_cards, cards)
    if not entry.changed:
        return entry  # the record already says so: no new version
    previous = lower_current_version(hand)
    version = new_version(
        hand,
        round_,
        hand.player,
        new_name,
        cards,
        [],
        moment,
        previous,
        by=actor,
        source=HandVersion.Source.MODERATOR,  # even when the moderator is the entry's player
        save=False,
    )
    version.card_changes = card_changes(old_cards, cards)
    version.save(force_insert=True)
    hand.name = new_name
    hand.save(update_fields=["name", "updated_at"])
    HandReview.objects.create(
        hand=hand,
        action=HandReview.Action.REPLACE,
        message=f"Corrected from the forum: {reason}",
        moderator=actor,
    )
    if not final and old_cards != cards:
        # As after a 4.2a replacement: the corrected hand's reported matches need a new result.
        signals.hand_replaced.send(sender=Hand, round_id=round_.pk, hand_id=hand.pk, actor=actor)
    return entry


def _audit_note(reason, final):
    if final:
        effect = (
            "The round is final: its results stay as they are, since the forum played the corrected hands; "
            "this fixes the record of the hands."
        )
    else:
        effect = "Matches of a corrected hand that had results need a new result, as after a replacement."
    return f"Correction from the forum. {effect} Correction post: {reason}"
