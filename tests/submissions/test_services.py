from datetime import timedelta

import pytest
import time_machine
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.selectors import audit_trail
from rounds.models import BannedCard, BannedList
from submissions import commitments
from submissions.errors import HandConflict, HandInputError, HandNotFound, IllegalHand
from submissions.models import Hand, HandVersion
from submissions.services.submit import EVERY_LISTED_RULE, attestations_for, submit_hand

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db


def submit(player, round_, cards=KJELD, name="The Might of Kjeld", **kwargs):
    return submit_hand(
        player=player,
        round_id=round_.pk,
        name=name,
        cards=list(cards),
        attested=EVERY_LISTED_RULE,
        **kwargs,
    )


def test_first_submission_creates_the_hand_and_version_one(open_round, alice):
    result = submit(alice, open_round)
    assert result.created and result.changed
    assert result.version.number == 1 and result.version.is_current
    assert result.hand.name == "The Might of Kjeld"
    assert result.version.cards == KJELD
    assert result.version.attested == ["3.1"]
    assert len(result.version.commitment) == 64


def test_changes_keep_every_version_and_one_current(open_round, alice):
    submit(alice, open_round)
    second = submit(alice, open_round, cards=SCEPTER, name="Scepter Tricks")
    same = submit(alice, open_round, cards=SCEPTER, name="Scepter Tricks")
    assert not second.created and second.changed and second.version.number == 2
    assert (
        not same.changed and same.version.pk == second.version.pk
    )  # sending the same hand again stores nothing
    versions = list(HandVersion.objects.filter(hand=second.hand).order_by("number"))
    assert [(v.number, v.is_current, v.cards) for v in versions] == [(1, False, KJELD), (2, True, SCEPTER)]
    assert Hand.objects.filter(round=open_round, player=alice).count() == 1
    assert [e.action for e in audit_trail(second.hand)] == ["hand.changed", "hand.submitted"]
    # The audit never holds the cards: a playing moderator may read it.
    assert "Karakas" not in str([(e.before, e.after) for e in audit_trail(second.hand)])


def test_the_database_refuses_a_second_current_version(open_round, alice):
    version = submit(alice, open_round).version
    with pytest.raises(IntegrityError), transaction.atomic():
        HandVersion.objects.create(
            hand=version.hand, number=2, cards=[], nonce="x", commitment="y", submitted_at=timezone.now()
        )


def test_names_are_stored_as_the_catalog_spells_them(open_round, alice):
    result = submit(alice, open_round, cards=["leyline of singularity", "KARAKAS", *KJELD[2:]])
    assert result.version.cards == KJELD


def test_illegal_hand_is_refused_with_a_plain_reason_per_card(open_round, alice):
    with pytest.raises(IllegalHand) as raised:
        submit(alice, open_round, cards=["Karakass", "Force of Will", "Chaos Orb", "Black Lotus", "Karakas"])
    cards = raised.value.verdict.cards
    assert "Did you mean “Karakas”?" in cards[0].problems[0].message
    assert cards[0].suggestions[0] == "Karakas"
    assert cards[1].problems[0].message == "Force of Will is on the PHM Banned List (Disruption)."
    assert cards[2].problems[0].message == "Chaos Orb is banned in Vintage (rule 3.2)."
    assert cards[3].legal and cards[4].legal
    assert not Hand.objects.exists()


def test_wrong_number_of_cards_is_a_hand_problem(open_round, alice):
    with pytest.raises(IllegalHand) as raised:
        submit(alice, open_round, cards=KJELD[:4])
    assert raised.value.verdict.problems[0].message == "The hand has 4 cards; this round needs exactly 5."


def test_malformed_input_is_an_input_error_not_a_crash(open_round, alice):
    with pytest.raises(HandInputError):
        submit(alice, open_round, name="x" * 101)
    with pytest.raises(HandInputError):
        submit(alice, open_round, cards=["Karakas"] * 21)
    with pytest.raises(HandInputError):
        submit_hand(
            player=alice,
            round_id=open_round.pk,
            name="",
            cards="Karakas",
            attested=EVERY_LISTED_RULE,
        )


