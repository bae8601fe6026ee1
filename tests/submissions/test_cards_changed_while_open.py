"""Rule 4.2a before the deadline: when the cards an open round allows change (a ban added in the round edit or
the API, the banned lists re-synced, an accepted card withdrawn), the hands the change makes illegal are flagged
with a note naming their cards, and their players are told at once so they can change them; a hand that is
legal again when the ban is lifted loses that flag, and its player is told. Whoever changed the round learns
nothing of which hands, or how many: not from the answer, its queries, the round's history or their own
notifications."""

import json

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEntry
from audit.selectors import audit_trail
from outbox.models import Message, Notification
from phm.tasks import publishing_held
from rounds.models import BannedList
from rounds.services import catalog as catalog_services
from rounds.services.lifecycle import resync_banned_lists
from submissions import tasks
from submissions.models import Hand, HandReview, PendingHandCheck
from submissions.services.preview import declare_not_playing
from submissions.services.review import review_hand
from tests import builders

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db

KARAKAS_BANNED = "Karakas is on this round's additional banned list."


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def ban(client, round_, cards):
    return client.patch(f"/api/rounds/{round_.pk}/", {"extra_banned": cards}, format="json")


@pytest.fixture
def other_moderator(other_moderator, league):
    """A second moderator of the league (who may declare not to play and review early)."""
    league.moderators.add(other_moderator)
    return other_moderator


def hand_of(player, round_):
    return Hand.objects.get(round=round_, player=player)


def test_a_ban_added_to_an_open_round_flags_the_hands_it_makes_illegal_and_tells_their_players(
    django_capture_on_commit_callbacks, client, open_round, moderator, alice, bob
):
    builders.submit(alice, open_round, KJELD, name="Kjeld")
    builders.submit(bob, open_round, SCEPTER, name="Scepter")
    Notification.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        response = ban(api(moderator), open_round, ["Karakas"])
    assert response.status_code == 200, response.content
    flagged = hand_of(alice, open_round)
    assert flagged.flagged and flagged.flagged_by_rules
    assert KARAKAS_BANNED in flagged.flag_message and "before the deadline" in flagged.flag_message
    assert not hand_of(bob, open_round).flagged
    [review] = HandReview.objects.all()
    assert (review.hand_id, review.action, review.moderator) == (flagged.pk, "flag", None)
    [notice] = Notification.objects.all()
    assert (notice.recipient, notice.kind) == (alice, "hand.review") and "no longer legal" in notice.text
    [mail] = Message.objects.filter(kind="hand.review")
    assert mail.recipient == alice and mail.secret and KARAKAS_BANNED in mail.body
    client.force_login(alice)
    page = client.get(f"/rounds/{open_round.pk}/my-hand/").content.decode()
    assert "This hand is no longer legal (rule 4.2a):" in page and "Karakas is on this round" in page
    mine = api(alice).get(f"/api/rounds/{open_round.pk}/my-hand/").json()
    assert mine["flagged"] and "Karakas" in mine["flag_message"]
    assert not PendingHandCheck.objects.exists()


def test_lifting_the_ban_lifts_the_flag_it_set_and_tells_the_player_but_never_a_moderators_flag(
    django_capture_on_commit_callbacks, open_round, moderator, other_moderator, alice, bob
):
    builders.submit(alice, open_round, KJELD)
    builders.submit(bob, open_round, KJELD)
    declare_not_playing(moderator=other_moderator, round_id=open_round.pk)
    review_hand(
        actor=other_moderator, hand_id=hand_of(bob, open_round).pk, action="flag", message="Breaks 3.1"
    )
    with django_capture_on_commit_callbacks(execute=True):
        ban(api(moderator), open_round, ["Karakas"])
    bobs = hand_of(bob, open_round)
    assert bobs.flagged and not bobs.flagged_by_rules
    assert bobs.flag_message.startswith("Breaks 3.1\n\n") and KARAKAS_BANNED in bobs.flag_message
    Notification.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        ban(api(moderator), open_round, [])
    alices = hand_of(alice, open_round)
    assert not alices.flagged and not alices.flagged_by_rules and alices.flag_message == ""
    assert HandReview.objects.filter(hand=alices).values_list("action", "moderator").last() == (
        "unflag",
        None,
    )
    [notice] = Notification.objects.all()
    assert notice.recipient == alice and "legal again" in notice.text
    assert hand_of(bob, open_round).flagged  # the moderator's flag is theirs to lift


def test_a_flag_is_not_repeated_and_an_edit_lifts_it(
    django_capture_on_commit_callbacks, open_round, moderator, alice
):
    builders.submit(alice, open_round, KJELD)
    with django_capture_on_commit_callbacks(execute=True):
        ban(api(moderator), open_round, ["Karakas"])
        ban(api(moderator), open_round, ["Karakas", "Black Lotus"])  # changes nothing for Alice's hand
    assert HandReview.objects.count() == 1 and Notification.objects.filter(kind="hand.review").count() == 1
    builders.submit(alice, open_round, SCEPTER)
    alices = hand_of(alice, open_round)
    assert not alices.flagged and not alices.flagged_by_rules


