import pytest

pytestmark = pytest.mark.django_db


def test_card_page(client, catalog_index, django_assert_max_num_queries):
    # The card, its faces and printings, the catalog version, the legality history, the metagame (scoring),
    # the standing banned lists (the verdict) and the rounds that ban or lift cards.
    with django_assert_max_num_queries(8):
        response = client.get("/cards/wear-tear/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Wear // Tear" in html
    assert "Destroy target artifact." in html and "Destroy target enchantment." in html
    assert "DGM" in html
    assert "Card catalog as of" in html and "23 January 2026" in html
    assert "Scryfall" in html and "MTGJSON" in html
    assert "Fan Content Policy" in html
    assert "Vintage" in html and "Legal" in html


def test_double_faced_card_page_uses_the_front_face(client, catalog_index):
    response = client.get("/cards/delver-of-secrets/")
    assert response.status_code == 200
    assert "Insectile Aberration" in response.content.decode()


def test_restricted_and_banned_badges(client, catalog_index):
    html = client.get("/cards/black-lotus/").content.decode()
    assert "Restricted" in html and "Banned" in html


def test_unknown_card_page_is_404(client, catalog_index):
    assert client.get("/cards/no-such-card-anywhere/").status_code == 404


def test_search_page(client, catalog_index, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        response = client.get("/cards/", {"q": "thalia"})
    assert response.status_code == 200
    assert "Thalia, Guardian of Thraben" in response.content.decode()
    typo = client.get("/cards/", {"q": "Thalia Gaurdian of Thraben"}).content.decode()
    assert "Did you mean" in typo and "Thalia, Guardian of Thraben" in typo
    assert client.get("/cards/").status_code == 200


def test_htmx_autocomplete_fragment(
    client, catalog_index, django_assert_num_queries, django_assert_max_num_queries
):
    with django_assert_num_queries(1):  # the play counts autocomplete ranks by, then kept for minutes
        client.get("/cards/autocomplete/", {"q": "bolt"}, HTTP_HX_REQUEST="true")
    with django_assert_max_num_queries(0):
        response = client.get("/cards/autocomplete/", {"q": "wear"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'data-card-name="Wear // Tear"' in html
    assert "No card name" in client.get("/cards/autocomplete/", {"q": "zzqzzq"}).content.decode()
    assert client.get("/cards/autocomplete/").content.decode().strip() == ""


def test_banned_lists_page(client, catalog_index, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        response = client.get("/banned-lists/")
    html = response.content.decode()
    assert "PHM Banned List" in html and "Land Rule Banned List" in html
    assert "Win Conditions" in html and "Force of Will" in html
    assert 'href="/cards/force-of-will/"' in html


def test_htmx_check_fragment(client, catalog_index, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        html = client.get("/cards/check/", {"name": "insectile aberration"}).content.decode()
    assert 'data-status="normalized"' in html and 'data-card-name="Delver of Secrets"' in html
    html = client.get("/cards/check/", {"name": "Thalia, Gaurdian of Thraben"}).content.decode()
    assert 'data-status="fuzzy"' in html and "not in the card catalog (as of 23 January 2026)" in html
    assert 'data-card-name="Thalia, Guardian of Thraben"' in html
    assert client.get("/cards/check/").content.decode().strip() == ""


def test_newest_sets_are_named_and_mana_value_is_shown_as_players_do(client, catalog_index):
    from rounds.models import CardSet

    assert CardSet.objects.get(code="ECL").name == "Lorwyn Eclipsed"
    assert "Mana value: 3<" in client.get("/cards/wear-tear/").content.decode()
