"""One name per person: wherever someone is shown (pages, messages, e-mails, notifications, forum posts,
CSV), it is the name the forum knows them by, never the login name. Here every login differs from its forum
name: players p1, p2… are "Forum p1", "Forum p2"…, the moderator `mod` is "The Moderator"."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.services import make_moderator, register_player
from outbox.models import Message, Notification
from rounds.services import catalog as catalog_services
from scoring.models import Challenge
from scoring.services.bonus import award_bonus
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.errors import ScoringForbidden
from scoring.services.reports import report_match
from submissions.services.review import review_hand
from submissions.services.submit import tiebreak_message
from tests import builders
from webhooks import services as webhook_services

from .conftest import match_between, plays_in_the_league

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]

LOGIN = re.compile(r"(?<![\w/@.-])(p[1-9]|mod)(?![\w/@.-])")  # a login name shown as a word


def logins_shown(text):
    """Login names shown as words in `text` (not inside a URL, an id or an e-mail address), once the forum
    names and the hand names of the fixtures ("Forum p1", "Hand of p1") are taken out: each with the text
    around it, to say where it is."""
    visible = re.sub(r"<[^>]+>", " ", text)  # tags (links to /players/p1/, values) are not shown
    visible = re.sub(r"(Forum|Hand of) [a-z]\d+", " ", visible)
    visible = re.sub(r"\s+", " ", visible)
    return [visible[max(0, m.start() - 60) : m.end() + 20] for m in LOGIN.finditer(visible)]


@pytest.fixture
def challenged_round(revealed_round, make_players, moderator):
    """A revealed round of 3 hands: 01 v 02 reported by one side and challenged by a player of the league
    without a hand in this round; a bonus."""
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    outsider = make_players(1, prefix="x")[0]  # x1, "Forum x1"
    plays_in_the_league(round_.league, outsider)  # a player of the league, not of this round
    challenge_match(challenger=outsider, match_id=match.pk, reason="Mox")
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username="Forum p2", points=2, reason="Tribal"
    )
    return round_, players, outsider


def test_the_moderators_results_page(client, moderator, challenged_round):
    round_, _players, _outsider = challenged_round
    client.force_login(moderator)
    html = client.get(f"/moderate/rounds/{round_.pk}/results/").content.decode()
    assert "Forum x1: “Mox”" in html  # the challenge in the queue
    assert "Match 01 v 02 is challenged by Forum x1: Mox" in html  # the open items
    assert "+2 for Forum p2 — Tribal" in html and "(The Moderator," in html  # the bonus and who gave it
    assert "by The Moderator" in html  # the history
    assert "navbar" in html and '>\n                <i class="bi bi-person-circle"></i> The Moderator' in html
    assert "Logged in as mod" in html  # the login name where it is needed: who you are logged in as
    assert logins_shown(html.split("Logged in as mod")[1]) == []


def test_the_finalize_refusal_in_the_api_names_the_challenger_by_forum_name(
    api_client, moderator, challenged_round
):
    round_, _players, _outsider = challenged_round
    api_client.force_authenticate(moderator)
    refused = api_client.post(f"/api/rounds/{round_.pk}/finalize/", {}, format="json")
    assert refused.status_code == 409
    assert "Match 01 v 02 is challenged by Forum x1: Mox" in str(refused.json())


def test_the_challenge_notification_and_email(challenged_round):
    notice = Notification.objects.filter(kind="match.challenge").first()
    assert notice.text.endswith("result challenged by Forum x1")
    body = Message.objects.filter(kind="match.challenge").first().body
    assert body.startswith("Forum x1 challenged the result of match 01 v 02")


def test_the_challenge_decision_email(moderator, challenged_round):
    _round, _players, outsider = challenged_round
    challenge = Challenge.objects.get(challenger=outsider)
    resolve_challenge(
        actor=moderator, challenge_id=challenge.pk, decision="rejected", note="Checked."
    )
    body = Message.objects.filter(kind="match.decision").first().body
    assert "the challenge of Forum x1 to match 01 v 02" in body
    assert logins_shown(body.split("unsubscribe")[0]) == []


def test_the_posted_rows_preview_on_the_moderators_page(client, moderator, revealed_round):
    round_, _players = revealed_round(3)
    client.force_login(moderator)
    html = client.post(
        f"/moderate/rounds/{round_.pk}/results/",
        {"action": "posted_rows_preview", "text": "2 | 0 X 6 | 6 | 1"},
    ).content.decode()
    assert "<td>02</td><td>Forum p2</td>" in html


def test_a_sole_moderator_who_played_is_named_by_forum_name_on_the_results_page(
    client, revealed_round, moderator, make_players
):
    round_, _players = revealed_round(2, players=[moderator, *make_players(1)])
    set_result(actor=moderator, match_id=match_between(round_, 1, 2).pk, points_a=4, points_b=1)
    award_bonus(actor=moderator, round_id=round_.pk, player_username="mod", points=1, reason="Own")
    html = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    assert "result 4\u20131 set by The Moderator" in html
    assert "Bonus +1 to The Moderator, awarded by themselves" in html


def test_the_review_page_names_players_and_moderators_by_forum_name(client, moderator, revealed_round):
    round_, players = revealed_round(2)
    hand = players[0].hands.get(round=round_)
    review_hand(actor=moderator, hand_id=hand.pk, action="flag", message="Check it")
    client.force_login(moderator)
    html = client.get(f"/moderate/rounds/{round_.pk}/hands/").content.decode()
    assert "01</span> Forum p1 ::" in html
    assert "by The Moderator" in html
    assert logins_shown(html.split("Logged in as mod")[1]) == []


def test_the_round_manage_page_names_moderators_by_forum_name(client, moderator, league):
    now = timezone.now()
    round_ = builders.open_round(
        league=league, actor=moderator, now=now, title="T", hand_size=5, deadline=now + timedelta(days=2)
    )
    catalog_services.accept_unknown_card(
        round_, name="Brand New Spoiler", by=moderator, reason="Spoiled today", not_in_catalog=True
    )
    client.force_login(moderator)
    html = client.get(f"/moderate/rounds/{round_.pk}/").content.decode()
    assert 'Spoiled today <span class="text-body-secondary">(The Moderator,' in html
    assert "· The Moderator</div>" in html  # the history
    assert logins_shown(html.split("Logged in as mod")[1]) == []


def test_the_webhooks_page_names_who_added_one(client, moderator, league):
    webhook_services.create_webhook(
        actor=moderator,
        league=league,
        url="https://example.com/phm-hook",
        kind="json",
        events=["round_opened"],
    )
    client.force_login(moderator)
    html = client.get(f"/moderate/leagues/{league.pk}/webhooks/").content.decode()
    assert "by The Moderator" in html


def test_messages_that_name_another_moderator(moderator, league, make_user, revealed_round, make_players):
    other = make_user("second", forum_username="Second Mod")
    make_moderator(other)
    league.moderators.add(other)
    round_, _players = revealed_round(2, players=[moderator, *make_players(1)])
    with pytest.raises(ScoringForbidden) as refused:
        set_result(actor=moderator, match_id=match_between(round_, 1, 2).pk, points_a=4, points_b=1)
    assert "(Second Mod)" in str(refused.value)


def test_the_tiebreak_message_names_the_tied_players_by_forum_name(moderator, league, make_players):
    tied = make_players(2, prefix="t")
    now = timezone.now()
    round_ = builders.open_round(
        league=league,
        actor=moderator,
        now=now,
        title="Tie-break",
        hand_size=5,
        deadline=now + timedelta(days=2),
    )
    round_.eligible_players.set(tied)
    assert tiebreak_message(round_).endswith("open only to Forum t1, Forum t2.")


def test_the_forum_posts_and_csv_exports(client, challenged_round):
    round_, _players, _outsider = challenged_round
    exports = [
        f"/rounds/{round_.pk}/export/hands.bbcode",
        f"/api/rounds/{round_.pk}/export/bbcode/",
        f"/leagues/{round_.league_id}/export/standings.bbcode",
    ]
    for url in exports:
        text = client.get(url).content.decode()
        assert "Forum p1" in text and "Forum p2" in text, url
        assert logins_shown(text) == [], url
    for url in [f"/api/rounds/{round_.pk}/export/csv/", f"/leagues/{round_.league_id}/export/standings.csv"]:
        rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
        assert sorted(row["player"] for row in rows) == ["Forum p1", "Forum p2", "Forum p3"], url


def test_the_password_reset_email_greets_by_forum_name(client, db, password):
    register_player(
        username="alice_login", password=password, email="alice@example.org", forum_username="Alice_PHM"
    )
    client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    body = (
        Message.objects.get(kind="account.password_reset").body
        if Message.objects.exists()
        else mail.outbox[0].body
    )
    assert body.startswith("Hello Alice_PHM,")
    assert "Your username, in case you forgot it: alice_login" in body
