from phm.text import quoted, strip_enclosing_quotes
from submissions.services.inputs import clean_hand_name


def test_a_name_is_quoted_once_its_own_double_quotes_becoming_single():
    assert quoted("Burn") == "“Burn”"
    assert quoted('"Burn"') == "“Burn”"
    assert quoted("“Burn”") == "“Burn”"
    assert quoted("Ashenvale’s “Burn”") == "“Ashenvale’s ‘Burn’”"
    assert quoted('Tom\'s "Blue" and "Red"') == "“Tom's ‘Blue’ and ‘Red’”"
    assert quoted("") == ""


def test_only_a_pair_of_quotes_around_the_whole_name_is_dropped():
    assert strip_enclosing_quotes(' "Burn" ') == "Burn"
    assert strip_enclosing_quotes('"Burn') == '"Burn'
    assert strip_enclosing_quotes("It's") == "It's"


def test_a_hand_name_is_stored_without_the_quotes_around_it():
    assert clean_hand_name("  “Burn”  ") == "Burn"
    assert clean_hand_name('Tom\'s "Burn"') == 'Tom\'s "Burn"'
