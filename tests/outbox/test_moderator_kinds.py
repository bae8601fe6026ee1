"""The moderators' kinds (disputes and challenges in the leagues they manage) are theirs alone: listed on the
preferences page and in the API for moderators, in a section of their own; a player sees and chooses only the
players' kinds (an attempt by the API is a 403 saying why). The API's schema lists every kind."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from accounts.services import make_moderator
from outbox import kinds, preferences

pytestmark = pytest.mark.django_db

MODERATOR_KINDS = {"moderation.dispute", "moderation.challenge"}


@pytest.fixture
def mod(make_user):
    user = make_user("modtwo", forum_username="Mod Two", email="modtwo@example.org")
    make_moderator(user)
    return user


def test_the_catalogue_has_the_moderators_kinds_and_the_new_leagues_kind():
    assert {kind.key for kind in kinds.KINDS if kind.for_moderators} == MODERATOR_KINDS
    assert kinds.BY_KEY["moderation.dispute"].label == "Disputes in your leagues"
    assert kinds.BY_KEY["moderation.challenge"].label == "Challenges in your leagues"
    assert kinds.BY_KEY["round.opened_new_league"].label == "Rounds of new leagues"
    assert not kinds.BY_KEY["round.opened_new_league"].for_moderators


def test_a_player_s_page_lists_the_players_kinds_only(client, carol, password):
    client.login(username="carol", password=password)
    page = client.get(reverse("outbox:preferences")).content.decode()
    assert "Rounds of new leagues" in page and "Disputed results" in page
    assert "Disputes in your leagues" not in page and "As a moderator" not in page
    assert 'name="moderation.dispute:email"' not in page


def test_a_moderator_s_page_has_a_section_for_their_leagues_and_saves_it(client, mod, password):
    client.login(username="modtwo", password=password)
    page = client.get(reverse("outbox:preferences")).content.decode()
    section = page[page.index("As a moderator") :]
    assert "Disputes in your leagues" in section and "Challenges in your leagues" in section
    assert "Disputes in your leagues" not in page[: page.index("As a moderator")]
    response = client.post(
        reverse("outbox:preferences"), {"moderation.dispute:site": "on", "moderation.challenge:email": "on"}
    )
    assert response.status_code == 302
    mod.refresh_from_db()
    choices = preferences.choices_for(mod)
    assert choices["moderation.dispute"] == {"email": False, "site": True}
    assert choices["moderation.challenge"] == {"email": True, "site": False}


def test_a_player_s_page_leaves_the_moderators_kinds_alone(client, carol, password):
    """A player who saves the page sends no moderator's kind (they would read as "off")."""
    client.login(username="carol", password=password)
    client.post(reverse("outbox:preferences"), {"round.opened:site": "on"})
    carol.refresh_from_db()
    assert set(carol.profile.notification_choices) & MODERATOR_KINDS == set()


def test_the_api_lists_the_moderators_kinds_to_moderators_only(api_client, carol, mod):
    api_client.force_authenticate(carol)
    reply = api_client.get("/api/notification-preferences/").json()
    assert MODERATOR_KINDS.isdisjoint(reply) and "round.opened_new_league" in reply
    refused = api_client.put(
        "/api/notification-preferences/", {"moderation.dispute": {"email": False}}, format="json"
    )
    assert refused.status_code == 403
    assert "only moderators are told of disputes and challenges" in refused.json()["detail"]
    api_client.force_authenticate(mod)
    reply = api_client.get("/api/notification-preferences/").json()
    assert set(reply) >= MODERATOR_KINDS and reply["moderation.dispute"] == {"email": True, "site": True}
    changed = api_client.put(
        "/api/notification-preferences/", {"moderation.challenge": {"email": False}}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["moderation.challenge"] == {
        "email": False,
        "site": True,
    }


def test_an_old_unsubscribe_link_of_a_moderator_s_kind_still_works_for_a_former_moderator(client, carol):
    token = preferences.unsubscribe_token(carol.pk, "moderation.dispute")
    response = client.post(reverse("outbox:unsubscribe", args=[token]))
    assert response.status_code == 200
    assert not preferences.choices_for(User.objects.get(pk=carol.pk))["moderation.dispute"]["email"]


def test_the_schema_lists_every_kind_and_requires_the_players_kinds(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    reply = schema["components"]["schemas"]["NotificationPreferences"]
    assert set(reply["properties"]) == {"digest", *kinds.BY_KEY}
    assert set(reply["required"]) == {"digest", *(k.key for k in kinds.KINDS if not k.for_moderators)}
