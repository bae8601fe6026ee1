from datetime import timedelta
from unittest import mock

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rounds.models import Round, RoundState
from rounds.services import lifecycle as round_services
from submissions import tasks
from submissions.bbcode import hands_posted
from submissions.models import Hand
from submissions.selectors import hands_of_round
from submissions.services.reveal import reveal_round
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand

from .conftest import KJELD, SCEPTER, VOID

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_hands(open_round, alice, bob, make_user):
    carol = make_user("carol", forum_username="Subtle_Relevance")
    for player, name, cards in [
        (bob, "Scepter Tricks", SCEPTER),
        (alice, "The Might of Kjeld", KJELD),
        (carol, "The call of the void", VOID),
    ]:
        submit_hand(player=player, round_id=open_round.pk, name=name, cards=cards, attested=EVERY_LISTED_RULE)
    # Alice edits later: numbering is by *first* submission, so her edit does not move her.
    submit_hand(
        player=alice,
        round_id=open_round.pk,
        name="The Might of Kjeld",
        cards=SCEPTER,
        attested=EVERY_LISTED_RULE,
    )
    return open_round


def numbers(round_):
    return list(
        Hand.objects.filter(round=round_).order_by("number").values_list("player__username", "number")
    )


def test_reveal_numbers_by_first_submission_and_is_idempotent(three_hands):
    round_ = three_hands
    assert reveal_round(round_.pk) is False  # before the deadline: nothing to do
    with time_machine.travel(round_.deadline + timedelta(seconds=1), tick=False):
        assert reveal_round(round_.pk) is True
        first = numbers(round_)
        assert reveal_round(round_.pk) is False
        assert tasks.reveal_due_rounds() == {"revealed": [], "scheduled": []}
    assert first == [("bob", 1), ("alice", 2), ("carol", 3)]
    assert numbers(round_) == first
    assert Round.objects.get(pk=round_.pk).state == RoundState.REVEALED


def test_pages_show_the_same_numbers_before_the_task_runs(three_hands, client):
    round_ = three_hands
    with time_machine.travel(round_.deadline, tick=False):
        before = [(h.player.username, h.display_number) for h in hands_of_round(round_)]
        page = client.get(round_.get_absolute_url()).content.decode()
        assert "The call of the void" in page and "nerdyjoe" in page
        tasks.reveal_due_rounds()
        after = [(h.player.username, h.display_number) for h in hands_of_round(round_)]
    assert before == after == [("bob", 1), ("alice", 2), ("carol", 3)]


def test_beat_backstop_reveals_every_due_round(three_hands):
    with time_machine.travel(three_hands.deadline + timedelta(minutes=1), tick=False):
        assert tasks.reveal_due_rounds()["revealed"] == [three_hands.pk]
        assert tasks.reveal_round(three_hands.pk) is False


def test_a_reveal_queued_for_the_old_deadline_reveals_nothing_once_the_deadline_moved_later(
    three_hands, moderator
):
    """The exact-time task was queued for the deadline as it was; a moderator then extended it by 30 seconds.
    When the old task runs, at the old deadline, the hands stay secret and unnumbered, not even a second
    early; the task queued for the new deadline (or the backstop) reveals them then."""
    round_ = three_hands
    old_deadline = round_.deadline
    new_deadline = old_deadline + timedelta(seconds=30)
    round_services.extend_deadline(
        actor=moderator,
        round_id=round_.pk,
        now=old_deadline - timedelta(minutes=10),
        new_deadline=new_deadline,
    )
    for moment in (old_deadline, new_deadline - timedelta(microseconds=1)):
        with time_machine.travel(moment, tick=False):
            assert tasks.reveal_round.apply(args=[round_.pk]).get() is False
            assert tasks.reveal_due_rounds()["revealed"] == []
        round_.refresh_from_db()
        assert round_.state == RoundState.OPEN
        assert not Hand.objects.filter(round=round_, number__isnull=False).exists()
    with time_machine.travel(new_deadline, tick=False):
        assert tasks.reveal_round.apply(args=[round_.pk]).get() is True
    assert Round.objects.get(pk=round_.pk).state == RoundState.REVEALED


