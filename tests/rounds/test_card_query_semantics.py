"""The card filter language over the real catalog: boolean algebra on random samples, the Python predicate
(live checks) and the Django Q (search) selecting the same cards, and what each filter means."""

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rounds.cardquery import QuerySyntaxError, compile_filter, filter_catalog, search_cards_by_query
from rounds.cardquery.records import query_catalog
from rounds.models import Card

pytestmark = pytest.mark.django_db

SIMPLE_FILTERS = [
    "t:creature", "t:dragon", "t:elf", "t:land", "t:instant", "t:legendary", "t:artifact",
    "o:flying", "o:draw", 'o:"draw a card"', "o:destroy", "o:counter",
    "mv=0", "mv<=1", "mv<3", "mv>=4", "mv>5", "mv!=2", "cmc:3",
    "c:u", "c:r", "c:wu", "c<=ub", "c>=g", "c=rg", "c:c", "c:m", "c!=w", "c>b", "c<wubrg", "c=2",
    "id:g", "id<=wb", "id>=u", "id=c",
    "f:vintage", "f:pauper", "legal:modern", "banned:vintage", "restricted:vintage", "banned:legacy",
    "s:lea", "s:m10", "e:isd",
    "year<1995", "year>=2020", "year=2003", "date<2001-06-04", "date>=2015-01",
    "is:split", "is:dfc", "is:mdfc", "is:permanent", "is:spell", "is:vanilla", "is:changeling", "is:historic",
    "not:permanent", "bolt", "dragon", "name:goblin",
]  # fmt: skip

simple = st.sampled_from(SIMPLE_FILTERS)
settings_for_catalog = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def catalog(catalog_index):
    return query_catalog(catalog_index)


def sample(catalog, seed, size=400):
    return random.Random(seed).sample(catalog.records, size)


def selected(query, records, catalog):
    predicate = compile_filter(query, catalog).predicate
    return {record.id for record in records if predicate(record)}


@settings_for_catalog
@given(a=simple, b=simple, seed=st.integers(0, 10**6))
def test_boolean_algebra_on_catalog_samples(catalog, a, b, seed):
    records = sample(catalog, seed)
    everything = {record.id for record in records}
    set_a, set_b = selected(a, records, catalog), selected(b, records, catalog)
    assert selected(f"{a} or {b}", records, catalog) == set_a | set_b
    assert selected(f"{a} {b}", records, catalog) == set_a & set_b
    assert selected(f"{a} and {b}", records, catalog) == set_a & set_b
    assert selected(f"-{a}", records, catalog) == everything - set_a
    assert selected(f"-({a} or {b})", records, catalog) == everything - (set_a | set_b)
    assert selected(f"-{a} -{b}", records, catalog) == everything - (set_a | set_b)  # De Morgan


@settings_for_catalog
@given(a=simple, b=simple, c=simple, seed=st.integers(0, 10**6))
def test_parentheses_group(catalog, a, b, c, seed):
    records = sample(catalog, seed)
    set_a, set_b, set_c = (selected(query, records, catalog) for query in (a, b, c))
    assert selected(f"{a} ({b} or {c})", records, catalog) == set_a & (set_b | set_c)
    assert selected(f"({a} {b}) or {c}", records, catalog) == (set_a & set_b) | set_c
    assert selected(f"{a} {b} or {c}", records, catalog) == (set_a & set_b) | set_c  # and binds tighter


queries = st.one_of(
    simple,
    st.builds(lambda a, b: f"{a} {b}", simple, simple),
    st.builds(lambda a, b: f"-{a} or {b}", simple, simple),
    st.builds(lambda a, b, c: f"-({a} or {b}) {c}", simple, simple, simple),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=queries, seed=st.integers(0, 10**6))
def test_python_predicate_and_django_q_agree(catalog, query, seed):
    records = sample(catalog, seed, size=300)
    ids = [record.id for record in records]
    from_q = set(
        Card.objects.filter(compile_filter(query, catalog).q(), id__in=ids).values_list("id", flat=True)
    )
    assert from_q == selected(query, records, catalog), query


@pytest.mark.parametrize("query", SIMPLE_FILTERS)
def test_each_simple_filter_agrees_on_the_whole_catalog(catalog, query):
    _cards, total = search_cards_by_query(query, limit=5)
    assert total == len(filter_catalog(query, catalog))
    assert 0 < total < len(catalog), f"{query} should select some cards, not all"


def names(query):
    return {record.name for record in filter_catalog(query)}


def test_changelings_are_every_creature_type(catalog_index):
    dragons = names("t:dragon t:creature")
    assert {"Shivan Dragon", "Mirror Entity"} <= dragons  # rule 702.73a
    assert "Lightning Bolt" not in dragons
    assert "Mirror Entity" in names("t:elf")
    assert "Mirror Entity" not in names("t:legendary")  # not a creature type: only the type line counts


