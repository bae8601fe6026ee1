"""Writing catalog records to the database: one idempotent upsert used by migrate and by `import_cards`.

Cards are matched by Oracle name. A changed card is updated in place (its id, slug and every hand that
refers to it stay); printings are only ever added, because partial sources (Scryfall `oracle_cards`, one
printing per card) must not erase what a fuller source taught us. Cards missing from a source are kept.
"""

import datetime
import hashlib
import io
import json
import logging
import time
from dataclasses import dataclass

from django.db import connections, transaction
from django.utils import timezone

from rounds.models import Card, CardFace, CardSet, CatalogVersion, DataQuality, Printing

from . import history, names
from .sources import SNAPSHOT_PATH, CardData, parse_document, read_json, snapshot_meta

logger = logging.getLogger(__name__)

BATCH_SIZE = 2000
_CARD_FIELDS = [
    "name", "normalized_name", "layout", "type_line", "mana_cost", "mana_value", "oracle_text",
    "legalities", "first_printed", "paper", "data_quality", "content_hash",
]  # fmt: skip


_QUALITIES = frozenset(DataQuality.values)


@dataclass
class LoadResult:
    added: int = 0
    changed: int = 0
    unchanged: int = 0
    sets_added: int = 0
    printings_added: int = 0
    legality_changes: int = 0
    seconds: float = 0.0
    version: CatalogVersion | None = None


def _date(value):
    if isinstance(value, datetime.date) or value is None:
        return value
    try:
        return datetime.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _card_values(record, existing):
    """Field values for a record; what the source does not know (dates, paper) is kept from the row."""
    first_printed = _date(record.first_printed)
    paper = record.paper
    if existing is not None:
        old_first = existing["first_printed"]
        first_printed = min(filter(None, [first_printed, old_first]), default=None)
        if paper is None:
            paper = existing["paper"]
    display = names.display_name(record.name, record.faces, record.layout, record.type_line)
    quality = record.data_quality if record.data_quality in _QUALITIES else DataQuality.PARTIAL.value
    values = {
        "name": display,
        "normalized_name": names.normalize_name(display),
        "layout": record.layout or "",
        "type_line": record.type_line or "",
        "mana_cost": record.mana_cost or "",
        "mana_value": record.mana_value,
        "oracle_text": record.oracle_text or "",
        "legalities": dict(sorted(record.legalities.items())),
        "first_printed": first_printed,
        "paper": True if paper is None else bool(paper),
        "data_quality": quality,
    }
    fingerprint = json.dumps(
        {**values, "faces": record.faces, "first_printed": str(first_printed)}, sort_keys=True, default=str
    )
    values["content_hash"] = hashlib.sha1(fingerprint.encode(), usedforsecurity=False).hexdigest()
    return values


def _unique_slug(display, taken):
    base = names.slug_base(display)
    slug, counter = base, 2
    while slug in taken:
        slug = f"{base}-{counter}"
        counter += 1
    taken.add(slug)
    return slug


def _progress(iterable, total, show, description):
    if not show:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, total=total, desc=description, unit=" cards", leave=False)


