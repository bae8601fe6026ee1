"""The documents say only what is so: README.md and docs/*.md link only to files of the project, name paths that
exist and URLs the site serves, show images that exist (and that the screenshot test makes), and the API guide's
walkthrough and the webhook signature check work as written."""

import hashlib
import hmac
import json
import re
import shutil
import subprocess
import time
from datetime import timedelta

import pytest
from django.urls import URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.utils import timezone

from accounts.services import register_player
from rounds.forms import LeagueForm
from rounds.services import leagues as round_services
from rounds.services import lifecycle as round_lifecycle
from scoring.moderation_views import FINALIZE_CONFIRMATION
from tests.conftest import skip_unless

from .markdown_docs import (
    DOCUMENTS,
    ROOT,
    anchors,
    code_blocks,
    inline_code,
    links,
    prose_lines,
    relative,
    section,
    split_fences,
)

GUIDES = ROOT / "docs"
SCREENSHOT_TEST = ROOT / "tests" / "e2e" / "test_guide_screenshots.py"
OUTSIDE_THE_PROJECT = ("../shared", "/work/", "shared/reference", "shared/DESIGN", "shared/API")
# Absolute paths that are files inside a container or on a server, not URLs of the site.
FILE_SYSTEM_PREFIXES = ("/app/", "/tmp/", "/backups", "/var/", "/srv/", "/dev/", "/etc/", "/usr/")
# File names worth checking when a document names one without its folder.
CHECKED_EXTENSIONS = {".py", ".md", ".txt", ".yml", ".yaml", ".toml", ".lark", ".html", ".js", ".css", ".cfg"}
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
SKIPPED_DIRECTORIES = {".venv", ".git", "node_modules", "staticfiles", "__pycache__"}


def ids(paths):
    return [relative(path) for path in paths]


def test_there_are_four_guides():
    assert {path.name for path in GUIDES.glob("*.md")} >= {
        "players.md",
        "moderators.md",
        "api.md",
        "operations.md",
    }


@pytest.mark.parametrize("document", DOCUMENTS, ids=ids(DOCUMENTS))
def test_relative_links_lead_to_files_of_the_project_and_their_headings(document):
    problems = []
    for link in links(document):
        if re.match(r"[a-z]+:", link.target):  # https:, mailto:
            continue
        path_part, _, anchor = link.target.partition("#")
        target = (document.parent / path_part).resolve() if path_part else document
        if ROOT not in target.parents and target != ROOT:
            problems.append(f"line {link.line}: {link.target} leads out of the project")
        elif not target.exists():
            problems.append(f"line {link.line}: {link.target} does not exist")
        elif anchor and target.suffix == ".md" and anchor not in anchors(target):
            problems.append(f"line {link.line}: {relative(target)} has no heading #{anchor}")
    assert not problems, "\n".join(problems)


def test_nothing_points_outside_the_project():
    offenders = [
        f"{relative(path)} names {marker}"
        for path in [*DOCUMENTS, *sorted((ROOT / "templates").rglob("*.html"))]
        for marker in OUTSIDE_THE_PROJECT
        if marker in path.read_text()
    ]
    assert not offenders, "files that are not part of the project:\n" + "\n".join(offenders)


def _repository_files():
    return [
        path
        for path in ROOT.rglob("*")
        if path.is_file() and not SKIPPED_DIRECTORIES & set(path.relative_to(ROOT).parts)
    ]


def _named_paths(document):
    """Inline code that names a path of the repository: `rounds/data/phm-rules.txt`, `tests/e2e`, `grammar.lark`."""
    top_level = {path.name for path in ROOT.iterdir()}
    for number, code in inline_code(document):
        if re.search(r"\s|://|[<>{}…*$~]|^[-/.]{1,2}$", code) or code.startswith(("/", "-")):
            continue
        candidate = code.rstrip("/").removeprefix("./")
        first = candidate.split("/", 1)[0]
        if "/" in candidate and first in top_level:
            yield number, candidate, "path"
        elif "/" not in candidate and any(candidate.endswith(ext) for ext in CHECKED_EXTENSIONS):
            yield number, candidate, "name"


@pytest.mark.parametrize("document", DOCUMENTS, ids=ids(DOCUMENTS))
def test_every_repository_path_named_exists(document):
    names = {path.name for path in _repository_files()}
    missing = []
    for number, candidate, kind in _named_paths(document):
        exists = (
            (ROOT / candidate).exists()
            if kind == "path"
            else candidate in names or (ROOT / candidate).exists()
        )
        if not exists:
            missing.append(f"line {number}: `{candidate}`")
    assert not missing, f"{relative(document)} names what the project does not have:\n" + "\n".join(missing)


