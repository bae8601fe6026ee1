"""The bonus form takes the name the tables show (the forum name), any case, or the login name; an unknown
or ambiguous name is refused with suggestions. The API's `player` stays a username (and takes a forum name
that names one person)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import register_player
from scoring.models import BonusAward
from scoring.services.bonus import award_bonus
from scoring.services.errors import ScoringConflict, ScoringInputError
from scoring.services.table import build_match_table
from tests.factories import RoundFactory

from .conftest import make_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db, password):
    def make(username, forum):
        return register_player(username=username, password=password, forum_username=forum)

    return make


@pytest.fixture
def bonus_round(league):
    def make(players):
        round_ = RoundFactory(league=league)
        make_hands(round_, players)
        round_.deadline = timezone.now() - timedelta(minutes=1)
        round_.save(update_fields=["deadline"])
        build_match_table(round_.pk)
        return round_

    return make


def award(moderator, round_, name):
    return award_bonus(
        actor=moderator, round_id=round_.pk, player_username=name, points=2, reason="Tribal"
    )


@pytest.mark.parametrize("typed", ["Alice_PHM", "alice_phm", "  ALICE_PHM ", "alice", "ALICE"])
def test_the_name_in_the_tables_or_the_login_name_any_case(moderator, people, bonus_round, typed):
    alice = people("alice", "Alice_PHM")
    round_ = bonus_round([alice, people("bob", "Bobby")])
    assert award(moderator, round_, typed).player == alice


def test_an_unknown_name_gets_the_closest_players_of_the_round(moderator, people, bonus_round):
    round_ = bonus_round([people("alice", "Alice_PHM"), people("bob", "Bobby")])
    with pytest.raises(ScoringInputError) as refused:
        award(moderator, round_, "Alise_PHM")
    assert refused.value.errors["player"] == [
        f"No player of round {round_.code} is called “Alise_PHM”. Did you mean Alice_PHM?"
    ]
    with pytest.raises(ScoringInputError) as refused:
        award(moderator, round_, "zzzz")
    assert refused.value.errors["player"] == [
        f"No player of round {round_.code} is called “zzzz”. Its players: Alice_PHM, Bobby."
    ]
    assert not BonusAward.objects.exists()


def test_one_persons_forum_name_is_anothers_login(moderator, people, bonus_round):
    bob = people("bob", "Robert")
    carol = people("carol", "Bob")  # the tables show carol as "Bob"
    only_carol = bonus_round([carol, people("dave", "Dave")])
    assert award(moderator, only_carol, "Bob").player == carol  # the one with a hand in the round
    both = bonus_round([bob, carol])
    assert award(moderator, both, "bob").player == bob  # a login spelled exactly: the API's username
    with pytest.raises(ScoringInputError) as refused:
        award(moderator, both, "BOB")
    assert refused.value.errors["player"] == [
        "“BOB” names more than one person: Robert (login bob) or Bob (login carol). Type the login name."
    ]


def test_a_known_person_without_a_hand_is_named_as_the_tables_would(moderator, people, bonus_round):
    round_ = bonus_round([people("alice", "Alice_PHM")])
    people("erin", "Erin the Red")
    with pytest.raises(ScoringInputError) as refused:
        award(moderator, round_, "erin the red")
    assert refused.value.errors["player"][0].startswith(f"Erin the Red has no hand in round {round_.code}")


def test_before_the_deadline_no_name_is_judged(moderator, people, league):
    round_ = RoundFactory(league=league)
    make_hands(round_, [people("alice", "Alice_PHM")])
    for typed in ["Alice_PHM", "Alise_PHM"]:  # no suggestion tells who has a hand before the reveal
        with pytest.raises(ScoringConflict):
            award(moderator, round_, typed)


def test_the_page_offers_the_players_by_table_name_and_answers_by_it(client, moderator, people, bonus_round):
    round_ = bonus_round([people("alice", "Alice_PHM"), people("bob", "Bobby")])
    client.force_login(moderator)
    url = f"/moderate/rounds/{round_.pk}/results/"
    html = client.get(url).content.decode()
    assert (
        '<datalist id="bonus-players"><option value="Alice_PHM"></option><option value="Bobby"></option>'
        in html
    )
    done = client.post(
        url, {"action": "bonus", "player": "alice_phm", "points": "2", "reason": "Tribal"}, follow=True
    )
    assert "+2 League points for Alice_PHM." in done.content.decode()
    refused = client.post(url, {"action": "bonus", "player": "Alise", "points": "2", "reason": "Tribal"})
    html = refused.content.decode()
    assert "Did you mean Alice_PHM?" in html and 'value="Alise"' in html and "is-invalid" in html


def test_the_api_takes_a_username_or_a_forum_name_and_answers_with_the_username(
    api_client, moderator, people, bonus_round
):
    round_ = bonus_round([people("alice", "Alice_PHM"), people("bob", "Bobby")])
    api_client.force_authenticate(moderator)
    url = f"/api/rounds/{round_.pk}/bonus/"
    by_login = api_client.post(url, {"player": "alice", "points": 1, "reason": "x"}, format="json")
    assert by_login.status_code == 201 and by_login.json()["player"] == "alice"
    by_forum = api_client.post(url, {"player": "Bobby", "points": 1, "reason": "x"}, format="json")
    assert by_forum.status_code == 201 and by_forum.json()["player"] == "bob"
    unknown = api_client.post(url, {"player": "nobody", "points": 1, "reason": "x"}, format="json")
    assert unknown.status_code == 400 and "player" in unknown.json()
