"""Writing and reading the audit trail: one entry per change of a subject, its newest entries first, the people
its values name shown by their forum names; and the migrations put the move after every migration that reads
the entries through the rounds app's historical model."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from audit.models import AuditEntry
from audit.selectors import audit_trail, name_people
from audit.services import audit_entry, log_action

pytestmark = pytest.mark.django_db


def test_an_entry_records_the_change_of_its_subject(moderator, player):
    entry = log_action(player, "round.opened", actor=moderator, before={"a": 1}, after={"a": 2}, note="why")
    entry = AuditEntry.objects.get(pk=entry.pk)
    assert (entry.subject, entry.actor, entry.before, entry.after, entry.note) == (
        player,
        moderator,
        {"a": 1},
        {"a": 2},
        "why",
    )
    assert entry.label == "Round opened"
    assert entry.changes() == [("a", 1, 2)]


def test_an_anonymous_actor_is_recorded_as_the_system(player):
    assert log_action(player, "round.table_built", actor=AnonymousUser()).actor is None


def test_an_unsaved_entry_is_written_by_its_caller(player):
    entry = audit_entry(player, "hand.submitted")
    assert entry.pk is None and not AuditEntry.objects.exists()


def test_a_subjects_trail_is_newest_first_and_only_its_own(moderator, player):
    first = log_action(player, "round.opened")
    second = log_action(player, "round.changed")
    log_action(moderator, "round.closed_early")
    assert list(audit_trail(player)) == [second, first]


def test_the_people_an_entry_names_read_as_their_forum_names(moderator, player):
    log_action(player, "match.result_set", before={"players": ["mod"]}, after={"players": ["player"]})
    (entry,) = name_people(audit_trail(player))
    assert entry.changes() == [("players", ["The Moderator"], ["Player One"])]


def test_the_entries_leave_rounds_after_the_migrations_that_read_them_there():
    executor = MigrationExecutor(connection)
    plan = [
        migration.app_label + "." + migration.name
        for migration, _ in executor.migration_plan(executor.loader.graph.leaf_nodes(), clean_start=True)
    ]
    moved = plan.index("rounds.0013_auditentry_moved_to_audit")
    assert plan.index("audit.0001_initial") < moved < plan.index("audit.0002_content_type_of_audit_entries")
    assert plan.index("submissions.0009_backfill_imported_fingerprints") < moved
    assert plan.index("submissions.0010_mark_similar_hands_made_by_their_player") < moved