def _site_paths(document):
    """URL paths the document names: in inline code (`/rounds/<id>/results/`, `GET /api/rounds/<id>/`) and in
    the curl examples ("$PHM/api/rounds/$ROUND/")."""
    for number, code in inline_code(document):
        code = re.sub(r"<[^<>]+>|\{[^{}]+\}", "1", code)
        for word in code.split():
            word = word.strip(",;()")
            if (
                word.startswith("/")
                and re.search(r"\w", word)  # not the "//" of a split card's name
                and not word.startswith(FILE_SYSTEM_PREFIXES)
                and not re.search(r"[…|*]", word)
            ):
                yield number, word
    for block in code_blocks(document):
        for match in re.finditer(r"\$PHM(/[^\"'\s]*)", block.text):
            yield block.line, match.group(1).replace("$ROUND", "1")


def _url_patterns(resolver=None, prefix=""):
    """Every URL pattern of the site as text, e.g. "api/rounds/<int:round_id>/"."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _url_patterns(pattern, text)
        else:
            yield text


def _served(path):
    """The site serves this path, or it is the prefix of paths it serves (`/api/`)."""
    try:
        resolve(path)
    except Resolver404:
        return path.endswith("/") and any(pattern.startswith(path[1:]) for pattern in _url_patterns())
    return True


@pytest.mark.parametrize("document", DOCUMENTS, ids=ids(DOCUMENTS))
def test_every_url_path_named_is_served(document):
    unknown = [
        f"line {number}: {path}"
        for number, path in _site_paths(document)
        if not _served(re.split(r"[?#]", path, maxsplit=1)[0])
    ]
    assert not unknown, f"{relative(document)} names URLs the site does not serve:\n" + "\n".join(unknown)


def test_every_image_exists_is_used_and_is_made_by_the_screenshot_test():
    shown = {}
    for document in DOCUMENTS:
        for link in links(document):
            if link.image:
                assert link.text.strip(), f"{relative(document)} line {link.line}: an image needs alt text"
                shown[(document.parent / link.target).resolve()] = f"{relative(document)} line {link.line}"
    missing = [f"{where}: {relative(path)}" for path, where in shown.items() if not path.exists()]
    assert not missing, "images that do not exist:\n" + "\n".join(missing)
    unused = sorted(relative(path) for path in (GUIDES / "img").glob("*") if path.resolve() not in shown)
    assert not unused, f"images no document shows: {unused}"
    screenshot_test = SCREENSHOT_TEST.read_text()
    not_made = sorted(
        relative(path)
        for path in shown
        if path.parent == GUIDES / "img" and f'"{path.stem}"' not in screenshot_test
    )
    assert not not_made, f"images the screenshot test does not make: {not_made}"


def test_the_guides_link_to_the_rules_shipped_with_the_app():
    for name in ("README.md", "docs/players.md", "docs/moderators.md"):
        document = ROOT / name
        targets = {(document.parent / link.target).resolve() for link in links(document)}
        assert ROOT / "rounds" / "data" / "phm-rules.txt" in targets, name
        assert "/rules/" in document.read_text(), name


def test_the_readme_links_every_guide():
    targets = {link.target for link in links(ROOT / "README.md")}
    assert {"docs/players.md", "docs/moderators.md", "docs/api.md", "docs/operations.md"} <= targets


# The API guide's walkthrough, run against a real round --------------------------------------------------------


def walkthrough_steps():
    """[(method, path, body or None, with token, status, shown answer)] from the walkthrough's curl commands, each
    followed by `→ \\`status\\`` and a JSON block."""
    text = section(GUIDES / "api.md", "Walkthrough: submit a hand")
    steps, pending, status = [], None, None
    in_code, language, block = False, "", []
    for line in text.splitlines():
        if line.strip().startswith("```"):
            if not in_code:
                in_code, language, block = True, line.strip()[3:], []
                continue
            in_code = False
            code = "\n".join(block)
            if language == "sh":
                pending, status = code, None
            elif language == "json" and pending is not None:
                steps.append((*_curl(pending), status, json.loads(code)))
                pending = None
            continue
        if in_code:
            block.append(line)
        elif match := re.match(r"→ `(\d{3})`", line.strip()):
            status = int(match.group(1))
    return steps


def _curl(command):
    method = re.search(r"-X\s+([A-Z]+)", command)
    path = re.search(r"\"\$PHM(/[^\"]+)\"", command).group(1)
    body = re.search(r"-d\s+'([^']*)'", command)
    return (
        method.group(1) if method else "GET",
        path,
        json.loads(body.group(1)) if body else None,
        "$TOKEN" in command,
    )


# Values that differ from one run to the next: the doc shows an example of them.
VOLATILE = {"token", "id", "round", "commitment", "submitted_at", "deadline", "created_at"}


def assert_shown_in(shown, actual, where="answer"):
    """Everything the guide shows is in the real answer, with the same value unless it is volatile."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        for key, value in shown.items():
            assert key in actual, f"{where}: no {key!r} in {sorted(actual)}"
            if key not in VOLATILE:
                assert_shown_in(value, actual[key], f"{where}.{key}")
    elif isinstance(shown, list) and shown and isinstance(shown[0], dict):
        assert len(actual) == len(shown), f"{where}: {len(actual)} items, the guide shows {len(shown)}"
        for index, (item, real) in enumerate(zip(shown, actual, strict=True)):
            assert_shown_in(item, real, f"{where}[{index}]")
    else:
        assert shown == actual, f"{where}: the guide shows {shown!r}, the API answers {actual!r}"