def test_hands_posted_export_is_in_the_forum_style(three_hands, client):
    round_ = three_hands
    assert client.get(f"/rounds/{round_.pk}/export/hands.bbcode").status_code == 404
    with time_machine.travel(round_.deadline, tick=False):
        response = client.get(f"/rounds/{round_.pk}/export/hands.bbcode")
    assert response.status_code == 200
    text = response.content.decode()
    assert '01 nerdyjoe :: "Scepter Tricks"\n' + " / ".join(SCEPTER) in text
    assert '03 Subtle_Relevance :: "The call of the void"\n' + " / ".join(VOID) in text
    assert text == hands_posted(round_, hands_of_round(round_))


def test_a_near_deadline_is_scheduled_at_once_and_a_far_one_is_left_to_the_backstop(
    league, moderator, django_capture_on_commit_callbacks, settings
):
    # No countdown may outlive the broker's visibility timeout (a longer one is re-delivered and run again).
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > settings.TASK_ETA_HORIZON + settings.CELERY_TASK_TIME_LIMIT
    now = timezone.now()
    with mock.patch.object(tasks.reveal_round, "apply_async") as apply_async:
        with django_capture_on_commit_callbacks(execute=True):
            round_ = round_services.create_round(
                actor=moderator, league=league, now=now, open_now=True, title="T", hand_size=3,
                deadline=now + timedelta(days=1),
            )  # fmt: skip
        assert apply_async.call_args_list == []  # days ahead: not now
        with django_capture_on_commit_callbacks(execute=True):
            round_services.close_round_now(actor=moderator, round_id=round_.pk, now=now)
    round_.refresh_from_db()
    assert [c.kwargs for c in apply_async.call_args_list] == [{"args": [round_.pk], "eta": round_.deadline}]


def test_the_backstop_schedules_the_exact_time_reveal_once_the_deadline_is_near(league, moderator, settings):
    now = timezone.now()
    round_ = round_services.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="T", hand_size=3,
        deadline=now + timedelta(hours=5),
    )  # fmt: skip
    with mock.patch.object(tasks.reveal_round, "apply_async") as apply_async:
        assert tasks.schedule_near_reveals(now=now) == []
        shortly_before = round_.deadline - timedelta(seconds=settings.TASK_ETA_HORIZON - 10)
        assert tasks.schedule_near_reveals(now=shortly_before) == [round_.pk]
        # The next backstop run a minute later does not schedule a second copy.
        assert tasks.schedule_near_reveals(now=shortly_before + timedelta(seconds=60)) == []
    assert [c.kwargs for c in apply_async.call_args_list] == [
        {"args": [round_.pk], "eta": round_.deadline},
    ]


def test_a_broker_outage_does_not_fail_the_moderators_request(
    league, moderator, django_capture_on_commit_callbacks
):
    now = timezone.now()
    round_ = round_services.create_round(
        actor=moderator, league=league, now=now, open_now=True, title="T", hand_size=3,
        deadline=now + timedelta(days=1),
    )  # fmt: skip
    broker_down = mock.patch.object(tasks.reveal_round, "apply_async", side_effect=ConnectionError("down"))
    with broker_down as apply_async, django_capture_on_commit_callbacks(execute=True):
        round_services.close_round_now(actor=moderator, round_id=round_.pk, now=now)
    assert apply_async.called  # tried, failed, logged: the backstop reveals the round
    round_.refresh_from_db()
    assert round_.deadline >= now  # submissions ended all the same


def test_the_beat_schedule_runs_the_backstop_every_minute(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["reveal-due-rounds"]
    assert entry == {"task": "submissions.reveal_due_rounds", "schedule": float(settings.BACKSTOP_INTERVAL)}


def test_revealed_round_page_lists_hands_with_bounded_queries(three_hands, client, make_user):
    round_ = three_hands
    with time_machine.travel(round_.deadline, tick=False):
        with CaptureQueriesContext(connection) as ctx:
            client.get(round_.get_absolute_url())
        few = len(ctx.captured_queries)
    for n in range(6):
        player = make_user(f"extra{n}")
        submit_hand(
            player=player,
            round_id=round_.pk,
            name=f"Extra {n}",
            cards=VOID,
            attested=EVERY_LISTED_RULE,
        )
    with time_machine.travel(round_.deadline, tick=False):
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(round_.get_absolute_url())
        many = len(ctx.captured_queries)
    assert response.status_code == 200
    assert many == few, (few, many)
    assert few <= 15
