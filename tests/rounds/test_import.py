import gzip
import json

import pytest
from django.core.management import CommandError, call_command

from rounds.catalog.loader import import_cards
from rounds.catalog.resolve import resolve_name
from rounds.catalog.sources import CardDataError, parse_document
from rounds.models import Card, CardSet, CatalogVersion, Printing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_index")]


def forget(*oracle_names):
    """Remove cards from the loaded snapshot so an import has something to add."""
    Card.objects.filter(oracle_name__in=oracle_names).delete()


def test_scryfall_oracle_cards_add_then_nothing_changes(fixtures_dir):
    names = [
        "Black Lotus",
        "Delver of Secrets // Insectile Aberration",
        "Fire // Ice",
        "Bonecrusher Giant // Stomp",
    ]
    forget(*names)
    result = import_cards(str(fixtures_dir / "scryfall_oracle_cards.json"))
    assert (result.added, result.changed) == (4, 0)  # the token is not a card
    delver = Card.objects.get(oracle_name="Delver of Secrets // Insectile Aberration")
    assert delver.name == "Delver of Secrets"
    assert list(delver.faces.values_list("name", flat=True)) == ["Delver of Secrets", "Insectile Aberration"]
    assert delver.mana_cost == "{U} // "
    assert delver.oracle_text.endswith("\n//\nFlying")
    assert delver.legality("pauper") == "legal"
    assert Card.objects.get(oracle_name="Fire // Ice").name == "Fire // Ice"
    lotus = Card.objects.get(oracle_name="Black Lotus")
    assert lotus.legality("vintage") == "restricted"
    assert lotus.legality("oldschool") == "not_legal"  # formats beyond the six core ones are kept as data
    assert lotus.mana_value == 0
    assert str(lotus.first_printed) == "1993-08-05"
    assert CardSet.objects.get(code="LEA").name == "Limited Edition Alpha"
    assert not Card.objects.filter(name="Goblin", type_line__startswith="Token").exists()
    assert resolve_name("Insectile Aberration").card.name == "Delver of Secrets"

    again = import_cards(str(fixtures_dir / "scryfall_oracle_cards.json"))
    assert (again.added, again.changed, again.printings_added) == (0, 0, 0)
    assert CatalogVersion.objects.latest().cards_added == 0


def test_scryfall_update_keeps_the_card_and_adds_printings(fixtures_dir, tmp_path):
    lotus = Card.objects.get(oracle_name="Black Lotus")
    printings_before = lotus.printings.count()
    records = json.loads((fixtures_dir / "scryfall_oracle_cards.json").read_text())
    records[0]["oracle_text"] = "{T}, Sacrifice this artifact: Add three mana of any one color."
    records[0]["set"], records[0]["set_name"], records[0]["released_at"] = (
        "vma",
        "Vintage Masters",
        "2014-06-16",
    )
    path = tmp_path / "oracle.json"
    path.write_text(json.dumps(records))
    result = import_cards(str(path))
    updated = Card.objects.get(oracle_name="Black Lotus")
    assert updated.pk == lotus.pk and updated.slug == lotus.slug
    assert updated.oracle_text.startswith("{T}, Sacrifice this artifact")
    assert str(updated.first_printed) == "1993-08-05"  # the earliest date known is kept
    assert updated.printings.count() == printings_before  # VMA was already known: printings only grow
    assert result.changed >= 1


def test_mtgjson_atomic_cards_gzip(fixtures_dir):
    forget("Wear // Tear", "Chaos Orb", "Black Lotus")
    result = import_cards(str(fixtures_dir / "mtgjson_atomic_cards.json.gz"))
    assert result.added == 3
    assert str(result.version.as_of) == "2026-01-23"  # the snapshot's date: the file is older
    wear_tear = Card.objects.get(oracle_name="Wear // Tear")
    assert wear_tear.name == "Wear // Tear"
    assert wear_tear.mana_cost == "{1}{R} // {W}"
    assert wear_tear.type_line == "Instant // Instant"
    assert wear_tear.legality("pauper") == "not_legal"  # MTGJSON leaves out formats a card is not legal in
    assert Card.objects.get(oracle_name="Chaos Orb").legality("vintage") == "banned"
    assert set(wear_tear.printings.values_list("card_set__code", flat=True)) == {"CMR", "DGM", "FMB1"}
    assert resolve_name("Tear").card.name == "Wear // Tear"
    assert import_cards(str(fixtures_dir / "mtgjson_atomic_cards.json.gz")).added == 0