def load_card_data(card_data: CardData, *, source, as_of=None, using="default", progress=False):
    """Upsert every record of `card_data`; returns counts. Safe to run again: a second run changes nothing."""
    started = time.monotonic()
    result = LoadResult()
    with transaction.atomic(using=using):
        if as_of is None:
            # A partial or older file does not make the catalog older than what it already holds.
            previous = (
                CatalogVersion.objects.using(using).order_by("-id").values_list("as_of", flat=True).first()
            )
            as_of = max(filter(None, [previous, card_data.as_of])) if previous or card_data.as_of else None
            as_of = as_of or datetime.date.today()
        existing = {
            row["oracle_name"]: row
            for row in Card.objects.using(using).values(
                "id", "oracle_name", "content_hash", "first_printed", "paper"
            )
        }
        taken_slugs = set(Card.objects.using(using).values_list("slug", flat=True))
        to_create, to_update, faces_for = [], [], {}
        for record in _progress(card_data.records, len(card_data.records), progress, "Cards"):
            row = existing.get(record.name)
            values = _card_values(record, row)
            if row is None:
                slug = _unique_slug(values["name"], taken_slugs)
                to_create.append((record.name, slug, *(values[name] for name in _CARD_FIELDS)))
                faces_for[record.name] = record.faces
            elif row["content_hash"] != values["content_hash"]:
                to_update.append(Card(id=row["id"], oracle_name=record.name, **values))
                faces_for[record.name] = record.faces
            else:
                result.unchanged += 1
        # Rule 2.1a: what each changed card's legalities were, before they are overwritten (history.py).
        legalities_before = history.current_legalities([card.id for card in to_update], using)
        _insert_rows(Card, ["oracle_name", "slug", *_CARD_FIELDS], to_create, using)
        Card.objects.using(using).bulk_update(to_update, _CARD_FIELDS, batch_size=BATCH_SIZE)
        result.added, result.changed = len(to_create), len(to_update)

        card_ids = dict(Card.objects.using(using).values_list("oracle_name", "id"))
        _write_faces(faces_for, card_ids, [card.id for card in to_update], using)
        result.sets_added = _write_sets(card_data, using)
        result.printings_added = _write_printings(card_data.records, card_ids, using)
        result.version = CatalogVersion.objects.using(using).create(
            source=source[:300],
            as_of=as_of,
            cards_added=result.added,
            cards_changed=result.changed,
            card_count=len(card_ids),
        )
        legalities_at = _CARD_FIELDS.index("legalities") + 2  # after oracle_name and slug
        result.legality_changes = history.record_legality_changes(
            result.version,
            # The first load into an empty catalog starts the history: no round can have opened before it.
            new_cards=[(card_ids[row[0]], row[legalities_at]) for row in to_create] if existing else [],
            changed_cards=[(card.id, legalities_before[card.id], card.legalities) for card in to_update],
            using=using,
        )
    result.seconds = time.monotonic() - started
    # Late import: resolve imports the models, and the index must drop what it built from the old rows.
    from .resolve import invalidate_index

    invalidate_index()
    transaction.on_commit(invalidate_index, using=using)
    return result


def _write_faces(faces_for, card_ids, updated_ids, using):
    if updated_ids:
        for start in range(0, len(updated_ids), BATCH_SIZE):
            CardFace.objects.using(using).filter(card_id__in=updated_ids[start : start + BATCH_SIZE]).delete()
    faces = [
        (card_ids[oracle_name], position, face, names.normalize_name(face))
        for oracle_name, face_names in faces_for.items()
        for position, face in enumerate(face_names)
    ]
    _insert_rows(CardFace, ["card_id", "position", "name", "normalized_name"], faces, using)


def _write_sets(card_data, using):
    """Create sets the data mentions; fill in names and dates we did not know yet (never blank them)."""
    release_dates = {}
    for record in card_data.records:
        for code, released in record.sets.items():
            if released and (code not in release_dates or release_dates[code] is None):
                release_dates[code] = _date(released)
            release_dates.setdefault(code, None)
    existing = {card_set.code: card_set for card_set in CardSet.objects.using(using).all()}
    to_create, to_update = [], []
    for code, released in release_dates.items():
        set_name = card_data.set_names.get(code, "")
        card_set = existing.get(code)
        if card_set is None:
            to_create.append(CardSet(code=code, name=set_name[:200], release_date=released))
        elif (set_name and card_set.name != set_name) or (released and not card_set.release_date):
            card_set.name = set_name[:200] or card_set.name
            card_set.release_date = card_set.release_date or released
            to_update.append(card_set)
    CardSet.objects.using(using).bulk_create(to_create, batch_size=BATCH_SIZE)
    CardSet.objects.using(using).bulk_update(to_update, ["name", "release_date"], batch_size=BATCH_SIZE)
    return len(to_create)


