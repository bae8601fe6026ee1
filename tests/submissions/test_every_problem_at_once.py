"""A refused hand is told every problem at once, every time: the cards the round's rules refuse together with a
missing attestation, missing or wrong decisions (7.2b) and fields of the wrong kind — on the hand form and in
the API's PUT, whose answer keeps its shapes (an illegal hand's `cards`, each field's own list) and only adds."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from rounds.services import lifecycle as round_services
from submissions.errors import IllegalHand
from submissions.models import Hand
from submissions.services.submit import submit_hand

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db

DECISIONS = [
    {"key": "tribe", "label": "Your creature type", "kind": "choice", "choices": ["Goblin", "Elf"]},
    {"key": "pet", "label": "Your named card", "kind": "card"},
]


@pytest.fixture
def banning_round(moderator, league):
    """A round that bans Karakas (in KJELD) and asks two decisions and the attestation of 3.1."""
    now = timezone.now()
    return round_services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title="Bans",
        hand_size=5,
        deadline=now + timedelta(days=2),
        extra_banned=["Karakas"],
        decisions=DECISIONS,
    )


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def put(user, round_, body):
    return api(user).put(f"/api/rounds/{round_.pk}/my-hand/", body, format="json")


def form_post(client, round_, cards, **extra):
    data = {"name": "Form hand", **extra}
    data.update({f"card_{position}": card for position, card in enumerate(cards, start=1)})
    return client.post(reverse("submissions:my-hand", args=[round_.pk]), data)


def test_the_form_names_the_banned_card_with_the_missing_attestation_and_decision(
    banning_round, alice, client
):
    client.force_login(alice)
    response = form_post(client, banning_round, KJELD, decision_tribe="Elf")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Karakas is on this round&#x27;s additional banned list." in page
    assert "Confirm that your hand follows the rules above before submitting." in page
    assert "“Your named card” is required in this round (rule 7.2b)." in page
    # All of them listed at the top, each linked to its field.
    assert "Nothing was saved: fix these 3 problems." in page
    for anchor in ("#id_card_2", "#id_attest", "#id_decision_pet"):
        assert f'href="{anchor}"' in page
    assert not Hand.objects.exists()


def test_the_form_names_a_misspelt_decision_card_even_when_the_attestation_is_missing(
    banning_round, alice, client
):
    client.force_login(alice)
    response = form_post(client, banning_round, SCEPTER, decision_tribe="Elf", decision_pet="Sera Angle")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Confirm that your hand follows the rules" in page
    assert "“Sera Angle” is not a card name we know. Did you mean" in page
    assert page.count("is required in this round") == 0


def test_the_service_reports_the_banned_card_with_the_attestation_and_the_decisions(banning_round, alice):
    with pytest.raises(IllegalHand) as refused:
        submit_hand(player=alice, round_id=banning_round.pk, name="K", cards=KJELD, attested=())
    error = refused.value
    assert [problem.code for card in error.verdict.cards for problem in card.problems] == ["round_banned"]
    assert set(error.errors) == {"attest", "decisions"}
    assert set(error.errors["decisions"]) == {"tribe", "pet"}


def test_the_api_answers_the_illegal_card_the_attestation_and_the_decisions_in_one_400(banning_round, alice):
    response = put(alice, banning_round, {"name": "K", "cards": KJELD})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_hand" and body["detail"] == "The hand is not legal for this round."
    assert [(entry["index"], entry["code"]) for entry in body["cards"]] == [(1, "round_banned")]
    assert '"attest": true' in body["attest"][0]
    assert set(body["decisions"]) == {"tribe", "pet"}
    assert not Hand.objects.exists()


def test_the_api_adds_the_illegal_card_to_the_errors_of_fields_of_the_wrong_kind(banning_round, alice):
    response = put(
        alice,
        banning_round,
        {
            "name": "x" * 600,
            "cards": KJELD,
            "attest": True,
            "decisions": {"tribe": "Elf", "pet": "Serra Angel"},
        },
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_hand" and [entry["input"] for entry in body["cards"]] == ["Karakas"]
    assert "name" in body and "attest" not in body and "decisions" not in body


def test_a_legal_hand_with_only_field_errors_keeps_the_field_errors_shape(banning_round, alice):
    response = put(alice, banning_round, {"cards": SCEPTER, "decisions": {"tribe": "Dragon"}})
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"attest", "decisions"}
    assert set(body["decisions"]) == {"tribe", "pet"}


def test_a_malformed_decisions_field_still_reports_the_banned_card_and_the_attestation(banning_round, alice):
    response = put(alice, banning_round, {"cards": KJELD, "decisions": ["Elf"]})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_hand" and body["cards"][0]["code"] == "round_banned"
    assert "decisions" in body and "attest" in body
