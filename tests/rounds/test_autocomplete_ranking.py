"""Autocomplete offers the card a player most likely means first: whole-word prefixes of the name (`lightnin
bo` → Lightning Bolt, `bolt` → Lightning Bolt too), the most played and most reprinted cards before the rest,
typos still answered by "did you mean", and a keystroke costs no query once the play counts are counted."""

import pytest

from rounds.catalog.lookup import look_up_name
from rounds.catalog.resolve import resolve_name, search_cards
from rounds.views import AUTOCOMPLETE_SHOWN

pytestmark = pytest.mark.django_db


def shown(text):
    """The names under a card box, as the hand form shows them."""
    return [card.name for card in look_up_name(text, limit=AUTOCOMPLETE_SHOWN).matches]


def test_a_fragment_of_each_word_offers_lightning_bolt_first(catalog_index):
    assert shown("lightnin bo")[0] == "Lightning Bolt"
    assert shown("Lightning b")[0] == "Lightning Bolt"
    assert shown("light bol")[0] == "Lightning Bolt"
    assert "Lightning Blow" not in shown("lightnin bo")  # "bo" starts no word of Lightning Blow


def test_a_later_word_of_the_name_offers_the_card_at_the_top(catalog_index):
    assert shown("bolt")[0] == "Lightning Bolt"
    assert shown("ritual")[0] == "Dark Ritual"
    assert shown("plowshares")[0] == "Swords to Plowshares"
    assert "Black Lotus" in shown("lotus")[:2]


def test_the_words_must_come_in_the_names_order(catalog_index):
    assert "Lightning Bolt" not in shown("bolt lightning")
    assert "Lightning Bolt" in shown("lightning bolt")


def test_the_card_named_exactly_comes_first_whatever_else_matches(catalog_index):
    assert shown("island")[0] == "Island"
    assert shown("fire")[0] == "Fire // Ice"  # a face name, as the resolver reads it
    assert shown("black lotus")[0] == "Black Lotus"
    assert shown("wear tear")[0] == "Wear // Tear"
    assert shown("insectile")[0] == "Delver of Secrets"  # a back face's word


def test_names_containing_the_text_still_follow_the_word_matches(catalog_index):
    names = shown("otus")  # no word of a name starts so: the names that contain it, the likeliest first
    assert names[0] == "Black Lotus" and all("otus" in name.lower() for name in names)
    names = shown("olt")  # words starting so (Oltec …) first, then the names containing it
    assert names[:3] == ["Oltec Archaeologists", "Oltec Cloud Guard", "Oltec Matterweaver"]
    assert names[3] == "Lightning Bolt" and all("olt" in name.lower() for name in names)


def test_a_typo_is_still_answered_by_did_you_mean_lightning_bolt(catalog_index):
    for typed in ("lightnig bolt", "Lightnig Bo", "ligthning bolt"):
        lookup = look_up_name(typed, limit=AUTOCOMPLETE_SHOWN)
        assert lookup.matches == [], typed
        assert lookup.suggestions[0].name == "Lightning Bolt", typed
    assert resolve_name("lightnig bolt").suggestions[0].name == "Lightning Bolt"


def test_the_api_offers_lightning_bolt_first_at_no_query_per_keystroke(
    client, catalog_index, django_assert_num_queries
):
    with django_assert_num_queries(1):  # the play counts, counted once
        first = client.get("/api/cards/", {"q": "l"}).json()
    assert len(first) == 20
    with django_assert_num_queries(0):
        for typed in ("li", "lig", "light", "lightnin", "lightnin ", "lightnin b", "lightnin bo"):
            answer = client.get("/api/cards/", {"q": typed}).json()
        bolt = client.get("/api/cards/", {"q": "bolt"}).json()
        boxes = client.get("/cards/autocomplete/", {"q": "lightnin bo"}, HTTP_HX_REQUEST="true")
    assert answer[0]["name"] == "Lightning Bolt"
    assert bolt[0]["name"] == "Lightning Bolt"
    assert boxes.content.decode().index("Lightning Bolt") < boxes.content.decode().index("</button>")


def test_search_cards_never_fails_on_odd_text(catalog_index):
    for text in ("", " ", "//", "' '", "a " * 50, "\u00e6", "-", "x" * 300):
        assert isinstance(search_cards(text), list)


def test_every_typed_word_starts_a_later_word_of_the_name():
    from rounds.catalog.word_index import WordIndex, starts_words_in_order

    assert starts_words_in_order(["lightnin", "bo"], ["lightning", "bolt"])
    assert not starts_words_in_order(["lightnin", "bo"], ["lightning", "blow"])
    assert not starts_words_in_order(["bolt", "light"], ["lightning", "bolt"])
    assert not starts_words_in_order(["bo", "bo"], ["bolt"])  # one word of the name serves one typed word
    assert starts_words_in_order(["bo", "bo"], ["bolt", "bolt"])
    index = WordIndex(["black lotus", "lightning blow", "lightning bolt", "lotus petal"], [10, 11, 12, 13])
    assert sorted(index.matching_keys(["lotus"])) == [0, 3]
    assert index.matching_keys(["lightnin", "bo"]) == [2]
    assert index.matching_keys(["zebra"]) == [] and index.matching_keys([]) == []
    assert index.matching_cards(["l"]) == {10, 11, 12, 13}
    assert index.matching_cards(["lightnin", "bo"]) == {12}
    assert index.containing_cards("otus") == {10, 13}
    assert index.containing_cards("g b") == {11, 12}
    assert index.containing_cards("petal") == {13} and index.containing_cards("s\nl") == set()
    assert index.containing_cards("zebra") == set()
