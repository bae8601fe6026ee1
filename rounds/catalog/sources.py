"""Reading card data files into catalog records.

Formats understood (detected from the content, not the file name):
- the shipped snapshot (`rounds/data/cards.json.gz`, described in CARDS.md),
- Scryfall bulk data (`oracle_cards`, `default_cards`, `all_cards`: a JSON list of card objects),
- MTGJSON `AtomicCards` (`{"meta", "data": {name: [faces]}}`) and `AllPrintings`
  (`{"meta", "data": {set: {...}}}`).
Any of them plain `.json` or gzip-compressed, from a file or an http(s) URL.

Every reader yields `CardRecord`s in the snapshot's shape; several records for one Oracle name (one per
printing) are merged by `merge_records` before loading.
"""

import datetime
import gzip
import json
import shutil
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

SNAPSHOT_PATH = Path(__file__).resolve().parent.parent / "data" / "cards.json.gz"
SNAPSHOT_META_PATH = SNAPSHOT_PATH.with_name("cards_meta.json")

CORE_FORMATS = ("vintage", "legacy", "modern", "pioneer", "standard", "pauper")
LEGALITY_VALUES = frozenset({"legal", "restricted", "banned", "not_legal"})
# Scryfall and MTGJSON also list game objects that are not Magic cards a player could put in a hand.
_NOT_CARDS_FROM_IMPORTS = frozenset({"token", "double_faced_token", "emblem", "art_series"})
DOWNLOAD_TIMEOUT_SECONDS = 60


class CardDataError(Exception):
    """The file cannot be read as card data; the message says why, for the person running the import."""


@dataclass
class CardRecord:
    name: str
    faces: list
    layout: str = ""
    type_line: str = ""
    mana_cost: str = ""
    mana_value: float | None = None
    oracle_text: str = ""
    legalities: dict = field(default_factory=dict)
    sets: dict = field(default_factory=dict)  # set code → release date (ISO string) or None
    first_printed: str | None = None
    paper: bool | None = None
    data_quality: str = "full"


@dataclass
class CardData:
    """What a source file holds: its records, what it says about sets, and its own date when it has one."""

    records: list
    set_names: dict
    source_format: str
    as_of: datetime.date | None


