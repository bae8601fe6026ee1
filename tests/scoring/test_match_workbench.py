"""The match page as a workbench: both hands with every card's text, who starts each game (rule 2.5), the
viewer's one form phrased from their side, the moderator's tools apart, people by forum name."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import match_workbench
from scoring.models import MatchReport
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from submissions.models import HandVersion
from tests.factories import RoundFactory

from .conftest import make_hands, match_between, plays_in_the_league

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog_index")]

TIME_WALK = "Take an extra turn after this one."
LOTUS = "Sacrifice Black Lotus: Add three mana of any one color."


@pytest.fixture
def two_hands(revealed_round):
    """01 and 02 with different real cards (and an accepted card the catalog lacks), the table built."""
    round_, players = revealed_round(3, build=False)
    HandVersion.objects.filter(hand__round=round_, hand__player=players[1]).update(
        cards=["Time Walk", "Wear // Tear", "Delver of Secrets", "Brand New Spoiler"]
    )
    build_match_table(round_.pk)
    return players, match_between(round_, 1, 2)


def labels(body, name="result", form_action="report"):
    """The labels of the radio buttons in the form whose hidden action is `form_action`."""
    form = re.search(
        rf'<form method="post"[^>]*>(?:(?!</form>).)*value="{form_action}"(?:(?!</form>).)*</form>',
        body,
        re.S,
    )
    assert form, form_action
    return re.findall(r'<label class="form-check-label" for="[^"]+">([^<]+)</label>', form.group(0))


def values(body, form_action="report"):
    form = re.search(
        rf'<form method="post"[^>]*>(?:(?!</form>).)*value="{form_action}"(?:(?!</form>).)*</form>',
        body,
        re.S,
    )
    return re.findall(r'name="result" value="([0-9]-[0-9])"', form.group(0))


def test_both_hands_side_by_side_with_every_cards_text_and_who_starts(two_hands, client):
    _players, match = two_hands
    body = client.get(f"/matches/{match.pk}/").content.decode()
    assert LOTUS in body and TIME_WALK in body
    # Both faces of a split card and of a double-faced card, each with its own cost and type.
    assert "Destroy target artifact." in body and "Destroy target enchantment." in body
    assert "Insectile Aberration" in body and "Flying" in body
    assert "Not in the card catalog: no text to show." in body and "Brand New Spoiler" in body
    # Rule 2.5, and the site's convention stated on the page.
    assert "the hand with the lower entry number starts game 1 and the other hand starts game 2" in body
    assert body.index("On the play in game 1") < body.index("On the play in game 2")
    assert body.index("Forum p1") < body.index("On the play in game 1") < body.index("Forum p2")
    # Each card links to its page; the hands' texts are shown, so those links carry no preview.
    assert '<a href="/cards/time-walk/">Time Walk</a>' in body


def test_player_a_chooses_from_their_own_side(two_hands, client):
    players, match = two_hands
    client.force_login(players[0])
    body = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Report your result" in body and "Your result against 02 Forum p2" in body
    assert labels(body) == [
        "You won both games (6-0)",
        "You won one, drew one (4-1)",
        "Split: one win each, or two draws (2-2)",
        "You drew one, lost one (1-4)",
        "You lost both games (0-6)",
    ]
    assert values(body) == ["6-0", "4-1", "2-2", "1-4", "0-6"]
    assert "Moderator tools" not in body and 'value="set"' not in body


def test_player_b_reads_their_points_first_and_sends_them_in_a_b_order(two_hands, client):
    players, match = two_hands
    client.force_login(players[1])
    body = client.get(f"/matches/{match.pk}/").content.decode()
    assert labels(body)[0] == "You won both games (6-0)" and "Your result against 01 Forum p1" in body
    assert values(body) == ["0-6", "1-4", "2-2", "4-1", "6-0"]
    client.post(f"/matches/{match.pk}/", {"action": "report", "result": "1-4"})
    report = MatchReport.objects.get()
    assert (report.side, report.points_a, report.points_b) == ("b", 1, 4)
    body = client.get(f"/matches/{match.pk}/").content.decode()
    # Their choice is kept checked, in their own words; the report says who won in words with names.
    assert re.search(r'value="1-4" id="result-2" checked', body)
    assert "02 Forum p2&#x27;s “Hand of p2” won one game and drew the other — 4-1 to 02" in body


def test_a_third_party_sees_both_hands_named_in_every_choice(two_hands, client, make_players):
    _players, match = two_hands
    [outsider] = make_players(1, prefix="x")
    client.force_login(outsider)
    body = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Verify or propose a result" in body and "The result of 01 v 02" in body
    a, b = "01 Forum p1&#x27;s “Hand of p1”", "02 Forum p2&#x27;s “Hand of p2”"
    assert labels(body) == [
        f"{a} won both games — 6-0 to 01",
        f"{a} won one game and drew the other — 4-1 to 01",
        "Split: one win each, or two draws — 2-2",
        f"{b} won one game and drew the other — 4-1 to 02",
        f"{b} won both games — 6-0 to 02",
    ]
    assert values(body) == ["6-0", "4-1", "2-2", "1-4", "0-6"]
    assert "Moderator tools" not in body
    client.post(f"/matches/{match.pk}/", {"action": "report", "result": "0-6", "comment": "Checked"})
    body = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Forum x1: 01 0 \u2013 6 02" in body and f"{b} won both games — 6-0 to 02" in body


def test_the_moderator_tools_are_apart_and_name_the_hands(two_hands, client, moderator, make_players):
    players, match = two_hands
    [outsider] = make_players(1, prefix="x")
    plays_in_the_league(match.round.league, outsider)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    challenge = challenge_match(challenger=outsider, match_id=match.pk, reason="Never played")
    client.force_login(moderator)
    body = client.get(f"/matches/{match.pk}/").content.decode()
    tools = body[body.index('id="moderator-tools"') :]
    player_form = body[body.index('id="report-title"') : body.index('id="moderator-tools"')]
    assert "Moderator tools" in tools and 'value="set"' in tools and 'value="resolve"' in tools
    assert 'value="set"' not in player_form and 'value="resolve"' not in player_form
    # Setting the result and upholding with a result both name the hands; 6-0 never leaves whose points unclear.
    assert labels(tools, form_action="set")[0] == "01 Forum p1&#x27;s “Hand of p1” won both games — 6-0 to 01"
    assert (
        labels(tools, form_action="resolve")[4]
        == "02 Forum p2&#x27;s “Hand of p2” won both games — 6-0 to 02"
    )
    assert "Resolve the challenge by Forum x1" in tools and "“Never played”" in tools
    assert f'href="#resolve-{challenge.pk}"' in body  # from the challenge to its form
    response = client.post(
        f"/matches/{match.pk}/",
        {"action": "resolve", "challenge": challenge.pk, "decision": "upheld", "result": "2-2", "note": "ok"},
        follow=True,
    )
    assert "The challenge is upheld." in response.content.decode()
    client.post(f"/matches/{match.pk}/", {"action": "set", "result": "4-1", "note": "Say both"}, follow=True)
    body = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Set by the moderator The Moderator" in body
    assert "01 Forum p1&#x27;s “Hand of p1” won one game and drew the other — 4-1 to 01" in body


def test_people_are_shown_by_forum_name_everywhere_on_the_page(two_hands, client, moderator, make_players):
    players, match = two_hands
    [outsider] = make_players(1, prefix="x")
    plays_in_the_league(match.round.league, outsider)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=outsider, match_id=match.pk, points_a=4, points_b=1)
    challenge = challenge_match(challenger=outsider, match_id=match.pk, reason="Hmm")
    resolve_challenge(actor=moderator, challenge_id=challenge.pk, decision="rejected", note="Fine")
    set_result(actor=moderator, match_id=match.pk, points_a=2, points_b=2, note="Split")
    client.force_login(moderator)
    body = client.get(f"/matches/{match.pk}/").content.decode()
    main = body[body.index('<main id="main"') : body.index("</main>")]
    for username in (players[0].username, players[1].username, outsider.username, moderator.username):
        # A login name shows nowhere as a person: only inside forum names ("Forum p1") and hand names.
        shown = main.replace(f"Forum {username}", "").replace(f"Hand of {username}", "")
        assert not re.search(rf"\b{username}\b", shown), username
    assert "01 Forum p1:" in body and "02 Forum p2:" in body  # reports
    assert "Forum x1: 01 4 \u2013 1 02" in body  # a verification
    assert "<strong>Forum x1</strong>" in body  # the challenger
    assert "The Moderator" in body and "by The Moderator" in body  # the decision and the audit trail


def test_a_sole_moderator_playing_the_match_gets_both_forms_each_phrased_its_way(
    league, moderator, make_players, client
):
    round_ = RoundFactory(league=league)
    [other] = make_players(1)
    make_hands(round_, [moderator, other])
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    match = match_between(round_, 1, 2)
    client.force_login(moderator)
    body = client.get(f"/matches/{match.pk}/").content.decode()
    assert labels(body)[0] == "You won both games (6-0)"
    assert (
        labels(body, form_action="set")[0]
        == "01 The Moderator&#x27;s “Hand of mod” won both games — 6-0 to 01"
    )


def test_the_page_phrases_results_without_extra_queries(revealed_round, client, moderator):
    counts = []
    for size in (3, 12):
        round_, players = revealed_round(size)
        match = match_between(round_, 1, 2)
        report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
        report_match(reporter=players[2], match_id=match.pk, points_a=4, points_b=1)
        challenge_match(challenger=players[2], match_id=match.pk, reason="Why")
        client.force_login(moderator)
        client.get(f"/matches/{match.pk}/")
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/matches/{match.pk}/").status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= 16, counts


def test_result_words_cover_every_result():
    class Hand:
        def __init__(self, number, name):
            self.number_label, self.name = f"{number:02d}", name
            self.player = None

    class Match:
        hand_a, hand_b = Hand(1, "Blue"), Hand(2, "")

    assert match_workbench.result_words(Match, 6, 0) == "01 's “Blue” won both games — 6-0 to 01"
    assert (
        match_workbench.result_words(Match, 1, 4) == "02 's hand won one game and drew the other — 4-1 to 02"
    )
    assert match_workbench.result_words(Match, 2, 2) == "Split: one win each, or two draws — 2-2"
    assert match_workbench.result_words(Match, 0, 0) == "No result: a loss for both — 0-0"
