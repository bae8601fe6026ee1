from datetime import UTC, datetime

from django.utils import timezone

from rounds.templatetags.audit_display import audit_field, audit_value


def test_values_read_like_text():
    assert audit_value(None) == "—"
    assert audit_value([]) == "—"
    assert audit_value(True) == "Yes"
    assert audit_value(["Mox Pearl", "Wear // Tear"]) == "Mox Pearl / Wear // Tear"
    assert audit_value("2026-01-23") == "2026-01-23"  # a date stays as written
    assert audit_value("5 Card Alphabetized") == "5 Card Alphabetized"
    assert audit_value(30) == 30


def test_moments_are_shown_in_the_viewers_zone():
    moment = datetime(2026, 12, 1, 17, 5, tzinfo=UTC).isoformat()
    with timezone.override("Europe/Berlin"):
        assert audit_value(moment) == "Tue 1 Dec 2026, 18:05 CET"


def test_field_labels():
    assert audit_field("extra_banned") == "Extra bans"
    assert audit_field("deadline") == "Deadline"
