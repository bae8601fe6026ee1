import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.selectors import audit_trail
from submissions.models import Hand, HandStatus
from submissions.services.preview import declare_not_playing
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand

from .conftest import KJELD, SCEPTER, VOID

pytestmark = pytest.mark.django_db


def url(round_):
    return f"/api/rounds/{round_.pk}/my-hand/"


def client_for(user):
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    return browser


def as_user(api_client, user):
    api_client.force_authenticate(user)
    return api_client


def test_put_201_first_then_200_on_change(api_client, open_round, alice):
    client = as_user(api_client, alice)
    first = client.put(
        url(open_round), {"name": "The Might of Kjeld", "cards": KJELD, "attest": True}, format="json"
    )
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["cards"] == KJELD and body["version"] == 1 and body["name"] == "The Might of Kjeld"
    assert len(body["commitment"]) == 64 and body["submitted_at"]
    second = client.put(
        url(open_round),
        {"name": "Scepter Tricks", "list": " / ".join(SCEPTER), "attest": True},
        format="json",
    )
    assert second.status_code == 200 and second.json()["version"] == 2 and second.json()["cards"] == SCEPTER
    mine = client.get(url(open_round))
    assert mine.status_code == 200 and mine.json()["commitment"] == second.json()["commitment"]


def test_put_400_lists_problems_per_card(api_client, open_round, alice):
    response = as_user(api_client, alice).put(
        url(open_round),
        {"name": "", "cards": ["Karakass", *KJELD[1:4], "Force of Will"], "attest": True},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_hand"
    assert body["cards"][0] == {
        "index": 0,
        "input": "Karakass",
        "problem": body["cards"][0]["problem"],
        "code": "fuzzy_match",
        "suggestions": body["cards"][0]["suggestions"],
    }
    assert body["cards"][0]["suggestions"][0] == "Karakas"
    assert body["cards"][1]["index"] == 4 and "PHM Banned List" in body["cards"][1]["problem"]


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"cards": "Karakas"},
        {"cards": [1, 2]},
        {"list": 5},
        {"name": ["x"], "cards": KJELD},
        {"cards": [None]},
    ],
)
def test_put_malformed_input_is_a_400_never_a_500(api_client, open_round, alice, payload):
    response = as_user(api_client, alice).put(url(open_round), payload, format="json")
    assert response.status_code == 400


def test_put_after_the_deadline_is_409(api_client, open_round, alice):
    with time_machine.travel(open_round.deadline, tick=False):
        response = as_user(api_client, alice).put(
            url(open_round), {"cards": KJELD, "attest": True}, format="json"
        )
    assert response.status_code == 409
    assert response.json()["code"] == "conflict" and "closed" in response.json()["detail"]


def test_anonymous_gets_401_and_no_hand_is_404(api_client, open_round, alice):
    assert api_client.put(url(open_round), {"cards": KJELD}, format="json").status_code == 401
    assert as_user(api_client, alice).get(url(open_round)).status_code == 404
    assert api_client.get("/api/rounds/999999/my-hand/").status_code == 404


def test_round_hands_are_404_before_the_deadline_except_for_a_non_playing_moderator(
    api_client, open_round, alice, bob, moderator, other_moderator
):
    submit_hand(player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE)
    hands_url = f"/api/rounds/{open_round.pk}/hands/"
    assert api_client.get(hands_url).status_code == 404
    assert as_user(api_client, bob).get(hands_url).status_code == 404
    assert as_user(api_client, alice).get(hands_url).status_code == 404
    # other_moderator does not moderate League 45: a site moderator of another league learns nothing.
    assert as_user(api_client, other_moderator).get(hands_url).status_code == 404
    assert as_user(api_client, moderator).get(hands_url).status_code == 409  # declare first
    assert as_user(api_client, moderator).post(f"/api/rounds/{open_round.pk}/preview/").status_code == 200
    seen = as_user(api_client, moderator).get(hands_url)
    assert seen.status_code == 200
    assert seen.json()[0]["cards"] == KJELD and seen.json()[0]["nonce"] is None  # nonces wait for the reveal


def test_a_playing_moderator_sees_no_other_hand_before_the_deadline(
    api_client, client, open_round, alice, moderator
):
    submit_hand(player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE)
    submit_hand(player=moderator, round_id=open_round.pk, name="Mine", cards=VOID, attested=EVERY_LISTED_RULE)
    client = as_user(api_client, moderator)
    assert client.get(f"/api/rounds/{open_round.pk}/hands/").status_code == 404
    alice_hand = Hand.objects.get(player=alice)
    response = client.post(
        f"/api/hands/{alice_hand.pk}/review/", {"action": "flag", "message": "x"}, format="json"
    )
    assert response.status_code == 404
    browser = client_for(moderator)
    assert browser.get(f"/moderate/rounds/{open_round.pk}/hands/").status_code == 403
    assert "Kjeld" not in browser.get(open_round.get_absolute_url()).content.decode()
    with time_machine.travel(open_round.deadline, tick=False):
        assert client.get(f"/api/rounds/{open_round.pk}/hands/").status_code == 200


