"""Round fields: cards lifted from the standing lists (`unbanned`), the order of the variants (7.2a),
"up to N" hands and hands beyond 7 cards (7.1), and the decisions a round asks (7.2b)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.bbcode import announcement
from rounds.legality import HandRules, check_hand, rules_for_round
from rounds.models import HandSizeMode, LandRule, Round
from rounds.services import lifecycle as services
from rounds.services.errors import RoundInputError
from rounds.summary import rules_summary_lines

pytestmark = pytest.mark.django_db

FOUR = ["Black Lotus", "Mox Pearl", "Mox Sapphire", "Mox Jet"]


def make_round(moderator, league, open_now=True, **rules):
    now = timezone.now()
    values = {"title": "Variants", "hand_size": 5, "deadline": now + timedelta(days=2), **rules}
    return services.create_round(actor=moderator, league=league, now=now, open_now=open_now, **values)


def codes(verdict):
    return [[problem.code for problem in card.problems] for card in verdict.cards]


@pytest.fixture
def as_moderator(api_client, moderator):
    api_client.force_authenticate(moderator)
    return api_client


def api_body(league, **overrides):
    return {
        "league": league.pk,
        "title": "API variants",
        "hand_size": 5,
        "deadline": (timezone.now() + timedelta(days=3)).isoformat(),
        **overrides,
    }


# unbanned: "Automatically banned … unless otherwise specified by the round rules" ------------------------------


@pytest.mark.parametrize("open_now", [False, True], ids=["draft", "opened"])
def test_a_round_lifts_a_phm_banned_card_as_a_draft_and_once_opened(moderator, league, open_now):
    plain = make_round(moderator, league, open_now=open_now)
    assert codes(check_hand(["Force of Will", *FOUR], rules_for_round(plain)))[0] == ["phm_banned"]
    lifting = make_round(moderator, league, open_now=open_now, unbanned=["force of will"])
    assert lifting.unbanned == ["Force of Will"]  # spelled as the catalog does
    verdict = check_hand(["Force of Will", *FOUR], rules_for_round(Round.objects.get(pk=lifting.pk)))
    assert verdict.legal, codes(verdict)
    # Only that card: the rest of the PHM list still applies.
    assert codes(check_hand(["Strip Mine", *FOUR], rules_for_round(lifting)))[0] == ["phm_banned"]


def test_a_round_lifts_a_land_rule_banned_card(moderator, league):
    plain = make_round(moderator, league, land_rule=LandRule.LR)
    assert codes(check_hand(["Time Walk", *FOUR], rules_for_round(plain)))[0] == ["land_rule_banned"]
    lifting = make_round(moderator, league, land_rule=LandRule.LR, unbanned=["Time Walk"])
    assert codes(check_hand(["Time Walk", *FOUR], rules_for_round(lifting)))[0] == []
    # The moxen stay on the Land Rule list: only the lifted card is allowed.
    assert codes(check_hand(["Time Walk", *FOUR], rules_for_round(lifting)))[1] == ["land_rule_banned"]


def test_lifting_never_lifts_the_rounds_own_bans(moderator, league):
    round_ = make_round(moderator, league, unbanned=["Force of Will"], extra_banned=["Force of Will"])
    assert codes(check_hand(["Force of Will", *FOUR], rules_for_round(round_)))[0] == ["round_banned"]


def test_an_unknown_lifted_name_is_refused_with_suggestions(moderator, league):
    with pytest.raises(RoundInputError) as caught:
        make_round(moderator, league, unbanned=["Force of Wil"])
    [problem] = caught.value.errors["unbanned"]
    assert "Force of Wil" in problem and "Did you mean" in problem and "Force of Will" in problem


def test_the_api_takes_unbanned_and_the_effective_list_leaves_the_card_out(as_moderator, league):
    response = as_moderator.post("/api/rounds/", api_body(league, unbanned=["Force of Will"]), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["unbanned"] == ["Force of Will"]
    assert "Force of Will" not in body["banned"] and "Strip Mine" in body["banned"]
    assert as_moderator.get(f"/api/rounds/{body['id']}/").json()["unbanned"] == ["Force of Will"]
    refused = as_moderator.post("/api/rounds/", api_body(league, unbanned=["Forse of Wil"]), format="json")
    assert refused.status_code == 400 and "Forse of Wil" in refused.json()["unbanned"][0]
    # Lifting a ban is allowed while the round is open: it never makes a submitted hand illegal.
    patched = as_moderator.patch(f"/api/rounds/{body['id']}/", {"unbanned": []}, format="json")
    assert patched.status_code == 200 and "Force of Will" in patched.json()["banned"]


def test_the_round_page_announcement_and_summary_show_the_lifted_card(client, moderator, league):
    round_ = make_round(moderator, league, unbanned=["Force of Will"])
    html = client.get(round_.get_absolute_url()).content.decode()
    # The lifted card is struck through and still a link to its card page.
    assert re.search(r'<del><a [^>]*href="/cards/force-of-will/"[^>]*>Force of Will</a></del>', html)
    assert "lifted for this round" in html
    assert 'id="lifted-cards"' in html
    assert "[b]Lifted for this round:[/b] Force of Will" in announcement(round_, "https://phm.example/r/")
    assert "Lifted for this round: Force of Will" in rules_summary_lines(round_)


# variant order (7.2a) -------------------------------------------------------------------------------------------


def test_the_summary_and_announcement_list_variants_in_the_rounds_order(moderator, league):
    usual = make_round(moderator, league, land_rule=LandRule.LR, life_rule=True, bonus_rule="Play a Goblin")
    lines = rules_summary_lines(usual)
    assert lines.index(next(x for x in lines if x.startswith("Land rule"))) < lines.index(
        next(x for x in lines if x.startswith("Life Rule"))
    )
    ordered = make_round(
        moderator,
        league,
        land_rule=LandRule.LR,
        life_rule=True,
        bonus_rule="Play a Goblin",
        variant_order=["bonus", "life_rule", "land_rule"],
    )
    labels = [line.split(":")[0] for line in rules_summary_lines(ordered)]
    assert labels[:4] == ["Hand size", "Bonus points (7.7)", "Life Rule (7.5)", "Land rule"]
    text = announcement(ordered, "https://phm.example/r/")
    assert text.index("[b]Bonus points (7.7):[/b]") < text.index("[b]Life Rule (7.5):[/b]")
    assert text.index("[b]Life Rule (7.5):[/b]") < text.index("[b]Land Rule:[/b]")
    assert ordered.variant_order[:3] == ["bonus", "life_rule", "land_rule"]


def test_the_round_page_says_the_order_when_the_land_rule_is_not_first(client, moderator, league):
    round_ = make_round(moderator, league, land_rule=LandRule.LR, life_rule=True, variant_order=["life_rule"])
    html = client.get(round_.get_absolute_url()).content.decode()
    assert "In this order (7.2a): Life Rule (7.5), Land rule (7.3)." in html


def test_an_unknown_variant_key_is_a_400_naming_it(as_moderator, league):
    response = as_moderator.post(
        "/api/rounds/", api_body(league, variant_order=["life_rule", "moon_rule"]), format="json"
    )
    assert response.status_code == 400
    assert "“moon_rule”" in response.json()["variant_order"][0]
    repeated = as_moderator.post(
        "/api/rounds/", api_body(league, variant_order=["life_rule", "life_rule"]), format="json"
    )
    assert repeated.status_code == 400 and "life_rule" in repeated.json()["variant_order"][0]
    fine = as_moderator.post("/api/rounds/", api_body(league, variant_order=["backbuild"]), format="json")
    assert fine.status_code == 201 and fine.json()["variant_order"][0] == "backbuild"


# hand size: "exactly N" or "up to N", beyond 7 when the moderator says so ------------------------------------------


def test_up_to_accepts_one_to_n_cards_and_says_so_otherwise():
    rules = HandRules(hand_size=5, hand_size_mode=HandSizeMode.UP_TO)
    assert check_hand(FOUR[:1], rules).legal and check_hand(FOUR[:3], rules).legal
    too_many = check_hand([*FOUR, "Mox Ruby", "Mox Emerald"], rules)
    assert [p.message for p in too_many.problems] == [
        "The hand has 6 cards; this round allows 1 to 5 (up to 5)."
    ]
    assert [p.code for p in check_hand([], rules).problems] == ["wrong_count"]
    assert not check_hand(FOUR[:3], HandRules(hand_size=5)).legal  # exactly 5 is still exactly


def test_check_hand_command_takes_up_to(capsys):
    from django.core.management import call_command

    call_command("check_hand", "Black Lotus / Mox Pearl", "--size", "5", "--up-to")
    assert "LEGAL" in capsys.readouterr().out


def test_an_up_to_round_by_the_api_with_more_than_seven_cards(as_moderator, league):
    response = as_moderator.post(
        "/api/rounds/", api_body(league, hand_size=9, hand_size_mode="up_to"), format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["hand_size"] == 9 and body["hand_size_mode"] == "up_to"
    round_ = Round.objects.get(pk=body["id"])
    assert check_hand(["Black Lotus"] * 9, rules_for_round(round_)).legal
    assert rules_summary_lines(round_)[0] == "Hand size: up to 9 cards"
    assert "[b]Deck Size:[/b] up to 9" in announcement(round_, "https://phm.example/r/")
    bad = as_moderator.post("/api/rounds/", api_body(league, hand_size_mode="some"), format="json")
    assert bad.status_code == 400 and "hand_size_mode" in bad.json()


def form_body(league, **overrides):
    deadline = timezone.localtime(timezone.now() + timedelta(days=4))
    return {
        "league": league.pk,
        "title": "8 Card Chaos",
        "hand_size": "8",
        "deadline": deadline.strftime("%Y-%m-%dT%H:%M"),
        "land_rule": "none",
        **overrides,
    }


def test_the_round_form_needs_a_confirmation_beyond_seven_cards(client, moderator, league):
    client.force_login(moderator)
    refused = client.post("/moderate/rounds/new/", form_body(league))
    assert refused.status_code == 200 and not Round.objects.exists()
    assert "Rule 7.1 tells of hands of 1 to 7 cards" in refused.content.decode()
    accepted = client.post(
        "/moderate/rounds/new/", form_body(league, confirm_large_hand="on", hand_size_mode="up_to")
    )
    assert accepted.status_code == 302
    round_ = Round.objects.get()
    assert round_.hand_size == 8 and round_.hand_size_mode == HandSizeMode.UP_TO


def test_the_form_saves_unbanned_order_and_decisions(client, moderator, league):
    client.force_login(moderator)
    body = form_body(
        league,
        hand_size="5",
        unbanned="Force of Will / Time Walk",
        variant_order="life_rule, land_rule",
        decisions="tribe | Your creature type | choice | Goblin | Elf\nx | Pick a number | number",
    )
    response = client.post("/moderate/rounds/new/", body)
    assert response.status_code == 302, response.content.decode()[:2000]
    round_ = Round.objects.get()
    assert round_.unbanned == ["Force of Will", "Time Walk"]
    assert round_.variant_order[:2] == ["life_rule", "land_rule"]
    assert round_.decisions == [
        {"key": "tribe", "label": "Your creature type", "kind": "choice", "choices": ["Goblin", "Elf"]},
        {"key": "x", "label": "Pick a number", "kind": "number"},
    ]
    page = client.get(f"/moderate/rounds/{round_.pk}/edit/").content.decode()
    assert "tribe | Your creature type | choice | Goblin | Elf" in page


# decisions (7.2b) -----------------------------------------------------------------------------------------------


def test_decisions_are_checked_and_listed_in_the_rules(as_moderator, league):
    decisions = [
        {"key": "tribe", "label": "Creature type", "kind": "choice", "choices": ["Goblin", "Elf"]},
        {"key": "pet", "label": "A card", "kind": "card"},
    ]
    response = as_moderator.post("/api/rounds/", api_body(league, decisions=decisions), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["decisions"] == decisions
    round_ = Round.objects.get(pk=response.json()["id"])
    assert any(
        line.startswith("Decisions (7.2b): Creature type (one of Goblin, Elf)")
        for line in rules_summary_lines(round_)
    )
    for bad in (
        [{"key": "tribe", "label": "x", "kind": "colour"}],
        [{"key": "Bad Key", "label": "x", "kind": "text"}],
        [{"key": "a", "label": "x", "kind": "choice", "choices": ["only one"]}],
        [{"key": "a", "label": "x", "kind": "text"}, {"key": "a", "label": "y", "kind": "text"}],
        "nope",
    ):
        refused = as_moderator.post("/api/rounds/", api_body(league, decisions=bad), format="json")
        assert refused.status_code == 400 and "decisions" in refused.json(), bad
