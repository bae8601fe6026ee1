"""Rule 4.2a: a moderator's "similar hand, in which any cards causing that hand to be illegal have been removed
or replaced" — it may be shorter than the hand size, never longer, and says which cards it removed or replaced,
for everyone once hands are public and for nobody else before."""

import pytest
import time_machine

from submissions.models import Hand, HandStatus
from submissions.services.review import review_hand
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand
from submissions.similar_hands import card_changes, describe_card_changes

from .conftest import KJELD, SCEPTER

pytestmark = pytest.mark.django_db


def as_user(api_client, user):
    api_client.force_authenticate(user)
    return api_client


@pytest.fixture
def kjeld_hand(open_round, alice, bob):
    submit_hand(player=bob, round_id=open_round.pk, name="Scepter", cards=SCEPTER, attested=EVERY_LISTED_RULE)
    return submit_hand(
        player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE
    ).hand


def test_card_changes_pair_replacements_and_list_removals():
    assert card_changes(["A", "B", "C"], ["A", "C"]) == {"removed": ["B"], "replaced": [], "added": []}
    assert card_changes(["A", "B", "C"], ["A", "D", "C"]) == {
        "removed": [],
        "replaced": [{"card": "B", "by": "D"}],
        "added": [],
    }
    changes = card_changes(["A", "B", "C"], ["D"])
    assert changes == {"removed": ["B", "C"], "replaced": [{"card": "A", "by": "D"}], "added": []}
    assert describe_card_changes(changes) == (
        "Replaced by a similar hand (rule 4.2a): A replaced by D; B removed; C removed."
    )


def test_a_moderator_may_replace_a_5_card_hand_by_4_cards(api_client, open_round, kjeld_hand, moderator):
    """Finding 1: today the 4-card similar hand is refused with wrong_count ("needs exactly 5")."""
    review = f"/api/hands/{kjeld_hand.pk}/review/"
    with time_machine.travel(open_round.deadline, tick=False):
        response = as_user(api_client, moderator).post(
            review,
            {"action": "replace", "cards": KJELD[:4], "message": "Wheel of Torture breaks 3.1"},
            format="json",
        )
        assert response.status_code == 200, response.content
        assert response.json()["cards"] == KJELD[:4]
        assert response.json()["replaced"] == (
            "Replaced by a similar hand (rule 4.2a): Wheel of Torture removed."
        )
        hands = api_client.get(f"/api/rounds/{open_round.pk}/hands/").json()
    kjeld_hand.refresh_from_db()
    assert kjeld_hand.status == HandStatus.REPLACED
    version = kjeld_hand.versions.get(is_current=True)
    assert version.cards == KJELD[:4] and version.source == "moderator"
    assert version.card_changes == {"removed": ["Wheel of Torture"], "replaced": [], "added": []}
    [row] = [row for row in hands if row["player"] == "alice"]
    assert row["cards"] == KJELD[:4]
    assert row["replaced"] == "Replaced by a similar hand (rule 4.2a): Wheel of Torture removed."
    assert row["card_changes"]["removed"] == ["Wheel of Torture"]
    [other] = [row for row in hands if row["player"] == "bob"]
    assert other["replaced"] is None and other["card_changes"] is None


def test_a_similar_hand_never_has_more_cards_than_the_hand_size_nor_none(
    api_client, open_round, kjeld_hand, moderator
):
    review = f"/api/hands/{kjeld_hand.pk}/review/"
    client = as_user(api_client, moderator)
    with time_machine.travel(open_round.deadline, tick=False):
        six = client.post(review, {"action": "replace", "cards": [*KJELD, "Karakas"]}, format="json")
        assert six.status_code == 400 and "at most the round's 5 cards" in six.json()["cards"][0]
        empty = client.post(review, {"action": "replace", "cards": []}, format="json")
        assert empty.status_code == 400
        illegal = client.post(review, {"action": "replace", "cards": ["Force of Will"]}, format="json")
        assert illegal.status_code == 400  # still judged by the round's rules, its size apart
    assert Hand.objects.get(pk=kjeld_hand.pk).status == HandStatus.SUBMITTED


def test_a_replacement_shows_on_the_round_page_and_in_the_hands_post(
    client, open_round, kjeld_hand, moderator
):
    ban_while_open(open_round, moderator, "Mishra's Workshop", "Wheel of Torture")
    with time_machine.travel(open_round.deadline, tick=False):
        review_hand(
            actor=moderator,
            hand_id=kjeld_hand.pk,
            action="replace",
            cards=[*KJELD[:3], "Ancient Tomb"],
        )
        page = client.get(f"/rounds/{open_round.pk}/").content.decode()
        post = client.get(f"/rounds/{open_round.pk}/export/hands.bbcode").content.decode()
    note = "Replaced by a similar hand (rule 4.2a): Mishra&#x27;s Workshop replaced by Ancient Tomb"
    assert note in page and "Wheel of Torture removed" in page
    assert "Mishra's Workshop replaced by Ancient Tomb; Wheel of Torture removed." in post


