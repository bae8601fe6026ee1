"""Every page of the site under its Content-Security-Policy, in Chromium: anonymous, as a player and as a
moderator. Any CSP violation (a console message or a `securitypolicyviolation` event) or page error fails."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from rounds.models import Card
from scoring import services as scoring_services
from tests import builders
from tests.e2e.test_moderator_opens_round import log_in
from tests.scoring.conftest import make_players, match_between, revealed_round  # noqa: F401
from tests.submissions.conftest import KJELD, catalog_index  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.phmCspViolation(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} `
    + `at ${event.sourceFile || document.location.href}:${event.lineNumber}`);
});
"""


class Watch:
    """Collects what went wrong on the page, page after page."""

    def __init__(self, page):
        self.page = page
        self.problems = []
        self.current = ""
        page.expose_function("phmCspViolation", lambda text: self.problems.append(f"{self.current}: {text}"))
        page.add_init_script(REPORT_VIOLATIONS)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"{self.current}: page error {error}"))

    def _console(self, message):
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text or "Refused to" in text:
            self.problems.append(f"{self.current}: console {message.type}: {text}")

    def visit(self, url, *, expect_status=200):
        self.current = url
        response = self.page.goto(url)
        assert response.status == expect_status, (url, response.status)
        policy = response.headers.get("content-security-policy", "")
        assert "default-src 'self'" in policy, (url, policy)
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, (url, policy)
        self.page.wait_for_load_state("load")
        return response

    def settle(self):
        """Give scripts and late violation reports a moment, then fail on anything seen so far."""
        self.page.wait_for_timeout(150)
        assert self.problems == [], "\n".join(self.problems)


@pytest.fixture
def watch(page):
    return Watch(page)


@pytest.fixture
def site(league, moderator, player, revealed_round, password):  # noqa: F811
    """A revealed round with a result reported, and an open round with the player's hand."""
    round_, players = revealed_round(4)
    now = timezone.now()
    open_round = builders.open_round(
        league=league,
        actor=moderator,
        now=now,
        title="5 Card Vintage",
        hand_size=5,
        deadline=now + timedelta(days=2),
    )
    builders.submit(player, open_round, KJELD, name="Kjeld")
    scoring_services.report_row(player=players[0], round_id=round_.pk, row="1 | X 6 4 2")
    card = Card.objects.filter(name="Black Lotus").first() or Card.objects.first()
    return {
        "open": open_round,
        "revealed": round_,
        "players": players,
        "match": match_between(round_, 1, 2),
        "card": card,
    }


def test_every_public_page_passes_the_csp(live_server, page, watch, site, player):
    base = live_server.url
    open_round, revealed = site["open"], site["revealed"]
    for path in [
        "/",
        "/rounds/",
        f"/rounds/{open_round.pk}/",
        f"/rounds/{revealed.pk}/",
        "/rules/",
        "/banned-lists/",
        "/cards/",
        f"/cards/{site['card'].slug}/",
        "/hands/verify/",
        f"/rounds/{revealed.pk}/results/",
        f"/matches/{site['match'].pk}/",
        "/leagues/",
        f"/leagues/{revealed.league_id}/",
        f"/players/{site['players'][0].username}/",
        "/cards/most-played/",
        "/accounts/login/",
        "/accounts/sign-up/",
        "/accounts/password/reset/",
    ]:
        watch.visit(base + path)
        watch.settle()

    watch.visit(base + "/no-such-page/", expect_status=404)
    watch.settle()

    # The card search's suggestions come in through htmx.
    watch.visit(base + "/cards/")
    page.get_by_role("combobox", name="Card name or query").fill("Black Lot")
    expect(page.locator("#card-suggestions [data-card-url]").first).to_be_visible()
    watch.settle()

    # The round page checks a commitment in the browser (verify.js).
    watch.visit(base + "/hands/verify/")
    page.locator("#verify-text").fill("some text")
    page.locator("#verify-commitment").fill("0" * 64)
    page.locator("#verify-form button").click()
    page.wait_for_load_state("load")
    watch.settle()

    # Password reset: the form, the confirmation, and the link's page.
    watch.visit(base + "/accounts/password/reset/")
    page.locator("input[name=email]").fill("nobody@example.com")
    page.locator("form button[type=submit]").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    watch.settle()
    uid = urlsafe_base64_encode(force_bytes(player.pk))
    token = default_token_generator.make_token(player)
    watch.visit(f"{base}/accounts/password/reset/{uid}/{token}/")
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    watch.settle()
    watch.visit(base + "/accounts/password/reset/complete/")
    watch.settle()

    # The API docs: Swagger UI, its files and the schema from the site itself.
    watch.visit(base + "/api/docs/")
    expect(page.locator("#swagger-ui .info .title")).to_contain_text("PHM Moderator API")
    page.locator("#swagger-ui .opblock-summary").first.click()
    watch.settle()


