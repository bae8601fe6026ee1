"""A moderator's review powers are never self-serving: their own hand is never changed by a review of their own
(refused always, even for a league's only moderator); in a round they play in, the other hands are reviewed by
someone else who can manage the league (403 naming who) and, where nobody else can, the review is allowed and
shown publicly ("decided by a moderator who played this round"). A replacement is always named as one, and the
published commitment stays the player's own."""

import hashlib

import pytest
import time_machine
from django.contrib.auth.models import Group
from django.test import Client
from rest_framework.test import APIClient

from accounts.services import make_moderator
from rounds.permissions import others_who_can_manage
from rounds.services.leagues import create_league
from scoring import services as scoring
from scoring.models import Match, MatchStatus
from submissions.models import Hand, HandStatus, HandVersion
from tests import builders

from .conftest import KJELD, SCEPTER, VOID

pytestmark = pytest.mark.django_db

ACTIONS = {
    "flag": {"message": "Illegal"},
    "unflag": {},
    "notice": {"message": "Cannot win"},
    "rename": {"name": "Mine now"},
    "disqualify": {"message": "Out"},
    "replace": {"cards": VOID[:4], "message": "Better"},
}


def api_as(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def page_as(user=None):
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser


def submit(player, round_, cards, name=""):
    return builders.submit(player, round_, cards, name=name)


@pytest.fixture
def played(open_round, moderator, alice, bob):
    """The moderator plays hand 01 (VOID); alice 02 (KJELD), bob 03 (SCEPTER). Returns the submissions."""
    return {
        "mod": submit(moderator, open_round, VOID, "Void"),
        "alice": submit(alice, open_round, KJELD, "Kjeld"),
        "bob": submit(bob, open_round, SCEPTER, "Scepter"),
    }


@pytest.fixture
def second_moderator(make_user, league):
    user = make_user("second", forum_username="Second Moderator")
    make_moderator(user)
    league.moderators.add(user)
    return user


def review(user, hand, action, **extra):
    body = {"action": action, **ACTIONS[action], **extra}
    return api_as(user).post(f"/api/hands/{hand.pk}/review/", body, format="json")


def hands_list(round_):
    return {row["player"]: row for row in APIClient().get(f"/api/rounds/{round_.pk}/hands/").json()}


def verifies(row, username, round_, version, name, cards):
    """The published commitment and nonce prove `cards` (the player's own), by SHA-256 of the canonical text."""
    text = "\n".join(
        [
            "PHM hand commitment v1",
            f"round: {round_.pk}",
            f"player: {username}",
            f"version: {version}",
            f"name: {name}",
            f"cards: {' / '.join(cards)}",
            f"nonce: {row['nonce']}",
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest() == row["commitment"]


# The playing moderator's own hand ---------------------------------------------------------------------------


def test_a_playing_moderator_cannot_replace_their_own_hand_after_the_reveal(open_round, moderator, played):
    """As the tester did: POST /api/hands/{own}/review/ {"action": "replace"} answered 200 and the new cards
    were published as the player's own, with a fresh post-deadline commitment and "replaced": null."""
    own = played["mod"].hand
    with time_machine.travel(open_round.deadline, tick=False):
        response = review(moderator, own, "replace")
        assert response.status_code == 403, response.content
        assert "your own hand" in response.json()["detail"]
        row = hands_list(open_round)["mod"]
        page = page_as().get(f"/rounds/{open_round.pk}/").content.decode()
    assert row["cards"] == VOID and row["replaced"] is None and row["status"] == "submitted"
    assert row["commitment"] == played["mod"].version.commitment
    assert verifies(row, "mod", open_round, 1, "Void", VOID)
    assert HandVersion.objects.filter(hand=own).count() == 1
    assert "Replaced by a similar hand" not in page


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_sole_moderator_never_reviews_their_own_hand(open_round, moderator, played, action):
    own = played["mod"].hand
    Hand.objects.filter(pk=own.pk).update(flagged=True, flag_message="Earlier")
    with time_machine.travel(open_round.deadline, tick=False):
        response = review(moderator, own, action)
    assert response.status_code == 403, response.content
    assert "your own hand" in response.json()["detail"] and "only moderator" in response.json()["detail"]
    own.refresh_from_db()
    assert (own.status, own.name, own.notice, own.flagged, own.flag_message) == (
        HandStatus.SUBMITTED,
        "Void",
        "",
        True,
        "Earlier",
    )
    assert not own.reviews.exists() and own.versions.count() == 1


def test_the_own_hand_refusal_names_who_can_review_it(open_round, moderator, played, second_moderator):
    with time_machine.travel(open_round.deadline, tick=False):
        response = review(moderator, played["mod"].hand, "disqualify")
        assert response.status_code == 403 and "Second Moderator" in response.json()["detail"]
        assert review(second_moderator, played["mod"].hand, "disqualify").status_code == 200


def test_a_playing_moderator_still_cannot_see_hands_before_the_deadline(open_round, moderator, played):
    for hand in (played["mod"].hand, played["alice"].hand):
        assert review(moderator, hand, "flag").status_code == 404


# Opponents' hands -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["disqualify", "replace", "flag", "notice", "rename", "unflag"])
def test_a_playing_moderator_cannot_review_an_opponent_while_another_moderator_can(
    open_round, moderator, played, second_moderator, action
):
    alice_hand = played["alice"].hand
    extra = {"cards": KJELD[:4]} if action == "replace" else {}
    with time_machine.travel(open_round.deadline, tick=False):
        response = review(moderator, alice_hand, action, **extra)
        assert response.status_code == 403, response.content
        detail = response.json()["detail"]
        assert (
            "you play in it" in detail and "Ask another moderator of this league (Second Moderator)" in detail
        )
        alice_hand.refresh_from_db()
        assert alice_hand.status == HandStatus.SUBMITTED and not alice_hand.reviews.exists()
        # The other moderator may, and nothing marks it.
        assert review(second_moderator, alice_hand, action, **extra).status_code == 200
        assert hands_list(open_round)["alice"]["decided_by_player"] is False


def test_disqualifying_the_opponent_of_a_disputed_match_is_not_the_playing_moderators_call(
    open_round, moderator, alice, played, second_moderator
):
    """As the tester did: the moderator lost to hand 02, disputed it, and disqualified hand 02 — which took the
    disputed match out of the table."""
    with time_machine.travel(open_round.deadline, tick=False):
        scoring.build_match_table(open_round.pk)
        match = Match.objects.get(round=open_round, hand_a__player=moderator, hand_b__player=alice)
        scoring.report_match(reporter=alice, match_id=match.pk, points_a=0, points_b=6)
        scoring.report_match(reporter=moderator, match_id=match.pk, points_a=6, points_b=0)
        assert review(moderator, played["alice"].hand, "disqualify").status_code == 403
        match.refresh_from_db()
        assert match.status == MatchStatus.DISPUTED
        assert scoring.matches_in_table(open_round.pk).filter(pk=match.pk).exists()


def test_in_a_league_naming_no_moderator_every_site_moderator_is_another_moderator(
    open_round, league, moderator, played, other_moderator, make_user
):
    league.moderators.clear()
    with time_machine.travel(open_round.deadline, tick=False):
        response = review(moderator, played["alice"].hand, "disqualify")
        assert response.status_code == 403 and "Other Moderator" in response.json()["detail"]
        for number in range(3):
            make_moderator(make_user(f"site{number}", forum_username=f"Site {number}"))
        detail = review(moderator, played["alice"].hand, "replace", cards=KJELD[:4]).json()["detail"]
        assert "or any other site moderator" in detail
        assert review(other_moderator, played["alice"].hand, "disqualify").status_code == 200


def test_a_plain_player_and_another_leagues_moderator_are_refused_as_before(
    open_round, played, alice, other_moderator, make_user
):
    elsewhere = make_user("elsewhere")
    make_moderator(elsewhere)
    create_league(actor=elsewhere, name="League 46", moderators=[elsewhere])
    with time_machine.travel(open_round.deadline, tick=False):
        for user in (alice, other_moderator, elsewhere):
            for hand in (played["bob"].hand, played["alice"].hand):
                response = review(user, hand, "disqualify")
                assert response.status_code == 403
                assert response.json()["detail"] == "Only a moderator of this league can review hands."
    assert not Hand.objects.filter(status=HandStatus.DISQUALIFIED).exists()


def test_the_sole_moderator_of_the_site_may_and_it_is_shown_with_the_hand_match_and_round(
    open_round, moderator, played, alice
):
    with time_machine.travel(open_round.deadline, tick=False):
        scoring.build_match_table(open_round.pk)
        response = review(moderator, played["alice"].hand, "disqualify", message="Two Leylines")
        assert response.status_code == 200, response.content
        rows = hands_list(open_round)
        round_page = page_as().get(f"/rounds/{open_round.pk}/").content.decode()
        match = Match.objects.get(round=open_round, hand_a__player=moderator, hand_b__player=alice)
        match_page = page_as().get(f"/matches/{match.pk}/").content.decode()
        results = page_as().get(f"/rounds/{open_round.pk}/results/").content.decode()
    assert rows["alice"]["decided_by_player"] is True and rows["bob"]["decided_by_player"] is False
    assert rows["mod"]["decided_by_player"] is False
    assert round_page.count("decided by a moderator who played this round") == 1
    assert "Disqualified (4.2a) by The Moderator: decided by a moderator who played this round" in match_page
    assert (
        "Decided by a moderator who played" in results and "disqualified (4.2a) by The Moderator" in results
    )


def test_the_review_page_offers_only_what_the_moderator_may_do(
    open_round, moderator, played, league, make_user
):
    with time_machine.travel(open_round.deadline, tick=False):
        alone = page_as(moderator).get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
        second = make_user("second", forum_username="Second Moderator")
        make_moderator(second)
        league.moderators.add(second)
        refused = page_as(moderator).get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
        theirs = page_as(second).get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
    own, alice, bob = (played[name].hand.pk for name in ("mod", "alice", "bob"))
    # Alone: the other hands' forms, and what that means; never the own hand's.
    assert 'id="plays-alone"' in alone and "decided by a moderator who played this round" in alone
    assert (
        f'action="/moderate/hands/{own}/review/"' not in alone
        and f'action="/moderate/hands/{alice}/review/"' in alone
    )
    # With another moderator: no form at all, and who to ask.
    for hand in (own, alice, bob):
        assert f'action="/moderate/hands/{hand}/review/"' not in refused
    assert "Ask another moderator of this league (Second Moderator)" in refused
    for hand in (own, alice, bob):
        assert f'action="/moderate/hands/{hand}/review/"' in theirs


# Replacements -----------------------------------------------------------------------------------------------


def test_a_replacement_is_named_and_the_players_own_commitment_is_the_one_published(
    open_round, second_moderator, played
):
    with time_machine.travel(open_round.deadline, tick=False):
        response = review(second_moderator, played["alice"].hand, "replace", cards=KJELD[:4])
        assert response.status_code == 200, response.content
        row = hands_list(open_round)["alice"]
        page = page_as().get(f"/rounds/{open_round.pk}/").content.decode()
    assert row["cards"] == KJELD[:4] and row["status"] == "replaced"
    assert row["replaced"] == "Replaced by a similar hand (rule 4.2a): Wheel of Torture removed."
    assert row["card_changes"] == {"removed": ["Wheel of Torture"], "replaced": [], "added": []}
    assert row["decided_by_player"] is False  # the second moderator plays no hand
    # The commitment and nonce published are those of alice's own last version, and prove her own cards.
    assert row["commitment"] == played["alice"].version.commitment
    assert verifies(row, "alice", open_round, 1, "Kjeld", KJELD)
    assert not verifies(row, "alice", open_round, 2, "Kjeld", KJELD[:4])
    assert "Wheel of Torture removed" in page
    made = HandVersion.objects.get(hand=played["alice"].hand, number=2)
    assert made.source == HandVersion.Source.MODERATOR and made.created_by == second_moderator


def test_versions_a_moderator_made_of_their_own_hand_are_marked_as_theirs(open_round, moderator, played):
    """Data stored before the fix: the replacement of a moderator's own hand was saved as a player version."""
    import importlib

    from django.apps import apps

    from rounds.models.audit import log_action

    own = played["mod"].hand
    HandVersion.objects.filter(hand=own).update(is_current=False)
    made = HandVersion.objects.create(
        hand=own,
        number=2,
        name="Void",
        cards=VOID[:4],
        nonce="0" * 64,
        commitment="1" * 64,
        source=HandVersion.Source.PLAYER,
        created_by=moderator,
        submitted_at=open_round.deadline,
        card_changes={"removed": [VOID[4]], "replaced": [], "added": []},
    )
    log_action(own, "hand.replace", actor=moderator, after={"status": "replaced", "version": 2})
    migration = importlib.import_module("submissions.migrations.0010_mark_similar_hands_made_by_their_player")
    migration.mark(apps, None)
    made.refresh_from_db()
    assert made.source == HandVersion.Source.MODERATOR
    assert HandVersion.objects.get(hand=own, number=1).source == HandVersion.Source.PLAYER
    with time_machine.travel(open_round.deadline, tick=False):
        row = hands_list(open_round)["mod"]
    assert row["commitment"] == played["mod"].version.commitment
    assert row["replaced"] == f"Replaced by a similar hand (rule 4.2a): {VOID[4]} removed."


# Who else can manage a league -------------------------------------------------------------------------------


def test_others_who_can_manage_are_those_can_manage_league_allows(
    league, moderator, other_moderator, make_user, user_model
):
    assert not others_who_can_manage(league, moderator)  # League 45 names only the moderator
    named = make_user("named", forum_username="Named")
    league.moderators.add(named)
    assert not others_who_can_manage(league, moderator)  # named, but no longer a moderator of the site
    make_moderator(named)
    admin = user_model.objects.create_superuser("admin", "admin@example.org", "x")
    assert others_who_can_manage(league, moderator).names == ("admin", "Named")
    admin.is_active = False
    admin.save()
    Group.objects.get(name="moderators").user_set.remove(named)
    assert not others_who_can_manage(league, moderator)
    league.moderators.clear()  # now every site moderator manages it
    assert str(others_who_can_manage(league, moderator)) == "Other Moderator"
