"""Every .bbcode and .csv export a page offers with a download icon downloads: an attachment with a filename
that says what it is, in UTF-8 (forum names are not all ASCII)."""

import pytest

from accounts.services import register_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(revealed_round, password):
    people = [
        register_player(username="zolw", password=password, forum_username="Żółw"),
        register_player(username="bob", password=password, forum_username="Bob"),
    ]
    round_, _ = revealed_round(2, players=people)
    return round_


def exports_of(round_):
    code = round_.code.replace(":", "-")
    league = round_.league.number or round_.league.pk
    return [
        (f"/rounds/{round_.pk}/export/announcement.bbcode", f"phm-{code}-announcement.bbcode", "text/plain"),
        (f"/rounds/{round_.pk}/export/hands.bbcode", f"phm-{code}-hands.bbcode", "text/plain"),
        (f"/api/rounds/{round_.pk}/export/bbcode/", f"phm-{code}-results.bbcode", "text/plain"),
        (f"/api/rounds/{round_.pk}/export/csv/", f"phm-{code}-results.csv", "text/csv"),
        (
            f"/leagues/{round_.league_id}/export/standings.bbcode",
            f"phm-league-{league}-standings.bbcode",
            "text/plain",
        ),
        (
            f"/leagues/{round_.league_id}/export/standings.csv",
            f"phm-league-{league}-standings.csv",
            "text/csv",
        ),
    ]


def test_every_export_is_an_attachment_named_for_what_it_is_in_utf8(client, exported):
    assert ":" in exported.code  # the code's colon never reaches a filename
    for url, filename, media_type in exports_of(exported):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Disposition"] == f'attachment; filename="{filename}"', url
        assert response["Content-Type"] == f"{media_type}; charset=utf-8", url
        if "announcement" not in url:
            assert "Żółw" in response.content.decode("utf-8"), url


def test_the_pages_link_every_export_they_offer(client, exported):
    pages = {
        f"/rounds/{exported.pk}/": ["announcement.bbcode", "hands.bbcode"],
        f"/rounds/{exported.pk}/results/": ["export/bbcode/", "export/csv/"],
        f"/leagues/{exported.league_id}/": ["standings.bbcode", "standings.csv"],
    }
    for page, links in pages.items():
        html = client.get(page).content.decode()
        for link in links:
            assert link in html, (page, link)
