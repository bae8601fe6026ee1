"""The parsers that read request input answer what they answered before, in time linear in the input: each
pattern that retried a run of spaces from every one of its positions (quadratic) is replaced, and here
compared with the pattern it replaced on random input; then the inputs that stalled them, at the size each
request allows, get their answer through the real endpoints."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from archive.forum.post_import.readers import read_names
from phm.text import clean_name
from rounds.card_rules import rules_from_text, text_line_problems
from rounds.catalog import names
from rounds.catalog.names import normalize_name
from scoring import table_reply
from scoring.forum_rows import _without_trailing_remark
from scoring.services import posted_rows

EXAMPLES = settings(max_examples=500, deadline=None)


def _text(pieces, max_size=16):
    """Text made of up to `max_size` of the `pieces` (characters or words)."""
    return st.lists(st.sampled_from(pieces), max_size=max_size).map("".join)


# The patterns replaced, as they were ---------------------------------------------------------------------------

OLD_SLASHES = re.compile(r"\s*/+\s*")
OLD_CODING = re.compile(r"^\s*([\w*-]+)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")
OLD_TRAILING_REMARK = re.compile(r"\s*\((?P<note>[^()\n]*[^\W\d_][^()\n]*)\)\s*$")
OLD_ROW_LIKE_START = re.compile(r"\s*\|?\s*[0-9]{1,3}\s*[.)]?\s*[|\t,]")
OLD_NAMES_SPLIT = re.compile(r"\s*(?:\n|\s/\s|;)\s*")
OLD_LINE = re.compile(
    r"^\s*(?:(?:at\s+least\s+(?P<least>\d+))?\s*,?\s*(?:at\s+most\s+(?P<most>\d+))?\s*:\s*)?(?P<query>.*?)"
    r"(?:\s+\|\s*(?P<message>.*))?\s*$",
    re.IGNORECASE,
)


def old_normalize_name(text):
    text = text.translate(names._KEY_TABLE)
    if not text.isascii():
        text = names._strip_combining(text).translate(names._KEY_TABLE)
    text = text.casefold()
    if "/" in text:
        text = OLD_SLASHES.sub(" // ", text)
    return " ".join(text.split())


def old_accepted_encodings(header):
    accepted = set()
    for part in header.split(","):
        found = OLD_CODING.match(part)
        if not found:
            continue
        name, quality = found.group(1).lower(), found.group(2)
        try:
            if quality is not None and float(quality) <= 0:
                continue
        except ValueError:
            continue
        accepted.update(table_reply.ENCODINGS if name == "*" else [name])
    return accepted


def old_without_trailing_remark(rest):
    match = OLD_TRAILING_REMARK.search(rest)
    if match is None:
        return rest, ""
    return rest[: match.start()], match["note"].strip()


def old_rules_from_text(text):
    rules = []
    for line in (text or "").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = OLD_LINE.match(line)
        least, most = match["least"], match["most"]
        if least is None and most is None:
            query, _, message = line.partition(" | ")
            rules.append({"query": query.strip(), "message": message.strip()})
            continue
        rule = {"query": match["query"], "message": (match["message"] or "").strip()}
        if least is not None:
            rule["at_least"] = int(least)
        if most is not None:
            rule["at_most"] = int(most)
        rules.append(rule)
    return rules


def old_line_problem(line):
    match = OLD_LINE.match(line)
    return (
        bool(re.match(r"^\s*at\s+(least|most)\b", line, re.I))
        and match["least"] is None
        and match["most"] is None
    )


SPACES = [" ", "\t", "\n", "\u00a0", "\u2003", "\x1c", "\x85"]


@EXAMPLES
@given(_text([*SPACES, "/", "a", "B", "é", "Æ", "\u2019"]))
def test_card_names_are_normalised_as_before(text):
    assert normalize_name(text) == old_normalize_name(text)


@EXAMPLES
@given(_text([*SPACES, "gzip", "br", "*", ";", "q", "=", "0", "1", ".", ",", "-", "é"]))
def test_accept_encoding_is_read_as_before(header):
    assert table_reply.accepted_encodings(header) == old_accepted_encodings(header)


@EXAMPLES
@given(_text([*SPACES, "(", ")", "a", "1", "_", "|", "é"]))
def test_a_rows_trailing_remark_is_found_as_before(rest):
    assert _without_trailing_remark(rest) == old_without_trailing_remark(rest)


@EXAMPLES
@given(_text([" ", "\t", "|", "1", "2", ".", ")", ",", "x"]))
def test_a_posted_line_looks_like_a_row_as_before(line):
    assert bool(posted_rows._ROW_LIKE_START.match(line)) == bool(OLD_ROW_LIKE_START.match(line))


@EXAMPLES
@given(_text([*SPACES, "/", ";", "a", "b"]))
def test_card_lists_are_split_as_before(value):
    assert read_names(value) == [name for name in map(clean_name, OLD_NAMES_SPLIT.split(value)) if name]


@EXAMPLES
@given(
    _text(
        [
            " ",
            "\t",
            "at",
            "AT",
            " least ",
            " most ",
            "least",
            "most",
            "1",
            "12",
            ",",
            ":",
            "|",
            "t:dragon",
            "x",
            "#",
        ],
        12,
    )
)
def test_card_rule_lines_are_read_as_before(line):
    assert rules_from_text(line) == old_rules_from_text(line)
    assert bool(text_line_problems(line)) == old_line_problem(line)


# The inputs that stalled them ----------------------------------------------------------------------------------

MB = 1024 * 1024


def test_the_stalling_inputs_are_read_at_the_size_a_request_allows():
    """Each took seconds to minutes before (4,000 spaces: 0.2-0.3 s, growing with the square of the size)."""
    assert normalize_name("/x" + " " * MB + "y") == "// x y"
    assert read_names("Black Lotus" + " " * MB + "x") == ["Black Lotus x"]
    assert rules_from_text("at least 1" + " " * MB + "x") == [
        {"query": "at least 1" + " " * MB + "x", "message": ""}
    ]
    assert rules_from_text("at least 1:" + " " * MB + "t:dragon" + " " * MB + "| Dragons") == [
        {"query": "t:dragon", "message": "Dragons", "at_least": 1}
    ]
    assert not posted_rows._looks_like_row("3" + " " * MB + "x Black Lotus")
    assert _without_trailing_remark(" " * MB + "(a") == (" " * MB + "(a", "")
    assert table_reply.accepted_encodings("gzip" + " " * MB + "x, br") == {"br"}


@pytest.mark.django_db
def test_a_long_accept_encoding_header_is_a_plain_answer(revealed_round, api_client):
    round_, _players = revealed_round(3)
    for path in ("table", "matches"):
        response = api_client.get(
            f"/api/rounds/{round_.pk}/{path}/", HTTP_ACCEPT_ENCODING="gzip" + " " * 8000 + "x"
        )
        assert response.status_code == 200 and "Content-Encoding" not in response


@pytest.mark.django_db
def test_posted_rows_with_a_line_of_spaces_are_answered(revealed_round, moderator, api_client):
    round_, _players = revealed_round(3)
    api_client.force_authenticate(moderator)
    text = "1 | " + " " * 99_000 + "(a"
    response = api_client.post(
        f"/api/rounds/{round_.pk}/posted-rows/", {"text": text, "dry_run": True}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["text"][0].startswith("No results row found")


@pytest.mark.django_db
def test_a_row_of_spaces_is_answered(revealed_round, api_client):
    round_, players = revealed_round(3)
    api_client.force_authenticate(players[0])
    response = api_client.post(
        f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X" + " " * 1990 + "(a"}, format="json"
    )
    assert response.status_code == 400 and "row" in response.json()


@pytest.mark.django_db
def test_an_archive_table_of_spaces_is_answered(league, moderator, api_client):
    api_client.force_authenticate(moderator)
    post = "Round 3: 1 Card Vintage\n\n1. alice - Lotus\nBlack Lotus\n\n2. bob - Ruby\nMox Ruby\n"
    table = "1 | X 6" + " " * 190_000 + "(a\n2 | 0 X\n"
    response = api_client.post(
        "/api/archive/preview/", {"league": league.pk, "post": post, "table": table}, format="json"
    )
    assert response.status_code in (200, 400)
    assert "table" in str(response.json())
