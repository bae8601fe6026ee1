import pytest

from rounds.catalog.handlist import parse_hand_list
from rounds.catalog.resolve import is_known_card
from rounds.legality import HandRules, LandRule, RulesError, check_hand

# The seed hands of phm-rules.txt: all legal with no land rule.
SEED_HANDS = [
    "Leyline of Singularity / Karakas / Kjeldoran Warrior / Mishra's Workshop / Wheel of Torture",
    "Ancient Tomb / Gustha's Scepter / Lodestone Golem / Mishra's Workshop / Sphere of Resistance",
    "Black Lotus / Black Lotus / Black Lotus / Frost Titan / Nevermore",
    "Leyline of Singularity / Karakas / Mox Pearl / Thalia, Guardian of Thraben / Wear // Tear",
    "Leyline of the Void / Chalice of the Void / Dark Depths / Thespian's Stage / Urborg, Tomb of Yawgmoth",
    "Black Lotus/Conjurer's Bauble/Leyline of the Void/Thalia, Guardian of Thraben/Wipe Away",
]


def codes(verdict):
    return [[problem.code for problem in card.problems] for card in verdict.cards]


@pytest.mark.parametrize("hand", SEED_HANDS)
def test_seed_hands_are_legal_without_a_land_rule(catalog_index, hand):
    names = parse_hand_list(hand, is_card=is_known_card)
    assert len(names) == 5
    verdict = check_hand(names, HandRules(hand_size=5))
    assert verdict.legal, [(card.name, card.problems) for card in verdict.cards]


@pytest.mark.parametrize("land_rule", [LandRule.LR, LandRule.ELR, LandRule.DLR])
def test_black_lotus_hand_is_illegal_with_a_land_rule(catalog_index, land_rule):
    hand = parse_hand_list("Black Lotus / Black Lotus / Black Lotus / Frost Titan / Nevermore")
    verdict = check_hand(hand, HandRules(hand_size=5, land_rule=land_rule))
    assert not verdict.legal
    assert codes(verdict) == [["land_rule_banned"]] * 3 + [[], []]
    assert "Land Rule Banned List (Acceleration)" in verdict.cards[0].problems[0].message


@pytest.mark.parametrize("card", ["Chaos Orb", "Shahrazad"])
def test_cards_banned_in_vintage_are_refused(catalog_index, card):
    verdict = check_hand([card])
    assert codes(verdict) == [["vintage_banned"]]
    assert verdict.cards[0].problems[0].message == f"{card} is banned in Vintage (rule 3.2)."


def test_not_vintage_legal_is_refused(catalog_index):
    verdict = check_hand(['"Ach! Hans, Run!"'])
    assert codes(verdict) == [["not_vintage_legal"]]


def test_restricted_in_vintage_is_legal_in_any_number(catalog_index):
    assert check_hand(["Time Walk"] * 7, HandRules(hand_size=7)).legal
    assert check_hand(["Ancestral Recall", "Mox Pearl", "Mox Pearl"]).legal


def test_force_of_will_is_refused_by_the_phm_list(catalog_index):
    verdict = check_hand(["Force of Will"])
    assert codes(verdict) == [["phm_banned"]]
    assert verdict.cards[0].problems[0].message == "Force of Will is on the PHM Banned List (Disruption)."


@pytest.mark.parametrize("card", ["Strip Mine", "Show and Tell", "The Rack", "Ulamog, the Infinite Gyre"])
def test_phm_list_applies_always(catalog_index, card):
    assert "phm_banned" in codes(check_hand([card]))[0]


def test_land_rule_list_only_with_a_land_rule(catalog_index):
    assert check_hand(["Time Walk"]).legal
    assert codes(check_hand(["Time Walk"], HandRules(land_rule=LandRule.DLR))) == [["land_rule_banned"]]


def test_round_extra_bans_by_any_spelling(catalog_index):
    rules = HandRules(extra_banned=("mox pearl", "Tear"))
    verdict = check_hand(["Mox Pearl", "Wear // Tear", "Black Lotus"], rules)
    assert codes(verdict) == [["round_banned"], ["round_banned"], []]
    assert verdict.cards[0].problems[0].message == "Mox Pearl is on this round's additional banned list."


def test_sanctioned_format_refuses_not_legal_but_allows_banned(catalog_index):
    rules = HandRules(sanctioned_format="modern")
    verdict = check_hand(["Chrome Mox", "Mox Pearl", "Thalia, Guardian of Thraben"], rules)
    # Chrome Mox is banned in Modern but printed in Modern-legal sets (rule 7.4): allowed.
    assert codes(verdict) == [[], ["format_not_legal"], []]
    assert verdict.cards[1].problems[0].message == "Mox Pearl is not from a set legal in Modern (rule 7.4)."


def test_allowed_sets(catalog_index):
    rules = HandRules(allowed_sets=("dka",))
    verdict = check_hand(["Thalia, Guardian of Thraben", "Black Lotus"], rules)
    assert codes(verdict) == [[], ["set_not_allowed"]]


def test_wrong_number_of_cards(catalog_index):
    verdict = check_hand(["Black Lotus"] * 4, HandRules(hand_size=5))
    assert not verdict.legal
    assert [problem.code for problem in verdict.problems] == ["wrong_count"]
    assert verdict.problems[0].message == "The hand has 4 cards; this round needs exactly 5."


def test_unknown_and_fuzzy_names_explain_themselves(catalog_index):
    verdict = check_hand(["Thalia, Gaurdian of Thraben", "Zzyzx Qwerty Plorp", ""])
    assert codes(verdict) == [["fuzzy_match"], ["unknown_card"], ["empty_name"]]
    message = verdict.cards[0].problems[0].message
    assert "not in the card catalog (as of 23 January 2026)" in message
    assert "Thalia, Guardian of Thraben" in message
    assert verdict.cards[0].suggestions[0] == "Thalia, Guardian of Thraben"


def test_every_problem_is_reported(catalog_index):
    rules = HandRules(
        hand_size=2, land_rule=LandRule.LR, sanctioned_format="modern", extra_banned=("Black Lotus",)
    )
    verdict = check_hand(["Black Lotus", "Force of Will", "Chaos Orb"], rules)
    assert codes(verdict) == [
        ["format_not_legal", "land_rule_banned", "round_banned"],
        ["format_not_legal", "phm_banned"],
        ["vintage_banned", "format_not_legal"],
    ]
    assert verdict.problems[0].code == "wrong_count"


def test_moderator_accepted_card_is_legal(catalog_index):
    rules = HandRules(accepted_cards=("Brand New Card of 2026",))
    verdict = check_hand(["brand new card of 2026", "Black Lotus"], rules)
    assert verdict.legal
    assert verdict.cards[0].accepted


@pytest.mark.parametrize(
    "rules",
    [
        HandRules(hand_size=0),
        HandRules(hand_size=16),
        HandRules(land_rule="XLR"),
        HandRules(sanctioned_format="nope"),
    ],
)
def test_bad_rules_are_a_usage_error(catalog_index, rules):
    with pytest.raises(RulesError):
        check_hand(["Black Lotus"], rules)


def test_bounded_queries(catalog_index, django_assert_max_num_queries):
    hand = ["Black Lotus", "Force of Will", "Tear", "Frost Titan", "Nevermore", "Mox Pearl", "Time Walk"]
    with django_assert_max_num_queries(4):
        check_hand(
            hand,
            HandRules(hand_size=7, land_rule=LandRule.LR, sanctioned_format="legacy", allowed_sets=("LEA",)),
        )