def _write_printings(records, card_ids, using):
    set_ids = dict(CardSet.objects.using(using).values_list("code", "id"))
    existing = set(Printing.objects.using(using).values_list("card_id", "card_set_id"))
    wanted = {
        (card_ids[record.name], set_ids[code])
        for record in records
        for code in record.sets
        if (card_ids[record.name], set_ids[code]) not in existing
    }
    _insert_rows(Printing, ["card_id", "card_set_id"], sorted(wanted), using)
    return len(wanted)


def _insert_rows(model, attnames, rows, using):
    """Bulk INSERT without the ORM's per-value preparation, which costs 5x the SQL itself for 100k rows.

    `rows` are tuples in `attnames` order. Values are prepared by hand (JSON dumped, dates and numbers
    passed through); `auto_now` fields are filled here because the ORM is bypassed. PostgreSQL gets a
    COPY (several times faster than INSERTs there), other databases multi-row INSERTs.
    """
    if not rows:
        return
    opts = model._meta
    fields = [opts.get_field(name) for name in attnames]
    auto_now = [field for field in opts.concrete_fields if getattr(field, "auto_now", False)]
    columns = [field.column for field in fields] + [field.column for field in auto_now]
    json_positions = {i for i, field in enumerate(fields) if field.get_internal_type() == "JSONField"}
    extra = [timezone.now()] * len(auto_now)

    def prepared(row):
        if json_positions:
            row = [json.dumps(value) if i in json_positions else value for i, value in enumerate(row)]
        return [*row, *extra]

    connection = connections[using]
    quote = connection.ops.quote_name
    # Only model metadata (quoted table and column names) is interpolated; values are bound or COPY data.
    target = f"{quote(opts.db_table)} ({', '.join(quote(column) for column in columns)})"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            buffer = io.StringIO()
            for row in rows:
                buffer.write("\t".join(map(_copy_value, prepared(row))))
                buffer.write("\n")
            buffer.seek(0)
            cursor.copy_expert(f"COPY {target} FROM STDIN", buffer)
            return
        # SQLite caps bound parameters per statement (Django assumes 999).
        rows_per_statement = max(1, (connection.features.max_query_params or 999) // len(columns))
        placeholder = "(" + ", ".join(["%s"] * len(columns)) + ")"
        for start in range(0, len(rows), rows_per_statement):
            chunk = rows[start : start + rows_per_statement]
            params = [value for row in chunk for value in prepared(row)]
            cursor.execute(f"INSERT INTO {target} VALUES " + ", ".join([placeholder] * len(chunk)), params)  # noqa: S608


_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_value(value):
    """One value in PostgreSQL's COPY text format."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return str(value).translate(_COPY_ESCAPES)


def import_cards(path_or_url, *, as_of=None, progress=False, using="default"):
    from .sources import read_card_data

    card_data = read_card_data(path_or_url)
    return load_card_data(
        card_data,
        source=f"{card_data.source_format}: {path_or_url}",
        as_of=as_of,
        using=using,
        progress=progress,
    )


def load_snapshot(*, using="default", progress=False):
    """Load the snapshot shipped in `rounds/data/` (CARDS.md)."""
    meta, as_of = snapshot_meta()
    card_data = parse_document(read_json(SNAPSHOT_PATH))
    # The snapshot's records carry set codes only; its metadata names the newest sets.
    card_data.set_names = {code: name for _, code, name in meta.get("newest_sets") or []}
    mtgjson = (meta.get("mtgjson_meta") or {}).get("version", "")
    source = f"PHM snapshot {SNAPSHOT_PATH.name} (MTGJSON {mtgjson}, Scryfall set lists, Forge format lists)"
    return load_card_data(card_data, source=source, as_of=as_of, using=using, progress=progress)


def catalog_tables_exist(using="default"):
    tables = set(connections[using].introspection.table_names())
    return all(
        model._meta.db_table in tables for model in (Card, CardFace, CardSet, Printing, CatalogVersion)
    )


def load_snapshot_if_empty(*, using="default"):
    """Load the shipped snapshot into a database that has no cards yet (after `migrate`, or a test flush)."""
    if not catalog_tables_exist(using) or Card.objects.using(using).exists():
        return None
    return load_snapshot(using=using)
