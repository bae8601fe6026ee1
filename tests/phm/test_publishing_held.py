"""phm.tasks.publishing_held: a bulk loader (seed_demo) publishes nothing, so nothing runs inline either."""

from unittest import mock

from phm.tasks import ping, publish, publishing_held


def test_nothing_is_published_while_held_and_publishing_resumes_after():
    with mock.patch.object(ping, "apply_async") as apply_async:
        with publishing_held():
            assert publish(ping, "held") is False
        apply_async.assert_not_called()
        assert publish(ping, "after") is True
    apply_async.assert_called_once_with(args=["after"])


def test_the_hold_ends_when_the_block_fails():
    with mock.patch.object(ping, "apply_async") as apply_async:
        try:
            with publishing_held():
                raise RuntimeError("the loader failed")
        except RuntimeError:
            pass
        assert publish(ping, "after") is True
    apply_async.assert_called_once()
