import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rounds.catalog.handlist import format_hand_list, parse_hand_list


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("Black Lotus / Black Lotus / Black Lotus / Frost Titan / Nevermore",
         ["Black Lotus", "Black Lotus", "Black Lotus", "Frost Titan", "Nevermore"]),
        ("Lake of the Dead/ Mana Drain", ["Lake of the Dead", "Mana Drain"]),
        ("Lake of the Dead /Mana Drain", ["Lake of the Dead", "Mana Drain"]),
        ("Leyline of Singularity / Karakas / Mox Pearl / Thalia, Guardian of Thraben / Wear // Tear",
         ["Leyline of Singularity", "Karakas", "Mox Pearl", "Thalia, Guardian of Thraben", "Wear // Tear"]),
        ("Wear//Tear / Mox Pearl", ["Wear//Tear", "Mox Pearl"]),
        ("3 Black Lotus / Frost Titan", ["Black Lotus"] * 3 + ["Frost Titan"]),
        ("3x Black Lotus\n2X Mox Pearl", ["Black Lotus"] * 3 + ["Mox Pearl"] * 2),
        ("Black Lotus\n\n  \nFrost Titan\n", ["Black Lotus", "Frost Titan"]),
        ("Black Lotus / Frost Titan /", ["Black Lotus", "Frost Titan"]),
        ("Black Lotus / / Frost Titan / ", ["Black Lotus", "Frost Titan"]),
        ("1996 World Champion", ["1996 World Champion"]),
        ("", []),
        (" / \n / ", []),
    ],
)  # fmt: skip
def test_forum_lists(text, cards):
    assert parse_hand_list(text) == cards


def test_printer_uses_forum_separator_and_protects_names_that_look_like_counts():
    assert format_hand_list(["Black Lotus", "Wear // Tear"]) == "Black Lotus / Wear // Tear"
    assert parse_hand_list(format_hand_list(["2 Black Lotus"])) == ["2 Black Lotus"]


@settings(max_examples=400)
@given(st.text())
def test_parser_never_crashes_and_printing_round_trips(text):
    cards = parse_hand_list(text)
    assert all(card and card == card.strip() for card in cards)
    assert parse_hand_list(format_hand_list(cards)) == cards


name_text = (
    st.text(
        alphabet=st.characters(categories=["L", "N", "P", "Zs"], exclude_characters="/"),
        min_size=1,
        max_size=30,
    )
    .map(lambda text: " ".join(text.split()))
    .filter(bool)
)
split_name = st.tuples(name_text, name_text).map(lambda halves: " // ".join(halves))


@settings(max_examples=300)
@given(st.lists(st.one_of(name_text, split_name), max_size=8))
def test_printed_names_parse_back(names):
    assert parse_hand_list(format_hand_list(names)) == names
    assert parse_hand_list(format_hand_list(names, separator="\n")) == names


@pytest.mark.django_db
def test_slashes_without_spaces_split_only_where_the_catalog_says_so(catalog_index):
    from rounds.catalog.resolve import is_known_card

    text = "Black Lotus/Conjurer's Bauble/Leyline of the Void/Thalia, Guardian of Thraben/Wipe Away"
    assert parse_hand_list(text) == [text]
    assert parse_hand_list(text, is_card=is_known_card) == [
        "Black Lotus", "Conjurer's Bauble", "Leyline of the Void", "Thalia, Guardian of Thraben", "Wipe Away",
    ]  # fmt: skip
    assert parse_hand_list("Wear/Tear / 2 Mox Pearl", is_card=is_known_card) == [
        "Wear/Tear",
        "Mox Pearl",
        "Mox Pearl",
    ]