@pytest.mark.django_db
def test_the_api_walkthrough_works_as_written(api_client, moderator):
    steps = walkthrough_steps()
    assert [(method, status) for method, _, _, _, status, _ in steps] == [
        ("POST", 200),
        ("GET", 200),
        ("PUT", 400),
        ("PUT", 201),
        ("GET", 200),
    ]
    player = register_player(
        username="whamme", password="correct-horse-battery-staple", forum_username="WhammeWhamme"
    )
    assert player.check_password("correct-horse-battery-staple")
    league = round_services.create_league(actor=moderator, name="League 44", moderators=[moderator])
    now = timezone.now()
    round_ = round_lifecycle.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title="4 Card Vintage",
        hand_size=4,
        deadline=now + timedelta(days=6),
    )
    token = None
    for method, path, body, with_token, status, shown in steps:
        headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if with_token else {}
        url = path.replace("$ROUND", str(round_.pk))
        response = api_client.generic(
            method,
            url,
            json.dumps(body) if body is not None else "",
            content_type="application/json",
            **headers,
        )
        assert response.status_code == status, (method, url, response.content)
        assert_shown_in(shown, response.json(), f"{method} {path}")
        token = response.json().get("token", token)
    assert round_.hands.get().versions.get(is_current=True).cards == [
        "Goblin Guide",
        "Lightning Bolt",
        "Fireblast",
        "Mountain",
    ]


# The moderator guide's webhook signature check ------------------------------------------------------------------


def _signature_example(language):
    text = section(GUIDES / "moderators.md", "Verifying a JSON webhook's signature")
    blocks = split_fences(text)[1]
    return next(block.text for block in blocks if block.language == language)


def test_the_guides_signature_check_accepts_what_the_site_sends_and_nothing_else():
    from webhooks.services import signature

    namespace = {}
    exec(_signature_example("python"), namespace)  # noqa: S102 - the guide's own example
    verify = namespace["verify_phm_signature"]
    secret, body = "s3cret-of-the-webhook", json.dumps({"event": "test", "message": "héllo"}).encode()
    timestamp = str(int(time.time()))
    headers = {"X-PHM-Timestamp": timestamp, "X-PHM-Signature": signature(secret, timestamp, body)}
    assert verify(secret, headers, body)
    assert not verify("another secret", headers, body)
    assert not verify(secret, headers, body + b" ")
    old = str(int(time.time()) - 3600)
    assert not verify(secret, {"X-PHM-Timestamp": old, "X-PHM-Signature": signature(secret, old, body)}, body)


def test_the_guides_openssl_line_computes_the_same_signature(tmp_path):
    from webhooks.services import signature

    skip_unless(shutil.which("openssl"), "openssl is not installed")
    secret, body, timestamp = "s3cret-of-the-webhook", b'{"event":"test"}', "1767225600"
    (tmp_path / "body.json").write_bytes(body)
    result = subprocess.run(
        ["/bin/sh", "-c", _signature_example("sh")],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "TIMESTAMP": timestamp, "SECRET": secret},
        capture_output=True,
        text=True,
        check=True,
    )
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    assert signature(secret, timestamp, body) == f"sha256={expected}"
    assert result.stdout.strip().endswith(expected), result.stdout


def test_prose_is_read_outside_code_blocks():
    """The checks above read prose and code apart: a `#` comment in a shell block is no heading."""
    operations = GUIDES / "operations.md"
    assert all(not line.startswith("# then restart") for _, line in prose_lines(operations))
    assert "scaling-web-and-workers" in anchors(operations)


def _guide_table_fields(text):
    """The first column of every row of the Markdown tables in `text`, header and rule rows left out."""
    rows = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")]
    return [row for row in rows if row and row != "field" and not set(row) <= {"-", " "}]


def test_the_new_league_table_of_the_moderators_guide_names_the_forms_fields_as_the_form_labels_them():
    labels = [str(field.label or name.replace("_", " ").capitalize()) for name, field in LeagueForm().fields.items()]
    guide = _guide_table_fields(section(GUIDES / "moderators.md", "2. Create a league"))
    assert guide == labels


def test_the_guides_quote_the_finalize_confirmation_as_the_page_asks_for_it():
    assert f"**{FINALIZE_CONFIRMATION}**" in section(GUIDES / "moderators.md", "8. Finalize and reopen")


def test_the_readme_says_how_to_serve_on_another_port():
    readme = (ROOT / "README.md").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert "make run PORT=" in readme and "make demo PORT=" in readme
    assert re.search(r"^PORT \?= 8000$", makefile, re.M) and "runserver $(HOST):$(PORT)" in makefile
