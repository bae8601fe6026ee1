"""The JSON body guard (phm.json_scan, phm.input_guard.GuardedJSONParser) does a bounded number of linear passes
whatever the body holds, agrees with the decoder on depth and refused characters, and answers hostile bodies
through the real endpoints with the right 400."""

import gc
import io
import json
import math
import sys
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from phm import input_guard, json_scan
from phm.input_guard import GuardedJSONParser
from phm.json_scan import CHUNK, MAX_JSON_DEPTH, bad_value, json_too_deep, may_hold_refused, structure_of
from phm.text import forbidden_character
from tests import builders

MB = 1 << 20

# Bodies a hostile client sends, 1 MB each: the families of bench/json_guard.py.
ADVERSARIAL = {
    "escaped quotes, open string": b'"' + b'\\"' * (MB // 2),
    "escaped quotes and brackets, closed string": b'["' + b'\\"[' * (MB // 3) + b'"]',
    "backslash runs and brackets": b"[" + b'"\\\\\\\\\\\\\\"[",[],' * (MB // 16) + b"[]]",
    "deep brackets": b"[" * MB,
    "shallow brackets": b"[" + b"[]," * (MB // 3) + b"[]]",
    "brackets inside a string": b'["' + b"[{" * (MB // 2) + b'"]',
    "many short strings": b"[" + b'"[",' * (MB // 4) + b'""]',
}

# What the depth measure may call: C passes over the whole body, then numpy over chunks of it.
WHOLE_BODY_PASSES = {"bytes.count", "bytes.replace", "bytes.translate", "frombuffer", "len"}


def _calls(function, *args):
    """Counter of the functions (Python and C) that `function(*args)` calls, by qualified name."""
    calls = Counter()

    def profile(frame, event, arg):
        if event == "c_call":
            calls[getattr(arg, "__qualname__", repr(arg))] += 1
        elif event == "call":
            calls[frame.f_code.co_qualname] += 1

    sys.setprofile(profile)
    try:
        function(*args)
    finally:
        sys.setprofile(None)
    calls.pop("setprofile", None)
    return calls


@pytest.mark.parametrize("family", list(ADVERSARIAL))
def test_the_depth_measure_makes_a_bounded_number_of_passes_over_a_megabyte(family):
    body = ADVERSARIAL[family]
    calls = _calls(json_too_deep, body)
    assert not [name for name in calls if name.startswith(("Pattern.", "re."))], (
        calls
    )  # no regular expression
    per_chunk = {name: count for name, count in calls.items() if name not in WHOLE_BODY_PASSES}
    chunks = math.ceil(len(structure_of(body)) / CHUNK)
    # Each chunk costs the same handful of numpy calls; the whole body a few C passes. Nothing else.
    assert sum(count for name, count in calls.items() if name in WHOLE_BODY_PASSES) <= 7
    assert max(per_chunk.values()) <= max(chunks, 1) + 1, per_chunk
    assert sum(per_chunk.values()) <= 12 * max(chunks, 1) + 4, per_chunk


def test_the_passes_grow_with_the_size_not_with_what_the_body_holds():
    small = _calls(json_too_deep, b"[" + b'"\\"[",' * 2_000 + b"[]]")
    large = _calls(json_too_deep, b"[" + b'"\\"[",' * 200_000 + b"[]]")  # 100 times larger
    assert set(large) == set(small)
    chunks = math.ceil(len(structure_of(b"[" + b'"\\"[",' * 200_000 + b"[]]")) / CHUNK)
    assert large["ufunc.accumulate"] == chunks and small["ufunc.accumulate"] == 1


def test_a_short_body_is_measured_by_counting_its_brackets():
    calls = _calls(json_too_deep, b'{"name": "[[[", "cards": ["Black Lotus", "Mox Pearl"]}')
    assert set(calls) == {"json_too_deep", "bytes.count"}


def _depth(value):
    if isinstance(value, dict):
        return 1 + max((_depth(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(item) for item in value), default=0)
    return 0


TRICKY_TEXT = st.text(alphabet=st.sampled_from('[]{}"\\/ab\n\u00e9\U0001f600'), max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.integers() | TRICKY_TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TRICKY_TEXT, children, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON_VALUES, limit=st.integers(min_value=0, max_value=6), ascii_only=st.booleans())
def test_the_depth_measure_agrees_with_the_decoded_depth(value, limit, ascii_only):
    raw = json.dumps(value, ensure_ascii=ascii_only).encode()
    assert json_too_deep(raw, limit) == (_depth(value) > limit)


def test_the_depth_measure_carries_strings_and_depth_across_chunks():
    # A string that opens in one chunk and closes in the next, with brackets inside; then real depth.
    inside = b"[" * (CHUNK + 5)
    body = b'["' + inside + b'", ' + b"[" * (MAX_JSON_DEPTH - 1) + b"]" * MAX_JSON_DEPTH
    assert not json_too_deep(body)
    assert json_too_deep(b'["' + inside + b'", ' + b"[" * MAX_JSON_DEPTH + b"]" * (MAX_JSON_DEPTH + 1))
    assert not json_too_deep(b"[]" * CHUNK)
    assert json_too_deep(b"[]" * CHUNK + b"[" * (MAX_JSON_DEPTH + 1))


def test_brackets_of_a_string_left_open_do_not_count():
    assert not json_too_deep(b'["' + b"[" * 100)
    assert not json_too_deep(b'"' + b'\\"[' * 100)


# Refused characters ------------------------------------------------------------------------------------------

ANY_TEXT = st.text(alphabet=st.characters(max_codepoint=0x10FFFF), max_size=8)
REFUSED_OR_NOT = st.text(
    alphabet=st.sampled_from(
        [
            "a",
            "\\",
            '"',
            "\x00",
            "\x08",
            "\t",
            "\n",
            "\x7f",
            "\x85",
            "\u00e9",
            "\ud800",
            "\udc00",
            "\U0001f600",
            "\u2028",
        ]
    ),
    max_size=8,
)
DATA = st.recursive(
    st.none() | st.integers() | ANY_TEXT | REFUSED_OR_NOT,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(ANY_TEXT | REFUSED_OR_NOT, children, max_size=3)
    ),
    max_leaves=20,
)


def _walked(value, path=""):
    """The reference: every string of the data, walked one by one."""
    if isinstance(value, str):
        return forbidden_character(value) is not None
    if isinstance(value, dict):
        return any(forbidden_character(key) or _walked(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_walked(item) for item in value)
    return False


@settings(max_examples=400, deadline=None)
@given(data=DATA, ascii_only=st.booleans())
def test_the_text_says_exactly_whether_the_data_holds_a_refused_character(data, ascii_only):
    text = json.dumps(data, ensure_ascii=ascii_only)
    refused = _walked(json.loads(text))
    assert may_hold_refused(text) == refused
    found = bad_value(json.loads(text))
    assert (found is not None) == refused
    if found:
        assert forbidden_character(found[1]) == found[1]


def test_the_field_is_named():
    assert bad_value({"name": "ok", "cards": ["Black Lotus", "Mox\x00"]}) == ("cards[1]", "\x00")
    assert bad_value({"decisions": {"colour": "red\x7f"}}) == ("decisions.colour", "\x7f")
    assert bad_value([{"a\x1b": 1}]) == ("[0].a\x1b", "\x1b")
    assert bad_value("\x85") == ("", "\x85")
    assert bad_value({"cards": [[], {}, 1, None, "x"]}) is None


def test_paired_surrogate_escapes_are_a_character_and_lone_ones_are_refused():
    assert not may_hold_refused('{"name": "\\ud83d\\ude00 \\u00e9 \\n \\t \\\\u0000 \\\\b"}')
    for text in (
        '"\\ud83d"',
        '"\\ude00"',
        '"\\ud83d\\ud83d\\ude00"',
        '"\\ud83d\\\\\\ude00"',
        '"\\u001f"',
        '"\\b"',
        '"\\u007F"',
        '"\\u0085"',
        '"\\\\\\u0000"',
    ):
        assert may_hold_refused(text), text
        assert bad_value(json.loads(text)) is not None, text


def test_a_clean_megabyte_is_not_walked(monkeypatch):
    walked = []
    monkeypatch.setattr(input_guard, "bad_value", lambda data: walked.append(1))
    body = b"[" + b'{"name": "Caf\\u00e9 \\ud83d\\ude00", "cards": ["Black Lotus"]},' * 15_000 + b"[]]"
    assert len(GuardedJSONParser().parse(io.BytesIO(body))) == 15_001
    assert walked == []


# The parser ------------------------------------------------------------------------------------------------


def test_the_decoder_recursing_too_deep_is_the_same_400(monkeypatch):
    from rest_framework.exceptions import ParseError

    monkeypatch.setattr(input_guard, "json_too_deep", lambda raw: False)  # as if the measure missed it
    with pytest.raises(ParseError) as refused:
        GuardedJSONParser().parse(io.BytesIO(b"[" * 100_000 + b"]" * 100_000))
    assert refused.value.get_codes() == "too_deep"


def test_a_utf16_body_is_measured_as_text():
    from rest_framework.exceptions import ParseError

    context = {"encoding": "utf-16"}
    hand = {"name": "\u00c6ther [[[[", "cards": ["Black Lotus"]}
    assert GuardedJSONParser().parse(io.BytesIO(json.dumps(hand).encode("utf-16")), None, context) == hand
    with pytest.raises(ParseError) as refused:
        GuardedJSONParser().parse(io.BytesIO(("[" * 40 + "]" * 40).encode("utf-16")), None, context)
    assert refused.value.get_codes() == "too_deep"


def test_the_garbage_collector_is_left_as_it_was():
    assert gc.isenabled()
    GuardedJSONParser().parse(io.BytesIO(b"[[], [], {}]"))
    assert gc.isenabled()
    gc.disable()
    try:
        GuardedJSONParser().parse(io.BytesIO(b"[[], [], {}]"))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_json_scan_is_what_the_guard_uses():
    assert input_guard.json_too_deep is json_scan.json_too_deep
    assert input_guard.MAX_JSON_DEPTH == MAX_JSON_DEPTH


# Through the endpoints ---------------------------------------------------------------------------------------

QUADRATIC = b'"' + b'\\"' * 100_000  # 200 KB: the old guard's regular expression took minutes on it


@pytest.fixture
def client(client):
    client.raise_request_exception = False
    return client


@pytest.mark.django_db
def test_the_old_quadratic_body_is_a_quick_400_at_the_token_endpoint(client):
    response = client.post("/api/auth/token/", QUADRATIC, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert "Unterminated string" in response.json()["detail"]


@pytest.mark.django_db
def test_a_closed_string_of_escaped_quotes_reaches_the_view(client, league, player):

    now = timezone.now()
    round_ = builders.open_round(
        league=league,
        actor=league.moderators.first(),
        now=now,
        title="Quotes",
        hand_size=1,
        deadline=now + timedelta(days=1),
    )
    client.force_login(player)
    body = b'{"name": "' + b'\\"' * 100_000 + b'", "cards": ["Black Lotus"], "attest": true}'
    response = client.put(f"/api/rounds/{round_.pk}/my-hand/", body, content_type="application/json")
    assert response.status_code == 400
    assert "name" in response.json()


@pytest.mark.django_db
@pytest.mark.parametrize("family", ["shallow brackets", "many short strings", "backslash runs and brackets"])
def test_a_megabyte_of_adversarial_json_gets_its_answer(client, family):
    body = ADVERSARIAL[family][: 1000 * 1000 - 8]
    body = body[: body.rfind(b",")] + b"]" if body.startswith(b"[") else body
    response = client.post("/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    # Decoded, then refused by the view: a list is not a username and password.
    assert response.json() == {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}
