import pytest

from rounds.catalog.names import display_name, normalize_name
from rounds.catalog.resolve import Status, resolve_name, search_cards

pytestmark = pytest.mark.django_db

# Every example of the resolver's requirements, with the card each must find.
MUST_RESOLVE = [
    ("thalia guardian of thraben", "Thalia, Guardian of Thraben", Status.NORMALIZED),
    ("Mishras Workshop", "Mishra's Workshop", Status.NORMALIZED),
    ("Mishra\u2019s Workshop", "Mishra's Workshop", Status.NORMALIZED),
    ("Lim-Dul's Vault", "Lim-D\u00fbl's Vault", Status.NORMALIZED),
    ("jotun grunt", "J\u00f6tun Grunt", Status.NORMALIZED),
    ("Wear//Tear", "Wear // Tear", Status.NORMALIZED),
    ("wear // tear", "Wear // Tear", Status.EXACT),
    ("Tear", "Wear // Tear", Status.NORMALIZED),
    ("Delver of Secrets", "Delver of Secrets", Status.EXACT),
    ("Insectile Aberration", "Delver of Secrets", Status.NORMALIZED),
    ("Bonecrusher Giant", "Bonecrusher Giant", Status.EXACT),
    ("Aether Vial", "Aether Vial", Status.EXACT),
    ("\u00c6ther Vial", "Aether Vial", Status.NORMALIZED),
]


@pytest.mark.parametrize(("typed", "expected", "status"), MUST_RESOLVE)
def test_issue_examples_resolve(catalog_index, typed, expected, status):
    resolution = resolve_name(typed)
    assert resolution.card is not None, resolution
    assert resolution.card.name == expected
    assert resolution.status == status
    assert resolution.suggestions == ()


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Thalia, Gaurdian of Thraben", "Thalia, Guardian of Thraben"),
        ("Emrakul the Aeon's Torn", "Emrakul, the Aeons Torn"),
    ],
)
def test_typos_get_suggestions_but_are_never_accepted(catalog_index, typed, expected):
    resolution = resolve_name(typed)
    assert resolution.status == Status.FUZZY
    assert resolution.card is None
    assert resolution.suggestion_names[0] == expected
    assert 1 <= len(resolution.suggestions) <= 5
    scores = [suggestion.score for suggestion in resolution.suggestions]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("BLACK LOTUS", "Black Lotus"),
        ("  black   lotus ", "Black Lotus"),
        ("Delver of Secrets // Insectile Aberration", "Delver of Secrets"),
        ("Stomp", "Bonecrusher Giant"),
        ("Wear/Tear", "Wear // Tear"),
        ("Fire", "Fire // Ice"),  # two split cards have a "Fire" half; the older paper card wins
        ("Bind", "Bind"),  # a card's own name beats another card's face name
        ("Commit // Memory", "Commit // Memory"),
        ("Erayo, Soratami Ascendant", "Erayo, Soratami Ascendant"),
        ("Valakut Stoneforge", "Valakut Awakening"),
        ("Will o' the Wisp", "Will-o'-the-Wisp"),
        ('"Ach! Hans, Run!"', '"Ach! Hans, Run!"'),
    ],
)
def test_more_spellings(catalog_index, typed, expected):
    resolution = resolve_name(typed)
    assert resolution.card is not None and resolution.card.name == expected


@pytest.mark.parametrize("typed", ["", "   ", "Zzyzx Qwerty Plorp", "!!!", "/", "//"])
def test_unknown_names(catalog_index, typed):
    resolution = resolve_name(typed)
    assert resolution.card is None
    assert resolution.status == Status.UNKNOWN


def test_non_string_input_is_unknown(catalog_index):
    assert resolve_name(None).status == Status.UNKNOWN


