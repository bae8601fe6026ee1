"""A round's card rules where players meet them: the hand API refuses a card that does not match with the
same per-card message as a banned card, and the hand form's live check shows it as they type."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests import builders

pytestmark = pytest.mark.django_db


@pytest.fixture
def dragon_round(league, moderator):
    now = timezone.now()
    return builders.open_round(
        league=league,
        actor=moderator,
        now=now,
        title="2 Card Dragons",
        hand_size=2,
        card_rules=[{"query": "t:dragon t:creature", "message": "Only Dragon creature cards"}],
        deadline=now + timedelta(days=2),
    )


def test_hand_api_refuses_a_card_outside_the_rule(api_client, dragon_round, alice):
    api_client.force_authenticate(alice)
    url = f"/api/rounds/{dragon_round.pk}/my-hand/"
    refused = api_client.put(
        url, {"name": "", "cards": ["Lightning Bolt", "Shivan Dragon"], "attest": True}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["cards"] == [
        {
            "index": 0,
            "input": "Lightning Bolt",
            "problem": "Lightning Bolt does not match this round's rule: Only Dragon creature cards",
            "code": "card_rule",
            "suggestions": [],
        }
    ]
    accepted = api_client.put(
        url, {"name": "", "cards": ["Mirror Entity", "Shivan Dragon"], "attest": True}, format="json"
    )
    assert accepted.status_code == 201, accepted.json()


def test_live_check_shows_the_rule(client, dragon_round, alice):
    client.force_login(alice)
    check = f"/rounds/{dragon_round.pk}/my-hand/check/"
    refused = client.get(check, {"index": 1, "card_1": "Lightning Bolt"}).content.decode()
    assert "does not match this round&#x27;s rule: Only Dragon creature cards" in refused
    accepted = client.get(check, {"index": 1, "card_1": "Mirror Entity"}).content.decode()
    assert "does not match" not in accepted
    form = client.get(f"/rounds/{dragon_round.pk}/my-hand/").content.decode()
    assert 'id="hand-card-rules"' in form and "Every card must match t:dragon t:creature" in form