def open_source(path_or_url):
    """A local path to the data, downloading a URL to a temporary file first. Returns (path, is_temporary)."""
    parsed = urllib.parse.urlparse(str(path_or_url))
    if parsed.scheme in ("http", "https"):
        target = tempfile.NamedTemporaryFile(prefix="phm-cards-", suffix=".json", delete=False)  # noqa: SIM115
        try:
            # The scheme is checked above to be http(s): no file: or custom schemes reach urlopen.
            request = urllib.request.Request(str(path_or_url), headers={"User-Agent": "PHM-Moderator/1"})  # noqa: S310
            with urllib.request.urlopen(request, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response, target:  # noqa: S310
                shutil.copyfileobj(response, target)
        except OSError as error:
            Path(target.name).unlink(missing_ok=True)
            raise CardDataError(f"Could not download {path_or_url}: {error}") from error
        return Path(target.name), True
    if parsed.scheme not in ("", "file"):
        raise CardDataError(f"Unsupported URL scheme {parsed.scheme!r}: give a file path or an http(s) URL.")
    path = Path(parsed.path if parsed.scheme == "file" else str(path_or_url))
    if not path.is_file():
        raise CardDataError(f"No such file: {path}")
    return path, False


def read_json(path):
    """Parse a JSON file, transparently un-gzipping it (detected by its magic bytes, whatever its name)."""
    with open(path, "rb") as raw:
        compressed = raw.read(2) == b"\x1f\x8b"
    opener = gzip.open if compressed else open
    try:
        with opener(path, "rb") as stream:
            return json.load(stream)
    except (OSError, EOFError, ValueError) as error:
        raise CardDataError(f"{path} is not valid JSON{' (gzip)' if compressed else ''}: {error}") from error


def read_card_data(path_or_url):
    path, temporary = open_source(path_or_url)
    try:
        document = read_json(path)
    finally:
        if temporary:
            path.unlink(missing_ok=True)
    return parse_document(document)


def parse_document(document):
    """Detect the format of a parsed JSON document and convert it to merged catalog records."""
    if isinstance(document, list):
        first = next((item for item in document if isinstance(item, dict)), None)
        if first is None:
            raise CardDataError("The file is an empty list or holds no card objects.")
        if first.get("object") == "card" or "oracle_id" in first:
            return _from_scryfall(document)
        if "faces" in first and "legalities" in first:
            return _from_snapshot(document)
        raise CardDataError("A JSON list, but neither Scryfall card objects nor PHM snapshot records.")
    if isinstance(document, dict) and isinstance(document.get("data"), dict):
        data = document["data"]
        meta_date = _parse_date((document.get("meta") or {}).get("date"))
        sample = next(iter(data.values()), None)
        if isinstance(sample, list):
            return _from_mtgjson_atomic(data, meta_date)
        if isinstance(sample, dict) and "cards" in sample:
            return _from_mtgjson_printings(data, meta_date)
    raise CardDataError(
        "Unrecognised card data: expected Scryfall bulk data (oracle_cards/default_cards), MTGJSON "
        "AtomicCards/AllPrintings, or the PHM snapshot."
    )


def _parse_date(value):
    if not value:
        return None
    try:
        return datetime.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _text(value):
    return value if isinstance(value, str) else ""


def _number(value):
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if number >= 0 else None


def _legalities(raw, *, absent_means_not_legal):
    """Lower-case statuses per format; MTGJSON leaves out formats a card is not legal in."""
    result = {}
    for format_key, status in (raw or {}).items():
        status = str(status).strip().lower().replace("-", "_").replace(" ", "_")
        if status in LEGALITY_VALUES:
            result[str(format_key).lower()] = status
    if absent_means_not_legal:
        for format_key in CORE_FORMATS:
            result.setdefault(format_key, "not_legal")
    return result


def _quality(record):
    if record.oracle_text or not record.faces:
        return "full" if record.type_line else "partial+text"
    return "partial" if record.type_line else "name_only"


def merge_records(records):
    """One record per Oracle name: sets unioned, the earliest print date kept, `paper` if any printing is."""
    merged = {}
    for record in records:
        current = merged.get(record.name)
        if current is None:
            merged[record.name] = record
            continue
        for code, released in record.sets.items():
            if current.sets.get(code) is None:
                current.sets[code] = released
        current.first_printed = min(filter(None, [current.first_printed, record.first_printed]), default=None)
        if record.paper is not None:
            current.paper = bool(current.paper) or record.paper
        # Prefer the fuller description when printings disagree (a reprint may carry newer Oracle text).
        if not current.oracle_text and record.oracle_text:
            current.oracle_text = record.oracle_text
        for format_key, status in record.legalities.items():
            current.legalities.setdefault(format_key, status)
    return list(merged.values())


def _from_snapshot(items):
    records = []
    for item in items:
        name = _text(item.get("name")).strip()
        if not name:
            continue
        records.append(
            CardRecord(
                name=name,
                faces=[face for face in item.get("faces") or [name] if isinstance(face, str) and face]
                or [name],
                layout=_text(item.get("layout")),
                type_line=_text(item.get("type_line")),
                mana_cost=_text(item.get("mana_cost")),
                mana_value=_number(item.get("mana_value")),
                oracle_text=_text(item.get("oracle_text")),
                legalities=_legalities(item.get("legalities"), absent_means_not_legal=True),
                sets={str(code).upper(): released for code, released in item.get("sets") or []},
                first_printed=item.get("first_printed"),
                paper=bool(item.get("paper", True)),
                data_quality=item.get("data_quality") or "full",
            )
        )
    return CardData(records=records, set_names={}, source_format="PHM snapshot", as_of=None)


def _scryfall_faces(item):
    faces = item.get("card_faces") or []
    if not faces:
        return [item["name"]], _text(item.get("mana_cost")), _text(item.get("oracle_text"))
    names = [_text(face.get("name")) for face in faces if _text(face.get("name"))]
    mana_cost = _text(item.get("mana_cost")) or " // ".join(_text(face.get("mana_cost")) for face in faces)
    oracle_text = _text(item.get("oracle_text")) or "\n//\n".join(
        _text(face.get("oracle_text")) for face in faces
    )
    return names or [item["name"]], mana_cost, oracle_text


def _from_scryfall(items):
    records, set_names, newest = [], {}, None
    for item in items:
        if not isinstance(item, dict) or not _text(item.get("name")):
            continue
        if item.get("layout") in _NOT_CARDS_FROM_IMPORTS or item.get("set_type") in ("token", "memorabilia"):
            continue
        faces, mana_cost, oracle_text = _scryfall_faces(item)
        type_line = _text(item.get("type_line")) or " // ".join(
            _text(face.get("type_line")) for face in item.get("card_faces") or []
        )
        code = _text(item.get("set")).upper()
        released = _text(item.get("released_at")) or None
        if code and item.get("set_name"):
            set_names[code] = item["set_name"]
        release_date = _parse_date(released)
        if (
            release_date
            and release_date <= datetime.date.today()
            and (newest is None or release_date > newest)
        ):
            newest = release_date
        record = CardRecord(
            name=item["name"],
            faces=faces,
            layout=_text(item.get("layout")),
            type_line=type_line,
            mana_cost=mana_cost,
            mana_value=_number(item.get("cmc")),
            oracle_text=oracle_text,
            legalities=_legalities(item.get("legalities"), absent_means_not_legal=True),
            sets={code: released} if code else {},
            first_printed=released,
            paper="paper" in (item.get("games") or ["paper"]),
        )
        record.data_quality = _quality(record)
        records.append(record)
    return CardData(merge_records(records), set_names, "Scryfall bulk data", newest)


def _mtgjson_record(faces_data, *, sets, first_printed, paper):
    """A catalog record from MTGJSON face objects of one card (sorted by `side`)."""
    faces_data = sorted(faces_data, key=lambda face: _text(face.get("side")) or "a")
    first = faces_data[0]
    name = _text(first.get("name"))
    face_names = [_text(face.get("faceName")) or name for face in faces_data]
    if len(faces_data) == 1 and " // " in name:
        face_names = name.split(" // ")
    record = CardRecord(
        name=name,
        faces=list(dict.fromkeys(face_names)),
        layout=_text(first.get("layout")),
        type_line=" // ".join(_text(face.get("type")) for face in faces_data),
        mana_cost=" // ".join(_text(face.get("manaCost")) for face in faces_data),
        mana_value=_number(first.get("manaValue", first.get("convertedManaCost"))),
        oracle_text="\n//\n".join(_text(face.get("text")) for face in faces_data),
        legalities=_legalities(first.get("legalities"), absent_means_not_legal=True),
        sets=sets,
        first_printed=first_printed,
        paper=paper,
    )
    record.data_quality = _quality(record)
    return record


def _from_mtgjson_atomic(data, meta_date):
    records = []
    for name, faces_data in data.items():
        faces_data = [face for face in faces_data if isinstance(face, dict)]
        if not faces_data or faces_data[0].get("layout") in _NOT_CARDS_FROM_IMPORTS:
            continue
        for face in faces_data:
            face.setdefault("name", name)
        # Atomic data knows which sets a card is in, not when they came out.
        sets = {str(code).upper(): None for code in faces_data[0].get("printings") or []}
        records.append(_mtgjson_record(faces_data, sets=sets, first_printed=None, paper=None))
    return CardData(records, {}, "MTGJSON AtomicCards", meta_date)


def _from_mtgjson_printings(data, meta_date):
    records, set_names = [], {}
    for set_code, set_data in data.items():
        if not isinstance(set_data, dict):
            continue
        code = (_text(set_data.get("code")) or set_code).upper()
        released = _text(set_data.get("releaseDate")) or None
        if set_data.get("name"):
            set_names[code] = set_data["name"]
        by_name = {}
        for card in set_data.get("cards") or []:
            if (
                isinstance(card, dict)
                and _text(card.get("name"))
                and card.get("layout") not in _NOT_CARDS_FROM_IMPORTS
            ):
                # The faces of one printing share the card's name within a set; `side` orders them.
                by_name.setdefault(card["name"], {}).setdefault(_text(card.get("side")) or "a", card)
        for faces_by_side in by_name.values():
            faces_data = list(faces_by_side.values())
            availability = faces_data[0].get("availability")
            paper = "paper" in availability if isinstance(availability, list) else None
            records.append(
                _mtgjson_record(faces_data, sets={code: released}, first_printed=released, paper=paper)
            )
    return CardData(merge_records(records), set_names, "MTGJSON AllPrintings", meta_date)


def snapshot_meta():
    """`cards_meta.json` of the shipped snapshot, and the date the snapshot is "as of"."""
    meta = json.loads(SNAPSHOT_META_PATH.read_text())
    newest = [_parse_date(entry[0]) for entry in meta.get("newest_sets") or []]
    as_of = max(filter(None, newest), default=None) or _parse_date(
        (meta.get("mtgjson_meta") or {}).get("date")
    )
    return meta, as_of
