"""Round card rules: the forum's own restrictions expressed as card filters and enforced by
check_hand, validated where the moderator types them (form and API, with the position), and listed wherever
the round's rules are."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.bbcode import announcement
from rounds.card_rules import clean_card_rules, rules_from_text, rules_to_text
from rounds.legality import HandRules, check_hand, rules_for_round
from rounds.models import Round
from rounds.services import lifecycle as services
from rounds.services.errors import RoundConflict, RoundInputError
from rounds.summary import rules_summary_lines

pytestmark = pytest.mark.django_db

DRAGONS = {"query": "t:dragon t:creature", "message": "Only Dragon creature cards"}


def card_problems(verdict):
    return {card.name: [problem.message for problem in card.problems] for card in verdict.cards}


def rules_with(*card_rules):
    return HandRules(
        card_rules=tuple(
            (rule["query"], rule.get("at_least"), rule.get("at_most"), rule.get("message", ""))
            for rule in card_rules
        )
    )


@pytest.fixture
def dragon_round(league, moderator, catalog_index):
    now = timezone.now()
    return services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title="3 Card Dragons",
        hand_size=3,
        card_rules=[DRAGONS],
        deadline=now + timedelta(days=3),
    )


def test_only_dragon_creature_cards(dragon_round):
    verdict = check_hand(["Lightning Bolt", "Shivan Dragon", "Mirror Entity"], rules_for_round(dragon_round))
    problems = card_problems(verdict)
    assert problems["Lightning Bolt"] == [
        "Lightning Bolt does not match this round's rule: Only Dragon creature cards"
    ]
    assert problems["Shivan Dragon"] == []
    assert problems["Mirror Entity"] == []  # Changeling: every creature type (702.73a)
    assert not verdict.legal
    assert check_hand(
        ["Shivan Dragon", "Mirror Entity", "Shivan Dragon"], rules_for_round(dragon_round)
    ).legal


def test_without_a_message_the_problem_quotes_the_filter(catalog_index):
    verdict = check_hand(["Lightning Bolt"], rules_with({"query": "t:dragon t:creature"}))
    assert card_problems(verdict)["Lightning Bolt"] == [
        "Lightning Bolt does not match this round's rule: t:dragon t:creature"
    ]
    assert verdict.cards[0].problems[0].code == "card_rule"


@pytest.mark.parametrize(
    ("rule", "refused", "accepted"),
    [
        ("mv<=3", "Shivan Dragon", "Mirror Entity"),  # "mana value 3 or less"
        ("-c:u", "Counterspell", "Lightning Bolt"),  # "no blue cards"
        ("year<1995", "Mirror Entity", "Black Lotus"),  # "only cards first printed before 1995"
    ],
)
def test_forum_restrictions(catalog_index, rule, refused, accepted):
    verdict = check_hand([refused, accepted], rules_with({"query": rule}))
    problems = card_problems(verdict)
    assert problems[refused] == [f"{refused} does not match this round's rule: {rule}"]
    assert problems[accepted] == []


def test_at_least_and_at_most_are_hand_problems(catalog_index):
    at_most_one_draw = {"query": 'o:"draw"', "at_most": 1}
    at_least_one_land = {"query": "t:land", "at_least": 1, "message": "a land"}
    hand = ["Ancestral Recall", "Brainstorm", "Lightning Bolt"]
    verdict = check_hand(hand, rules_with(at_most_one_draw, at_least_one_land))
    assert all(card.legal for card in verdict.cards)  # counted rules never blame one card
    messages = [problem.message for problem in verdict.problems]
    assert messages == [
        'At most 1 card may match this round\'s rule: o:"draw"; the hand has 2: Ancestral Recall, Brainstorm.',
        "At least 1 card must match this round's rule: a land; the hand has 0.",
    ]
    assert [problem.code for problem in verdict.problems] == ["card_rule_at_most", "card_rule_at_least"]
    assert check_hand(
        ["Ancestral Recall", "Island", "Lightning Bolt"], rules_with(at_most_one_draw, at_least_one_land)
    ).legal


def test_accepted_cards_count_as_matching(catalog_index):
    rules = HandRules(
        card_rules=(("t:dragon", None, None, ""), ("t:land", 1, None, "")), accepted_cards=("Brand New Wyrm",)
    )
    verdict = check_hand(["Brand New Wyrm"], rules)
    assert verdict.cards[0].accepted and verdict.legal


def test_unknown_cards_are_not_blamed_twice(catalog_index):
    verdict = check_hand(["Shivan Dragonn"], rules_with({"query": "t:dragon"}))
    assert [problem.code for problem in verdict.cards[0].problems] == ["fuzzy_match"]


def test_clean_card_rules_names_the_rule_and_position(catalog_index):
    rules, problems = clean_card_rules(["t:dragon", {"query": "t:dragon (mv<3"}, {"query": "r:rare"}])
    assert rules == [{"query": "t:dragon"}]
    assert problems == [
        "Rule 2 “t:dragon (mv<3”, position 14: A parenthesis is not closed: add “)”.",
        "Rule 3 “r:rare”, position 0: Rarity is not in this card catalog (the shipped card data has none), "
        "so r: cannot be checked. Use s: (sets) or a list of cards instead.",
    ]


@pytest.mark.parametrize(
    "bad",
    [
        "t:dragon",
        [{"query": ""}],
        [{"query": "t:dragon", "at_least": -1}],
        [{"query": "t:dragon", "at_most": "two"}],
        [{"query": "t:dragon", "at_least": 3, "at_most": 1}],
        [{"query": "t:dragon", "colour": "red"}],
        [7],
        [{"query": "t:dragon"}] * 21,
        [{"query": "t:dragon", "message": "x" * 301}],
    ],
)
def test_clean_card_rules_refuses_bad_shapes(catalog_index, bad):
    rules, problems = clean_card_rules(bad)
    assert problems and not rules


def test_textarea_lines_round_trip():
    text = 't:dragon t:creature | Only Dragon creature cards\nat most 1: o:"draw a card"\nat least 1, at most 2: t:land'
    rules = rules_from_text(text + "\n\n# a comment\n")
    assert rules == [
        {"query": "t:dragon t:creature", "message": "Only Dragon creature cards"},
        {"query": 'o:"draw a card"', "message": "", "at_most": 1},
        {"query": "t:land", "message": "", "at_least": 1, "at_most": 2},
    ]
    assert rules_to_text(rules) == text


def test_round_services_store_clean_rules_and_refuse_bad_ones(league, moderator, catalog_index):
    now = timezone.now()
    with pytest.raises(RoundInputError) as caught:
        services.create_round(
            actor=moderator, league=league, now=now, title="x", hand_size=3,
            card_rules=[{"query": "t:dragon f:chess"}], deadline=now + timedelta(days=1),
        )  # fmt: skip
    assert caught.value.errors["card_rules"][0].startswith("Rule 1 “t:dragon f:chess”, position 11:")
    round_ = services.create_round(
        actor=moderator, league=league, now=now, title="x", hand_size=3,
        card_rules=[{"query": " t:dragon ", "message": "  Dragons   only "}], deadline=now + timedelta(days=1),
    )  # fmt: skip
    assert round_.card_rules == [{"query": "t:dragon", "message": "Dragons only"}]
    assert rules_for_round(round_).card_rules == (("t:dragon", None, None, "Dragons only"),)


def test_card_rules_are_fixed_once_the_round_is_open(dragon_round, moderator):
    with pytest.raises(RoundConflict):
        services.update_round(
            actor=moderator, round_id=dragon_round.pk, now=timezone.now(), changes={"card_rules": []}
        )


def test_rules_are_listed_on_the_page_summary_and_announcement(client, dragon_round):
    line = "Every card must match t:dragon t:creature (Only Dragon creature cards)"
    assert f"Card rule: {line}" in rules_summary_lines(dragon_round)
    assert f"[b]Card rule:[/b] {line}" in announcement(dragon_round, "https://phm.example/r/1/")
    page = client.get(dragon_round.get_absolute_url()).content.decode()
    assert 'id="card-rules"' in page and line in page


@pytest.fixture
def as_moderator(api_client, moderator):
    api_client.force_authenticate(moderator)
    return api_client


def body(league, **overrides):
    return {
        "league": league.pk,
        "title": "3 Card Dragons",
        "hand_size": 3,
        "deadline": (timezone.now() + timedelta(days=4)).isoformat(),
        **overrides,
    }


def test_api_creates_a_round_with_card_rules(as_moderator, league, catalog_index):
    rules = [DRAGONS, {"query": "mv<=3", "at_most": 1}]
    response = as_moderator.post("/api/rounds/", body(league, card_rules=rules), format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["card_rules"] == rules
    assert as_moderator.get(f"/api/rounds/{response.json()['id']}/").json()["card_rules"] == rules


def test_api_400_names_the_rule_and_position(as_moderator, league, catalog_index):
    response = as_moderator.post(
        "/api/rounds/", body(league, card_rules=[DRAGONS, {"query": "t:dragon -(c:u"}]), format="json"
    )
    assert response.status_code == 400
    assert response.json()["card_rules"] == [
        "Rule 2 “t:dragon -(c:u”, position 14: A parenthesis is not closed: add “)”."
    ]
    assert not Round.objects.exists()


def test_api_patch_of_an_open_rounds_card_rules_is_409(as_moderator, dragon_round):
    response = as_moderator.patch(f"/api/rounds/{dragon_round.pk}/", {"card_rules": []}, format="json")
    assert response.status_code == 409
    assert Round.objects.get(pk=dragon_round.pk).card_rules == [DRAGONS]


def test_round_form_shows_the_parse_error_at_the_field(client, moderator, league, catalog_index):
    client.force_login(moderator)
    deadline = timezone.localtime(timezone.now() + timedelta(days=4)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "league": league.pk,
        "title": "Dragons",
        "hand_size": "3",
        "deadline": deadline,
        "land_rule": "none",
    }
    response = client.post("/moderate/rounds/new/", {**form, "card_rules": "t:dragon\nat most 1: mv<=x"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Rule 2 “mv&lt;=x”, position 4: “x” is not a number" in page
    assert not Round.objects.exists()
    response = client.post(
        "/moderate/rounds/new/", {**form, "card_rules": "t:dragon | Dragons\nat most 1: mv<=3"}
    )
    assert response.status_code == 302
    round_ = Round.objects.get()
    assert round_.card_rules == [
        {"query": "t:dragon", "message": "Dragons"},
        {"query": "mv<=3", "at_most": 1},
    ]
    edit = client.get(f"/moderate/rounds/{round_.pk}/edit/").content.decode()
    assert "t:dragon | Dragons\nat most 1: mv&lt;=3" in edit


def test_round_form_refuses_a_count_without_its_colon(client, moderator, league, catalog_index):
    client.force_login(moderator)
    deadline = timezone.localtime(timezone.now() + timedelta(days=4)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "league": league.pk,
        "title": "Dragons",
        "hand_size": "3",
        "deadline": deadline,
        "land_rule": "none",
    }
    response = client.post("/moderate/rounds/new/", {**form, "card_rules": "t:dragon\nat most 1 o:draw"})
    assert response.status_code == 200
    assert "Line 2: write the count with a colon" in response.content.decode()
    assert not Round.objects.exists()


def test_round_form_shows_every_problem_at_once(client, moderator, league, catalog_index):
    """A missing deadline does not hide the problems of the rules: the moderator fixes everything in one go."""
    client.force_login(moderator)
    form = {"league": league.pk, "title": "Dragons", "hand_size": "3", "land_rule": "none", "deadline": ""}
    response = client.post(
        "/moderate/rounds/new/",
        {
            **form,
            "card_rules": "t:dragon (mv<=3",
            "variant_order": "life_rule, banana",
            "extra_banned": "Lightnig",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "This field is required." in page  # the deadline
    assert "position 15" in page
    assert "Unknown variant “banana”" in page
    assert "“Lightnig” is not a card name we know." in page
    assert not Round.objects.exists()


def test_a_catalog_card_a_moderator_accepted_is_still_judged_by_the_rules(catalog_index):
    rules = HandRules(card_rules=(("t:dragon", None, None, ""),), accepted_cards=("Lightning Bolt",))
    problems = card_problems(check_hand(["Lightning Bolt"], rules))["Lightning Bolt"]
    assert "Lightning Bolt does not match this round's rule: t:dragon" in problems


@pytest.mark.usefixtures("fresh_index")
def test_format_filters_in_card_rules_are_judged_as_of_the_opening(tmp_path, league, moderator):
    from tests.rounds.test_legality_history import import_with, new_round

    rule = {"query": "f:pauper", "message": "Pauper cards only"}
    during = new_round(league, moderator, hand_size=1, card_rules=[rule])
    refused = "Black Lotus does not match this round's rule: Pauper cards only"
    assert card_problems(check_hand(["Black Lotus"], rules_for_round(during)))["Black Lotus"] == [refused]
    import_with(tmp_path, "Black Lotus", pauper="legal")
    # Rule 2.1a: the round open during the refresh keeps the legality of its opening, card rules included.
    assert card_problems(check_hand(["Black Lotus"], rules_for_round(during)))["Black Lotus"] == [refused]
    after = new_round(league, moderator, hand_size=1, card_rules=[rule])
    assert check_hand(["Black Lotus"], rules_for_round(after)).legal
