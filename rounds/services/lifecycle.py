"""A round's life: create, edit, open, extend, close early, take the banned lists again. Every change is
audited.

State changes that race (a deadline edit against a close, two opens) lock the round row first.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from audit.services import log_action

from .. import signals
from ..models import DeadlinePrecision, League, Round, RoundState
from ..signals import deadline_set
from .archived_deadline import NOT_ARCHIVED_MESSAGE, clean_archived_deadline
from .effective_banned import snapshot_land_rule_list, take_banned_snapshot
from .errors import RoundConflict, RoundInputError
from .round_rules import MAXIMUM_LEAD_TIME, check_deadline, clean_round_rules, too_far_message

# What the audit trail records of a round (before → after) when a moderator edits it.
AUDITED_ROUND_FIELDS = [
    "title",
    "hand_size",
    "hand_size_mode",
    "land_rule",
    "life_rule",
    "backbuild",
    "backbuild_hands",
    "sanctioned_format",
    "allowed_sets",
    "extra_banned",
    "card_rules",
    "unbanned",
    "variant_order",
    "decisions",
    "format_rule",
    "bonus_rule",
    "commentary",
    "counts_in_standings",
    "deadline",
    "deadline_precision",
    "state",
]
EDITABLE_WHILE_OPEN = {
    "title",
    "deadline",
    "extra_banned",
    "unbanned",  # lifting a ban never makes a submitted hand illegal
    "format_rule",
    "bonus_rule",
    "commentary",
    "backbuild_hands",
}
# The fields of an open round whose change may make a submitted hand illegal, or legal again (4.2a).
CARD_FIELDS = ("extra_banned", "unbanned")
# An imported round's rules were only described by the forum post: a moderator may set them right afterwards,
# whatever the round's state, and choose whether it counts in the standings; its deadline is history, set
# right too (`archived_deadline`). What the hands were checked against or entered with (size, card rules,
# decisions) stays as imported.
EDITABLE_WHEN_IMPORTED = set(AUDITED_ROUND_FIELDS) - {
    "hand_size",
    "hand_size_mode",
    "card_rules",
    "decisions",
    "state",
}


def _round_values(round_):
    return {name: getattr(round_, name) for name in AUDITED_ROUND_FIELDS}


def _lock(round_id):
    try:
        return Round.objects.select_for_update().select_related("league").get(pk=round_id)
    except Round.DoesNotExist:
        raise RoundConflict("This round no longer exists.") from None


def _is_open(round_, now):
    return round_.state == RoundState.OPEN and round_.deadline > now


# Rule 4.2: players may change their hands "until the posted deadline". While a round is open its deadline
# only moves later (the edit here, or extend_deadline); ending submissions early is close_round_now, public
# and audited as such. The refusal is a 400 on the deadline field, as extend_deadline's is.
EARLIER_DEADLINE_REFUSED = (
    "The round is open: its deadline can only move later, never earlier (players rely on the posted "
    "deadline, rule 4.2). To end submissions early, use “End submissions now”."
)


def _moves_an_open_deadline_earlier(round_, deadline):
    return round_.state == RoundState.OPEN and isinstance(deadline, datetime) and deadline < round_.deadline


def _announce_deadline(round_):
    """Tell listeners (the reveal scheduler) about the deadline, once the change is committed."""
    round_id, deadline = round_.pk, round_.deadline
    transaction.on_commit(lambda: deadline_set.send(sender=Round, round_id=round_id, deadline=deadline))


def next_round_number(league: League) -> int:
    """The number of the league's next round; call inside the transaction that creates it. The league row is
    locked, so numbers are handed out one at a time."""
    League.objects.select_for_update().get(pk=league.pk)
    return (league.rounds.aggregate(last=Max("number"))["last"] or 0) + 1


@transaction.atomic
def create_round(
    *, actor: User, league: League, now: datetime, open_now: bool = False, **rules: Any
) -> Round:
    """A new round of `league`, numbered after the league's last one; opened at once when `open_now`."""
    if rules.get("counts_in_standings") is False:
        raise RoundConflict(
            "Only a round imported from the forum can be archive-only: a round played here counts in the "
            "standings."
        )
    errors: dict[str, list[str]] = {}
    rules.setdefault("title", "")
    rules.setdefault("hand_size", 5)
    clean_round_rules(rules, errors)
    check_deadline(rules.get("deadline"), now, errors)
    if errors:
        raise RoundInputError(errors)
    round_ = Round.objects.create(league=league, number=next_round_number(league), created_by=actor, **rules)
    log_action(round_, "round.created", actor=actor, after=_round_values(round_))
    if open_now:
        return open_round(actor=actor, round_id=round_.pk, now=now)
    return round_


