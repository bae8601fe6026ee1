"""A database from before the audit trail moved to the audit app keeps every entry: the migrations only move
the model between the apps' states (the table stays `rounds_auditentry`), and the content type of the entries
moves with its id, so the permissions granted on it keep working."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from audit.models import AuditEntry
from audit.services import log_action

pytestmark = pytest.mark.django_db(transaction=True)

# The last migration of rounds before the move; the audit app did not exist.
ROUNDS_BEFORE = ("rounds", "0012_round_archive_fields")
ROUNDS_MOVE = ("rounds", "0013_auditentry_moved_to_audit")


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def _before_the_move():
    """Every app at its latest migration that does not need the move: rounds at 0012, the audit app not
    migrated, and any later migration of another app that builds on the move left out with it."""
    graph = MigrationExecutor(connection).loader.graph
    after = set(graph.backwards_plan(("audit", "0001_initial"))) | set(graph.backwards_plan(ROUNDS_MOVE))
    targets = []
    for app, name in graph.leaf_nodes():
        node = (app, name)
        while node is not None and node in after:
            earlier = [parent for parent in graph.node_map[node].parents if parent.key[0] == app]
            node = earlier[0].key if earlier else None
        targets.append(node or (app, None))
    assert ROUNDS_BEFORE in targets and ("audit", None) in targets
    return targets


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection).loader.project_state([t for t in targets if t[1] is not None]).apps


def _fill(old_apps):
    """Entries written through the historical rounds model, and a permission granted on their content type."""
    with pytest.raises(LookupError):
        old_apps.get_model("audit", "AuditEntry")
    OldEntry = old_apps.get_model("rounds", "AuditEntry")
    OldContentType = old_apps.get_model("contenttypes", "ContentType")
    OldPermission = old_apps.get_model("auth", "Permission")
    OldUser = old_apps.get_model(settings.AUTH_USER_MODEL)

    entry_type, _ = OldContentType.objects.get_or_create(app_label="rounds", model="auditentry")
    assert not OldContentType.objects.filter(app_label="audit", model="auditentry").exists()
    user_type, _ = OldContentType.objects.get_or_create(app_label="auth", model="user")
    viewing, _ = OldPermission.objects.get_or_create(
        content_type=entry_type, codename="view_auditentry", defaults={"name": "Can view audit entry"}
    )
    moderator = OldUser.objects.create(username="upgrade-moderator", password="!")
    player = OldUser.objects.create(username="upgrade-player", password="!")
    moderator.user_permissions.add(viewing)

    rows = [
        {"action": "round.opened", "actor": moderator, "before": {}, "after": {"state": "open"}, "note": ""},
        {"action": "hand.submitted", "actor": player, "before": {}, "after": {"version": 1}, "note": ""},
        {"action": "round.table_built", "actor": None, "before": {}, "after": {"hands": 2}, "note": ""},
        {
            "action": "match.result_set",
            "actor": moderator,
            "before": {"points_a": None},
            "after": {"points_a": 3, "players": ["upgrade-player"]},
            "note": "Both agreed",
        },
    ]
    written = []
    for number, row in enumerate(rows):
        subject = player if number % 2 else moderator
        entry = OldEntry.objects.create(content_type=user_type, object_id=subject.pk, **row)
        written.append(entry)
    expected = {entry.pk: _what_it_holds(entry) for entry in written}
    return expected, entry_type.pk, moderator.pk


def _what_it_holds(entry):
    """Everything an entry records, compared before and after the move."""
    return (
        entry.action,
        entry.content_type_id,
        entry.object_id,
        entry.actor_id,
        entry.before,
        entry.after,
        entry.note,
        entry.created_at,
    )


def test_every_entry_survives_the_move_to_the_audit_app():
    latest = _latest()
    try:
        old_apps = _migrate(_before_the_move())
        expected, entry_type_id, moderator_id = _fill(old_apps)

        _migrate(latest)

        entries = AuditEntry.objects.filter(pk__in=expected)
        found = {entry.pk: _what_it_holds(entry) for entry in entries}
        assert found == expected
        assert AuditEntry._meta.db_table == "rounds_auditentry"
        # Readable as before: subjects, actors, labels.
        users = get_user_model().objects.in_bulk([moderator_id])
        for entry in entries.select_related("actor"):
            assert entry.subject is not None and entry.subject.pk == entry.object_id
            assert entry.label != entry.action
        assert {entry.actor_id for entry in entries} >= {moderator_id, None}

        # The content type moved with its id; the permission granted on it still counts.
        entry_type = ContentType.objects.get_for_model(AuditEntry)
        assert (entry_type.app_label, entry_type.model, entry_type.pk) == (
            "audit",
            "auditentry",
            entry_type_id,
        )
        assert not ContentType.objects.filter(app_label="rounds", model="auditentry").exists()
        assert users[moderator_id].has_perm("audit.view_auditentry")

        # New entries follow the old ones in the same table.
        fresh = log_action(users[moderator_id], "mail.retried")
        assert fresh.pk > max(expected)
    finally:
        _migrate(latest)
