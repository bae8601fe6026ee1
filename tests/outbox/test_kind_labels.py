"""The outbox's lists name each message by its kind's label in outbox.kinds, the one source of kinds."""

from django.contrib import admin

from outbox import kinds
from outbox.models import Message

SENT_KINDS = [*kinds.BY_KEY, *kinds.ALWAYS_SENT]


def test_every_kind_has_a_message_label():
    for key in SENT_KINDS:
        label = kinds.message_label(key)
        assert label and label != key, key


def test_no_message_label_without_a_kind():
    assert set(kinds.MESSAGE_LABELS) == set(SENT_KINDS)


def test_message_labels_tell_the_kinds_apart():
    assert len(set(kinds.MESSAGE_LABELS.values())) == len(kinds.MESSAGE_LABELS)


def test_the_admin_names_each_message_by_its_kinds_label():
    message_admin = admin.site._registry[Message]
    for key in SENT_KINDS:
        assert message_admin.what(Message(kind=key)) == kinds.MESSAGE_LABELS[key]
    assert message_admin.what(Message(kind="gone.kind")) == "gone.kind"  # a kind no longer sent: its key
