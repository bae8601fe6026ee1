"""The matches API's reply (`GET /api/rounds/{id}/matches/`, docs/api.md: Matches and results): the round's
matches a page at a time (phm.pagination), each page built once per state of the table, kept in the cache
compressed, and revalidated by a weak `ETag`, like the table's reply (scoring.table_reply).

The state is the table's (`table_reply.table_state`): the tally's revision, which every change of a match's
status, points or decision bumps in its transaction (reports, results, challenges, finalizing, reopening,
replacements and disqualifications), and the hands' public header (numbers, players). A page's validator
and cache key are a digest of that state and of the page asked for, so a cached page is never served once
the state has changed: the next request reads the new revision and builds the page again. Before the reveal
`table_state` raises ScoringNotFound: the 404 every list of a round's results answers then.

A request costs the table's three queries; building a page adds two (the list's total, cached on its own
per state, and the page: one query with OFFSET and LIMIT, whatever the size of the round). Only the gzip
copy is kept (one per page and state; superseded pages expire within CACHE_SECONDS): a client that does not
take gzip gets it inflated. Compressing is safe here for the
table's reasons (public, the same bytes for everyone, nothing of the request reflected).
"""

import hashlib
import zlib

from django.http import HttpResponse, HttpResponseNotModified

from phm.input_guard import mark_public
from phm.pagination import page_of, with_page_headers

from . import table_reply
from .services.table import matches_in_table

# Bumped whenever the reply's bytes change for the same data, so no cached copy of an older format is served.
REPLY_FORMAT = 1
DEFAULT_LIMIT, MAX_LIMIT = 1000, 5000
CACHE_SECONDS = 3600  # keys are content digests: a copy is never wrong, only superseded
_COLUMNS = (
    "id",
    "hand_a__number",
    "hand_b__number",
    "hand_a__player__username",
    "hand_b__player__username",
    "points_a",
    "points_b",
    "status",
    "decided_note",
)


def respond(request, round_, now=None):
    """A page of the round's matches: 304 when the client's copy is current, else gzip or plain JSON."""
    state = table_reply.table_state(round_, now)  # before the page's parameters: a 404 before the reveal
    page = page_of(request, default=DEFAULT_LIMIT, maximum=MAX_LIMIT)
    digest = hashlib.blake2b(
        repr((REPLY_FORMAT, state.digest, page.offset, page.limit)).encode(), digest_size=16
    ).hexdigest()
    etag = f'W/"{digest}"'
    if table_reply.client_has(request, etag):
        return _headers(HttpResponseNotModified(), etag)
    total = table_reply.cached_or_built(
        f"scoring:matches-total:{state.digest}",
        lambda: matches_in_table(state.round_id).count(),
        CACHE_SECONDS,
        "matches total",
    )
    body = table_reply.cached_or_built(
        f"scoring:matches-page:{digest}:gzip",
        lambda: table_reply.compress([page_json(state.round_id, page)], "gzip"),
        CACHE_SECONDS,
        "matches page",
    )
    if "gzip" in table_reply.accepted_encodings(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(body)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(zlib.decompress(body, 16 + zlib.MAX_WBITS))
    response["Content-Type"] = "application/json"
    return with_page_headers(_headers(response, etag), request, page, total)


def _headers(response, etag):
    response["ETag"] = etag
    # Public and storable, but revalidated on every use: a page changes whenever a result does.
    response["Cache-Control"] = "public, no-cache"
    response["Vary"] = "Accept-Encoding"
    return mark_public(response)


def page_json(round_id: int, page) -> bytes:
    """The page's matches as the JSON text `MatchSerializer(many=True)` and DRF's renderer would write, in
    table order (lower entry number, then the other): one query, no model instance made."""
    rows = (
        matches_in_table(round_id)
        .order_by("hand_a__number", "hand_b__number")
        .values_list(*_COLUMNS)
    )
    items = [_item(*row) for row in page.of(rows)]
    return f"[{','.join(items)}]".encode()


def _item(match_id, a, b, player_a, player_b, points_a, points_b, status, note):
    text = table_reply.json_text
    return (
        f'{{"id":{match_id},"a":{a},"b":{b},"player_a":{text(player_a)},"player_b":{text(player_b)},'
        f'"points_a":{_number(points_a)},"points_b":{_number(points_b)},"status":{text(status)},'
        f'"decided_note":{text(note)}}}'
    )


def _number(value):
    return "null" if value is None else str(value)
