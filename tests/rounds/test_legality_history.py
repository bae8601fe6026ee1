"""Rule 2.1a for the catalog: a card's legality is judged as of the round's opening. A catalog refresh records
what it changed (CardLegalityChange); a round open during it keeps judging by the old values, a round opened
after it uses the new ones; drafts and checks outside a round use today's values."""

import itertools
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.catalog.loader import import_cards
from rounds.legality import HandRules, check_hand, rules_for_round
from rounds.models import Card, CardLegalityChange
from rounds.services.lifecycle import create_round
from tests.rounds.conftest import FIXTURES

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_index")]

FIVE = ["Black Lotus", "Mox Pearl", "Time Walk", "Karakas", "Thalia, Guardian of Thraben"]
_files = itertools.count()


def scryfall_records(*names):
    records = json.loads((FIXTURES / "scryfall_oracle_cards.json").read_text())
    return [record for record in records if record["name"] in names]


def import_with(tmp_path, name, **legalities):
    """Import the Scryfall fixture's record of `name`, with some legalities changed."""
    (record,) = scryfall_records(name)
    record["legalities"].update(legalities)
    path = tmp_path / f"refresh-{next(_files)}.json"
    path.write_text(json.dumps([record]))
    return import_cards(str(path))


def new_round(league, moderator, *, opened=True, hand_size=5, **rules):
    now = timezone.now()
    return create_round(
        actor=moderator, league=league, now=now, open_now=opened, title="History", hand_size=hand_size,
        deadline=now + timedelta(days=2), **rules,
    )  # fmt: skip


def codes(verdict):
    return [[problem.code for problem in card.problems] for card in verdict.cards]


def test_a_refresh_during_a_round_banning_a_card_does_not_change_that_round(tmp_path, league, moderator):
    during = new_round(league, moderator)
    assert check_hand(FIVE, rules_for_round(during)).legal
    import_with(tmp_path, "Black Lotus", vintage="banned")

    # The round open during the refresh keeps the legality of its opening.
    assert check_hand(FIVE, rules_for_round(during)).legal
    # A round opened after the refresh, a draft and a list checked outside any round use the new value.
    after = new_round(league, moderator)
    verdict = check_hand(FIVE, rules_for_round(after))
    assert codes(verdict)[0] == ["vintage_banned"]
    assert verdict.cards[0].problems[0].message == "Black Lotus is banned in Vintage (rule 3.2)."
    draft = new_round(league, moderator, opened=False)
    assert codes(check_hand(FIVE, rules_for_round(draft)))[0] == ["vintage_banned"]
    assert codes(check_hand(["Black Lotus"]))[0] == ["vintage_banned"]


def test_a_card_legal_since_the_refresh_is_still_illegal_in_a_round_opened_before(
    tmp_path, league, moderator
):
    import_with(tmp_path, "Black Lotus", vintage="not_legal")
    before = new_round(league, moderator)
    assert codes(check_hand(FIVE, rules_for_round(before)))[0] == ["not_vintage_legal"]
    import_with(tmp_path, "Black Lotus", vintage="legal")

    verdict = check_hand(FIVE, rules_for_round(before))
    assert codes(verdict)[0] == ["not_vintage_legal"]
    assert verdict.cards[0].problems[0].message == (
        "Black Lotus was not legal in Vintage when this round opened (rules 2.1a and 3.2)."
    )
    assert check_hand(FIVE, rules_for_round(new_round(league, moderator))).legal


def test_a_ban_lifted_after_the_opening_still_holds_in_that_round(tmp_path, league, moderator):
    import_with(tmp_path, "Black Lotus", vintage="banned")
    before = new_round(league, moderator)
    import_with(tmp_path, "Black Lotus", vintage="restricted")
    verdict = check_hand(FIVE, rules_for_round(before))
    assert verdict.cards[0].problems[0].message == (
        "Black Lotus was banned in Vintage when this round opened (rules 2.1a and 3.2)."
    )


def test_a_card_added_to_the_catalog_during_a_round_was_not_in_it_at_the_opening(tmp_path, league, moderator):
    Card.objects.filter(oracle_name="Fire // Ice").delete()
    during = new_round(league, moderator)
    import_cards(str(FIXTURES / "scryfall_oracle_cards.json"))
    hand = ["Fire // Ice", *FIVE[1:]]
    verdict = check_hand(hand, rules_for_round(during))
    assert codes(verdict)[0] == ["not_vintage_legal"]
    assert verdict.cards[0].problems[0].message == (
        "Fire // Ice was not in the card catalog when this round opened (rules 2.1a and 3.2)."
    )
    assert check_hand(hand, rules_for_round(new_round(league, moderator))).legal


