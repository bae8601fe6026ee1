"""A correction reply applied to an imported round: the host's later post holding one or more changed entries
("Correction: 05 should have been …"), read like the hands post (`archive.forum.post`, partial), checked, and
applied as moderator replacements with the post as their reason (`submissions.corrections`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.utils import timezone

from rounds.catalog.resolve import get_index, known_card
from rounds.models import Round
from rounds.permissions import can_manage_league
from scoring.services.errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound
from submissions.corrections import NOT_IMPORTED_MESSAGE, CorrectedEntry, apply_correction
from submissions.errors import HandConflict, HandInputError, HandNotFound, ReviewNotAllowed
from submissions.models import Hand

from .post import parse_post
from .shared import Problem, ProblemsOfEntries, resolve_cards


@dataclass
class CorrectionEntry:
    number: int
    posted_player: str
    hand: Hand | None
    new_name: str
    cards: list  # shared.CardPreview
    problems: list = field(default_factory=list)

    @property
    def old_cards(self):
        if self.hand is None:
            return []
        current = [version for version in self.hand.versions.all() if version.is_current]
        return list(current[0].cards) if current else []

    @property
    def card_names(self):
        return [card.name or card.typed for card in self.cards]

    @property
    def changed(self):
        return self.hand is None or self.card_names != self.old_cards or self.new_name != self.hand.name


@dataclass
class CorrectionPreview(ProblemsOfEntries):
    round: object
    entries: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    applied: list = field(default_factory=list)  # submissions.corrections.CorrectedEntry, once applied

    @property
    def ready(self):
        return bool(self.entries) and not self.all_problems

    def as_dict(self):
        return {
            "round": self.round.pk,
            "entries": [
                {
                    "number": entry.number,
                    "player": entry.posted_player,
                    "name": entry.new_name,
                    "cards": entry.card_names,
                    "old_cards": entry.old_cards,
                    "changed": entry.changed,
                    "problems": [problem.as_dict() for problem in entry.problems],
                }
                for entry in self.entries
            ],
            "problems": [problem.as_dict() for problem in self.all_problems],
            "skipped": [part.text for part in self.skipped],
            "ready": self.ready,
            "applied": [entry.number for entry in self.applied],
        }


def preview_correction(*, actor: User, round_: Round, post: str) -> CorrectionPreview:
    """What the correction post changes in `round_` (an imported round, revealed or final), checked."""
    if not can_manage_league(actor, round_.league):
        raise ScoringForbidden("Only a moderator of this league can correct its rounds.")
    if not round_.imported_fingerprint:
        raise ScoringConflict(NOT_IMPORTED_MESSAGE)
    index = get_index()
    parsed = parse_post(
        post or "", is_card=lambda name: known_card(name, index=index) is not None, partial=True
    )
    result = CorrectionPreview(round=round_, skipped=list(parsed.skipped))
    hands = {
        hand.number: hand
        for hand in Hand.objects.filter(round=round_, number__in=[entry.number for entry in parsed.entries])
        .select_related("player__profile")
        .prefetch_related("versions")
    }
    for entry in parsed.entries:
        hand = hands.get(entry.number)
        correction = CorrectionEntry(
            number=entry.number,
            posted_player=entry.player,
            hand=hand,
            new_name=entry.hand_name or (hand.name if hand else ""),
            cards=resolve_cards(entry, index),
        )
        _check(correction, round_)
        result.entries.append(correction)
    if not parsed.entries:
        result.problems.append(
            Problem(
                "no_entries",
                "No entry found in the post: a corrected entry is written as in the hands post, like "
                '`05 Player :: "Hand name"` with its cards on the next line.',
            )
        )
    return result


def _check(correction, round_):
    where = f"Entry {correction.number:02d}"
    if correction.hand is None:
        correction.problems.append(
            Problem("no_such_entry", f"{where} is not in round {round_.code}.", entry=correction.number)
        )
        return
    owner = correction.hand.player
    names = {owner.get_username().casefold()}
    forum_name = getattr(getattr(owner, "profile", None), "forum_username", "")
    if forum_name:
        names.add(forum_name.casefold())
    if correction.posted_player and correction.posted_player.casefold() not in names:
        correction.problems.append(
            Problem(
                "other_player",
                f"{where} is {forum_name or owner.get_username()}'s, but the post names "
                f"\u201c{correction.posted_player}\u201d.",
                entry=correction.number,
            )
        )
    for card in correction.cards:
        if not card.resolved:
            correction.problems.append(
                Problem(
                    "unknown_card",
                    f"{where}: \u201c{card.typed}\u201d is not a card name we know.",
                    entry=correction.number,
                    typed=card.typed,
                    line=card.line,
                    suggestions=tuple(card.suggestions),
                )
            )
    if len(correction.cards) > round_.hand_size:
        correction.problems.append(
            Problem(
                "too_many_cards",
                f"{where} has {len(correction.cards)} cards; this round's hands have {round_.hand_size}.",
                entry=correction.number,
            )
        )


def apply_correction_post(
    *, actor: User, round_: Round, post: str, now: dt.datetime | None = None
) -> CorrectionPreview:
    """Apply the correction post's entries to `round_` when its preview has no problem; ScoringInputError
    (with the preview's problems) otherwise. The post is the recorded reason."""
    result = preview_correction(actor=actor, round_=round_, post=post)
    if not result.ready:
        raise ScoringInputError(result.errors or {"post": ["Nothing to correct."]})
    corrections = [(entry.number, entry.new_name, entry.card_names) for entry in result.entries]
    try:
        result.applied = apply_correction(
            actor=actor, round_id=round_.pk, corrections=corrections, reason=post, now=now or timezone.now()
        )
    except HandNotFound as error:
        raise ScoringNotFound(str(error)) from error
    except ReviewNotAllowed as error:
        raise ScoringForbidden(str(error)) from error
    except HandConflict as error:
        raise ScoringConflict(str(error)) from error
    except HandInputError as error:
        raise ScoringInputError(error.errors) from error
    return result


__all__ = ["CorrectedEntry", "CorrectionPreview", "apply_correction_post", "preview_correction"]
