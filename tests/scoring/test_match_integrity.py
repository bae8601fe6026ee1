"""A match's round and hands are checked by the database (triggers of scoring migration 0005, which replace
three per-row foreign keys): on SQLite and PostgreSQL alike, but for the hand-delete rule, PostgreSQL's."""

import pytest
from django.db import IntegrityError, connection, transaction

from scoring.models import Match, MatchReport
from scoring.services.table import build_match_table
from submissions.models import Hand

from .conftest import match_between


def _refused(action):
    with pytest.raises(IntegrityError), transaction.atomic():
        action()


def test_a_match_only_pairs_hands_of_its_round(revealed_round):
    round_, _players = revealed_round(3)
    other, _ = revealed_round(2)
    mine = list(Hand.objects.filter(round=round_).order_by("number"))
    theirs = Hand.objects.filter(round=other).first()
    Match.objects.filter(round=round_, hand_a=mine[0], hand_b=mine[1]).delete()

    _refused(lambda: Match.objects.create(round=round_, hand_a=mine[0], hand_b=theirs))
    _refused(lambda: Match.objects.create(round=other, hand_a=mine[0], hand_b=mine[1]))
    _refused(lambda: Match.objects.create(round=round_, hand_a_id=mine[0].pk, hand_b_id=10**9))
    _refused(
        lambda: Match.objects.bulk_create(
            [
                Match(round=round_, hand_a=mine[0], hand_b=mine[1]),
                Match(round=round_, hand_a=mine[1], hand_b=theirs),
            ]
        )
    )
    assert not Match.objects.filter(round=round_, hand_a=mine[0], hand_b=mine[1]).exists()
    Match.objects.create(round=round_, hand_a=mine[0], hand_b=mine[1])  # its own round's hands: fine


def test_a_match_keeps_its_round_and_hands(revealed_round):
    round_, _players = revealed_round(3)
    match = match_between(round_, 1, 2)
    third = Hand.objects.get(round=round_, number=3)
    _refused(lambda: Match.objects.filter(pk=match.pk).update(hand_b=third))
    match.points_a, match.points_b = 6, 0
    match.save()  # every column in the UPDATE, none of the keys changed: fine
    assert Match.objects.get(pk=match.pk).points_a == 6


def test_a_hand_keeps_its_id_and_round_while_matches_name_it(revealed_round):
    round_, _players = revealed_round(3)
    other, _ = revealed_round(2)
    hand = Hand.objects.get(round=round_, number=1)
    _refused(lambda: Hand.objects.filter(pk=hand.pk).update(round=other))
    Hand.objects.filter(pk=hand.pk).update(name="Renamed")  # anything else: fine


def test_deleting_a_hand_deletes_its_matches_first(revealed_round):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    MatchReport.objects.create(match=match, reporter=players[0], side="a", points_a=6, points_b=0)
    hand = Hand.objects.get(round=round_, number=1)
    hand.delete()  # Django's cascade: its reports' matches, then the hand
    assert Match.objects.filter(round=round_).count() == 1


@pytest.mark.needs_postgres
def test_on_postgresql_a_hand_that_matches_name_cannot_be_deleted(revealed_round):
    from tests.conftest import skip_unless

    skip_unless(connection.vendor == "postgresql", "SQLite leaves the hand-delete rule to Django's cascade")
    round_, _players = revealed_round(3)
    hand = Hand.objects.get(round=round_, number=2)

    def delete_behind_djangos_back():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM submissions_hand WHERE id = %s", [hand.pk])

    _refused(delete_behind_djangos_back)
    assert Hand.objects.filter(pk=hand.pk).exists()
    assert build_match_table(round_.pk) is not None


@pytest.mark.django_db
def test_the_triggers_are_in_place():
    """A later migration that rebuilds one of these tables on SQLite drops their triggers: this says so."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        names = {row[0] for row in cursor.fetchall()}
    expected = {
        "scoring_match_hands_exist",
        "scoring_match_pair_fixed",
        "scoring_hand_rekeyed_without_matches",
    }
    if connection.vendor == "postgresql":
        expected.add("scoring_hand_deleted_without_matches")
    assert expected <= names