def test_a_resync_and_a_withdrawn_accepted_card_flag_hands_too(
    django_capture_on_commit_callbacks, open_round, moderator, alice, bob
):
    catalog_services.accept_unknown_card(
        open_round, name="Brand New Card of 2026", by=moderator, reason="Spoiled", not_in_catalog=True
    )
    builders.submit(alice, open_round, ["Brand New Card of 2026", *KJELD[:4]])
    builders.submit(bob, open_round, SCEPTER)
    accepted = open_round.accepted_cards.get()
    with django_capture_on_commit_callbacks(execute=True):
        catalog_services.withdraw_accepted_card(open_round, card_id=accepted.pk, by=moderator)
    assert "Brand New Card of 2026" in hand_of(alice, open_round).flag_message
    phm = BannedList.objects.get(key=BannedList.PHM)
    catalog_services.add_banned_card(phm, card_name="Lodestone Golem", category="acceleration", by=moderator)
    with django_capture_on_commit_callbacks(execute=True):
        resync_banned_lists(actor=moderator, round_id=open_round.pk, now=timezone.now())
    assert "Lodestone Golem is on the PHM Banned List" in hand_of(bob, open_round).flag_message


def test_the_moderator_who_bans_learns_nothing_of_the_hands_it_flags(
    django_capture_on_commit_callbacks, client, league, moderator, alice, bob
):
    """The same ban in two rounds where the moderator plays: in one it makes two hands illegal, in the other
    none. The answers, the queries the change runs, the round's history, the moderator's notifications and
    pages are the same; only the players of those hands hear of them."""
    caught, legal = (
        builders.open_round(league=league, actor=moderator),
        builders.open_round(league=league, actor=moderator),
    )
    for round_, cards in ((caught, KJELD), (legal, SCEPTER)):
        builders.submit_hands(round_, [alice, bob], cards)
        builders.submit(moderator, round_, SCEPTER)
        with django_capture_on_commit_callbacks(execute=True):
            ban(api(moderator), round_, ["Black Lotus"])  # warms every cache the change uses
    answers, counts = {}, {}
    for round_ in (caught, legal):
        with (
            django_capture_on_commit_callbacks(execute=False) as callbacks,
            CaptureQueriesContext(connection) as queries,
        ):
            response = ban(api(moderator), round_, ["Black Lotus", "Karakas"])
        assert response.status_code == 200
        answers[round_.pk], counts[round_.pk] = response.json(), len(queries)
        for callback in callbacks:
            callback()
    assert counts[caught.pk] == counts[legal.pk]
    assert set(answers[caught.pk]) == set(answers[legal.pk])
    assert "flag" not in json.dumps(answers[caught.pk]).lower()
    assert Hand.objects.filter(round=caught, flagged=True).count() == 2
    assert not Hand.objects.filter(round=legal, flagged=True).exists()
    assert [entry.action for entry in audit_trail(caught)] == [entry.action for entry in audit_trail(legal)]
    assert not AuditEntry.objects.filter(actor=moderator, action="hand.flag").exists()
    assert not Notification.objects.filter(recipient=moderator, kind="hand.review").exists()
    assert not Message.objects.filter(recipient=moderator, kind="hand.review").exists()
    client.force_login(moderator)
    for url in (f"/moderate/rounds/{caught.pk}/", "/my/", "/notifications/", f"/rounds/{caught.pk}/"):
        page = client.get(url).content.decode()
        assert "Karakas is on this round" not in page and "no longer legal" not in page.lower(), url
    assert api(moderator).get(f"/api/rounds/{caught.pk}/hands/").status_code == 404
    with time_machine.travel(caught.deadline, tick=False):
        rows = api(moderator).get(f"/api/rounds/{caught.pk}/hands/").json()
    assert not any(row["decided_by_player"] for row in rows)  # the site flagged them, no moderator who plays


def test_a_moderator_who_declared_not_to_play_sees_the_flags_in_the_review(
    django_capture_on_commit_callbacks, client, open_round, moderator, other_moderator, alice
):
    builders.submit(alice, open_round, KJELD)
    with django_capture_on_commit_callbacks(execute=True):
        ban(api(moderator), open_round, ["Karakas"])
    declare_not_playing(moderator=other_moderator, round_id=open_round.pk)
    client.force_login(other_moderator)
    page = client.get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
    assert "Flag (by the site, when the round's cards changed):" in page and "Karakas is on this" in page


def test_a_lost_task_is_done_by_the_backstop(
    django_capture_on_commit_callbacks, open_round, moderator, alice
):
    builders.submit(alice, open_round, KJELD)
    with publishing_held(), django_capture_on_commit_callbacks(execute=True):
        ban(api(moderator), open_round, ["Karakas"])
    assert not hand_of(alice, open_round).flagged
    assert PendingHandCheck.objects.filter(round=open_round).exists()
    assert tasks.check_due_hands() == {"checked": [open_round.pk]}
    assert hand_of(alice, open_round).flagged and not PendingHandCheck.objects.exists()


def test_past_the_deadline_the_hands_are_left_to_the_moderators_review(
    django_capture_on_commit_callbacks, open_round, moderator, alice
):
    builders.submit(alice, open_round, KJELD)
    with publishing_held(), django_capture_on_commit_callbacks(execute=True):
        ban(api(moderator), open_round, ["Karakas"])
    with time_machine.travel(open_round.deadline, tick=False):
        tasks.check_due_hands()
    assert not hand_of(alice, open_round).flagged and not PendingHandCheck.objects.exists()
