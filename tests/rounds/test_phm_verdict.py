"""The card page's answer to "can I play this in PHM?" (rounds.card_verdicts.phm_verdict), with real catalog cards
and the banned lists as the rules text seeds them."""

import datetime

import pytest

from rounds.card_verdicts import (
    LAND_RULE_BANNED,
    NOT_VINTAGE_LEGAL,
    PHM_BANNED,
    PHM_LEGAL,
    VINTAGE_BANNED,
    phm_verdict,
)
from rounds.models import BannedList, Card, DataQuality
from rounds.services.catalog import add_banned_card, remove_banned_card

pytestmark = pytest.mark.django_db


def card(name):
    return Card.objects.get(name=name)


def test_a_vintage_legal_card_is_legal(catalog_index):
    verdict = phm_verdict(card("Forest"))
    assert verdict.kind == PHM_LEGAL and verdict.playable
    assert verdict.headline == "Legal in PHM"
    assert not verdict.restricted and not verdict.phm_category and not verdict.land_rule_category


def test_restricted_in_vintage_is_legal_in_phm(catalog_index):
    verdict = phm_verdict(card("Sol Ring"))
    assert verdict.kind == PHM_LEGAL and verdict.restricted
    assert any("restricted in Vintage" in sentence and "3.2" in sentence for sentence in verdict.details)


def test_force_of_will_is_banned_by_the_phm_list_with_its_category(catalog_index):
    verdict = phm_verdict(card("Force of Will"))
    assert verdict.kind == PHM_BANNED and not verdict.playable
    assert verdict.phm_category == "Disruption"
    assert verdict.headline == "Banned in PHM: on the PHM Banned List (Disruption)"
    assert any("rule 3.3" in sentence for sentence in verdict.details)


@pytest.mark.parametrize(("name", "category"), [("Black Lotus", "Acceleration"), ("Time Walk", "Disruption")])
def test_land_rule_list_cards_are_banned_only_under_a_land_rule(catalog_index, name, category):
    verdict = phm_verdict(card(name))
    assert verdict.kind == LAND_RULE_BANNED and verdict.playable
    assert verdict.land_rule_category == category
    assert verdict.restricted  # both are restricted in Vintage: that changes nothing in PHM
    assert any(f"Land Rule Banned List ({category})" in sentence for sentence in verdict.details)


def test_a_land_rule_card_that_is_not_restricted(catalog_index):
    verdict = phm_verdict(card("Energy Field"))
    assert verdict.kind == LAND_RULE_BANNED and not verdict.restricted


def test_banned_in_vintage_is_not_legal(catalog_index):
    verdict = phm_verdict(card("Chaos Orb"))
    assert verdict.kind == VINTAGE_BANNED and not verdict.playable
    assert verdict.headline == "Not legal in PHM: banned in Vintage"


def test_not_legal_in_vintage(catalog_index):
    verdict = phm_verdict(card('"Ach! Hans, Run!"'))
    assert verdict.kind == NOT_VINTAGE_LEGAL
    # A released paper card: rule 3.2a (unreleased cards) has nothing to offer.
    assert not any("3.2a" in sentence for sentence in verdict.details)


def test_a_digital_only_card_known_only_by_name(catalog_index):
    mox_poison = card("Mox Poison")
    assert mox_poison.data_quality == DataQuality.NAME_ONLY and not mox_poison.paper
    verdict = phm_verdict(mox_poison)
    assert verdict.kind == NOT_VINTAGE_LEGAL and verdict.known_only_by_name
    assert any("digital-only" in sentence for sentence in verdict.details)
    assert any("only by its name" in sentence for sentence in verdict.details)


def test_a_legal_card_known_only_by_name_says_what_is_known(catalog_index):
    verdict = phm_verdict(card("Aboleth Spawn"))
    assert verdict.kind == PHM_LEGAL and verdict.known_only_by_name
    assert any("only by its name and the sets" in sentence for sentence in verdict.details)


def test_an_unreleased_paper_card_points_to_rule_3_2a(catalog_index):
    future = Card(
        name="Card From Next Year",
        legalities={"vintage": "not_legal"},
        paper=True,
        first_printed=datetime.date.today() + datetime.timedelta(days=30),
    )
    verdict = phm_verdict(future)
    assert verdict.kind == NOT_VINTAGE_LEGAL
    assert any("rule 3.2a" in sentence for sentence in verdict.details)


def test_the_verdict_follows_the_standing_lists(catalog_index, moderator):
    phm = BannedList.objects.get(key=BannedList.PHM)
    entry = add_banned_card(phm, card_name="sol ring", category="acceleration", by=moderator)
    assert phm_verdict(card("Sol Ring")).kind == PHM_BANNED
    remove_banned_card(entry, by=moderator)
    force = phm.entries.get(card_name="Force of Will")
    remove_banned_card(force, by=moderator)
    assert phm_verdict(card("Sol Ring")).kind == PHM_LEGAL
    assert phm_verdict(card("Force of Will")).kind == PHM_LEGAL


def test_the_verdict_costs_one_query(catalog_index, django_assert_num_queries):
    black_lotus = card("Black Lotus")
    with django_assert_num_queries(1):
        phm_verdict(black_lotus)