def test_a_round_is_judged_by_its_banned_snapshot_not_the_standing_list(open_round, alice, moderator):
    # After the round opened, Karakas is banned on the standing list: the round keeps its snapshot (2.1a).
    phm = BannedList.objects.get(key=BannedList.PHM)
    BannedCard.objects.create(
        banned_list=phm, card_name="Karakas", normalized_name="karakas", category="lands"
    )
    assert submit(alice, open_round).version.cards == KJELD


def test_the_rounds_extra_bans_apply(league, moderator, alice):
    now = timezone.now()
    from rounds.services.lifecycle import create_round

    round_ = create_round(
        actor=moderator, league=league, now=now, open_now=True, title="No Karakas", hand_size=5,
        deadline=now + timedelta(days=1), extra_banned=["Karakas"],
    )  # fmt: skip
    with pytest.raises(IllegalHand) as raised:
        submit(alice, round_)
    assert raised.value.verdict.cards[1].problems[0].message == (
        "Karakas is on this round's additional banned list."
    )


def test_a_submission_after_the_deadline_is_refused(open_round, alice):
    submit(alice, open_round)
    with time_machine.travel(open_round.deadline, tick=False), pytest.raises(HandConflict) as raised:
        submit(alice, open_round, cards=SCEPTER)
    assert "closed" in str(raised.value) and "not saved" in str(raised.value)
    assert HandVersion.objects.count() == 1


def test_a_draft_or_unknown_round_is_not_found(league, moderator, alice):
    from rounds.services.lifecycle import create_round

    now = timezone.now()
    draft = create_round(
        actor=moderator, league=league, now=now, title="Draft", hand_size=5, deadline=now + timedelta(days=1)
    )
    for round_id in (draft.pk, 999_999):
        with pytest.raises(HandNotFound):
            submit_hand(player=alice, round_id=round_id, name="", cards=KJELD, attested=EVERY_LISTED_RULE)


def test_commitment_is_sha256_of_the_documented_canonical_text(open_round, alice):
    version = submit(alice, open_round).version
    version = HandVersion.objects.select_related("hand__player").get(pk=version.pk)
    text = commitments.version_text(version)
    assert text.splitlines() == [
        "PHM hand commitment v1",
        f"round: {open_round.pk}",
        "player: alice",
        "version: 1",
        "name: The Might of Kjeld",
        "cards: " + " / ".join(KJELD),
        f"nonce: {version.nonce}",
    ]
    import hashlib

    assert hashlib.sha256(text.encode()).hexdigest() == version.commitment
    assert commitments.matches(text.replace("\n", "\r\n") + "\n", version.commitment)
    assert not commitments.matches(text.replace("Karakas", "Karakas "), version.commitment)
    assert len(version.nonce) == 64


def test_the_same_hand_twice_gets_different_commitments(open_round, alice, bob):
    first = submit(alice, open_round).version
    second = submit(bob, open_round).version
    assert first.nonce != second.nonce and first.commitment != second.commitment


def test_receipt_email_carries_the_commitment(
    open_round, alice, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        version = submit(alice, open_round).version
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["alice@example.org"]
    assert version.commitment in mail.body and "Version: 1" in mail.body
    assert " / ".join(KJELD) in mail.body


def test_attestations_follow_the_variants(open_round):
    assert attestations_for(open_round) == ["3.1"]
    open_round.life_rule = True
    assert attestations_for(open_round) == ["3.1", "7.5b"]
    open_round.backbuild = True
    assert attestations_for(open_round) == ["7.5b", "7.6a"]  # 7.6a: ignore rule 3.1


def test_a_card_the_moderator_accepted_for_the_round_can_be_submitted(open_round, alice, moderator):
    from rounds.services.catalog import accept_unknown_card

    accept_unknown_card(
        open_round,
        name="Brand New Card of 2026",
        by=moderator,
        reason="Spoiled last week",
        not_in_catalog=True,
    )
    result = submit(alice, open_round, cards=[*KJELD[:4], "Brand New Card of 2026"])
    assert result.version.cards[-1] == "Brand New Card of 2026"
