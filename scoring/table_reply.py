"""The table API's reply (`GET /api/rounds/{id}/table/`, docs/api.md): built once per state of the table,
kept in the cache as compressed bytes, revalidated by an `ETag`.

Every request costs three queries whatever the number of hands: the round, its `RoundTally`, and the hands'
public header (number, player, names, bonus). The validator is a digest of the tally's revision (every result
change bumps it in the same transaction) and of that header (names and bonuses change without a result). The
revision is read before anything else, so a body is never stored under a revision newer than its data: at
worst under an older one, which no request reads once the newer revision has committed.

The body is built only when the cache has no copy with that digest: one streamed query of the matches fills a
byte matrix (one byte per cell), each row's JSON text is written straight into the compressor, and only the
compressed bytes are kept (1,000 hands: 8 MB of JSON become ~0.7 MB brotli or ~1.6 MB gzip). No list of a
million cells or dicts is ever built, so a worker's memory goes back to its baseline after serving it.

Compressing this reply is safe from BREACH-style attacks, which recover a secret from the compressed size of
a body that holds both the secret and input the attacker can make the server reflect. This body exists only
after the reveal and holds only what the reveal made public (players, hand names, results); it reflects
nothing of the request, carries no CSRF token, session or per-viewer data, and is the same bytes for every
viewer. Nothing else in the app is compressed: replies with secrets (my-hand, tokens, anything before the
reveal, HTML pages with CSRF tokens) stay uncompressed, and the 404 before the reveal is not this reply.
"""

import hashlib
import json
import logging
import re
import zlib
from dataclasses import dataclass

import brotli
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags

from phm.input_guard import mark_public
from submissions.models import Hand

from .models import Match
from .services.access import revealed_round_table
from .services.table import VALID_HAND
from .services.tally import compute_tally, round_bonus, stored_tally

logger = logging.getLogger(__name__)

# Bumped whenever the reply's bytes change for the same data, so no cached copy of an older format is served.
REPLY_FORMAT = 1
CACHE_SECONDS = 24 * 3600  # keys are content digests: a copy is never wrong, only superseded
# brotli quality 3 beats 4-9 on this text (about 0.7 MB for 1,000 hands in ~50 ms; bench/tally.py); gzip 6 is
# zlib's default trade-off.
BROTLI_QUALITY = 3
GZIP_LEVEL = 6
ENCODINGS = ("br", "gzip")  # in the order of preference
_FETCH_ROWS = 10_000
UNKNOWN = 255  # a cell without a result in the byte matrix (points are 0-6)
_VALUE_TEXT = ["null"] * 256
for _points in range(7):
    _VALUE_TEXT[_points] = str(_points)


@dataclass(frozen=True)
class TableState:
    """What the reply is computed from, as read for this request, and its validator."""

    round_id: int
    tally: object  # the RoundTally
    heads: list  # (hand id, number, hand name, username, forum name, bonus) in entry order
    digest: str

    @property
    def etag(self):
        # Weak: the gzip, brotli and plain bodies are the same reply in different encodings.
        return f'W/"{self.digest}"'

    def cache_key(self, encoding):
        return f"scoring:table-reply:{self.digest}:{encoding}"


def table_state(round_, now=None):
    """The state of the round's table (ScoringNotFound before the reveal: no validator exists before it)."""
    tally = revealed_round_table(round_, now)  # read before the data: see the module's docstring
    heads = list(
        Hand.objects.filter(VALID_HAND, round_id=round_.pk, number__isnull=False)
        .order_by("number")
        .annotate(round_bonus=round_bonus())
        .values_list(
            "pk", "number", "name", "player__username", "player__profile__forum_username", "round_bonus"
        )
    )
    # The build's time too: ids and revisions start again in a database rebuilt from scratch (every test), a
    # table's build time does not.
    material = repr((REPLY_FORMAT, round_.pk, tally.built_at, tally.revision, heads)).encode()
    digest = hashlib.blake2b(material, digest_size=16).hexdigest()
    return TableState(round_.pk, tally, heads, digest)


def respond(request, round_, now=None):
    """The reply: 304 when the client's copy is current, else the body in the best encoding it accepts."""
    state = table_state(round_, now)
    if client_has(request, state.etag):
        return _headers(HttpResponseNotModified(), state)
    accepted = accepted_encodings(request.headers.get("Accept-Encoding", ""))
    encoding = next((name for name in ENCODINGS if name in accepted), None)
    if encoding is None:
        # A client that takes no compression gets the cached gzip copy inflated: one bytes object, freed
        # with the response (large allocations go back to the system).
        response = HttpResponse(zlib.decompress(compressed_body(state, "gzip"), 16 + zlib.MAX_WBITS))
    else:
        body = compressed_body(state, encoding)
        response = HttpResponse(body)
        response["Content-Encoding"] = encoding
    response["Content-Type"] = "application/json"
    return _headers(response, state)


def _headers(response, state):
    response["ETag"] = state.etag
    # Public and storable, but revalidated on every use: the table changes whenever a result does.
    response["Cache-Control"] = "public, no-cache"
    response["Vary"] = "Accept-Encoding"
    return mark_public(response)


def client_has(request, etag):
    wanted = parse_etags(request.headers.get("If-None-Match", ""))
    weak = etag.removeprefix("W/")
    return "*" in wanted or any(tag.removeprefix("W/") == weak for tag in wanted)


