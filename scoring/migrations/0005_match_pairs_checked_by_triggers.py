"""A match's round and hands are checked by triggers instead of three foreign-key constraints.

PostgreSQL checked each foreign key once per row, in a trigger of its own: 1.5 million checks for the 499,500
matches of a 1,000-hand round, more than half of the build's time. These triggers check the same once per
statement, and more: both hands of a match are hands of its round (which implies the round exists, hands
having a real foreign key to it).

- After an INSERT into scoring_match (per statement, over the new rows): the hands are locked FOR KEY SHARE,
  as a foreign key locks them (a concurrent delete waits for this commit, then finds the matches), and every
  new match's hands must exist in its round.
- A match's round and hands never change (per row, only when one of them is in an UPDATE and differs).
- After a DELETE from submissions_hand (per statement): no match may still name a deleted hand; an UPDATE of a
  hand's id or round is refused while matches name it. Django deletes a hand's matches before the hand
  (on_delete=CASCADE), as it did.

SQLite (development and tests) gets the same rules as row triggers, but for deleting hands: it cannot defer a
trigger, and Django's test flush deletes its tables' rows in no fixed order; Django's cascade deletes a hand's
matches first there as everywhere. SQLite drops a table's triggers when a migration rebuilds the table (it does
for most ALTERs): such a migration must create them again (tests/scoring/test_match_integrity.py fails
otherwise).
"""

import django.db.models.deletion
from django.db import migrations, models

POSTGRES_FORWARD = [
    """
    CREATE FUNCTION scoring_match_hands_exist() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM 1 FROM submissions_hand h
        WHERE h.id IN (SELECT hand_a_id FROM added UNION SELECT hand_b_id FROM added)
        FOR KEY SHARE OF h;
        IF EXISTS (
            SELECT 1 FROM added m
            WHERE NOT EXISTS (
                SELECT 1 FROM submissions_hand h WHERE h.id = m.hand_a_id AND h.round_id = m.round_id
            ) OR NOT EXISTS (
                SELECT 1 FROM submissions_hand h WHERE h.id = m.hand_b_id AND h.round_id = m.round_id
            )
        ) THEN
            RAISE EXCEPTION 'A match''s hands must be hands of its round.'
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE TRIGGER scoring_match_hands_exist AFTER INSERT ON scoring_match
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION scoring_match_hands_exist()
    """,
    """
    CREATE FUNCTION scoring_match_pair_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'A match''s round and hands never change.' USING ERRCODE = 'foreign_key_violation';
    END $$
    """,
    """
    CREATE TRIGGER scoring_match_pair_fixed BEFORE UPDATE OF round_id, hand_a_id, hand_b_id ON scoring_match
    FOR EACH ROW WHEN (
        OLD.round_id <> NEW.round_id OR OLD.hand_a_id <> NEW.hand_a_id OR OLD.hand_b_id <> NEW.hand_b_id
    ) EXECUTE FUNCTION scoring_match_pair_fixed()
    """,
    """
    CREATE FUNCTION scoring_hand_deleted_without_matches() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM scoring_match m JOIN gone g ON m.hand_a_id = g.id)
            OR EXISTS (SELECT 1 FROM scoring_match m JOIN gone g ON m.hand_b_id = g.id) THEN
            RAISE EXCEPTION 'A hand that matches name cannot be deleted before them.'
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE TRIGGER scoring_hand_deleted_without_matches AFTER DELETE ON submissions_hand
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION scoring_hand_deleted_without_matches()
    """,
    """
    CREATE FUNCTION scoring_hand_rekeyed_without_matches() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM scoring_match WHERE hand_a_id = OLD.id)
            OR EXISTS (SELECT 1 FROM scoring_match WHERE hand_b_id = OLD.id) THEN
            RAISE EXCEPTION 'A hand that matches name keeps its id and round.'
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER scoring_hand_rekeyed_without_matches BEFORE UPDATE OF id, round_id ON submissions_hand
    FOR EACH ROW WHEN (OLD.id <> NEW.id OR OLD.round_id <> NEW.round_id)
    EXECUTE FUNCTION scoring_hand_rekeyed_without_matches()
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_match_hands_exist ON scoring_match",
    "DROP TRIGGER IF EXISTS scoring_match_pair_fixed ON scoring_match",
    "DROP TRIGGER IF EXISTS scoring_hand_deleted_without_matches ON submissions_hand",
    "DROP TRIGGER IF EXISTS scoring_hand_rekeyed_without_matches ON submissions_hand",
    "DROP FUNCTION IF EXISTS scoring_match_hands_exist()",
    "DROP FUNCTION IF EXISTS scoring_match_pair_fixed()",
    "DROP FUNCTION IF EXISTS scoring_hand_deleted_without_matches()",
    "DROP FUNCTION IF EXISTS scoring_hand_rekeyed_without_matches()",
]
SQLITE_FORWARD = [
    """
    CREATE TRIGGER scoring_match_hands_exist BEFORE INSERT ON scoring_match
    WHEN NOT EXISTS (SELECT 1 FROM submissions_hand WHERE id = NEW.hand_a_id AND round_id = NEW.round_id)
        OR NOT EXISTS (SELECT 1 FROM submissions_hand WHERE id = NEW.hand_b_id AND round_id = NEW.round_id)
    BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed: a match''s hands must be hands of its round');
    END
    """,
    """
    CREATE TRIGGER scoring_match_pair_fixed BEFORE UPDATE OF round_id, hand_a_id, hand_b_id ON scoring_match
    WHEN OLD.round_id <> NEW.round_id OR OLD.hand_a_id <> NEW.hand_a_id OR OLD.hand_b_id <> NEW.hand_b_id
    BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed: a match''s round and hands never change'); END
    """,
    """
    CREATE TRIGGER scoring_hand_rekeyed_without_matches BEFORE UPDATE OF id, round_id ON submissions_hand
    WHEN (OLD.id <> NEW.id OR OLD.round_id <> NEW.round_id) AND (
        EXISTS (SELECT 1 FROM scoring_match WHERE hand_a_id = OLD.id)
        OR EXISTS (SELECT 1 FROM scoring_match WHERE hand_b_id = OLD.id)
    )
    BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed: matches name this hand'); END
    """,
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS scoring_match_hands_exist",
    "DROP TRIGGER IF EXISTS scoring_match_pair_fixed",
    "DROP TRIGGER IF EXISTS scoring_hand_rekeyed_without_matches",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


create_triggers = _run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD})
drop_triggers = _run({"postgresql": POSTGRES_BACKWARD, "sqlite": SQLITE_BACKWARD})


class Migration(migrations.Migration):
    dependencies = [
        ("rounds", "0012_round_archive_fields"),
        ("scoring", "0004_match_decided_by_partial_index"),
        ("submissions", "0009_backfill_imported_fingerprints"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="hand_a",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="submissions.hand",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="hand_b",
            field=models.ForeignKey(
                db_constraint=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="submissions.hand",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="round",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="matches",
                to="rounds.round",
            ),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
