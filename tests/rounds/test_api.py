import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client, catalog_index):
    return client


def test_autocomplete(api, django_assert_num_queries, django_assert_max_num_queries):
    with django_assert_num_queries(1):  # the play counts autocomplete ranks by, then kept for minutes
        api.get("/api/cards/", {"q": "lightnin bo"})
    with django_assert_max_num_queries(0):
        response = api.get("/api/cards/", {"q": "black lo"})
    assert response.status_code == 200
    cards = response.json()
    assert cards[0] == {"name": "Black Lotus", "type_line": "Artifact", "mana_value": 0}
    assert len(api.get("/api/cards/", {"q": "a"}).json()) == 20
    assert api.get("/api/cards/", {"q": "  "}).json() == []


@pytest.mark.parametrize(
    ("typed", "status", "name"),
    [
        ("Black Lotus", "exact", "Black Lotus"),
        ("Tear", "normalized", "Wear // Tear"),
        ("jotun grunt", "normalized", "Jötun Grunt"),
    ],
)
def test_resolve(api, typed, status, name, django_assert_max_num_queries):
    with django_assert_max_num_queries(0):
        response = api.get("/api/cards/resolve/", {"name": typed})
    assert response.status_code == 200
    data = response.json()
    assert data["input"] == typed and data["status"] == status
    assert data["card"]["name"] == name
    assert data["card"]["url"] == reverse("rounds:card-detail", kwargs={"slug": data["card"]["slug"]})
    assert data["suggestions"] == []
    assert data["catalog_as_of"] == "2026-01-23"


def test_resolve_fuzzy_needs_confirmation(api):
    data = api.get("/api/cards/resolve/", {"name": "Thalia, Gaurdian of Thraben"}).json()
    assert data["status"] == "fuzzy" and data["card"] is None
    assert data["suggestions"][0] == "Thalia, Guardian of Thraben"
    assert data["scores"][0]["name"] == "Thalia, Guardian of Thraben" and data["scores"][0]["score"] > 90


def test_resolve_unknown(api):
    data = api.get("/api/cards/resolve/", {"name": "Zzyzx Qwerty Plorp"}).json()
    assert data["status"] == "unknown" and data["card"] is None


@pytest.mark.parametrize(
    ("path", "params"),
    [("/api/cards/resolve/", {}), ("/api/cards/resolve/", {"name": "  "}), ("/api/cards/", {}),
     ("/api/cards/", {"q": "x" * 201}), ("/api/cards/resolve/", {"name": "x" * 201})],
)  # fmt: skip
def test_bad_input_is_a_400(api, path, params):
    response = api.get(path, params)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"


def test_banned_lists(api, django_assert_max_num_queries):
    with django_assert_max_num_queries(2):
        response = api.get("/api/banned-lists/")
    assert response.status_code == 200
    lists = {banned["key"]: banned for banned in response.json()}
    assert set(lists) == {"phm", "land-rule"}
    assert lists["phm"]["name"] == "PHM Banned List"
    assert {"name": "Force of Will", "category": "Disruption", "category_key": "disruption"} in lists["phm"][
        "cards"
    ]
    assert len(lists["phm"]["cards"]) == 19
    assert {card["category"] for card in lists["phm"]["cards"]} == {
        "Acceleration", "Disruption", "Lands", "Win Conditions",
    }  # fmt: skip
    assert [card["name"] for card in lists["land-rule"]["cards"]][:2] == ["Black Lotus", "Balancing Act"]
    assert len(lists["land-rule"]["cards"]) == 9


def test_schema_documents_the_card_endpoints(api):
    schema = api.get("/api/schema/").content.decode()
    for path in ("/api/cards/:", "/api/cards/resolve/:", "/api/banned-lists/:"):
        assert path in schema