def test_the_sanctioned_format_is_judged_as_of_the_opening_too(tmp_path, league, moderator):
    during = new_round(league, moderator, hand_size=1, sanctioned_format="pauper")
    assert codes(check_hand(["Black Lotus"], rules_for_round(during))) == [["format_not_legal"]]
    import_with(tmp_path, "Black Lotus", pauper="legal")
    assert codes(check_hand(["Black Lotus"], rules_for_round(during))) == [["format_not_legal"]]
    after = new_round(league, moderator, hand_size=1, sanctioned_format="pauper")
    assert check_hand(["Black Lotus"], rules_for_round(after)).legal


def test_the_loader_records_changed_and_new_legalities_once(tmp_path):
    lotus = Card.objects.get(oracle_name="Black Lotus")
    assert lotus.legality("vintage") == "restricted"
    result = import_with(tmp_path, "Black Lotus", vintage="banned")
    change = CardLegalityChange.objects.get(card=lotus, format="vintage")
    assert (change.before, change.after) == ("restricted", "banned")
    assert change.catalog_version == result.version and change.effective_at == result.version.loaded_at
    assert result.legality_changes == CardLegalityChange.objects.count()
    # Formats beyond the ones a round can be judged by are not tracked (the fixture has twenty of them).
    assert set(CardLegalityChange.objects.values_list("format", flat=True)) <= {
        "vintage", "legacy", "modern", "pioneer", "standard", "pauper",
    }  # fmt: skip
    again = import_with(tmp_path, "Black Lotus", vintage="banned")
    assert again.legality_changes == 0 and CardLegalityChange.objects.filter(card=lotus).count() == 1

    Card.objects.filter(oracle_name="Fire // Ice").delete()
    added = import_cards(str(FIXTURES / "scryfall_oracle_cards.json"))
    fire_ice = Card.objects.get(oracle_name="Fire // Ice")
    first = {change.format: (change.before, change.after) for change in fire_ice.legality_changes.all()}
    assert first["vintage"] == ("", "legal") and first["pauper"] == ("", fire_ice.legality("pauper"))
    assert len(first) == 6 and added.version.legality_changes.filter(card=fire_ice).count() == 6


def test_the_card_page_shows_the_legality_history(tmp_path, client):
    assert "Legality history" not in client.get("/cards/black-lotus/").content.decode()
    import_with(tmp_path, "Black Lotus", vintage="banned")
    page = client.get("/cards/black-lotus/").content.decode()
    assert "Legality history" in page and "first round opened after the catalog learnt it" in page


def test_an_opened_round_costs_no_query_more_unless_the_catalog_changed_since(
    tmp_path, league, moderator, django_assert_num_queries, catalog_index
):
    round_ = new_round(league, moderator)
    rules = rules_for_round(round_, accepted_cards=())
    check_hand(FIVE, rules)  # warm: the index, the card rows, the newest change
    with django_assert_num_queries(0):
        assert check_hand(FIVE, rules).legal
    import_with(tmp_path, "Black Lotus", vintage="banned")
    check_hand(FIVE, rules)
    with django_assert_num_queries(1):  # the changes after the opening, for the hand's cards
        assert check_hand(FIVE, rules).legal
    with django_assert_num_queries(1):  # outside a round: the standing banned lists, today's values
        assert not check_hand(FIVE, HandRules(hand_size=5)).legal


def test_a_resync_takes_todays_catalog_with_todays_lists(tmp_path, league, moderator):
    """Re-syncing is the moderator's choice to judge the round by today's lists and today's catalog together: the
    "catalog as of" it shows is then the catalog hands are judged by."""
    from rounds.services.lifecycle import resync_banned_lists

    during = new_round(league, moderator)
    import_with(tmp_path, "Black Lotus", vintage="banned")
    assert check_hand(FIVE, rules_for_round(during)).legal  # judged as of the opening

    resynced = resync_banned_lists(actor=moderator, round_id=during.pk, now=timezone.now())
    assert resynced.legal_as_of > resynced.opened_at
    assert codes(check_hand(FIVE, rules_for_round(resynced)))[0] == ["vintage_banned"]