@pytest.mark.parametrize(
    ("oracle_name", "faces", "layout", "type_line", "shown"),
    [
        ("Wear // Tear", ["Wear", "Tear"], "split", "Instant // Instant", "Wear // Tear"),
        ("Commit // Memory", ["Commit", "Memory"], "aftermath", "Instant // Sorcery", "Commit // Memory"),
        (
            "Delver of Secrets // Insectile Aberration",
            ["Delver of Secrets", "Insectile Aberration"],
            "transform",
            "",
            "Delver of Secrets",
        ),
        ("Bonecrusher Giant // Stomp", ["Bonecrusher Giant", "Stomp"], "adventure", "", "Bonecrusher Giant"),
        (
            "Valakut Awakening // Valakut Stoneforge",
            ["Valakut Awakening", "Valakut Stoneforge"],
            "modal_dfc",
            "",
            "Valakut Awakening",
        ),
        ("Cease // Desist", ["Cease", "Desist"], "", "Instant // Sorcery", "Cease // Desist"),
        (
            "Dazzling Theater // Prop Room",
            ["Dazzling Theater", "Prop Room"],
            "",
            "Enchantment \u2014 Room // Enchantment \u2014 Room",
            "Dazzling Theater // Prop Room",
        ),
        (
            "Virtue of Loyalty // Ardenvale Fealty",
            ["Virtue of Loyalty", "Ardenvale Fealty"],
            "",
            "Enchantment // Instant \u2014 Adventure",
            "Virtue of Loyalty",
        ),
        ("Black Lotus", ["Black Lotus"], "normal", "Artifact", "Black Lotus"),
    ],
)
def test_display_name_as_players_write_it(oracle_name, faces, layout, type_line, shown):
    assert display_name(oracle_name, faces, layout, type_line) == shown


def test_normalize_name():
    assert normalize_name("  Lim-D\u00fbl\u2019s   Vault ") == "lim dul's vault"
    assert normalize_name("Wear//Tear") == normalize_name("wear /  tear") == "wear // tear"
    assert normalize_name("\u00c6ther Vial") == "aether vial"
    assert normalize_name("Mishra`s Workshop") == "mishra's workshop"


def test_autocomplete_prefix_first_then_contains(catalog_index):
    names = [card.name for card in search_cards("black lo")]
    assert names[0] == "Black Lotus"
    names = [card.name for card in search_cards("lotus")]
    assert "Black Lotus" in names and len(names) <= 20
    assert "Delver of Secrets" in [card.name for card in search_cards("insectile")]
    assert search_cards("") == []
    assert len(search_cards("a")) == 20


def test_the_whole_snapshot_is_loaded(catalog_index):
    from rounds.models import Card, CatalogVersion

    assert Card.objects.count() == 30663
    version = CatalogVersion.objects.latest()
    assert str(version.as_of) == "2026-01-23"
    assert catalog_index.as_of == version.as_of


def test_a_partial_name_is_suggested_but_not_offered_as_a_typo(catalog_index):
    resolution = resolve_name("Thalia Gaurdian")
    assert resolution.status == Status.UNKNOWN
    assert resolution.suggestion_names[0] == "Thalia, Guardian of Thraben"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Blak Lotus", "Black Lotus"),
        ("Force of Wil", "Force of Will"),
        ("Jace the Mind Sculpter", "Jace, the Mind Sculptor"),
    ],
)
def test_common_typos(catalog_index, typed, expected):
    resolution = resolve_name(typed)
    assert resolution.status == Status.FUZZY and resolution.suggestion_names[0] == expected


@pytest.mark.django_db
def test_resolution_never_crashes(catalog_index):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.text(max_size=60))
    def check(text):
        resolution = resolve_name(text)
        assert resolution.status in {Status.EXACT, Status.NORMALIZED, Status.FUZZY, Status.UNKNOWN}
        assert (resolution.card is not None) == (resolution.status in {Status.EXACT, Status.NORMALIZED})
        assert len(resolution.suggestions) <= 5
        assert isinstance(search_cards(text), list)

    check()
