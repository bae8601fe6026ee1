import pytest

from rounds.models import AcceptedCard, BannedCard, BannedList, BannedListChange, League, Round
from rounds.services import catalog as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def phm_list():
    return BannedList.objects.get(key=BannedList.PHM)


def test_lists_are_seeded_from_the_rules(phm_list):
    land_rule = BannedList.objects.get(key=BannedList.LAND_RULE)
    assert phm_list.entries.count() == 19 and land_rule.entries.count() == 9
    assert phm_list.entries.get(card_name="Wasteland").get_category_display() == "Lands"


def test_add_change_remove_are_recorded(phm_list, moderator, catalog_index):
    entry = services.add_banned_card(phm_list, card_name="mana drain", category="disruption", by=moderator)
    assert entry.card_name == "Mana Drain"  # the catalog's spelling
    entry = services.change_banned_card(entry, card_name="Mana Drain", category="acceleration", by=moderator)
    services.remove_banned_card(entry, by=moderator)
    history = list(
        BannedListChange.objects.order_by("id").values_list("action", "card_name", "changed_by__username")
    )
    assert history == [
        ("added", "Mana Drain", "mod"),
        ("changed", "Mana Drain", "mod"),
        ("removed", "Mana Drain", "mod"),
    ]
    change = BannedListChange.objects.get(action="changed")
    assert (change.category_before, change.category_after) == ("disruption", "acceleration")
    assert change.changed_at is not None


def test_duplicates_refused(phm_list, moderator, catalog_index):
    with pytest.raises(services.BannedListError, match="already on the PHM Banned List"):
        services.add_banned_card(phm_list, card_name="force of will", category="disruption", by=moderator)


def test_admin_edit_is_recorded(client, phm_list, make_user, catalog_index):
    admin_user = make_user("boss")
    admin_user.is_staff = admin_user.is_superuser = True
    admin_user.save()
    client.force_login(admin_user)
    entries = list(phm_list.entries.all())
    data = {
        "name": phm_list.name, "description": phm_list.description,
        "entries-TOTAL_FORMS": str(len(entries) + 1), "entries-INITIAL_FORMS": str(len(entries)),
        "entries-MIN_NUM_FORMS": "0", "entries-MAX_NUM_FORMS": "1000",
    }  # fmt: skip
    for position, entry in enumerate(entries):
        prefix = f"entries-{position}-"
        data |= {prefix + "id": entry.pk, prefix + "banned_list": phm_list.pk,
                 prefix + "card_name": entry.card_name, prefix + "category": entry.category,
                 prefix + "position": entry.position}  # fmt: skip
        if entry.card_name == "Flash":
            data[prefix + "DELETE"] = "on"
    new = f"entries-{len(entries)}-"
    data |= {
        new + "banned_list": phm_list.pk,
        new + "card_name": "Mana Drain",
        new + "category": "disruption",
        new + "position": "9",
    }
    response = client.post(f"/admin/rounds/bannedlist/{phm_list.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert set(BannedListChange.objects.values_list("action", "card_name", "changed_by__username")) == {
        ("removed", "Flash", "boss"), ("added", "Mana Drain", "boss"),
    }  # fmt: skip
    assert not BannedCard.objects.filter(card_name="Flash").exists()


def test_moderator_not_staff_cannot_reach_admin_but_permissions_follow_moderator_role(moderator, player):
    from django.contrib.admin.sites import site
    from django.test import RequestFactory

    from rounds.models import BannedList as Model

    model_admin = site._registry[Model]
    request = RequestFactory().get("/")
    request.user = moderator
    assert model_admin.has_change_permission(request)
    request.user = player
    assert not model_admin.has_change_permission(request)


def test_accepting_an_unknown_card_for_a_round(moderator, catalog_index):
    import datetime

    from django.utils import timezone

    league = League.objects.create(name="League 45")
    round_ = Round.objects.create(
        league=league,
        number=1,
        title="Round 1",
        hand_size=5,
        deadline=timezone.now() + datetime.timedelta(days=3),
    )
    accepted = services.accept_unknown_card(
        round_, name="Brand New Card", by=moderator, reason="Spoiled on 1 Feb", not_in_catalog=True
    )
    assert AcceptedCard.objects.get().accepted_by == moderator and accepted.accepted_at
    assert services.accepted_card_names(round_) == ("Brand New Card",)
    with pytest.raises(services.AcceptCardError, match="already accepted"):
        services.accept_unknown_card(round_, name="brand new card", by=moderator, reason="again")
    with pytest.raises(services.AcceptCardError, match="already legal in Vintage"):
        services.accept_unknown_card(round_, name="Black Lotus", by=moderator, reason="why")
    with pytest.raises(services.AcceptCardError, match="why"):
        services.accept_unknown_card(
            round_, name="Another New Card", by=moderator, reason=" ", not_in_catalog=True
        )