def test_a_replacement_note_is_secret_while_the_round_takes_hands(
    api_client, client, open_round, kjeld_hand, moderator, bob
):
    """Were the deadline moved back after a replacement, the note would show only to the hand's owner (and
    moderators): never to another player or anonymously, on the page or in the API."""
    with time_machine.travel(open_round.deadline, tick=False):
        review_hand(actor=moderator, hand_id=kjeld_hand.pk, action="replace", cards=KJELD[:4])
    hands = f"/api/rounds/{open_round.pk}/hands/"
    with time_machine.travel(open_round.deadline.replace(year=open_round.deadline.year - 1), tick=False):
        assert api_client.get(hands).status_code == 404
        assert as_user(api_client, bob).get(hands).status_code == 404
        mine = as_user(api_client, kjeld_hand.player).get(f"/api/rounds/{open_round.pk}/my-hand/").json()
        assert mine["replaced"].endswith("Wheel of Torture removed.")
        client.force_login(bob)
        page = client.get(f"/rounds/{open_round.pk}/").content.decode()
        assert "Wheel of Torture" not in page and "similar hand (rule 4.2a):" not in page


def test_the_review_page_counts_a_shorter_similar_hand_as_legal(client, open_round, kjeld_hand, moderator):
    client.force_login(moderator)
    with time_machine.travel(open_round.deadline, tick=False):
        review_hand(actor=moderator, hand_id=kjeld_hand.pk, action="replace", cards=KJELD[:4])
        page = client.get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
    assert "Illegal" not in page and "Wheel of Torture removed." in page


# Only the cards that make the hand illegal may change -------------------------------------------------------


def ban_while_open(round_, moderator, *cards):
    """The round bans `cards` while it is open (as a moderator may), making hands that hold them illegal."""
    from django.utils import timezone

    from rounds.services.lifecycle import update_round

    return update_round(
        actor=moderator, round_id=round_.pk, now=timezone.now(), changes={"extra_banned": list(cards)}
    )


def test_a_legal_hand_is_never_replaced_by_other_cards(api_client, open_round, kjeld_hand, moderator):
    """A hand the round's rules find legal could be 'replaced' by five unrelated legal cards: 4.2a only
    removes or replaces the cards causing it to be illegal, and the rules name none."""
    client = as_user(api_client, moderator)
    with time_machine.travel(open_round.deadline, tick=False):
        response = client.post(
            f"/api/hands/{kjeld_hand.pk}/review/", {"action": "replace", "cards": SCEPTER}, format="json"
        )
        assert response.status_code == 400
        [message] = response.json()["cards"]
        assert "may only leave cards out" in message and "Ancient Tomb" in message
        one_more = client.post(
            f"/api/hands/{kjeld_hand.pk}/review/",
            {"action": "replace", "cards": [*KJELD[:4], "Ancient Tomb"]},
            format="json",
        )
        assert one_more.status_code == 400
    assert Hand.objects.get(pk=kjeld_hand.pk).status == HandStatus.SUBMITTED


def test_a_similar_hand_keeps_every_card_that_is_not_illegal(api_client, open_round, kjeld_hand, moderator):
    ban_while_open(open_round, moderator, "Karakas")
    review = f"/api/hands/{kjeld_hand.pk}/review/"
    client = as_user(api_client, moderator)
    with time_machine.travel(open_round.deadline, tick=False):
        unrelated = client.post(review, {"action": "replace", "cards": SCEPTER}, format="json")
        assert unrelated.status_code == 400
        [message] = unrelated.json()["cards"]
        assert "Leyline of Singularity, Kjeldoran Warrior, Wheel of Torture must stay" in message
        assert "only Karakas may be removed or replaced" in message
        two_for_one = [KJELD[0], "Ancient Tomb", KJELD[2], KJELD[3]]
        too_many = client.post(
            review, {"action": "replace", "cards": [*two_for_one, "Sol Talisman"]}, format="json"
        )
        assert too_many.status_code == 400 and "Wheel of Torture must stay" in too_many.json()["cards"][0]
        replaced = client.post(
            review, {"action": "replace", "cards": [*two_for_one, KJELD[4]]}, format="json"
        )
        assert replaced.status_code == 200, replaced.content
    assert (
        replaced.json()["replaced"]
        == "Replaced by a similar hand (rule 4.2a): Karakas replaced by Ancient Tomb."
    )


def test_the_note_of_a_second_replacement_compares_it_with_the_players_own_hand(
    api_client, client, open_round, kjeld_hand, moderator
):
    """After two replacements the hands post said "Shivan Dragon removed" of a hand whose own version never
    held it: the note compared the second replacement with the first, a moderator's."""
    ban_while_open(open_round, moderator, "Karakas")
    with time_machine.travel(open_round.deadline, tick=False):
        first = [KJELD[0], "Shivan Dragon", *KJELD[2:]]
        review_hand(actor=moderator, hand_id=kjeld_hand.pk, action="replace", cards=first)
        second = [KJELD[0], *KJELD[2:]]
        review_hand(actor=moderator, hand_id=kjeld_hand.pk, action="replace", cards=second)
        post = client.get(f"/rounds/{open_round.pk}/export/hands.bbcode").content.decode()
        [row] = [
            row
            for row in api_client.get(f"/api/rounds/{open_round.pk}/hands/").json()
            if row["player"] == "alice"
        ]
    assert "Shivan Dragon" not in post
    assert "Replaced by a similar hand (rule 4.2a): Karakas removed." in post
    assert row["replaced"] == "Replaced by a similar hand (rule 4.2a): Karakas removed."
    assert row["card_changes"] == {"removed": ["Karakas"], "replaced": [], "added": []}
