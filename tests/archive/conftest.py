import pytest

from accounts.services import register_player
from rounds.services.leagues import create_league

# Rounds with hands, as the scoring tests build them: a correction applies to an imported round and must be
# refused for one played here.
from tests.scoring.conftest import make_players, revealed_round  # noqa: F401  (fixtures)


@pytest.fixture
def league31(moderator):
    """League 31, numbered: a post naming round 31:03 names one of its rounds."""
    league = create_league(actor=moderator, name="League 31", moderators=[moderator])
    league.number = 31
    league.save(update_fields=["number"])
    return league


@pytest.fixture
def superbajt(db):
    """An account a misspelled forum name ("Suberbajt") nearly matches."""
    return register_player(username="Superbajt", password=None, forum_username="Superbajt")