def test_mana_value_colours_and_first_printing(catalog_index):
    assert "Mirror Entity" in names("mv<=3") and "Shivan Dragon" not in names("mv<=3")
    assert "Counterspell" in names("c:u") and "Counterspell" not in names("-c:u")
    assert "Lightning Bolt" in names("-c:u")
    assert "Fire // Ice" in names("c=ur") and "Fire // Ice" in names("c:m")
    assert "Black Lotus" in names("c:c") and "Black Lotus" in names("year<1995")
    assert "Mirror Entity" not in names("year<1995")
    assert "Kird Ape" in names("id:rg") and "Kird Ape" in names("c=r")  # {G} in its text is identity only


def test_formats_sets_and_layouts(catalog_index):
    assert "Black Lotus" in names("banned:legacy") and "Black Lotus" in names("restricted:vintage")
    assert "Black Lotus" in names("f:vintage") and "Black Lotus" not in names("f:legacy")
    assert "Ancestral Recall" in names("s:LEA")
    assert "Fire // Ice" in names("is:split")
    assert "Mirror Entity" in names("is:changeling is:permanent is:spell")
    assert "Lightning Bolt" in names("is:spell -is:permanent")


@pytest.mark.parametrize(
    ("query", "position", "words"),
    [
        ("r:rare", 0, "Rarity is not in this card catalog"),
        ("t:dragon f:chess", 11, "not a format"),
        ("s:zzz9", 2, "No set"),
        ("c:purple", 2, "not a colour"),
        ("mv<=three", 4, "not a number"),
        ("is:shiny", 3, "is:shiny is not supported"),
        ("year<95", 5, "not a year"),
        ("date>2020-13-01", 5, "not a date"),
        ("t>dragon", 0, "does not compare text"),
    ],
)
def test_values_the_catalog_cannot_answer_are_errors_with_a_position(catalog_index, query, position, words):
    with pytest.raises(QuerySyntaxError) as caught:
        compile_filter(query)
    assert caught.value.position == position
    assert words in caught.value.message
    assert caught.value.query == query


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=queries, seed=st.integers(0, 10**6))
def test_generated_code_and_closures_agree(catalog, query, seed):
    from rounds.cardquery import parse
    from rounds.cardquery.compile import to_predicate

    records = sample(catalog, seed, size=300)
    card_filter = compile_filter(query, catalog)
    closures = to_predicate(parse(query), catalog)
    assert [r.id for r in records if closures(r)] == [r.id for r in card_filter.select(records)]
    assert [r.id for r in records if closures(r)] == [r.id for r in records if card_filter.predicate(r)]


def test_a_query_too_deep_for_generated_code_still_works(catalog, monkeypatch):
    from rounds.cardquery import codegen

    def refuse(*args):
        raise SyntaxError("too many nested parentheses")

    monkeypatch.setattr(codegen, "compile", refuse, raising=False)
    query = "-(" * 20 + "t:dragon" + ")" * 20 + " t:creature"
    assert {r.name for r in filter_catalog(query, catalog)} >= {"Shivan Dragon", "Mirror Entity"}


def test_deepest_accepted_query_compiles(catalog):
    query = "(-" * 40 + "t:dragon" + ")" * 40
    assert {r.name for r in filter_catalog(query, catalog)} >= {"Shivan Dragon"}


KEYS = ["name", "t", "o", "mv", "cmc", "c", "id", "r", "s", "f", "banned", "restricted", "year", "date", "is", "not"]  # fmt: skip
OPERATORS = [":", "=", "!=", "<", "<=", ">", ">="]
VALUES = st.one_of(
    st.sampled_from(["3", "-1", "1e999", "nan", "1_000", "ub", "wubrgx", "c", "m", "blue", "2", "lea", "zzz",
                     "vintage", "chess", "1995", "1995-02-30", "0000-01-01", "split", "dfc", '"a b"', "dragon"]),
    st.text(st.characters(blacklist_categories=["Cs", "Cc"]), min_size=1, max_size=8).filter(
        lambda text: not set(text) & set(' ()"-')
    ),
)  # fmt: skip
terms = st.builds(
    lambda key, op, value: f"{key}{op}{value}", st.sampled_from(KEYS), st.sampled_from(OPERATORS), VALUES
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(terms, min_size=1, max_size=3), st.sampled_from([" ", " or ", " -"]))
@example(["c:²"], " ")
@example(["c=²"], " ")
@example(["id<=¹"], " ")
@example(["year=١٩٩٥"], " ")
def test_compiling_any_filter_gives_a_filter_or_a_syntax_error(catalog, parts, joiner):
    query = joiner.join(parts)
    try:
        card_filter = compile_filter(query, catalog)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(query)
        return
    card_filter.predicate(catalog.records[0])
    card_filter.q()  # builds without error


@pytest.mark.parametrize("query", ["c:²", "c>=²", "id=³", "c:1²", "year=١٩٩٥", "date<١٩٩٥-01"])
def test_non_ascii_digits_are_a_syntax_error_of_the_query(catalog, query):
    with pytest.raises(QuerySyntaxError) as raised:
        compile_filter(query, catalog)
    assert 0 <= raised.value.position <= len(query)
