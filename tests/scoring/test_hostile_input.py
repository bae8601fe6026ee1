"""Hostile input on results: control characters in the fields the match and moderator pages read straight
from the form, and BBCode typed into names and reasons that must stay inert in every forum export."""

import pytest

from accounts.models import Profile
from scoring.models import BonusAward, Challenge, MatchReport
from scoring.services.bonus import award_bonus
from scoring.services.errors import ScoringInputError
from scoring.services.league import declare_winners
from scoring.standings import league_standings
from scoring.standings_exports import standings_bbcode
from submissions.models import Hand

from .conftest import match_between

pytestmark = pytest.mark.django_db

BREAKOUT = "[/code][url=http://evil.example]click[/url]"
IMG = "[img]http://evil.example/x.png[/img]"
TAGS = ("[/code][url", "[url=", "[/url]", "[img]", "[/img]")


def assert_refused(response, field):
    assert response.status_code == 400, response.status_code
    page = response.content.decode()
    assert f"The field “{field}” contains a control character (U+0000 NUL)" in page


def test_nul_in_the_match_page_fields_is_refused_not_a_server_error(
    revealed_round, client, make_players, moderator
):
    round_, players = revealed_round(2)
    match = match_between(round_, 1, 2)
    client.raise_request_exception = False
    client.force_login(players[0])
    page = f"/matches/{match.pk}/"
    assert_refused(client.post(page, {"action": "report", "result": "6-0", "comment": "gg\x00"}), "comment")
    assert_refused(client.post(page, {"action": "challenge", "reason": "\x00"}), "reason")
    assert_refused(client.post(f"/rounds/{round_.pk}/results/", {"row": "1 | X 6\x00"}), "row")
    client.force_login(moderator)
    assert_refused(client.post(page, {"action": "set", "result": "6-0", "note": "n\x00te"}), "note")
    assert not MatchReport.objects.exists() and not Challenge.objects.exists()
    match.refresh_from_db()
    assert match.decided_by is None


def test_nul_in_the_bonus_form_is_refused(revealed_round, client, moderator):
    round_, players = revealed_round(2)
    client.raise_request_exception = False
    client.force_login(moderator)
    page = f"/moderate/rounds/{round_.pk}/results/"
    bonus = {"action": "bonus", "player": players[0].username, "points": "10", "reason": "Rule 7.7"}
    assert_refused(client.post(page, {**bonus, "player": "p1\x00"}), "player")
    assert_refused(client.post(page, {**bonus, "reason": "\x00Rule 7.7"}), "reason")
    assert not BonusAward.objects.exists()
    assert client.post(page, bonus).status_code == 302  # the same form, clean, still works
    assert BonusAward.objects.count() == 1


def test_results_exports_escape_hand_and_forum_names(revealed_round, client, moderator):
    round_, players = revealed_round(2)
    Hand.objects.filter(player=players[0]).update(name=IMG)
    Profile.objects.filter(user=players[1]).update(forum_username=BREAKOUT)
    round_.title = "Title [b]bold"
    round_.save(update_fields=["title"])
    api = client.get(f"/api/rounds/{round_.pk}/export/bbcode/").content.decode()
    client.force_login(players[0])
    page = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert f'data-copy-url="/api/rounds/{round_.pk}/export/bbcode/"' in page  # the post the page offers
    text = api
    for tag in TAGS:
        assert tag not in text
    assert "\uff3bimg\uff3dhttp://evil.example/x.png\uff3b/img\uff3d" in text
    assert "\uff3b/code\uff3d\uff3burl=http://evil.example\uff3dclick\uff3b/url\uff3d" in text
    assert "Title \uff3bb\uff3dbold" in text
    assert api.count("[code]") == 1 and api.count("[/code]") == 1  # the table's own block is intact


def test_standings_export_cannot_leave_its_code_block(revealed_round, client, moderator, league):
    round_, players = revealed_round(2)
    Profile.objects.filter(user=players[0]).update(forum_username=BREAKOUT)
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username=players[1].username, points=5, reason=IMG
    )
    text = client.get(f"/leagues/{league.pk}/export/standings.bbcode").content.decode()
    assert text.count("[code]") == 1 and text.count("[/code]") == 1
    for tag in TAGS:
        assert tag not in text
    assert "\uff3b/code\uff3d\uff3burl=http://evil.example\uff3d" in text
    assert "\uff3bimg\uff3d" in text  # the bonus reason
    assert client.get(f"/leagues/{league.pk}/").context["bbcode"] == text  # the post the page offers


def test_standings_code_block_stays_aligned_with_wide_characters(revealed_round, league):
    _round, players = revealed_round(2)
    Profile.objects.filter(user=players[0]).update(forum_username="[Wide] 名人")
    lines = standings_bbcode(league_standings(league)).split("[code]\n")[1].split("\n[/code]")[0].splitlines()
    bars = {tuple(i for i, char in enumerate(_columns(line)) if char == "|") for line in lines}
    assert len(bars) == 1, lines


def _columns(line):
    """The line as a monospace screen shows it: a wide character takes two columns."""
    import unicodedata

    return "".join(char * (2 if unicodedata.east_asian_width(char) in "WF" else 1) for char in line)


def test_csv_exports_stay_formula_safe(revealed_round, client, league):
    round_, players = revealed_round(2)
    Hand.objects.filter(player=players[0]).update(name='=HYPERLINK("http://evil.example")')
    Profile.objects.filter(user=players[1]).update(forum_username="\t=cmd|' /C calc'!A0")
    results = client.get(f"/api/rounds/{round_.pk}/export/csv/").content.decode()
    assert "'=HYPERLINK" in results and "'\t=cmd" in results
    standings = client.get(f"/leagues/{league.pk}/export/standings.csv").content.decode()
    assert "'\t=cmd" in standings


def test_the_winners_note_is_capped(league, moderator):
    with pytest.raises(ScoringInputError) as refused:
        declare_winners(actor=moderator, league_id=league.pk, usernames=["x"], note="n" * 5001)
    assert "note" in refused.value.errors
