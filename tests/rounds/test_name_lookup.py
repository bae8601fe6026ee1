"""The live suggestions under a card box and the search page after Enter give the same answer for the same
text (rounds.catalog.lookup): matches, else the resolver's "did you mean", else nothing."""

import re

import pytest

from rounds.views import AUTOCOMPLETE_SHOWN

pytestmark = pytest.mark.django_db

NO_MATCH = "No card name contains"


def page_answer(client, query):
    html = client.get("/cards/", {"q": query}).content.decode()
    no_match = re.search(r'<div class="alert alert-warning" id="name-no-match">(.*?)</div>', html, re.S)
    suggestions = re.findall(r'<a href="/cards/[^"]+/">([^<]+)</a>', no_match.group(1)) if no_match else []
    matches = re.findall(r'href="/cards/[^"]+/" data-card-name="([^"]+)"', html)
    return {"matches": matches, "suggestions": suggestions, "nothing": NO_MATCH in html}


def live_answer(client, query):
    html = client.get("/cards/autocomplete/", {"q": query}, HTTP_HX_REQUEST="true").content.decode()
    options = re.findall(r'data-card-name="([^"]+)"[^>]*?( data-suggestion)?>', html)
    return {
        "matches": [name for name, suggestion in options if not suggestion],
        "suggestions": [name for name, suggestion in options if suggestion],
        "nothing": NO_MATCH in html,
    }


def unescape(names):
    return [name.replace("&#x27;", "'").replace("&amp;", "&") for name in names]


@pytest.mark.parametrize(
    ("query", "expected_match", "expected_suggestion"),
    [
        ("wear tear", "Wear // Tear", None),  # every typed word starts a word of the name: a match
        ("bolt", "Bolt of Keranos", None),
        ("lightnin bolt", "Lightning Bolt", None),
        ("lightnig bolt", None, "Lightning Bolt"),  # a typo: only "did you mean"
        ("waer tear", None, "Wear // Tear"),
        ("xyzzy", None, None),
    ],
)
def test_the_live_suggestions_and_the_search_page_give_the_same_answer(
    client, catalog_index, query, expected_match, expected_suggestion
):
    page, live = page_answer(client, query), live_answer(client, query)
    assert unescape(live["matches"]) == unescape(page["matches"])[:AUTOCOMPLETE_SHOWN]
    assert unescape(live["suggestions"]) == unescape(page["suggestions"])
    assert live["nothing"] == page["nothing"] == (not page["matches"])
    if expected_match:
        assert expected_match in page["matches"]
    if expected_suggestion:
        assert page["matches"] == []
        assert page["suggestions"][0] == expected_suggestion
    if not expected_match and not expected_suggestion:
        assert page["matches"] == page["suggestions"] == []


def test_the_hand_form_boxes_get_the_same_answer(client, catalog_index, player, moderator):
    from datetime import timedelta

    from django.utils import timezone

    from rounds.services import leagues as round_services
    from rounds.services import lifecycle as round_lifecycle

    now = timezone.now()
    league = round_services.create_league(actor=moderator, name="League 45", moderators=[moderator])
    round_ = round_lifecycle.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="T", hand_size=5,
        deadline=now + timedelta(days=2),
    )  # fmt: skip
    client.force_login(player)
    html = client.get(
        f"/rounds/{round_.pk}/my-hand/suggest/", {"index": 2, "card_2": "waer tear"}
    ).content.decode()
    assert NO_MATCH in html and 'data-card-name="Wear // Tear"' in html and "data-suggestion" in html


def test_a_name_the_resolver_knows_by_spelling_is_a_match(client, catalog_index):
    # A back face names its card (normalised by the resolver, not contained in the front name): both paths.
    live = live_answer(client, "insectile aberration")
    page = page_answer(client, "insectile aberration")
    assert live["matches"] == page["matches"] and live["matches"]
    assert not live["nothing"] and not page["nothing"]