@transaction.atomic
def update_round(*, actor: User, round_id: int, now: datetime, changes: Mapping[str, Any]) -> Round:
    """Edit a draft freely; an open round only its texts, extra bans and deadline, which only moves later
    (EARLIER_DEADLINE_REFUSED; docs/api.md PATCH); an imported round, whatever its state, only the rules its
    forum post described and whether it counts in the standings (`EDITABLE_WHEN_IMPORTED`)."""
    round_ = _lock(round_id)
    imported = bool(round_.imported_fingerprint)
    if imported:
        frozen = sorted(set(changes) - EDITABLE_WHEN_IMPORTED)
        if frozen:
            raise RoundConflict(
                f"This round was imported from the forum: {', '.join(frozen)} stay as imported. Only the "
                "rules its post described (title, variants, format, banned and lifted cards, texts), its "
                "deadline and whether it counts in the standings can change."
            )
    elif changes.get("deadline_precision", DeadlinePrecision.EXACT) != DeadlinePrecision.EXACT:
        raise RoundConflict(NOT_ARCHIVED_MESSAGE)
    elif "counts_in_standings" in changes and changes["counts_in_standings"] != round_.counts_in_standings:
        raise RoundConflict(
            "Only a round imported from the forum can be archive-only: a round played here counts in the "
            "standings."
        )
    elif round_.state in (RoundState.REVEALED, RoundState.FINAL) or (
        round_.state == RoundState.OPEN and round_.deadline <= now
    ):
        raise RoundConflict("Submissions for this round have ended: its rules can no longer change.")
    elif round_.state == RoundState.OPEN:
        frozen = sorted(set(changes) - EDITABLE_WHILE_OPEN)
        if frozen:
            raise RoundConflict(
                f"The round is open: {', '.join(frozen)} can no longer change. "
                "Only the texts, the deadline, the extra bans and the lifted bans can."
            )
    changes = dict(changes)
    errors: dict[str, list[str]] = {}
    clean_round_rules(changes, errors)
    if imported:
        clean_archived_deadline(round_, changes, now, errors)
    elif "deadline" in changes:
        if _moves_an_open_deadline_earlier(round_, changes["deadline"]):
            errors["deadline"] = [EARLIER_DEADLINE_REFUSED]
        else:
            check_deadline(changes["deadline"], now, errors)
    if errors:
        raise RoundInputError(errors)
    before = _round_values(round_)
    for name, value in changes.items():
        setattr(round_, name, value)
    if round_.state != RoundState.DRAFT and "extra_banned" in changes:
        kept = [entry for entry in round_.banned_snapshot if entry["list"] != "round"]
        round_.banned_snapshot = kept + [
            {"name": n, "list": "round", "category": ""} for n in round_.extra_banned
        ]
    if imported and round_.banned_snapshot and round_.land_rule != before["land_rule"]:
        snapshot_land_rule_list(round_)
    round_.save()
    after = _round_values(round_)
    if after != before:
        note = "Rules of an imported round set right after the import." if imported else ""
        log_action(round_, "round.changed", actor=actor, before=before, after=after, note=note)
    if round_.state == RoundState.OPEN and after["deadline"] != before["deadline"]:
        _announce_deadline(round_)
    if round_.state == RoundState.OPEN and any(after[key] != before[key] for key in CARD_FIELDS):
        signals.round_cards_changed.send(sender=Round, round_id=round_.pk)
    return round_


