"""The API answers as its OpenAPI schema says: schemathesis, run against the test server on the demo's site as a
moderator, a player and an anonymous visitor, with every check it has. A schema-valid request is never refused
(ST202) and a schema-violating one never accepted (ST201); no 5xx; every status is one the schema documents.

The runs are bounded: a fixed seed, a few examples per operation, and the coverage phase (every boundary and
wrong type of every field and parameter, about 3,000 requests and four minutes) only as the moderator, who gets
past the permission checks of every operation; the player and the visitor are fuzzed. The path parameters are
drawn mostly from the ids that exist, so requests reach the views' logic rather than 404s.
Which schema-valid requests may still be refused, and why, is written down in `schemathesis.toml` at the
project's root (the only such exceptions are facts a schema cannot state, such as "this card exists")."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from tests.conftest import skip_unless

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "schemathesis.toml"
SEED = 20261203
# Who runs: (phases, examples per operation in the fuzzing phase).
RUNS = {
    "moderator": ("examples,coverage,fuzzing", 12),
    "player": ("examples,fuzzing", 12),
    "anonymous": ("examples,fuzzing", 8),
}

# Path parameter -> the model whose ids it takes.
PATH_IDS = {
    "round_id": ("rounds", "Round"),
    "league_id": ("rounds", "League"),
    "match_id": ("scoring", "Match"),
    "hand_id": ("submissions", "Hand"),
    "challenge_id": ("scoring", "Challenge"),
    "award_id": ("scoring", "BonusAward"),
    "webhook_id": ("webhooks", "Webhook"),
    "card_id": ("rounds", "AcceptedCard"),
}


LIMITS = (
    "SIGN_UP_LIMIT_PER_ADDRESS",
    "PASSWORD_RESET_LIMIT_PER_ADDRESS",
    "PASSWORD_RESET_LIMIT_PER_EMAIL",
    "API_WRITE_LIMIT_PER_ACCOUNT",
    "API_WRITE_LIMIT_PER_ADDRESS",
)


def schemathesis_command():
    found = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or shutil.which(
        "schemathesis"
    )
    skip_unless(found, "schemathesis is not installed (pip install -e '.[dev]')")
    return found


def _ids(app_label, model_name):
    from django.apps import apps

    ids = list(apps.get_model(app_label, model_name).objects.order_by("pk").values_list("pk", flat=True))
    return ids or [1]


def _run_config(path):
    """The project's schemathesis.toml plus the ids of this database as dictionaries of path parameters."""
    lines = [CONFIG.read_text(), ""]
    for parameter, model in PATH_IDS.items():
        lines += [f"[dictionaries.{parameter}]", f"values = {_ids(*model)[:40]}", ""]
    lines.append("[parameters]")
    lines += [
        f'"path.{parameter}" = {{ dictionary = "{parameter}", probability = 0.9 }}' for parameter in PATH_IDS
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def demo_site(settings, db):
    # Request limits are tested on their own (tests/accounts/test_request_limits.py); here they would turn the
    # run's later writes into 429s and test nothing.
    for name in LIMITS:
        setattr(settings, name, None)
    call_command("seed_demo", "--force", stdout=open(os.devnull, "w"))  # noqa: SIM115


def _run(live_server, tmp_path, who, token=None):
    config = _run_config(tmp_path / f"schemathesis-{who}.toml")
    command = [
        schemathesis_command(),
        "--config-file",
        str(config),
        "run",
        f"{live_server.url}/api/schema/?format=json",
        "--url",
        live_server.url,
        "--checks",
        "all",
        "--max-examples",
        str(RUNS[who][1]),
        "--phases",
        RUNS[who][0],
        "--seed",
        str(SEED),
        "--workers",
        "1",
        "--request-timeout",
        "30",
        "--suppress-health-check",
        "all",
        "--no-color",
    ]
    if token:
        command += ["--header", f"Authorization: Token {token}"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False)
    report = tmp_path / f"schemathesis-{who}.log"
    report.write_text(done.stdout + done.stderr)
    assert done.returncode == 0, (
        f"schemathesis as {who} found problems (the whole report: {report}):\n{_failures(done.stdout)}"
    )


def _failures(report, width=400):
    """The report's failures, each line cut short: a fuzzed body can be a megabyte."""
    return "\n".join(line[:width] for line in report.splitlines() if line.strip())[-30000:]


@pytest.mark.parametrize("who", list(RUNS))
def test_the_api_answers_as_its_schema_says(live_server, demo_site, tmp_path, who):
    from django.contrib.auth import get_user_model

    usernames = {"moderator": "moderator", "player": "ashenvale"}
    token = None
    if who in usernames:
        user = get_user_model().objects.get(username=usernames[who])
        token = Token.objects.get_or_create(user=user)[0].key
    _run(live_server, tmp_path, who, token)