def test_mtgjson_all_printings(fixtures_dir):
    forget("Wear // Tear", "Black Lotus", "Chaos Orb")
    result = import_cards(str(fixtures_dir / "mtgjson_all_printings.json"))
    assert result.added == 3
    card = Card.objects.get(oracle_name="Wear // Tear")
    assert [face.name for face in card.faces.all()] == ["Wear", "Tear"]
    assert str(card.first_printed) == "2013-05-03"
    assert CardSet.objects.get(code="DGM").name == "Dragon's Maze"
    again = import_cards(str(fixtures_dir / "mtgjson_all_printings.json"))
    assert (again.added, again.changed) == (0, 0)


def test_snapshot_reload_is_a_no_op():
    from rounds.catalog.loader import load_snapshot

    printings = Printing.objects.count()
    result = load_snapshot()
    assert (result.added, result.changed, result.printings_added) == (0, 0, 0)
    assert result.unchanged == 30663 and Printing.objects.count() == printings


def test_command_prints_counts(fixtures_dir, capsys):
    forget("Chaos Orb")
    call_command("import_cards", str(fixtures_dir / "mtgjson_atomic_cards.json"), "--no-progress")
    out = capsys.readouterr().out
    assert "Cards: 1 added, 2 changed, 0 unchanged" in out
    # An older file does not make the catalog older than the snapshot it updates.
    assert "Catalog as of 2026-01-23: 30663 cards." in out


def test_as_of_option(fixtures_dir):
    import datetime

    result = import_cards(str(fixtures_dir / "mtgjson_atomic_cards.json"), as_of=datetime.date(2026, 3, 1))
    assert str(result.version.as_of) == "2026-03-01"


def test_file_url(fixtures_dir):
    forget("Chaos Orb")
    result = import_cards((fixtures_dir / "mtgjson_atomic_cards.json").as_uri())
    assert result.added == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "not valid JSON"),
        (b"[]", "empty list"),
        (b'{"hello": 1}', "Unrecognised card data"),
        (
            gzip.compress(b"[1, 2", mtime=0),
            "not valid JSON (gzip)",
        ),  # a fixed mtime: the same test id each run
    ],
)
def test_bad_files_give_a_clear_error(tmp_path, content, message):
    path = tmp_path / "cards.json"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call_command("import_cards", str(path), "--no-progress")


def test_missing_file_and_bad_scheme():
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_cards", "/nonexistent/cards.json", "--no-progress")
    with pytest.raises(CommandError, match="Unsupported URL scheme"):
        call_command("import_cards", "ftp://example.com/cards.json", "--no-progress")


def test_parse_document_rejects_lists_of_strangers():
    with pytest.raises(CardDataError):
        parse_document([{"foo": "bar"}])


def test_file_date_is_used_when_the_catalog_has_none(fixtures_dir):
    CatalogVersion.objects.all().delete()
    result = import_cards(str(fixtures_dir / "mtgjson_atomic_cards.json"))
    assert str(result.version.as_of) == "2024-02-12"


def test_another_process_loading_cards_is_noticed(monkeypatch):
    """The index compares the catalog's revision (cache, else the database) at most every few seconds."""
    from django.core.cache import cache

    from rounds.catalog import resolve

    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 0)
    assert resolve.get_index() is index  # nothing changed: same index, no rebuild
    CatalogVersion.objects.create(source="another process", as_of="2026-02-01", card_count=1)
    cache.delete(resolve.REVISION_CACHE_KEY)  # what the other process's invalidate_index() does
    rebuilt = resolve.get_index()
    assert rebuilt is not index and str(rebuilt.as_of) == "2026-02-01"


def test_empty_database_is_filled_after_migrate_or_flush():
    from rounds.catalog.loader import load_snapshot_if_empty
    from rounds.signals import fill_empty_catalog

    assert load_snapshot_if_empty() is None  # already loaded: nothing to do
    Printing.objects.all().delete()
    Card.objects.all().delete()
    fill_empty_catalog(sender=None, using="default", verbosity=0)
    assert Card.objects.count() == 30663