@transaction.atomic
def open_round(*, actor: User, round_id: int, now: datetime) -> Round:
    round_ = _lock(round_id)
    if round_.state != RoundState.DRAFT:
        raise RoundConflict(
            f"Only a draft can be opened; this round is {round_.state_at(now).label.lower()}."
        )
    errors: dict[str, list[str]] = {}
    check_deadline(round_.deadline, now, errors)
    if errors:
        raise RoundConflict("Move the deadline at least 5 minutes into the future before opening the round.")
    round_.state = RoundState.OPEN
    round_.opened_at = now
    take_banned_snapshot(round_, now)
    round_.save()
    log_action(
        round_,
        "round.opened",
        actor=actor,
        before={"state": RoundState.DRAFT},
        after={
            "state": RoundState.OPEN,
            "banned": len(round_.banned_snapshot),
            "catalog_as_of": round_.catalog_as_of,
        },
    )
    _announce_deadline(round_)
    signals.round_opened.send(sender=Round, round_id=round_.pk)
    return round_


@transaction.atomic
def extend_deadline(*, actor: User, round_id: int, now: datetime, new_deadline: datetime) -> Round:
    round_ = _lock(round_id)
    if not _is_open(round_, now):
        raise RoundConflict(
            "Only an open round's deadline can be extended; submissions for this one have ended."
        )
    if new_deadline <= round_.deadline:
        raise RoundInputError({"deadline": ["To extend the deadline, choose a time after the current one."]})
    if new_deadline > now + MAXIMUM_LEAD_TIME:
        raise RoundInputError({"deadline": [too_far_message()]})
    before = round_.deadline
    round_.deadline = new_deadline
    round_.save(update_fields=["deadline", "updated_at"])
    log_action(
        round_,
        "round.deadline_extended",
        actor=actor,
        before={"deadline": before},
        after={"deadline": new_deadline},
    )
    _announce_deadline(round_)
    return round_


@transaction.atomic
def close_round_now(*, actor: User, round_id: int, now: datetime) -> Round:
    """End submissions now (deadline := now). Idempotent: a round past its deadline is left as it is."""
    round_ = _lock(round_id)
    if round_.state == RoundState.DRAFT:
        raise RoundConflict("This round is a draft: open it before ending its submissions.")
    if not _is_open(round_, now):
        return round_
    before = round_.deadline
    # Not earlier than the moment the lock was obtained: a hand saved while this call waited for the lock
    # must not end up after the deadline it recorded.
    now = max(now, timezone.now())
    round_.deadline = now
    round_.save(update_fields=["deadline", "updated_at"])
    log_action(
        round_, "round.closed_early", actor=actor, before={"deadline": before}, after={"deadline": now}
    )
    _announce_deadline(round_)
    return round_


@transaction.atomic
def resync_banned_lists(*, actor: User, round_id: int, now: datetime) -> Round:
    """Take the standing banned lists into an open round again, by the moderator's choice (rule 2.1a)."""
    round_ = _lock(round_id)
    if not _is_open(round_, now):
        raise RoundConflict("Only an open round's banned lists can be re-synchronised.")
    before = {
        "banned": [entry["name"] for entry in round_.banned_snapshot],
        "catalog_as_of": round_.catalog_as_of,
    }
    take_banned_snapshot(round_, now)
    round_.save(update_fields=["banned_snapshot", "catalog_as_of", "legal_as_of", "updated_at"])
    after = {
        "banned": [entry["name"] for entry in round_.banned_snapshot],
        "catalog_as_of": round_.catalog_as_of,
    }
    log_action(round_, "round.banned_resynced", actor=actor, before=before, after=after)
    signals.round_cards_changed.send(sender=Round, round_id=round_.pk)
    return round_
