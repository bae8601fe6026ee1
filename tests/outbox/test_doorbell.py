"""The messages a web process commits close together share one delivery task (outbox.doorbell)."""

from unittest import mock

import pytest

from outbox import tasks
from outbox.doorbell import Doorbell
from phm.tasks import publishing_held
from tests import builders


@pytest.fixture
def broker():
    """A real (not eager) Celery configuration whose publishing is recorded instead of sent."""
    with (
        mock.patch("outbox.doorbell.tasks_run_eagerly", return_value=False),
        mock.patch("outbox.doorbell.publish") as publish,
    ):
        yield publish


def test_ids_committed_within_a_window_go_in_one_task(broker, settings):
    settings.OUTBOX_PUBLISH_WINDOW = 60  # the timer never fires during the test: flush() closes the window
    bell = Doorbell()
    bell.ring([1])
    bell.ring([2, 3])
    assert broker.call_count == 0
    bell.flush()
    broker.assert_called_once_with(tasks.send_messages, [1, 2, 3])
    bell.flush()  # the window's own timer firing later finds nothing left
    assert broker.call_count == 1
    bell.ring([4])
    bell.flush()
    assert broker.call_args_list[-1] == mock.call(tasks.send_messages, [4])


def test_without_a_window_every_commit_publishes_at_once(broker, settings):
    settings.OUTBOX_PUBLISH_WINDOW = 0
    bell = Doorbell()
    bell.ring([7])
    broker.assert_called_once_with(tasks.send_messages, [7])


def test_eager_tasks_publish_at_once_in_the_committing_thread(settings):
    settings.OUTBOX_PUBLISH_WINDOW = 60
    with mock.patch("outbox.doorbell.publish") as publish:
        Doorbell().ring([5])
    publish.assert_called_once_with(tasks.send_messages, [5])


def test_nothing_is_published_while_publishing_is_held(broker, settings):
    settings.OUTBOX_PUBLISH_WINDOW = 60
    bell = Doorbell()
    with publishing_held():
        bell.ring([9])
    bell.flush()
    assert broker.call_count == 0


@pytest.mark.django_db
def test_the_task_delivers_each_message_once(open_round, alice):
    from django.core import mail

    from outbox.models import Message
    from tests.submissions.conftest import KJELD

    builders.submit(alice, open_round, KJELD, name="K")
    [message] = Message.objects.all()
    assert tasks.send_messages([message.pk, message.pk]) == ["sent", "skipped"]
    assert len(mail.outbox) == 1
