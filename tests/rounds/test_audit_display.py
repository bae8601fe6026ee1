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


def test_card_rules_decisions_and_card_changes_read_as_sentences_not_as_python_dicts():
    rules = [{"query": "t:land", "at_most": 2}, {"query": "t:dragon", "message": "Only Dragons"}]
    assert audit_value(rules) == "At most 2 cards may match t:land / Every card must match t:dragon (Only Dragons)"
    decisions = [
        {"key": "type", "label": "Creature type", "kind": "choice", "choices": ["Goblin", "Elf"]},
        {"key": "n", "label": "Number", "kind": "number"},
    ]
    assert audit_value(decisions).startswith("Creature type (one of Goblin, Elf) / Number (")
    changes = {"removed": ["Shivan Dragon"], "replaced": [{"card": "Mox Pearl", "by": "Mox Ruby"}], "added": []}
    assert audit_value(changes) == "Removed: Shivan Dragon; Replaced: Mox Pearl → Mox Ruby"
    for value in (rules, decisions, changes):
        assert "{" not in str(audit_value(value)) and "'" not in str(audit_value(value))
