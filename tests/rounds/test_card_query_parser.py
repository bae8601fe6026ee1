"""The card filter language's parser: it reads what players write, never crashes, and says where a query
is wrong (0-based position)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rounds.cardquery import QuerySyntaxError, caret_display, is_filter_query, parse
from rounds.cardquery.ast import And, Filter, Group, Not, Or

QUERY_ALPHABET = st.sampled_from(list("abcdtomvcidfsrey:<>=!-() \"'/\\|.,0123456789 \t\nÆû—{}"))


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80) | st.text(QUERY_ALPHABET, max_size=80))
def test_parser_never_crashes_on_arbitrary_text(text):
    try:
        parse(text)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(text)
        assert error.message
        caret = caret_display(text, error.position)
        assert caret.splitlines()[-1].endswith("^")


@given(st.integers(min_value=41, max_value=400))
def test_deep_nesting_is_a_syntax_error_not_a_recursion_error(depth):
    for text in ("(" * depth + "a" + ")" * depth, "-" * depth + "a", "- " * depth + "a"):
        with pytest.raises(QuerySyntaxError):
            parse(text)


def test_filters_words_negation_or_and_groups():
    tree = parse('(t:elf or o:"draw a card") -f:modern mv<=3 Dragon')
    assert isinstance(tree, And)
    group, negated, mana_value, word = tree.items
    assert isinstance(group, Group) and isinstance(group.item, Or)
    elf, phrase = group.item.items
    assert (elf.key, elf.op, elf.value, elf.position) == ("type", ":", "elf", 1)
    assert (phrase.key, phrase.value, phrase.value_position) == ("oracle", "draw a card", 13)
    assert isinstance(negated, Not) and negated.item.key == "format"
    assert (mana_value.key, mana_value.op, mana_value.value) == ("mv", "<=", "3")
    assert word == Filter("name", ":", "Dragon", 43, 43, "Dragon", bare=True)


@pytest.mark.parametrize(
    ("alias", "key"),
    [("t", "type"), ("TYPE", "type"), ("o", "oracle"), ("cmc", "mv"), ("c", "color"), ("id", "identity"),
     ("e", "set"), ("s", "set"), ("legal", "format"), ("f", "format"), ("year", "year"), ("is", "is")],
)  # fmt: skip
def test_key_aliases(alias, key):
    assert parse(f"{alias}:x").key == key


def test_or_binds_looser_than_and():
    tree = parse("a b or c")
    assert isinstance(tree, Or)
    assert isinstance(tree.items[0], And)


def test_a_colon_inside_a_name_is_a_word():
    tree = parse("Circle of Protection: Red")
    assert all(isinstance(item, Filter) and item.bare for item in tree.items)
    assert tree.items[2].value == "Protection:"


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("t:", 2, "value is missing"),
        ("t:dragon (mv<3", 14, "parenthesis is not closed"),
        ("t:dragon)", 8, "closes nothing"),
        ('o:"draw a card', 2, "quote is not closed"),
        ("mv<=3 or", 8, "ends too early"),
        ("()", 1, "Empty parentheses"),
        ("t:(dragon)", 2, "value is missing"),
    ],
)
def test_syntax_errors_say_what_and_where(text, position, words):
    with pytest.raises(QuerySyntaxError) as caught:
        parse(text)
    assert caught.value.position == position
    assert words in caught.value.message


def test_caret_points_at_the_position():
    assert caret_display("t:dragon)", 8) == "t:dragon)\n        ^"


def test_empty_query_is_none():
    assert parse("") is None
    assert parse("   ") is None


@pytest.mark.parametrize(
    ("text", "is_query"),
    [
        ("Lightning Bolt", False),
        ("Fight or Flight", False),  # a card: plain words and `or` alone keep the name search
        ("Fire // Ice", False),
        ("Circle of Protection: Red", False),
        ('"Ach! Hans', False),
        ("t:dragon", True),
        ("mv<=3", True),
        ("-c:u", True),
        ("dragon -t:creature", True),
        ("(bolt)", True),
        ("t:dragon (", True),  # a broken query is still a query: it gets its error, not a name search
    ],
)
def test_plain_names_are_not_filter_queries(text, is_query):
    assert is_filter_query(text) is is_query


@pytest.mark.parametrize("value", [None, 3, ["t:dragon"], {"q": 1}])
def test_non_text_is_a_syntax_error(value):
    with pytest.raises(QuerySyntaxError):
        parse(value)