def test_every_player_page_passes_the_csp(live_server, page, watch, site, player, password):
    base = live_server.url
    open_round = site["open"]
    log_in(page, live_server, "player", password)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    for path in [
        "/",
        f"/rounds/{open_round.pk}/",
        f"/rounds/{open_round.pk}/my-hand/versions/1/",
        "/accounts/profile/",
        "/accounts/password/",
        f"/players/{player.username}/",
    ]:
        watch.visit(base + path)
        watch.settle()

    # The hand form: typing asks for suggestions, leaving a field checks the card (htmx both).
    watch.visit(f"{base}/rounds/{open_round.pk}/my-hand/")
    first_card = page.locator("input[role=combobox]").first
    first_card.fill("Black Lot")
    expect(page.locator("#suggest-1 *").first).to_be_visible()
    first_card.press("Tab")
    page.wait_for_timeout(400)
    watch.settle()

    # The match page of a revealed round, as one of its players.
    page.context.clear_cookies()
    log_in(page, live_server, site["players"][0].username, password)
    watch.visit(f"{base}/matches/{site['match'].pk}/")
    watch.settle()


def test_every_moderator_page_passes_the_csp(live_server, page, watch, site, moderator, password):
    base = live_server.url
    open_round, revealed = site["open"], site["revealed"]
    log_in(page, live_server, "mod", password)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    for path in [
        "/",  # My PHM with the moderator's to-do list
        "/moderate/",
        "/moderate/leagues/new/",
        "/moderate/rounds/new/",
        f"/moderate/rounds/{open_round.pk}/",
        f"/moderate/rounds/{open_round.pk}/edit/",
        f"/moderate/rounds/{open_round.pk}/hands/",
        f"/moderate/rounds/{revealed.pk}/",
        f"/moderate/rounds/{revealed.pk}/results/",
        "/moderate/archive/import/",
        f"/leagues/{revealed.league_id}/",
        f"/rounds/{revealed.pk}/results/",
    ]:
        watch.visit(base + path)
        watch.settle()

    # The round form: the backbuild toggle and the extra-ban suggestions (round_form.js, htmx).
    watch.visit(base + "/moderate/rounds/new/")
    page.locator("#ban-search").fill("Black Lot")
    expect(page.locator("#ban-suggestions [data-card-name]").first).to_be_visible()
    page.locator("#ban-suggestions [data-card-name]").first.click()
    expect(page.locator("#id_extra_banned")).to_have_value(re.compile("Black Lotus"))
    watch.settle()

    # A confirmation asked by confirm.js (no inline onsubmit), declined: nothing happens.
    watch.visit(f"{base}/moderate/rounds/{open_round.pk}/hands/")
    confirm_form = page.locator("form[data-confirm]").first
    if confirm_form.count():
        page.once("dialog", lambda dialog: dialog.dismiss())
        confirm_form.locator("button[type=submit], button:not([type])").first.click()
        expect(page).to_have_url(re.compile(rf"/moderate/rounds/{open_round.pk}/hands/"))
    watch.settle()


def test_admin_and_lockout_pages_pass_the_csp(live_server, page, watch, make_user, password, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    boss = make_user("boss", forum_username="Boss")
    boss.set_password(password)
    boss.is_staff = boss.is_superuser = True
    boss.save()
    base = live_server.url

    # Five wrong passwords on the site's login page: the lockout page, with its message.
    for _ in range(5):
        watch.visit(base + "/accounts/login/")
        page.locator("input[name=username]").fill("boss")
        page.locator("input[name=password]").fill("wrong")
        page.locator("form button[type=submit]").click()
        page.wait_for_load_state("load")
    expect(page.locator("#lockout-message")).to_contain_text("try again in 15 minutes")
    watch.settle()

    # The admin, from another address's point of view: the lock is per (username, address) only.
    from axes.utils import reset

    reset(username="boss")
    watch.visit(base + "/admin/login/")
    page.locator("input[name=username]").fill("boss")
    page.locator("input[name=password]").fill(password)
    page.locator("input[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/admin/$"))
    for path in [
        "/admin/",
        "/admin/auth/user/",
        f"/admin/auth/user/{boss.pk}/change/",
        "/admin/outbox/message/",
    ]:
        watch.visit(base + path)
        watch.settle()