def test_after_the_deadline_everyone_sees_every_hand_with_nonce(api_client, open_round, alice, bob):
    submit_hand(player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE)
    submit_hand(player=bob, round_id=open_round.pk, name="Scepter", cards=SCEPTER, attested=EVERY_LISTED_RULE)
    with time_machine.travel(open_round.deadline, tick=False):
        with CaptureQueriesContext(connection) as ctx:
            response = api_client.get(f"/api/rounds/{open_round.pk}/hands/")
        queries = len(ctx.captured_queries)
    assert response.status_code == 200
    body = response.json()
    assert [(h["number"], h["player"], h["name"], h["status"]) for h in body] == [
        (1, "alice", "Kjeld", "submitted"),
        (2, "bob", "Scepter", "submitted"),
    ]
    assert all(len(h["nonce"]) == 64 for h in body)
    from submissions.commitments import matches

    assert all(matches(h["committed_text"], h["commitment"]) for h in body)
    assert queries <= 4


def test_review_flag_notifies_the_player_and_is_audited(
    api_client, open_round, alice, moderator, mailoutbox, django_capture_on_commit_callbacks
):
    hand = submit_hand(
        player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE
    ).hand
    declare_not_playing(moderator=moderator, round_id=open_round.pk)
    client = as_user(api_client, moderator)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/hands/{hand.pk}/review/",
            {"action": "flag", "message": "Breaks 3.1 on the play."},
            format="json",
        )
    assert response.status_code == 200, response.content
    assert response.json()["flagged"] is True
    assert mailoutbox[-1].to == ["alice@example.org"] and "Breaks 3.1" in mailoutbox[-1].body
    entry = audit_trail(hand).get(action="hand.flag")
    assert entry.actor == moderator and entry.after["flag_message"] == "Breaks 3.1 on the play."
    # The player sees it on the site too.
    mine = as_user(api_client, alice).get(url(open_round)).json()
    assert mine["flagged"] and mine["flag_message"] == "Breaks 3.1 on the play."


def test_disqualify_and_replace_are_409_before_the_deadline_and_work_after(
    api_client, open_round, alice, moderator
):
    hand = submit_hand(
        player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE
    ).hand
    declare_not_playing(moderator=moderator, round_id=open_round.pk)
    client = as_user(api_client, moderator)
    review = f"/api/hands/{hand.pk}/review/"
    assert client.post(review, {"action": "disqualify", "message": "x"}, format="json").status_code == 409
    assert client.post(review, {"action": "replace", "cards": SCEPTER}, format="json").status_code == 409
    assert (
        client.post(review, {"action": "rename", "name": "Kjeld's Might"}, format="json").status_code == 200
    )
    with time_machine.travel(open_round.deadline, tick=False):
        replaced = client.post(
            review, {"action": "replace", "cards": KJELD[:4], "message": "3.1"}, format="json"
        )
        assert replaced.status_code == 200 and replaced.json()["cards"] == KJELD[:4]
        assert client.post(review, {"action": "disqualify", "message": "x"}, format="json").status_code == 200
        bad = client.post(review, {"action": "replace", "cards": ["Force of Will"] * 5}, format="json")
        assert bad.status_code == 400 and bad.json()["cards"][0]["index"] == 0
        assert client.post(review, {"action": "explode"}, format="json").status_code == 400
    hand.refresh_from_db()
    assert hand.status == HandStatus.DISQUALIFIED and hand.name == "Kjeld's Might"
    assert [v.source for v in hand.versions.order_by("number")] == ["player", "moderator"]
    actions = [e.action for e in audit_trail(hand)]
    assert actions[:3] == ["hand.disqualify", "hand.replace", "hand.rename"]
    rename = audit_trail(hand).get(action="hand.rename")
    assert (rename.before, rename.after) == ({"name": "Kjeld"}, {"name": "Kjeld's Might"})


def test_review_by_a_player_is_404_before_and_403_after_the_deadline(api_client, open_round, alice, bob):
    hand = submit_hand(
        player=alice, round_id=open_round.pk, name="Kjeld", cards=KJELD, attested=EVERY_LISTED_RULE
    ).hand
    client = as_user(api_client, bob)
    review = f"/api/hands/{hand.pk}/review/"
    assert client.post(review, {"action": "flag", "message": "x"}, format="json").status_code == 404
    assert client.post("/api/hands/999999/review/", {"action": "flag"}, format="json").status_code == 404
    with time_machine.travel(open_round.deadline, tick=False):
        assert client.post(review, {"action": "flag", "message": "x"}, format="json").status_code == 403


def test_put_uses_a_bounded_number_of_queries(api_client, open_round, alice):
    client = as_user(api_client, alice)
    client.put(url(open_round), {"name": "K", "cards": KJELD, "attest": True}, format="json")
    with CaptureQueriesContext(connection) as ctx:
        response = client.put(url(open_round), {"name": "S", "cards": SCEPTER, "attest": True}, format="json")
    queries = len(ctx.captured_queries)
    assert response.status_code == 200
    # Round (shared lock, with the moderator-preview check and, on PostgreSQL, its league's name and number:
    # the receipt's subject names the round), the cards' rows (unless the catalog memo already has them), hand
    # (locked), lower the current version (returning it), then the hand, the new version, the audit entry and
    # the receipt's outbox message — on PostgreSQL in one statement — plus the savepoints of the test's
    # transaction: nothing grows with the cards or with the other hands. (tests/submissions/test_put_cost.py
    # pins the exact statements of a PUT with its token.)
    most = 7 if connection.vendor == "postgresql" else 10
    assert queries <= most, [q["sql"][:80] for q in ctx.captured_queries]
