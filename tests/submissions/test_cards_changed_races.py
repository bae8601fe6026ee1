"""Races on PostgreSQL between a change of the cards an open round allows and a player's edit of their hand: the
round row is locked first (the change exclusively, the edit and the judging of the hands shared), then the hand,
so the hand is judged under settled rules and ends flagged exactly when its current cards are illegal."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from phm.tasks import publishing_held
from rounds.services import lifecycle as round_services
from submissions.errors import IllegalHand
from submissions.models import Hand, PendingHandCheck
from submissions.services.rules_check import check_round_hands
from submissions.services.submit import EVERY_LISTED_RULE, judge, submit_hand
from tests.conftest import skip_unless
from tests.rounds.test_round_races import run_together

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def on_postgres():
    skip_unless(connection.vendor == "postgresql", "row locks are only raced on PostgreSQL (DATABASE_URL)")


def open_round(league, moderator):
    now = timezone.now()
    round_ = round_services.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="Race", hand_size=5,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    judge(round_, KJELD)  # the catalog index warm: the threads race on the database
    return round_


def submit(player, round_, cards):
    return submit_hand(player=player, round_id=round_.pk, name="", cards=cards, attested=EVERY_LISTED_RULE)


def test_a_player_fixing_their_hand_while_it_is_judged_ends_unflagged(
    on_postgres, league, moderator, make_user
):
    for attempt in range(4):
        round_ = open_round(league, moderator)
        player = make_user(f"fixer{attempt}")
        submit(player, round_, KJELD)
        with publishing_held():  # the judging is raced by hand below
            round_services.update_round(
                actor=moderator, round_id=round_.pk, now=timezone.now(), changes={"extra_banned": ["Karakas"]}
            )
        assert PendingHandCheck.objects.filter(round=round_).exists()
        results = run_together(
            [
                lambda round_=round_: check_round_hands(round_.pk),
                lambda round_=round_, player=player: submit(player, round_, SCEPTER),
            ]
        )
        assert not [result for result in results if isinstance(result, Exception)], results
        hand = Hand.objects.get(round=round_, player=player)
        assert hand.versions.get(is_current=True).cards == SCEPTER
        assert not hand.flagged  # flagged then fixed, or judged after the fix: never flagged for a legal hand
        assert not PendingHandCheck.objects.filter(round=round_).exists()


def test_a_ban_racing_a_submission_of_the_card_leaves_no_legal_looking_illegal_hand(
    on_postgres, league, moderator, make_user
):
    for attempt in range(4):
        round_ = open_round(league, moderator)
        player = make_user(f"racer{attempt}")
        results = run_together(
            [
                lambda round_=round_: round_services.update_round(
                    actor=moderator,
                    round_id=round_.pk,
                    now=timezone.now(),
                    changes={"extra_banned": ["Karakas"]},
                ),
                lambda round_=round_, player=player: submit(player, round_, KJELD),
            ]
        )
        assert not isinstance(results[0], Exception), results
        hand = Hand.objects.filter(round=round_, player=player).first()
        if isinstance(results[1], IllegalHand):  # the ban came first: the hand was refused
            assert hand is None
        else:  # the hand came first: the judging after the ban flagged it
            assert not isinstance(results[1], Exception), results
            assert hand.flagged and "Karakas" in hand.flag_message
        assert not PendingHandCheck.objects.filter(round=round_).exists()
