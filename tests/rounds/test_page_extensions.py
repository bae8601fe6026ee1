"""The URLs of later apps' pages that rounds links to, provided by those apps when they start."""

import pytest
from django.urls import reverse

from rounds import page_extensions

pytestmark = pytest.mark.django_db


def test_scoring_provides_the_league_page_and_the_round_results():
    assert page_extensions.page_url(page_extensions.LEAGUE_PAGE_URL, 7) == reverse("scoring:league", args=[7])
    results = reverse("scoring:results", args=[9])
    assert page_extensions.page_url(page_extensions.ROUND_RESULTS_URL, 9) == results


def test_a_url_no_app_provides_is_a_lookup_error():
    with pytest.raises(LookupError):
        page_extensions.page_url("no-such-page", 1)


def test_a_url_name_is_provided_by_one_app_only():
    def league_url(league_id):
        return f"/elsewhere/{league_id}/"

    with pytest.raises(ValueError):
        page_extensions.provides_url(page_extensions.LEAGUE_PAGE_URL, league_url)
    assert page_extensions.page_url(page_extensions.LEAGUE_PAGE_URL, 7) == reverse("scoring:league", args=[7])
