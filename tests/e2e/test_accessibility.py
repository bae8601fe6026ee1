"""Every main page checked by axe-core in Chromium, as an anonymous visitor, a player and a moderator: no serious
or critical violation, colour contrast AA included (axe's `color-contrast` rule is WCAG 2 AA).

axe-core is vendored into the test suite (tests/e2e/vendor/axe-core, from the npm package; MPL-2.0), not into the
site: it is evaluated in the page through the DevTools protocol, which the page's Content-Security-Policy does not
govern, so the site's CSP stays as it is."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.test_csp import site  # noqa: F401  (the fixture: an open and a revealed round with reports)
from tests.e2e.test_moderator_opens_round import log_in
from tests.scoring.conftest import make_players, revealed_round  # noqa: F401
from tests.submissions.conftest import catalog_index  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

AXE_SOURCE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
# WCAG 2.0/2.1/2.2 A and AA, plus axe's best practices (landmarks, headings, regions): every rule is run, and the
# serious and critical ones fail the test.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
FAILING_IMPACTS = {"serious", "critical"}
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def axe_violations(page):
    """axe's violations on the page as it is now, serious and critical only, as readable lines."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SOURCE)
    result = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})",
        AXE_TAGS,
    )
    lines = []
    for violation in result["violations"]:
        if violation["impact"] not in FAILING_IMPACTS:
            continue
        for node in violation["nodes"][:5]:
            summary = node.get("failureSummary", "").replace("\n", " ")
            lines.append(f"{violation['id']} ({violation['impact']}): {node['target']} — {summary}")
    return lines


def check_pages(page, base, paths):
    problems = []
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        for path in paths:
            response = page.goto(base + path)
            assert response.status == 200, (path, response.status)
            page.wait_for_load_state("load")
            problems += [f"{path} [{name}] {line}" for line in axe_violations(page)]
    assert problems == [], "\n".join(problems)


def public_paths(site):  # noqa: F811
    open_round, revealed = site["open"], site["revealed"]
    return [
        "/",
        "/rounds/",
        f"/rounds/{open_round.pk}/",
        f"/rounds/{open_round.pk}/results/",
        f"/rounds/{revealed.pk}/",
        f"/rounds/{revealed.pk}/results/",
        f"/matches/{site['match'].pk}/",
        "/leagues/",
        f"/leagues/{revealed.league_id}/",
        f"/players/{site['players'][0].username}/",
        "/cards/",
        f"/cards/{site['card'].slug}/",
        "/cards/?q=t%3Adragon+mv%3C%3D3",
        "/cards/most-played/",
        "/banned-lists/",
        "/rules/",
        "/hands/verify/",
        "/accounts/login/",
        "/accounts/sign-up/",
    ]


def test_public_pages_have_no_serious_accessibility_violations(live_server, page, site):  # noqa: F811
    check_pages(page, live_server.url, public_paths(site))


def test_player_pages_have_no_serious_accessibility_violations(
    live_server,
    page,
    site,  # noqa: F811
    player,
    password,
):
    open_round, revealed = site["open"], site["revealed"]
    log_in(page, live_server, "player", password)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    check_pages(
        page,
        live_server.url,
        [
            "/",
            f"/rounds/{open_round.pk}/",
            f"/rounds/{open_round.pk}/my-hand/",
            f"/rounds/{open_round.pk}/my-hand/versions/1/",
            f"/rounds/{revealed.pk}/results/",
            "/notifications/",
            "/notifications/preferences/",
            "/accounts/profile/",
            f"/players/{player.username}/",
        ],
    )
    # A player of the revealed round, on their own match: the report form phrased from their side.
    page.context.clear_cookies()
    log_in(page, live_server, site["players"][0].username, password)
    check_pages(page, live_server.url, [f"/matches/{site['match'].pk}/", f"/rounds/{revealed.pk}/"])


def test_moderator_pages_have_no_serious_accessibility_violations(
    live_server,
    page,
    site,  # noqa: F811
    moderator,
    password,
):
    open_round, revealed = site["open"], site["revealed"]
    log_in(page, live_server, "mod", password)
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    check_pages(
        page,
        live_server.url,
        [
            "/",
            "/moderate/",
            "/moderate/leagues/new/",
            "/moderate/rounds/new/",
            f"/moderate/rounds/{open_round.pk}/",
            f"/moderate/rounds/{open_round.pk}/edit/",
            f"/moderate/rounds/{revealed.pk}/",
            f"/moderate/rounds/{revealed.pk}/hands/",
            f"/moderate/rounds/{revealed.pk}/results/",
            f"/moderate/leagues/{revealed.league_id}/webhooks/",
            "/moderate/archive/import/",
            f"/matches/{site['match'].pk}/",
            f"/leagues/{revealed.league_id}/",
        ],
    )


def test_revealed_hands_with_folded_card_texts_keep_their_targets_apart(
    live_server,
    page,
    revealed_round,  # noqa: F811
):
    """A card whose text is long is folded under its name, its toggle right below the name's link: both stay
    targets of their own (WCAG 2.5.8, axe's target-size), on a desktop and on a phone."""
    from submissions.models import HandVersion

    round_, _players = revealed_round(3)
    long_texts = ["Rift Bolt", "Delver of Secrets", "Adanto Vanguard", "Goblin Guide", "Fireblast"]
    HandVersion.objects.filter(hand__round=round_).update(cards=long_texts)
    check_pages(page, live_server.url, [f"/rounds/{round_.pk}/"])
    expect(page.locator("details.phm-card-fold summary").first).to_contain_text("Show the whole text")


def test_the_checker_finds_what_it_should(live_server, page):
    """The harness itself: a page with a known serious violation (an image without alt text, a low-contrast text)
    is reported, so an empty list above means axe ran and found nothing."""
    page.goto(live_server.url + "/rules/")
    page.evaluate(
        """() => {
            const main = document.querySelector('main') || document.body;
            const image = document.createElement('img');
            image.src = '/static/img/favicon.svg';
            main.prepend(image);
        }"""
    )
    lines = axe_violations(page)
    assert any(line.startswith("image-alt") for line in lines), lines
