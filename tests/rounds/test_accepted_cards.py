"""Rule 3.2a, accepted cards: a power over one league's rounds, used from the round's pages and the API,
audited and public — never from another league, and never by a moderator for a round they play in while
another moderator can decide."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.services import make_moderator, register_player
from audit.models import AuditEntry
from rounds.catalog.loader import import_cards
from rounds.legality import HandRules, check_hand, rules_for_round
from rounds.models import AcceptedCard, Card, CardSet, Printing
from rounds.services import catalog as services
from rounds.services.leagues import create_league
from rounds.services.lifecycle import create_round
from submissions.errors import IllegalHand
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand
from tests.submissions.conftest import KJELD

pytestmark = pytest.mark.django_db

NEW_CARD = "Brand New Card of 2026"


@pytest.fixture(autouse=True)
def _index(catalog_index):
    return catalog_index


@pytest.fixture
def open_round(league, moderator):
    now = timezone.now()
    return create_round(
        actor=moderator, league=league, now=now, open_now=True, title="Five", hand_size=5,
        deadline=now + timedelta(days=2),
    )  # fmt: skip


def api_as(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_a_moderator_of_another_league_cannot_accept_a_card(open_round, other_moderator, client):
    create_league(actor=other_moderator, name="League 46", moderators=[other_moderator])
    with pytest.raises(services.AcceptCardForbidden):
        services.accept_unknown_card(
            open_round, name=NEW_CARD, by=other_moderator, reason="Spoiled", not_in_catalog=True
        )
    response = api_as(other_moderator).post(
        f"/api/rounds/{open_round.pk}/accepted-cards/", {"name": "Fake Card", "reason": "mine"}
    )
    assert response.status_code == 403
    client.force_login(other_moderator)
    page = client.post(
        f"/moderate/rounds/{open_round.pk}/accepted-cards/", {"name": "Fake Card", "reason": "mine"}
    )
    assert page.status_code == 403
    assert not AcceptedCard.objects.exists()


def test_the_admin_no_longer_adds_cards_and_lists_only_the_moderators_leagues(
    open_round, moderator, other_moderator, client, admin_client
):
    services.accept_unknown_card(
        open_round, name=NEW_CARD, by=moderator, reason="Spoiled", not_in_catalog=True
    )
    league_46 = create_league(actor=other_moderator, name="League 46", moderators=[other_moderator])
    create_round(
        actor=other_moderator, league=league_46, now=timezone.now(), title="Secret draft title", hand_size=3,
        deadline=timezone.now() + timedelta(days=5),
    )  # fmt: skip
    client.force_login(other_moderator)
    assert client.get("/admin/rounds/acceptedcard/add/").status_code == 403
    listing = client.get("/admin/rounds/acceptedcard/").content.decode()
    assert NEW_CARD not in listing
    assert admin_client.get("/admin/rounds/acceptedcard/add/").status_code == 403
    client.force_login(moderator)
    listing = client.get("/admin/rounds/acceptedcard/").content.decode()
    assert NEW_CARD in listing and "Secret draft title" not in listing


def test_accepting_is_audited_public_and_makes_the_card_legal(open_round, moderator, client, make_user):
    response = api_as(moderator).post(
        f"/api/rounds/{open_round.pk}/accepted-cards/",
        {"name": NEW_CARD, "reason": "Released 2026-11-20", "not_in_catalog": True},
    )
    assert response.status_code == 201 and response.json()["accepted_by"] == "mod"
    entry = AuditEntry.objects.get(action="round.card_accepted")
    assert (
        entry.actor == moderator and entry.after == {"card": NEW_CARD} and entry.note == "Released 2026-11-20"
    )
    page = client.get(f"/rounds/{open_round.pk}/").content.decode()
    assert NEW_CARD in page and "Released 2026-11-20" in page and "Card accepted (3.2a)" in page
    assert client.get(f"/api/rounds/{open_round.pk}/accepted-cards/").json()[0]["name"] == NEW_CARD
    player = make_user("newcomer")
    submit_hand(
        player=player,
        round_id=open_round.pk,
        name="",
        cards=[NEW_CARD, *KJELD[:4]],
        attested=EVERY_LISTED_RULE,
    )
    card_id = response.json()["id"]
    assert (
        api_as(moderator).delete(f"/api/rounds/{open_round.pk}/accepted-cards/{card_id}/").status_code == 204
    )
    assert AuditEntry.objects.filter(action="round.card_withdrawn").count() == 1


def test_a_playing_moderator_leaves_the_decision_to_another_moderator(open_round, league, moderator, client):
    second = register_player(username="second", password="correct-horse-battery-42")
    make_moderator(second)
    league.moderators.add(second)
    submit_hand(
        player=moderator,
        round_id=open_round.pk,
        name="",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
    )
    response = api_as(moderator).post(
        f"/api/rounds/{open_round.pk}/accepted-cards/",
        {"name": NEW_CARD, "reason": "Spoiled", "not_in_catalog": True},
    )
    assert response.status_code == 403 and "second" in response.json()["detail"]
    assert (
        api_as(second)
        .post(
            f"/api/rounds/{open_round.pk}/accepted-cards/",
            {"name": NEW_CARD, "reason": "Spoiled", "not_in_catalog": True},
        )
        .status_code
        == 201
    )


def test_in_a_league_naming_no_moderator_any_other_site_moderator_decides(
    open_round, league, moderator, other_moderator
):
    league.moderators.clear()  # every site moderator manages it: the other one can decide
    submit_hand(
        player=moderator,
        round_id=open_round.pk,
        name="",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
    )
    body = {"name": NEW_CARD, "reason": "Spoiled", "not_in_catalog": True}
    response = api_as(moderator).post(f"/api/rounds/{open_round.pk}/accepted-cards/", body)
    assert response.status_code == 403 and "Other Moderator" in response.json()["detail"]
    assert (
        api_as(other_moderator).post(f"/api/rounds/{open_round.pk}/accepted-cards/", body).status_code == 201
    )


def test_a_sole_moderator_who_plays_may_accept_and_it_shows_after_the_reveal(open_round, moderator, client):
    submit_hand(
        player=moderator,
        round_id=open_round.pk,
        name="",
        cards=KJELD,
        attested=EVERY_LISTED_RULE,
    )
    services.accept_unknown_card(
        open_round, name=NEW_CARD, by=moderator, reason="Spoiled", not_in_catalog=True
    )
    page = client.get(f"/rounds/{open_round.pk}/").content.decode()
    assert "a moderator who plays in this round" not in page  # before the deadline it would tell who entered
    open_round.deadline = timezone.now() - timedelta(minutes=1)
    open_round.save(update_fields=["deadline"])
    page = client.get(f"/rounds/{open_round.pk}/").content.decode()
    assert "a moderator who plays in this round" in page


# Rule 3.2a for a card the catalog already has but not yet as legal in Vintage: a previewed card imported before
# its release. For the legality checks alone (what an acceptance does), an Un-card stands in for it.
NOT_YET_LEGAL = '"Ach! Hans, Run!"'


@pytest.fixture
def unreleased_card(db, fresh_index):
    """A catalog card printed only in a set released a month from now: a previewed card (3.2a). Altar of
    Mogis (not legal in Vintage: a challenge-deck card of 2014) stands in for it, moved to that set."""
    release = timezone.localdate() + timedelta(days=30)
    future = CardSet.objects.create(code="ZPRV", name="Preview set", release_date=release)
    card = Card.objects.get(name="Altar of Mogis")
    Printing.objects.filter(card=card).update(card_set=future)
    Card.objects.filter(pk=card.pk).update(first_printed=release)
    return card.name


def test_a_catalog_card_not_yet_released_can_be_accepted(open_round, moderator, make_user, unreleased_card):
    player = make_user("previewer")
    hand = [unreleased_card, *KJELD[:4]]
    with pytest.raises(IllegalHand) as refused:
        submit_hand(
            player=player,
            round_id=open_round.pk,
            name="",
            cards=hand,
            attested=EVERY_LISTED_RULE,
        )
    assert refused.value.verdict.cards[0].problems[0].code == "not_vintage_legal"

    response = api_as(moderator).post(
        f"/api/rounds/{open_round.pk}/accepted-cards/",
        {"name": "altar of mogis", "reason": "Previewed; released next month"},
    )
    assert response.status_code == 201 and response.json()["name"] == unreleased_card  # the catalog's name
    assert AuditEntry.objects.get(action="round.card_accepted").after == {"card": unreleased_card}
    submit_hand(player=player, round_id=open_round.pk, name="", cards=hand, attested=EVERY_LISTED_RULE)
    verdict = check_hand(hand, rules_for_round(open_round))
    assert verdict.legal and verdict.cards[0].accepted and not verdict.cards[1].accepted


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Baffling Defenses", "exists only in digital Magic"),  # Jumpstart: Historic Horizons, Arena only
        ("Auntie Flint", "exists only in digital Magic"),  # the catalog's `paper`: false
        ("Blacker Lotus", "is a silver-bordered or acorn card (UGL)"),
        ("Cheatyface", "is a silver-bordered or acorn card (UND, UNH)"),
        ("Altar of Mogis", "was released on 1 March 2014 and is not legal in Vintage"),
        ("A Display of My Dark Power", "is a scheme, not a card of a deck"),
    ],
)
def test_a_card_that_will_never_be_legal_in_vintage_is_refused_saying_why(open_round, moderator, name, why):
    """A digital-only card, a silver-bordered one and others were all accepted as "previewed cards"."""
    response = api_as(moderator).post(
        f"/api/rounds/{open_round.pk}/accepted-cards/", {"name": name, "reason": "Previewed"}
    )
    assert response.status_code == 400
    [message] = response.json()["name"]
    assert why in message
    assert not AcceptedCard.objects.exists()


def test_a_name_the_catalog_lacks_gets_suggestions_unless_confirmed_as_a_real_card(
    open_round, moderator, client
):
    """An invented name was accepted as a previewed card: it is refused with the catalog's suggestions, as
    everywhere; a moderator who knows it is a real card the catalog lacks says so."""
    url = f"/api/rounds/{open_round.pk}/accepted-cards/"
    typo = api_as(moderator).post(url, {"name": "Lightnin Bolt", "reason": "Spoiled"})
    assert typo.status_code == 400
    [message] = typo.json()["name"]
    assert "“Lightnin Bolt” is not in the card catalog" in message and "Lightning Bolt" in message
    invented = api_as(moderator).post(url, {"name": NEW_CARD, "reason": "Spoiled"})
    assert (
        invented.status_code == 400 and "confirm that it is not in the catalog" in invented.json()["name"][0]
    )
    assert not AcceptedCard.objects.exists()
    client.force_login(moderator)
    page = client.post(
        f"/moderate/rounds/{open_round.pk}/accepted-cards/",
        {"name": NEW_CARD, "reason": "Spoiled"},
        follow=True,
    ).content.decode()
    assert "is not in the card catalog" in page and not AcceptedCard.objects.exists()
    client.post(
        f"/moderate/rounds/{open_round.pk}/accepted-cards/",
        {"name": NEW_CARD, "reason": "Spoiled", "not_in_catalog": "on"},
    )
    assert list(AcceptedCard.objects.values_list("name", flat=True)) == [NEW_CARD]


def test_accepting_never_takes_a_card_legal_or_banned_in_vintage(open_round, moderator, client):
    api = api_as(moderator)
    banned = api.post(
        f"/api/rounds/{open_round.pk}/accepted-cards/", {"name": "Chaos Orb", "reason": "Why not"}
    )
    assert banned.status_code == 400 and "Chaos Orb is banned in Vintage" in banned.json()["name"][0]
    legal = api.post(f"/api/rounds/{open_round.pk}/accepted-cards/", {"name": "Black Lotus", "reason": "Hm"})
    assert legal.status_code == 400 and "already legal in Vintage" in legal.json()["name"][0]
    client.force_login(moderator)
    page = client.post(
        f"/moderate/rounds/{open_round.pk}/accepted-cards/",
        {"name": "Chaos Orb", "reason": "Why not"},
        follow=True,
    )
    assert "Chaos Orb is banned in Vintage" in page.content.decode()
    assert not AcceptedCard.objects.exists()
    with pytest.raises(services.AcceptCardError, match="Say why"):
        services.accept_unknown_card(open_round, name=NEW_CARD, by=moderator, reason=" ", not_in_catalog=True)


def test_an_accepted_card_stays_under_the_banned_lists(catalog_index):
    rules = HandRules(accepted_cards=(NOT_YET_LEGAL,), extra_banned=(NOT_YET_LEGAL,))
    verdict = check_hand(
        [NOT_YET_LEGAL, "Force of Will"], HandRules(accepted_cards=(NOT_YET_LEGAL, "Force of Will"))
    )
    assert verdict.cards[0].legal and [p.code for p in verdict.cards[1].problems] == ["phm_banned"]
    assert [p.code for p in check_hand([NOT_YET_LEGAL], rules).cards[0].problems] == ["round_banned"]


@pytest.mark.usefixtures("fresh_index")
def test_a_card_new_to_the_catalog_since_the_opening_can_be_accepted(open_round, moderator, fixtures_dir):
    Card.objects.filter(oracle_name="Fire // Ice").delete()  # the round opens without the card
    reopened = create_round(
        actor=moderator, league=open_round.league, now=timezone.now(), open_now=True, title="Before",
        hand_size=1, deadline=timezone.now() + timedelta(days=2),
    )  # fmt: skip
    import_cards(str(fixtures_dir / "scryfall_oracle_cards.json"))
    assert [p.code for p in check_hand(["Fire // Ice"], rules_for_round(reopened)).cards[0].problems] == [
        "not_vintage_legal"
    ]
    services.accept_unknown_card(
        reopened, name="Fire // Ice", by=moderator, reason="Released after the opening"
    )
    assert check_hand(["Fire // Ice"], rules_for_round(reopened)).legal
