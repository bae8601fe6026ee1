"""The revealed round page leads with the hands (each card with its text), then the viewer's matches, then the
rules and banned lists; before the deadline nothing changes and nothing of another's hand shows."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import Match
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from submissions.models import HandVersion
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog_index")]

TIME_WALK = "Take an extra turn after this one."
LOTUS_TEXT = "Sacrifice Black Lotus: Add three mana of any one color."
# Oracle text longer than the compact length: folded on the round page.
LONG_CARD, LONG_TEXT_END = "Leyline of the Void", "exile it instead."


def test_the_hands_come_first_then_my_matches_then_the_rules(revealed_round, client):
    round_, players = revealed_round(3)
    client.force_login(players[0])
    body = client.get(round_.get_absolute_url()).content.decode()
    hands, mine = body.index('id="hands"'), body.index('id="my-matches"')
    rules, banned = body.index('id="rules-title"'), body.index('id="banned-title"')
    assert hands < mine < rules < banned
    assert 'href="#my-matches"' in body  # a jump from the top, past the hands


def test_every_card_of_every_hand_shows_its_type_line_and_text(revealed_round, client):
    round_, players = revealed_round(2, build=False)
    HandVersion.objects.filter(hand__round=round_, hand__player=players[1]).update(
        cards=["Time Walk", LONG_CARD, "Wear // Tear", "Brand New Spoiler"]
    )
    body = client.get(round_.get_absolute_url()).content.decode()
    hands = body[body.index('id="hands"') : body.index('id="rules-title"')]
    assert LOTUS_TEXT in hands and TIME_WALK in hands and "Sorcery" in hands
    # A long text is folded: its start in the summary, the whole text when opened.
    fold = hands[hands.index('<details class="phm-card-fold">') :]
    fold = fold[: fold.index("</details>")]
    assert "Show the whole text" in fold and LONG_TEXT_END in fold
    assert "Destroy target artifact." in hands and "Destroy target enchantment." in hands
    assert "Not in the card catalog: no text to show." in hands and "Brand New Spoiler" in hands
    # The text is on the page: the names link to the card pages without a preview.
    assert '<a href="/cards/time-walk/">Time Walk</a>' in hands


def test_my_matches_lists_the_players_matches_from_their_side(revealed_round, client):
    round_, players = revealed_round(3)
    one_two = match_between(round_, 1, 2)
    report_match(reporter=players[1], match_id=one_two.pk, points_a=1, points_b=4)
    client.force_login(players[1])
    body = client.get(round_.get_absolute_url()).content.decode()
    section = body[body.index('id="my-matches"') : body.index('id="rules-title"')]
    assert f'href="/matches/{one_two.pk}/"' in section
    assert f'href="/matches/{match_between(round_, 2, 3).pk}/"' in section
    assert f'href="/matches/{match_between(round_, 1, 3).pk}/"' not in section  # not theirs
    assert "02 v 01</span> Forum p1" in section and "02 v 03</span> Forum p3" in section
    assert "Your points first: </span>4\u20131" in section  # 1-4 in a-b order is 4-1 from hand 02's side
    assert section.count("you have not reported") == 1  # 02 v 03 only
    assert "Reported by one side" in section


def test_no_my_matches_for_who_has_no_hand(revealed_round, client, make_players):
    round_, _players = revealed_round(2)
    assert 'id="my-matches"' not in client.get(round_.get_absolute_url()).content.decode()
    [outsider] = make_players(1, prefix="x")
    client.force_login(outsider)
    assert 'id="my-matches"' not in client.get(round_.get_absolute_url()).content.decode()


def test_before_the_deadline_nothing_of_another_hand_shows(league, make_players, client):
    round_ = RoundFactory(league=league, deadline=timezone.now() + timedelta(days=1))
    players = make_players(2)
    make_hands(round_, players)
    HandVersion.objects.filter(hand__round=round_, hand__player=players[1]).update(
        cards=["Time Walk", "Wear // Tear"], name="Secret Walk"
    )
    client.force_login(players[0])
    body = client.get(round_.get_absolute_url()).content.decode()
    for secret in ("Time Walk", TIME_WALK, "Wear // Tear", "Destroy target enchantment.", "Secret Walk"):
        assert secret not in body, secret
    assert 'id="hands"' not in body and 'id="my-matches"' not in body
    assert body.index('id="rules-title"') < body.index('id="banned-title"')  # the rules lead, as before
    assert "2 hands submitted" in body
    results = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "Time Walk" not in results and TIME_WALK not in results and "Secret Walk" not in results
    # No match exists before the deadline (so no match page either): the table is refused until then.
    assert build_match_table(round_.pk) is None
    assert not Match.objects.filter(round=round_).exists()


def test_the_revealed_page_reads_the_cards_text_in_bounded_queries(revealed_round, client):
    counts = []
    for size in (3, 12):
        round_, players = revealed_round(size)
        client.force_login(players[0])
        client.get(round_.get_absolute_url())
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(round_.get_absolute_url()).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts
