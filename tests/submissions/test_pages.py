import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from submissions import services
from submissions.models import Hand, HandVersion
from tests import builders

from .conftest import KJELD, SCEPTER, VOID

pytestmark = pytest.mark.django_db


def form_data(cards, name="The Might of Kjeld", attest=True, **extra):
    data = {f"card_{n}": card for n, card in enumerate(cards, start=1)}
    data["name"] = name
    if attest:
        data["attest"] = "on"
    return {**data, **extra}


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


def test_round_page_offers_submission_to_players_and_login_to_visitors(client, open_round, alice):
    assert "Log in to submit a hand" in client.get(open_round.get_absolute_url()).content.decode()
    client.force_login(alice)
    page = client.get(open_round.get_absolute_url()).content.decode()
    assert "Submit your hand" in page and f"/rounds/{open_round.pk}/my-hand/" in page


def test_form_shows_one_field_per_card_and_the_rules_to_attest(alice_client, open_round):
    response = alice_client.get(f"/rounds/{open_round.pk}/my-hand/")
    page = response.content.decode()
    assert response.status_code == 200
    assert all(f'name="card_{n}"' in page for n in range(1, 6)) and 'name="card_6"' not in page
    assert "3.1 — My hand cannot" in page and "7.5b" not in page
    assert "no-store" in response["Cache-Control"]


def test_submitting_redirects_to_the_receipt(alice_client, open_round):
    response = alice_client.post(f"/rounds/{open_round.pk}/my-hand/", form_data(KJELD))
    assert response.status_code == 302
    assert response["Location"] == f"/rounds/{open_round.pk}/my-hand/versions/1/"
    receipt = alice_client.get(response["Location"]).content.decode()
    version = HandVersion.objects.get()
    assert version.commitment in receipt and "Wheel of Torture" in receipt
    assert "Your hand is submitted: version 1." in receipt


def test_a_typo_is_shown_beside_its_card_with_a_suggestion_and_nothing_is_lost(alice_client, open_round):
    cards = ["Leyline of Singularity", "Karakass", *KJELD[2:]]
    response = alice_client.post(f"/rounds/{open_round.pk}/my-hand/", form_data(cards, name="Keep me"))
    page = response.content.decode()
    assert response.status_code == 400
    assert "Did you mean “Karakas”?" in page and 'data-card-name="Karakas"' in page
    assert 'value="Karakass"' in page and 'value="Keep me"' in page and 'value="Wheel of Torture"' in page
    assert not Hand.objects.exists()


def test_the_attestation_is_required(alice_client, open_round):
    response = alice_client.post(f"/rounds/{open_round.pk}/my-hand/", form_data(KJELD, attest=False))
    assert response.status_code == 400
    assert "Confirm that your hand follows the rules" in response.content.decode()
    assert not Hand.objects.exists()


def test_paste_fills_the_card_fields_without_saving(alice_client, open_round):
    paste = "Ancient Tomb / Gustha's Scepter / Lodestone Golem / Mishra's Workshop / Sphere of Resistance / Karakas"
    response = alice_client.post(
        f"/rounds/{open_round.pk}/my-hand/", {"paste": paste, "fill": "1", "name": "Mine"}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert 'value="Gustha&#x27;s Scepter"' in page and 'value="Mine"' in page
    assert "Your list has 6 cards; this round needs 5. Left out: Karakas." in page
    assert not Hand.objects.exists()


def test_editing_starts_from_the_current_hand_and_keeps_history(alice_client, open_round):
    alice_client.post(f"/rounds/{open_round.pk}/my-hand/", form_data(KJELD))
    page = alice_client.get(f"/rounds/{open_round.pk}/my-hand/").content.decode()
    assert 'value="Kjeldoran Warrior"' in page
    alice_client.post(f"/rounds/{open_round.pk}/my-hand/", form_data(SCEPTER, name="Scepter"))
    page = alice_client.get(f"/rounds/{open_round.pk}/my-hand/").content.decode()
    assert "Version 1" in page and "Version 2" in page and "current" in page
    assert alice_client.get(f"/rounds/{open_round.pk}/my-hand/versions/1/").status_code == 200
    assert alice_client.get(f"/rounds/{open_round.pk}/my-hand/versions/3/").status_code == 404


def test_after_the_deadline_the_form_refuses_with_a_clear_message_and_keeps_the_input(
    alice_client, open_round
):
    with time_machine.travel(open_round.deadline, tick=False):
        response = alice_client.post(f"/rounds/{open_round.pk}/my-hand/", form_data(KJELD), follow=True)
    assert response.status_code == 409
    assert "closed" in response.content.decode() and "your hand was not saved" in response.content.decode()
    assert not Hand.objects.exists()


def test_live_check_and_suggestions_fragments(alice_client, open_round):
    check = alice_client.get(
        f"/rounds/{open_round.pk}/my-hand/check/", {"index": 2, "card_2": "Force of Wil"}
    )
    assert "Force of Will" in check.content.decode()
    banned = alice_client.get(
        f"/rounds/{open_round.pk}/my-hand/check/", {"index": 1, "card_1": "Force of Will"}
    )
    assert "PHM Banned List" in banned.content.decode()
    ok = alice_client.get(f"/rounds/{open_round.pk}/my-hand/check/", {"index": 1, "card_1": "karakas"})
    assert 'data-verdict="legal"' in ok.content.decode()
    suggest = alice_client.get(
        f"/rounds/{open_round.pk}/my-hand/suggest/", {"index": 3, "card_3": "kjeldoran w"}
    )
    assert 'data-card-name="Kjeldoran Warrior"' in suggest.content.decode()
    for bad in [{"index": "x"}, {"index": 9}, {}]:
        assert alice_client.get(f"/rounds/{open_round.pk}/my-hand/check/", bad).status_code == 404


def test_review_page_shows_verdicts_with_bounded_queries(client, open_round, moderator, make_user):
    for n in range(3):
        services.submit_hand(
            player=make_user(f"p{n}"),
            round_id=open_round.pk,
            name=f"H{n}",
            cards=KJELD,
            attested=services.EVERY_LISTED_RULE,
        )
    client.force_login(moderator)
    client.post(f"/moderate/rounds/{open_round.pk}/hands/preview/")  # "I will not play in this round"
    client.get(f"/moderate/rounds/{open_round.pk}/hands/")
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/moderate/rounds/{open_round.pk}/hands/")
    few = len(ctx.captured_queries)
    for n in range(3, 9):
        services.submit_hand(
            player=make_user(f"p{n}"),
            round_id=open_round.pk,
            name=f"H{n}",
            cards=VOID,
            attested=services.EVERY_LISTED_RULE,
        )
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/moderate/rounds/{open_round.pk}/hands/")
    many = len(ctx.captured_queries)
    assert response.status_code == 200 and "H8" in response.content.decode()
    assert many == few and few <= 20, (few, many)


def test_review_actions_from_the_page(client, open_round, moderator, alice):
    hand = builders.submit(alice, open_round, KJELD, name="Kjeld").hand
    client.force_login(moderator)
    response = client.post(
        f"/moderate/hands/{hand.pk}/review/", {"action": "flag", "message": "Fix card 3"}, follow=True
    )
    assert "only after declaring that you will not play" in response.content.decode()  # asked, not saved
    assert "Show me the hands" in response.content.decode()
    client.post(f"/moderate/rounds/{open_round.pk}/hands/preview/")
    response = client.post(
        f"/moderate/hands/{hand.pk}/review/", {"action": "flag", "message": "Fix card 3"}, follow=True
    )
    assert "Review saved" in response.content.decode()
    response = client.post(f"/moderate/hands/{hand.pk}/review/", {"action": "disqualify"}, follow=True)
    assert "only after the deadline" in response.content.decode()
    hand.refresh_from_db()
    assert hand.flagged and hand.flag_message == "Fix card 3" and hand.status == "submitted"
    history = client.get(f"/moderate/rounds/{open_round.pk}/hands/").content.decode()
    assert "Hand flagged as illegal" in history and "Hand submitted" in history
    client.force_login(alice)
    page = client.get(open_round.get_absolute_url()).content.decode()
    assert "Flagged by a moderator" in page and "Fix card 3" in page


def test_verify_page_checks_a_commitment(client, open_round, alice):
    from submissions.commitments import version_text

    version = builders.submit(alice, open_round, KJELD, name="K").version
    text = version_text(HandVersion.objects.select_related("hand__player").get(pk=version.pk))
    good = client.post("/hands/verify/", {"text": text, "commitment": version.commitment}).content.decode()
    bad = client.post(
        "/hands/verify/", {"text": text + "x", "commitment": version.commitment}
    ).content.decode()
    assert "The text matches the commitment." in good and "does not match" in bad
    assert "PHM hand commitment v1" in client.get("/hands/verify/").content.decode()


def test_round_page_query_count_does_not_grow_with_hands_while_open(client, open_round, alice, make_user):
    builders.submit(alice, open_round, KJELD, name="K")
    client.force_login(alice)
    client.get(open_round.get_absolute_url())  # the bell's count is cached from the first page on
    with CaptureQueriesContext(connection) as ctx:
        client.get(open_round.get_absolute_url())
    few = len(ctx.captured_queries)
    for n in range(5):
        services.submit_hand(
            player=make_user(f"q{n}"),
            round_id=open_round.pk,
            name="",
            cards=VOID,
            attested=services.EVERY_LISTED_RULE,
        )
    with CaptureQueriesContext(connection) as ctx:
        client.get(open_round.get_absolute_url())
    assert len(ctx.captured_queries) == few <= 20
