"""Card search with the filter language: GET /api/cards/?q= keeps the v1 list for a plain name and answers
a query with {"results", "total"}, or 400 with the position; the /cards/ page shows results or the error."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_plain_name_still_gets_the_v1_list(api_client, catalog_index):
    for text in ("shivan dra", "Fight or Flight", "Circle of Protection: Red"):
        response = api_client.get("/api/cards/", {"q": text})
        assert response.status_code == 200
        body = response.json()
        assert isinstance(body, list) and body, text
        assert set(body[0]) == {"name", "type_line", "mana_value"}
    assert api_client.get("/api/cards/", {"q": "shivan dra"}).json()[0]["name"] == "Shivan Dragon"


def test_a_query_gets_results_and_total(api_client, catalog_index):
    response = api_client.get("/api/cards/", {"q": "t:dragon t:creature mv<=4 -c:r", "limit": 5})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"results", "total", "limit", "offset"}
    assert body["total"] > 5 and len(body["results"]) == 5 and body["limit"] == 5
    assert set(body["results"][0]) == {"name", "type_line", "mana_value", "slug", "url"}
    names = [card["name"] for card in body["results"]]
    assert names == sorted(names)
    following = api_client.get(
        "/api/cards/", {"q": "t:dragon t:creature mv<=4 -c:r", "limit": 5, "offset": 5}
    )
    assert not {card["name"] for card in following.json()["results"]} & set(names)


def test_changeling_found_by_creature_type(api_client, catalog_index):
    body = api_client.get("/api/cards/", {"q": "t:dragon is:changeling", "limit": 200}).json()
    assert "Mirror Entity" in {card["name"] for card in body["results"]}
    assert body["total"] == len(body["results"])


def test_a_query_that_does_not_parse_is_400_with_the_position(api_client, catalog_index):
    response = api_client.get("/api/cards/", {"q": "t:dragon (mv<3"})
    assert response.status_code == 400
    assert response.json() == {
        "detail": "A parenthesis is not closed: add “)”.",
        "position": 14,
        "code": "query_syntax",
    }
    rarity = api_client.get("/api/cards/", {"q": "r:mythic t:dragon"})
    assert rarity.status_code == 400 and "Rarity is not in this card catalog" in rarity.json()["detail"]


@pytest.mark.parametrize("params", [{"q": "t:dragon", "limit": "0"}, {"q": "t:dragon", "offset": "x"}])
def test_bad_paging_is_400(api_client, catalog_index, params):
    assert api_client.get("/api/cards/", params).status_code == 400


def test_search_page_lists_query_results(client, catalog_index):
    page = client.get("/cards/", {"q": "t:dragon is:changeling"}).content.decode()
    assert 'id="query-total"' in page and "Mirror Entity" in page
    assert 'id="syntax"' in page


def test_search_page_shows_the_error_and_position_under_the_box(client, catalog_index):
    page = client.get("/cards/", {"q": "t:dragon)"}).content.decode()
    assert 'id="card-query-error"' in page
    assert "(position 8): “)” closes nothing." in page
    assert "t:dragon)\n        ^" in page


def test_search_page_plain_name_unchanged(client, catalog_index):
    page = client.get("/cards/", {"q": "Shivan"}).content.decode()
    assert "Shivan Dragon" in page and 'id="query-total"' not in page


def test_autocomplete_stays_quiet_for_a_query(client, catalog_index):
    assert "Shivan Dragon" in client.get("/cards/autocomplete/", {"q": "shivan"}).content.decode()
    assert "Shivan Dragon" not in client.get("/cards/autocomplete/", {"q": "t:shivan"}).content.decode()


def test_a_query_costs_the_same_queries_whatever_it_matches(client, api_client, catalog_index):
    """A count and one page of rows: 1 card or thousands, the database sees the same number of queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(get, query):
        get(query)  # warm: the index, the catalog date
        with CaptureQueriesContext(connection) as captured:
            assert get(query).status_code == 200
        return len(captured)

    def api(query):
        return api_client.get("/api/cards/", {"q": query, "limit": 200})

    def page(query):
        return client.get("/cards/", {"q": query})

    narrow, wide = "t:dragon is:changeling name:mirror", "mv<=3"
    assert api(narrow).json()["total"] == 1 and api(wide).json()["total"] > 1000
    for get in (api, page):
        assert queries(get, narrow) == queries(get, wide) <= 4
