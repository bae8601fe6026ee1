import os
import shutil

import pytest

from tests.conftest import skip_unless

# Playwright's sync API runs an event loop in the test thread; the ORM calls made by fixtures there are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    skip_unless(os.path.exists(CHROMIUM), "Chromium is not installed (Debian package `chromium`)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def vintage_round(moderator):
    """An open 5-card round of League 45 (moderated by `moderator`), due in two days."""
    from datetime import timedelta

    from django.utils import timezone

    from rounds.services import leagues as round_services
    from rounds.services import lifecycle as round_lifecycle

    now = timezone.now()
    league = round_services.create_league(actor=moderator, name="League 45", moderators=[moderator])
    return round_lifecycle.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title="5 Card Vintage",
        hand_size=5,
        deadline=now + timedelta(days=2),
    )
