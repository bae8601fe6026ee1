"""Races on PostgreSQL: the same forum post imported twice at once makes one round; the other import is
refused as a duplicate (the league's row lock puts imports into a league one after the other)."""

import pytest

from archive.forum.post_import.results import ArchiveDuplicate, PostImport
from archive.forum.post_import.write import import_post
from rounds.models import Round
from tests.archive.test_post_import import GOBLIN_POST, NOW
from tests.rounds.test_round_races import on_postgres, run_together  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_same_post_imported_twice_at_once_makes_one_round(on_postgres, moderator, league31):  # noqa: F811
    def import_it():
        return import_post(actor=moderator, league=league31, post=GOBLIN_POST, now=NOW)

    results = run_together([import_it, import_it])
    imported = [result for result in results if isinstance(result, PostImport)]
    refused = [result for result in results if isinstance(result, ArchiveDuplicate)]
    assert (len(imported), len(refused)) == (1, 1), results
    assert refused[0].round == imported[0].round
    assert Round.objects.filter(league=league31).count() == 1