# A coding and its optional quality, read from one comma-separated part of the header, its spacing stripped
# first: a single pattern with `\s*` on both sides of an optional group retries a run of spaces from each
# of its positions (quadratic: 8 KB of spaces in the header cost a second).
_CODING = re.compile(r"[\w*-]+")
_QUALITY = re.compile(r"q\s*=\s*([0-9.]+)")


def accepted_encodings(header):
    """The content codings an `Accept-Encoding` header accepts (q > 0); `*` stands for both of ours."""
    accepted = set()
    for part in header.split(","):
        name, semicolon, parameter = part.partition(";")
        name = name.strip()
        if not _CODING.fullmatch(name):
            continue
        quality = None
        if semicolon:
            found = _QUALITY.fullmatch(parameter.strip())
            if not found:
                continue
            quality = found.group(1)
        try:
            if quality is not None and float(quality) <= 0:
                continue
        except ValueError:
            continue
        accepted.update(ENCODINGS if name.lower() == "*" else [name.lower()])
    return accepted


# The body ------------------------------------------------------------------------------------------------


def cached_or_built(key, build, seconds, what):
    """The cached value of `key`, or `build()` (then cached). A cache that is down only costs the build."""
    try:
        value = cache.get(key)
    except Exception:  # any cache failure is a miss
        logger.warning("%s cache unreadable", what, exc_info=True)
        value = None
    if value is None:
        value = build()
        try:
            cache.set(key, value, seconds)
        except Exception:  # a cache that cannot store only costs speed
            logger.warning("%s cache unwritable", what, exc_info=True)
    return value


def compressed_body(state, encoding):
    """The reply's bytes in `encoding`, from the cache or built (and cached)."""
    return cached_or_built(
        state.cache_key(encoding),
        lambda: compress(json_chunks(state), encoding),
        CACHE_SECONDS,
        "table reply",
    )


def compress(chunks, encoding):
    if encoding == "br":
        compressor = brotli.Compressor(quality=BROTLI_QUALITY)
        out = [compressor.process(chunk) for chunk in chunks]
        out.append(compressor.finish())
    else:
        compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)  # gzip framing
        out = [compressor.compress(chunk) for chunk in chunks]
        out.append(compressor.flush())
    return b"".join(out)


def json_chunks(state):
    """The JSON text of the rows (ranked, as `TableRowSerializer` gives them), as UTF-8 chunks of about a row
    each: the same document DRF's JSONRenderer writes (compact, not ASCII-escaped)."""
    lines = ranked_lines(state)
    matrix = cell_matrix(state)
    count = len(state.heads)
    position = {head[0]: index for index, head in enumerate(state.heads)}
    keys = [f'"{head[1]}":' for head in state.heads]
    yield b"["
    for order, line in enumerate(lines):
        index = position[line.hand.pk]
        _pk, number, name, username, forum_name, bonus = state.heads[index]
        row_cells = matrix[index * count : (index + 1) * count]
        cells = [key + _VALUE_TEXT[value] for key, value in zip(keys, row_cells, strict=True)]
        del cells[index]  # a hand does not play itself
        row = (
            f'{"," if order else ""}{{"number":{number},"player":{json_text(username)},'
            f'"player_name":{json_text(forum_name or username)},"hand_name":{json_text(name)},'
            f'"cells":{{{",".join(cells)}}},"points":{line.points},"league_points":{line.league_points},'
            f'"bonus_points":{bonus},"rank":{line.rank}}}'
        )
        yield row.encode()
    yield b"]"


def json_text(value):
    # As DRF's JSONRenderer: UTF-8, with the two line separators JavaScript does not take in strings escaped.
    return json.dumps(value, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


@dataclass(frozen=True)
class _HandRef:
    """What tallying needs of a hand: its id and entry number."""

    pk: int
    number: int


def ranked_lines(state):
    hands = [_HandRef(head[0], head[1]) for head in state.heads]
    lines = stored_tally(state.round_id, hands) if state.tally.is_current else None
    if lines is None:
        lines = compute_tally(state.round_id, hands)
    return sorted(lines, key=lambda line: (line.rank, line.hand.number))


def cell_matrix(state):
    """bytearray of count x count cells, row-major in entry order: the row hand's points against the column
    hand, UNKNOWN without a result. One query, read in chunks through a server-side cursor (on PostgreSQL):
    no row of it is kept, and no model or ORM row object is made for any (half a million for 1,000 hands)."""
    count = len(state.heads)
    position = {head[0]: index for index, head in enumerate(state.heads)}
    matrix = bytearray([UNKNOWN]) * (count * count)
    table = connection.ops.quote_name(Match._meta.db_table)
    columns = "hand_a_id, hand_b_id, points_a, points_b"
    sql = f"SELECT {columns} FROM {table} WHERE round_id = %s AND points_a IS NOT NULL"  # noqa: S608
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, [state.round_id])
        while rows := cursor.fetchmany(_FETCH_ROWS):
            for hand_a, hand_b, points_a, points_b in rows:
                row, column = position.get(hand_a), position.get(hand_b)
                if row is None or column is None:
                    continue  # a disqualified hand's match is out of the table
                matrix[row * count + column] = points_a
                matrix[column * count + row] = points_b
    return matrix
