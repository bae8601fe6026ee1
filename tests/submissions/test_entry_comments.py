"""An entry's comment and the problems the forum's host accepted: shown with the revealed hand (round
page, match page, API, the "hands posted" export), never before the deadline, to anyone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.services.table import build_match_table
from submissions.models import Hand
from tests.factories import RoundFactory
from tests.scoring.conftest import make_hands

pytestmark = pytest.mark.django_db

COMMENT = "Nice curve, shame about the Lotus"
PROBLEM = "Mox Diamond was not legal in Vintage when this round was played (rule 2.1a)"


@pytest.fixture
def two_players(make_user):
    return make_user("alice", forum_username="Alice"), make_user("bob", forum_username="Bob")


@pytest.fixture
def open_round_with_comment(league, two_players):
    round_ = RoundFactory(league=league)
    hands = make_hands(round_, two_players)
    Hand.objects.filter(pk=hands[0].pk).update(comment=COMMENT, accepted_problems=[PROBLEM])
    return round_, hands


def _everything_visible(client, round_):
    """The round page and the hands API, as this client sees them."""
    page = client.get(f"/rounds/{round_.pk}/").content.decode()
    api = client.get(f"/api/rounds/{round_.pk}/hands/")
    return page + api.content.decode(), api


def test_before_the_deadline_nobody_sees_the_comment(client, open_round_with_comment, two_players):
    round_, _hands = open_round_with_comment
    text, api = _everything_visible(client, round_)  # anonymous
    assert api.status_code == 404 and COMMENT not in text and "Mox Diamond" not in text
    client.force_login(two_players[1])  # another player
    text, api = _everything_visible(client, round_)
    assert api.status_code == 404 and COMMENT not in text and "Mox Diamond" not in text
    client.force_login(two_players[0])  # the hand's own player: the comment is posted at the reveal
    text, _ = _everything_visible(client, round_)
    assert COMMENT not in text and "Mox Diamond" not in text
    # A reviewing moderator may see the cards before the deadline; the API's hands carry no comment keys then.
    from submissions.api import RevealedHandSerializer
    from submissions.selectors import hands_of_round

    data = RevealedHandSerializer(hands_of_round(round_), many=True, context={"revealed": False}).data
    assert data[0]["cards"] and all(
        "comment" not in hand and "accepted_problems" not in hand for hand in data
    )


def test_after_the_reveal_the_comment_and_accepted_problems_are_shown(client, open_round_with_comment):
    round_, _hands = open_round_with_comment
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    page = client.get(f"/rounds/{round_.pk}/").content.decode()
    assert COMMENT in page and PROBLEM in page and "accepted as played on the forum" in page
    body = client.get(f"/api/rounds/{round_.pk}/hands/").json()
    by_number = {hand["number"]: hand for hand in body}
    assert (by_number[1]["comment"], by_number[1]["accepted_problems"]) == (COMMENT, [PROBLEM])
    assert (by_number[2]["comment"], by_number[2]["accepted_problems"]) == ("", [])
    bbcode = page.split('id="hands-bbcode"')[1] if 'id="hands-bbcode"' in page else page
    lines = bbcode.splitlines()
    cards_line = next(i for i, line in enumerate(lines) if "Black Lotus" in line)
    assert COMMENT in "\n".join(lines[cards_line + 1 : cards_line + 4])
    from scoring.models import Match

    match = Match.objects.get(round=round_)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert COMMENT in page and PROBLEM in page


def test_hands_posted_export_puts_the_comment_under_the_cards(open_round_with_comment):
    from submissions.bbcode import hands_posted
    from submissions.selectors import hands_of_round

    round_, _ = open_round_with_comment
    Hand.objects.filter(round=round_).update(comment="[b]bold[/b] move")
    text = hands_posted(round_, hands_of_round(round_))
    block = text.split("\n\n")[1].splitlines()
    assert "Black Lotus" in block[1] and "move" in block[-1] and "[b]bold[/b]" not in text
    assert f"[i]{PROBLEM} (accepted as played)[/i]" in text
