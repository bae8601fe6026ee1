"""The results page at size: a constant number of queries, compact matrix cells written once per state
of the table (scoring/matrix_html.py), the viewer's row marked outside the shared cache, the full matrix on
demand above INLINE_HANDS hands with the page's visibility, progress while a large table is built."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import matrix_html
from scoring.models import Match, RoundTally
from scoring.services import table_build
from scoring.services.reports import report_match
from scoring.services.tally import store_tally
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db

MATRIX = re.compile(r'<table class="[^"]*phm-matrix[^"]*">.*?</table>', re.S)
BODY = re.compile(r"<tbody>(.*?)</tbody>", re.S)


def matrix_of(page):
    found = MATRIX.search(page)
    return found.group(0) if found else None


def report_everything(round_):
    """Every match agreed 6-0 (setup, not the services), and the revision bumped as a result change does."""
    Match.objects.filter(round=round_).update(points_a=6, points_b=0, status="agreed")
    RoundTally.objects.filter(round=round_).update(revision=F("revision") + 1)


@pytest.fixture
def count_builds(monkeypatch):
    built = []
    original = matrix_html.build

    def counting(round_, state):
        built.append(round_.pk)
        return original(round_, state)

    monkeypatch.setattr(matrix_html, "build", counting)
    return built


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def test_the_page_costs_the_same_queries_at_two_sizes(revealed_round, client):
    counts = {}
    for size in (3, 9):
        round_, players = revealed_round(size)
        report_everything(round_)
        store_tally(round_.pk)
        client.force_login(players[1])
        url = f"/rounds/{round_.pk}/results/"
        cache.clear()
        counts[size] = (queries(client, url), queries(client, url))  # built, then from the cache
    assert counts[3] == counts[9]
    cold, warm = counts[3]
    assert warm < cold


def test_a_matrix_cell_is_compact_and_the_match_url_is_reversed_once(revealed_round, client, monkeypatch):
    size = 8
    round_, players = revealed_round(size)
    report_everything(round_)
    reversed_urls = []
    original = matrix_html.reverse

    def counting_reverse(*args, **kwargs):
        reversed_urls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(matrix_html, "reverse", counting_reverse)
    client.force_login(players[0])
    page = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    body = BODY.search(matrix_of(page)).group(1)
    # A cell with its link, as any markup writes it (the whitespace between cells counted with it).
    cells = re.findall(r"<td[^>]*>\s*<a [^>]*>.*?</a>\s*(?:</td>)?\s*", body, re.S)
    assert len(cells) == size * (size - 1)  # every cell links its match
    # The landed template wrote ~150 bytes a cell (a title, long class names, whitespace).
    assert sum(len(cell.encode()) for cell in cells) / len(cells) <= 50
    assert len(reversed_urls) == 1


def test_the_matrix_templates_hold_no_loop_and_no_url_tag():
    """The matrix is written by scoring/matrix_html.py: no template loops over its cells or reverses a URL
    per cell."""
    templates = Path(settings.BASE_DIR) / "templates" / "scoring"
    matrix = (templates / "_matrix.html").read_text()
    assert "{% for" not in matrix and "{% url" not in matrix and "{{ matrix }}" in matrix
    page = (templates / "results.html").read_text()
    for loop in re.findall(r"{% for (.*?) %}", page):
        assert "cell" not in loop and "table.rows" not in loop and "by_rank" not in loop, loop


def test_a_changed_result_is_a_new_render(revealed_round, client, count_builds):
    round_, players = revealed_round(3)
    client.force_login(players[0])
    url = f"/rounds/{round_.pk}/results/"
    cache.clear()
    client.get(url)
    client.get(url)
    assert len(count_builds) == 1  # the second view came from the cache
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=4, points_b=1)
    page = client.get(url).content.decode()
    assert len(count_builds) == 2
    assert f'<a href="/matches/{match.pk}/">4<span class="phm-mark" aria-label="one side reported">' in page


def test_each_viewer_sees_their_own_row_marked_from_one_cached_render(revealed_round, client, count_builds):
    round_, players = revealed_round(4)
    url = f"/rounds/{round_.pk}/results/"
    cache.clear()
    seen = {}
    for number in (2, 3):
        client.force_login(players[number - 1])
        seen[number] = matrix_of(client.get(url).content.decode())
    client.logout()
    anonymous = client.get(url).content.decode()
    assert len(count_builds) == 1
    for number, matrix in seen.items():
        marked = re.findall(
            r'<tr class="phm-my-row"><th scope="row"[^>]*><span class="font-monospace">(\d\d)', matrix
        )
        assert marked == [f"{number:02d}"]
        assert matrix.count(">you</span>") == 1
    assert "phm-my-row" not in anonymous and ">you</span>" not in anonymous


def test_the_matrix_keeps_its_caption_and_headers(revealed_round, client):
    round_, _players = revealed_round(4)
    matrix = matrix_of(client.get(f"/rounds/{round_.pk}/results/").content.decode())
    assert f'<caption class="visually-hidden">Results matrix of {round_.code}' in matrix
    assert matrix.count('<th scope="col"') == 4 + 4  # Hand, the four hands, PT, League points, rank
    assert matrix.count('<th scope="row"') == 4
    assert matrix.count('aria-label="own column">X') == 4


def test_above_the_inline_size_the_page_shows_my_row_and_links_the_full_matrix(
    revealed_round, client, monkeypatch
):
    monkeypatch.setattr(matrix_html, "INLINE_HANDS", 3)
    round_, players = revealed_round(5)
    matrix_url = f"/rounds/{round_.pk}/results/matrix/"
    client.force_login(players[3])
    page = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert f'href="{matrix_url}"' in page and f'hx-get="{matrix_url}"' in page
    own = matrix_of(page)
    assert BODY.search(own).group(1).count("<tr") == 1 and "phm-my-row" in own  # only the viewer's row
    assert page.count("Forum p") >= 5  # the ranking names every hand
    full = client.get(matrix_url).content.decode()
    assert BODY.search(matrix_of(full)).group(1).count("<tr") == 5 and "<html" in full
    assert full.count('class="phm-my-row"') == 1
    fragment = client.get(matrix_url, HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode() and matrix_of(fragment.content.decode())
    assert "HX-Request" in fragment["Vary"]
    client.logout()
    assert matrix_of(client.get(f"/rounds/{round_.pk}/results/").content.decode()) is None


def test_the_matrix_url_is_404_before_the_reveal(league, make_players, client, moderator):
    round_ = RoundFactory(league=league)
    players = make_players(2)
    make_hands(round_, players)
    url = f"/rounds/{round_.pk}/results/matrix/"
    for viewer in (None, players[0], moderator):
        if viewer:
            client.force_login(viewer)
        response = client.get(url)
        assert response.status_code == 404
        body = response.content.decode()
        assert "Hand of p" not in body and "Forum p2" not in body
    assert not Match.objects.exists()  # nothing was built for it
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    assert client.get(url).status_code == 200


def test_a_large_table_not_built_yet_shows_its_progress(revealed_round, client, monkeypatch):
    monkeypatch.setattr(table_build, "INLINE_BUILD_HANDS", 2)
    round_, players = revealed_round(4, build=False)
    client.force_login(players[0])
    page = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "The match table is being built" in page and "0 of 6 matches" in page
    assert not RoundTally.objects.filter(round=round_).exists()  # queued, not built by the page
    assert client.get(f"/rounds/{round_.pk}/results/matrix/").status_code == 302
