"""Corrections to an imported round (`submissions.corrections.apply_correction`): a moderator's new
version per corrected entry, all or nothing, audited; a final round's results stay, a round being reported
needs new results for the corrected hands."""

import pytest

from audit.models import AuditEntry
from rounds.models import RoundState
from scoring.models import Match
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match
from submissions.corrections import CorrectedEntry, apply_correction
from submissions.errors import HandConflict, HandInputError, ReviewNotAllowed
from submissions.models import HandReview, HandVersion

from .conftest import CARDS, match_between

pytestmark = pytest.mark.django_db

CORRECTED = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet", "Mox Emerald"]
REASON = "Correction: entry 02 played Mox Emerald, not Mox Ruby (typo in the hands post)."


@pytest.fixture
def imported_round(revealed_round):
    """Three hands, 01 v 02 reported 6-0 by both; marked imported."""
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    for player in players[:2]:
        report_match(reporter=player, match_id=match.pk, points_a=6, points_b=0)
    round_.imported_fingerprint = "c" * 64
    round_.save(update_fields=["imported_fingerprint"])
    return round_, players


def test_correction_of_a_final_round_keeps_its_results(imported_round, moderator):
    round_, players = imported_round
    finalize_round(actor=moderator, round_id=round_.pk, force=True)
    before = {m.pk: (m.status, m.points_a, m.points_b) for m in Match.objects.filter(round=round_)}
    result = apply_correction(
        actor=moderator, round_id=round_.pk, corrections=[(2, "Moxen Galore", CORRECTED)], reason=REASON
    )
    assert result == [
        CorrectedEntry(
            2, players[1].username, f"Hand of {players[1].username}", "Moxen Galore", CARDS, CORRECTED
        )
    ]
    hand = round_.hands.get(number=2)
    assert hand.name == "Moxen Galore"
    current = hand.versions.get(is_current=True)
    assert (current.cards, current.source, current.number, current.created_by) == (
        CORRECTED, HandVersion.Source.MODERATOR, 2, moderator,
    )  # fmt: skip
    assert current.card_changes and "Mox Ruby" in current.changes_note
    review = HandReview.objects.get(hand=hand)
    assert review.action == HandReview.Action.REPLACE and REASON in review.message
    after = {m.pk: (m.status, m.points_a, m.points_b) for m in Match.objects.filter(round=round_)}
    assert after == before
    round_.refresh_from_db()
    assert round_.state == RoundState.FINAL
    entry = AuditEntry.objects.get(action="round.correction_imported", object_id=round_.pk)
    assert entry.before == {"02": {"name": f"Hand of {players[1].username}", "cards": CARDS}}
    assert entry.after == {"02": {"name": "Moxen Galore", "cards": CORRECTED}}
    assert "results stay as they are" in entry.note and REASON in entry.note


def test_correction_of_a_revealed_round_needs_new_results(imported_round, moderator):
    round_, _ = imported_round
    apply_correction(actor=moderator, round_id=round_.pk, corrections=[(2, "", CORRECTED)], reason=REASON)
    match = match_between(round_, 1, 2)
    assert (match.status, match.needs_new_result) == ("needs_result", True)
    assert match_between(round_, 1, 3).status != "needs_result"
    assert round_.hands.get(number=2).name.startswith("Hand of")  # a blank name keeps the hand's
    entry = AuditEntry.objects.get(action="round.correction_imported", object_id=round_.pk)
    assert "need a new result" in entry.note


def test_unknown_entry_numbers_save_nothing(imported_round, moderator):
    round_, _ = imported_round
    versions = HandVersion.objects.count()
    with pytest.raises(HandInputError) as error:
        apply_correction(
            actor=moderator,
            round_id=round_.pk,
            corrections=[(1, "", CORRECTED), (7, "", CORRECTED), (9, "", CORRECTED)],
            reason=REASON,
        )
    assert "07, 09" in error.value.errors["corrections"][0]
    assert HandVersion.objects.count() == versions
    assert not AuditEntry.objects.filter(action="round.correction_imported").exists()


@pytest.mark.parametrize(
    "corrections, problem",
    [
        ([], "at least one"),
        ([(1, "", [])], "give the corrected hand's cards"),
        ([(1, "", CORRECTED), (1, "", CORRECTED)], "corrected twice"),
        ([("01", "", CORRECTED)], "not an entry number"),
        ([(1, CORRECTED)], "(entry number, hand name, cards)"),
        ([(1, "", "Black Lotus")], "list of card names"),
    ],
)
def test_bad_corrections_are_refused(imported_round, moderator, corrections, problem):
    round_, _ = imported_round
    with pytest.raises(HandInputError) as error:
        apply_correction(actor=moderator, round_id=round_.pk, corrections=corrections, reason=REASON)
    assert problem in str(error.value.errors).replace("Give", "give")


def test_only_imported_rounds_and_their_moderators(
    revealed_round, imported_round, moderator, other_moderator
):
    played_here, _ = revealed_round(2)
    with pytest.raises(HandConflict, match="use the review page for rounds played here"):
        apply_correction(
            actor=moderator, round_id=played_here.pk, corrections=[(1, "", CORRECTED)], reason=REASON
        )
    round_, _ = imported_round
    with pytest.raises(ReviewNotAllowed):
        apply_correction(
            actor=other_moderator, round_id=round_.pk, corrections=[(1, "", CORRECTED)], reason=REASON
        )
    with pytest.raises(HandInputError):
        apply_correction(actor=moderator, round_id=round_.pk, corrections=[(1, "", CORRECTED)], reason="  ")


def test_unchanged_entry_makes_no_version(imported_round, moderator):
    round_, _players = imported_round
    (entry,) = apply_correction(
        actor=moderator, round_id=round_.pk, corrections=[(1, "", CARDS)], reason=REASON
    )
    assert not entry.changed and round_.hands.get(number=1).versions.count() == 1
