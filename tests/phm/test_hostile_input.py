"""The input guard (phm.input_guard) and the text helpers (phm.text): hostile requests get a clear 4xx in the
right format, never a 500; every API reply stays out of shared caches."""

import json

import pytest
from rest_framework.authtoken.models import Token

from phm.input_guard import MAX_JSON_DEPTH, json_too_deep
from phm.text import bbcode_text, clean_name, forbidden_character

pytestmark = pytest.mark.django_db

DEEP = "[" * 50_000


@pytest.fixture
def client(client):
    client.raise_request_exception = False  # a 500 is a status to assert on, not an exception
    return client


def test_nul_in_a_player_path_is_404_even_anonymously(client):
    response = client.get("/players/%00/")
    assert response.status_code == 404
    assert client.get("/api/rounds/%00/").status_code == 404


def test_nul_in_a_query_parameter_is_400_in_each_format(client):
    api = client.get("/api/cards/", {"q": "Black\x00Lotus"})
    assert api.status_code == 400
    assert api.json() == {
        "detail": "The field “q” contains a control character (U+0000 NUL), which is not allowed here. "
        "Remove it and try again.",
        "code": "invalid_characters",
    }
    page = client.get("/cards/", {"q": "\x00"})
    assert page.status_code == 400 and "U+0000 NUL" in page.content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/api/auth/token/",
        "/api/rounds/",
        "/api/leagues/",
        "/api/rounds/1/my-hand/",
        "/api/matches/1/reports/",
    ],
)
def test_deeply_nested_json_is_400_on_every_json_endpoint(client, moderator, path):
    client.force_login(moderator)
    method = client.put if path.endswith("my-hand/") else client.post
    response = method(path, DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "detail": f"JSON parse error - nested more than {MAX_JSON_DEPTH} levels deep.",
        "code": "too_deep",
    }


def test_the_token_endpoint_refuses_control_characters(client, player, password):
    response = client.post(
        "/api/auth/token/", {"username": "player\x00", "password": password}, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["code"] == "invalid_characters"
    form = client.post("/api/auth/token/", {"username": "player\x1b", "password": password})
    assert form.status_code == 400 and form.json()["code"] == "invalid_characters"


def test_a_lone_surrogate_escape_is_refused(client, player):
    client.force_login(player)
    response = client.put(
        "/api/rounds/1/my-hand/", '{"name": "\\ud800", "cards": []}', content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["code"] == "invalid_characters"


def test_json_depth_is_measured_without_decoding():
    assert json_too_deep(DEEP.encode())
    assert not json_too_deep(b'{"cards": ["a", "b"], "name": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert not json_too_deep(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH)
    assert json_too_deep(b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1))
    assert not json_too_deep(b'{"a": "\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\\"}')


def test_a_ten_megabyte_body_gets_the_api_error_format(client, player):
    client.force_login(player)
    response = client.put("/api/rounds/1/my-hand/", "x" * (10 * 1024 * 1024), content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {
        "detail": "The request is too large: at most 1 MB are accepted.",
        "code": "too_large",
    }
    assert "no-store" in response["Cache-Control"]


def test_a_ten_megabyte_form_gets_a_page(client, player):
    client.force_login(player)
    response = client.post("/hands/verify/", {"text": "x" * (10 * 1024 * 1024)})
    assert response.status_code == 413
    assert "too large" in response.content.decode()


def test_a_large_body_without_content_length_is_still_bounded():
    """A chunked body has no Content-Length for the middleware: the parsers bound it themselves."""
    import io

    from phm.input_guard import GuardedJSONParser, PayloadTooLarge

    with pytest.raises(PayloadTooLarge):
        GuardedJSONParser().parse(io.BytesIO(b'"' + b"x" * (2 * 1024 * 1024) + b'"'))


def test_options_on_the_api_docs_is_a_proper_answer(client):
    response = client.options("/api/docs/")
    assert response.status_code in (200, 405)
    assert "GET" in response["Allow"]
    assert client.options("/api/schema/").status_code == 200


def test_every_api_reply_is_no_store_and_private(client, player):
    token = Token.objects.create(user=player)
    replies = [
        client.get("/api/rounds/"),
        client.get("/api/cards/", {"q": "Lotus"}),
        client.get("/api/rounds/999/my-hand/", HTTP_AUTHORIZATION=f"Token {token.key}"),
        client.get("/api/no-such-thing/"),
        client.post("/api/auth/token/", {"username": "player", "password": "wrong"}),
    ]
    for response in replies:
        cache_control = response["Cache-Control"]
        assert "no-store" in cache_control and "private" in cache_control, response
    assert "no-store" not in client.get("/rules/").get("Cache-Control", "")  # public pages keep their caching


def test_clean_name_drops_invisible_and_control_characters():
    assert (
        clean_name("  A\u202eB\u200bC\u200c\u200d\u2060\ufeff\u2066D\u2069\u00ad \x1b\x07E\n\tF  ")
        == "ABCD E F"
    )
    assert clean_name("Café 名人 — Æther") == "Café 名人 — Æther"
    assert clean_name(None) == ""


def test_forbidden_characters_keep_lines_and_tabs():
    assert forbidden_character("line one\nline two\r\n\tindented") is None
    for char in ("\x00", "\x07", "\x1b", "\x7f", "\x85", "\ud800"):
        assert forbidden_character(f"a{char}b") == char


def test_bbcode_text_leaves_no_ascii_bracket():
    escaped = bbcode_text("[/code][url=http://evil.example]x[/url] [img]y[/img]")
    assert "[" not in escaped and "]" not in escaped
    assert (
        escaped
        == "\uff3b/code\uff3d\uff3burl=http://evil.example\uff3dx\uff3b/url\uff3d \uff3bimg\uff3dy\uff3b/img\uff3d"
    )
    assert json.dumps(bbcode_text(None)) == '""'


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/rules/"])
def test_a_host_the_site_does_not_answer_to_is_400_on_the_pages(client, path):
    response = client.get(path, HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "This site does not answer to that host name." in response.content.decode()


def test_a_host_the_site_does_not_answer_to_is_400_json_on_healthz_and_the_api(client):
    for path in ("/healthz", "/api/rounds/"):
        response = client.get(path, HTTP_HOST="evil.example")
        assert response.status_code == 400
        assert response.json() == {
            "detail": "This site does not answer to that host name.",
            "code": "bad_host",
        }


@pytest.mark.parametrize("number", ["1000000", "2147483648", "9" * 5000])
def test_a_league_named_with_a_number_too_large_is_400_naming_the_limit(client, moderator, number):
    client.force_login(moderator)
    response = client.post(
        "/api/leagues/", {"name": f"League {number}"[:100]}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "name": [
            "A league's number (the number in “League 45”) goes up to 999,999: choose a smaller number."
        ]
    }
    response = client.post("/api/leagues/", {"name": "League 999999"}, content_type="application/json")
    assert response.status_code == 201 and response.json()["number"] == 999_999
