"""The Content-Security-Policy header (django-csp) and what it asks of the templates; the browser test
tests/e2e/test_csp.py loads every page under it."""

import re
from base64 import b64encode
from hashlib import sha256
from pathlib import Path

import pytest
from django.test import RequestFactory

from phm import views

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# Pages rendered without the request, self-contained on purpose (their CSS inline, allowed by its hash).
SELF_CONTAINED = {"_server_error_page.html"}  # the 500 and 503 pages: their CSS is allowed by its hash


def directives(response):
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/", "/api/docs/", "/api/rounds/"])
def test_pages_and_api_carry_the_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]


@pytest.mark.django_db
def test_api_docs_load_their_script_and_style_from_files(client):
    page = client.get("/api/docs/").content.decode()
    assert "<style" not in page
    assert re.findall(r"<script>", page) == []
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")


@pytest.mark.parametrize(
    "make_response",
    [
        lambda request: views.service_unavailable(request),
        lambda request: views.server_error(request),
    ],
    ids=["503", "500"],
)
def test_error_pages_allow_exactly_their_own_inline_css(make_response):
    from csp.middleware import CSPMiddleware

    request = RequestFactory().get("/somewhere/")
    response = CSPMiddleware(lambda request: make_response(request))(request)
    css = re.search(rb"<style>(.*?)</style>", response.content, re.DOTALL).group(1)
    digest = b64encode(sha256(css).digest()).decode()
    assert directives(response)["style-src"] == ["'self'", f"'sha256-{digest}'"]
    assert b"javascript:" not in response.content
    assert b"<script" not in response.content


def template_files():
    return sorted(
        path
        for path in TEMPLATES.rglob("*.html")
        if path.name not in SELF_CONTAINED and "email" not in path.parts
    )


@pytest.mark.parametrize("path", template_files(), ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_templates_have_no_inline_script_handler_or_style(path):
    text = path.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "inline <script>: move it to static/js/"
    assert not re.search(r"\son[a-z]+\s*=", text), "on…= handler: use a listener in static/js/"
    assert not re.search(r"\sstyle\s*=", text), "style attribute: use a class in static/css/phm.css"
    assert "<style" not in text, "<style> element: use static/css/phm.css"
    assert "javascript:" not in text
