"""The card page's verdict, the results page before the reveal, the leagues list, the
league page's charts, the scroll cue on wide tables on a phone, and readable yellow outline buttons."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match, report_row
from scoring.services.table import build_match_table
from tests.e2e.test_moderator_opens_round import log_in
from tests.e2e.test_player_submits_hand import DESKTOP, PHONE, shoot
from tests.factories import RoundFactory
from tests.scoring.conftest import make_hands, make_players, match_between, revealed_round  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def contrast(foreground, background):
    """WCAG contrast ratio of two "rgb(r, g, b)" colours."""

    def luminance(colour):
        channels = [int(value) / 255 for value in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted([luminance(foreground), luminance(background)], reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_card_pages_answer_can_i_play_it(live_server, page):
    RoundFactory(title="No Counterspells", extra_banned=["Force of Will"])
    for slug, headline in [
        ("force-of-will", "Banned in PHM: on the PHM Banned List (Disruption)"),
        ("black-lotus", "Legal in PHM, but banned in rounds with a land rule"),
        ("sol-ring", "Legal in PHM"),
        ("chaos-orb", "Not legal in PHM: banned in Vintage"),
    ]:
        page.goto(f"{live_server.url}/cards/{slug}/")
        verdict = page.locator("section.phm-verdict")
        expect(verdict.get_by_role("heading", level=2)).to_have_text(headline)
        # The first thing under the breadcrumb, above the card and its legality table.
        box = verdict.bounding_box()
        assert box["y"] < page.locator("#legality-title").bounding_box()["y"]
        shoot(page, f"card-{slug}")
    page.goto(f"{live_server.url}/cards/force-of-will/")
    expect(page.get_by_role("link", name=re.compile("No Counterspells"))).to_be_visible()


def test_results_page_before_the_reveal(live_server, page, league, make_players, password):  # noqa: F811
    round_ = RoundFactory(league=league, title="Five Card Secrets")
    players = make_players(3)
    make_hands(round_, players)
    log_in(page, live_server, players[0].username, password)
    page.goto(f"{live_server.url}/rounds/{round_.pk}/results/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("are not open yet")
    expect(page.locator("[data-countdown]")).to_have_text(re.compile(r"^1d \d+h \d\dm left$"))
    expect(page.get_by_role("link", name="Your hand")).to_be_visible()
    expect(page.get_by_text("Forum p2")).to_have_count(0)
    shoot(page, "results-not-open")


def test_leagues_list(live_server, page, league, moderator, revealed_round):  # noqa: F811
    round_, players = revealed_round(3)
    report_match(
        reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0
    )
    finalize_round(actor=moderator, round_id=round_.pk)
    RoundFactory(league=league, title="Seven Card Secrets")
    page.goto(f"{live_server.url}/leagues/")
    card = page.locator("article.phm-league-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Leader: Forum p1")
    expect(card).to_contain_text("1 of 4 played")
    expect(card.locator("[data-countdown]")).to_have_text(re.compile(r"left$"))
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    shoot(page, "leagues-list")


def _cell(row, column, number):
    if column == row:
        return "X"
    if column < row:
        return "?"
    return str((6, 4, 2, 1, 0)[(row * column + number) % 5])


def _league_of_eight(league, moderator, make_players):  # noqa: F811
    players = make_players(8)
    rounds = []
    for number in range(3):
        round_ = RoundFactory(league=league, number=number + 1, title=f"Round {number + 1}")
        make_hands(round_, players[number % 2 :])
        round_.deadline = timezone.now() - timedelta(days=3 - number)
        round_.save(update_fields=["deadline"])
        build_match_table(round_.pk)
        entrants = players[number % 2 :]
        for row, player in enumerate(entrants, start=1):
            # Each match reported once, by its lower-numbered hand: agreed results, no disputes.
            if row == len(entrants):
                break  # the last hand's matches are all reported by the others
            cells = [_cell(row, column, number) for column in range(1, len(entrants) + 1)]
            report_row(player=player, round_id=round_.pk, row=f"{row} | {' '.join(cells)}")
        rounds.append(round_)
    return rounds, players


def test_league_charts_in_the_sites_colours(live_server, page, league, moderator, make_players):  # noqa: F811
    rounds, _ = _league_of_eight(league, moderator, make_players)
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    race = page.get_by_role("img", name=re.compile("Standings after each round"))
    expect(race).to_be_visible()
    expect(page.get_by_role("img", name=re.compile("League points per round"))).to_be_visible()
    first_line = race.locator("g.phm-series-1 polyline").first
    assert first_line.evaluate("line => getComputedStyle(line).stroke") == "rgb(91, 60, 196)"  # --phm-violet
    shoot(page, "league-charts")
    page.goto(f"{live_server.url}/rounds/{rounds[0].pk}/results/")
    bar = page.locator("rect.phm-chart-bar").first
    assert bar.evaluate("rect => getComputedStyle(rect).fill") == "rgb(91, 60, 196)"


def test_results_chart_empty_state(live_server, page, revealed_round):  # noqa: F811
    round_, _ = revealed_round(3)
    page.goto(f"{live_server.url}/rounds/{round_.pk}/results/")
    expect(page.get_by_text("No results reported yet")).to_be_visible()
    expect(page.locator("svg.phm-chart")).to_have_count(0)
    shoot(page, "results-chart-empty")


def _hint(locator):
    return locator.evaluate(
        "el => { const s = getComputedStyle(el, '::after'); return [s.visibility, s.height, s.content]; }"
    )


def _fades(locator):
    return tuple(
        locator.evaluate(f"el => getComputedStyle(el).getPropertyValue('--phm-fade-{edge}')")
        for edge in ("start", "end")
    )


def _mask(locator):
    return locator.evaluate("el => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage")


def test_wide_tables_show_a_scroll_cue_on_a_phone(live_server, page, league, moderator, make_players):  # noqa: F811
    rounds, _ = _league_of_eight(league, moderator, make_players)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/rounds/{rounds[0].pk}/results/")
    wrap = page.locator(".table-responsive.phm-matrix-wrap")
    assert wrap.evaluate("el => el.scrollWidth > el.clientWidth")  # eight hands do not fit in 390 px
    visibility, height, content = _hint(wrap)
    assert visibility == "visible" and height == "24px" and "Scroll sideways" in content
    assert "calc(100% - 40px)" in _mask(wrap)  # the right edge fades: more lies beyond it
    shoot(page, "scroll-cue-matrix")
    page.set_viewport_size(PHONE)
    # Scrolled to its end, the right edge no longer fades: nothing more lies beyond it.
    wrap.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    page.wait_for_timeout(100)
    assert _fades(wrap) == (
        "0px",
        "0px",
    )  # the matrix never fades its left edge: its hand column sticks there
    assert "rgb(0, 0, 0) 100%" in _mask(wrap)

    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    standings = page.locator(".table-responsive").first
    assert standings.evaluate("el => el.scrollWidth > el.clientWidth")
    assert _hint(standings)[0] == "visible"
    assert _fades(standings) == ("0px", "40px")
    standings.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    page.wait_for_timeout(100)
    assert _fades(standings) == ("40px", "0px")  # scrolled to the end: the left edge fades now
    standings.evaluate("el => { el.scrollLeft = 0; }")
    shoot(page, "scroll-cue-standings")

    # On a desktop the same standings fit: no hint, no fade.
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    standings = page.locator(".table-responsive").first
    assert not standings.evaluate("el => el.scrollWidth > el.clientWidth")
    visibility, height, _ = _hint(standings)
    assert visibility == "hidden" and height == "0px"
    assert _fades(standings) == ("0px", "0px")  # the mask is fully opaque: nothing fades


def test_yellow_cyan_and_grey_outline_buttons_are_readable(live_server, page):
    page.goto(f"{live_server.url}/")
    # The classes as the Flag, Challenge and notice buttons use them, measured as the browser paints them.
    page.evaluate(
        """() => {
          for (const kind of ["warning", "info", "secondary"]) {
            const button = document.createElement("button");
            button.className = `btn btn-outline-${kind}`;
            button.id = `probe-${kind}`;
            button.textContent = "Flag";
            // In a card header, whose tint (#f8f8f9) is where Bootstrap's grey fell short.
            const header = document.createElement("div");
            header.className = "card-header";
            header.append(button);
            document.querySelector("main").prepend(header);
          }
        }"""
    )
    for kind in ["warning", "info", "secondary"]:
        button = page.locator(f"#probe-{kind}")
        colour, border = button.evaluate(
            "b => [getComputedStyle(b).color, getComputedStyle(b).borderTopColor]"
        )
        background = "rgb(248, 248, 249)"  # the card header's tint over white, the lightest of the two
        assert contrast(colour, background) >= 4.5, (kind, colour)
        assert contrast(border, background) >= 3, (kind, border)  # a component's boundary (WCAG 1.4.11)
        button.hover()
        page.wait_for_timeout(400)  # Bootstrap's colour transition (0.15 s) has ended
        hovered = button.evaluate("b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
        assert contrast(*hovered) >= 4.5, (kind, hovered)
