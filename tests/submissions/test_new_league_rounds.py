"""A new league has neither players nor followers, so its rounds also reach the site's recent players (a hand in
a round of any league whose deadline passed in the last six months), as a kind of their own that each person can
turn off. Nobody is told twice about one round; a league is new until one of its rounds is final (or it holds a
round from the forum archive); an imported round never announces; only revealed rounds make someone recent (an
open round's hands are secret); and the audience is found in a fixed number of queries however large it is."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.services import register_player
from archive.forum.post_import.write import import_post
from outbox import preferences
from outbox.models import Message, Notification
from rounds.models import RoundState
from rounds.services import lifecycle as round_services
from rounds.services.leagues import create_league
from submissions import notifications
from tests.factories import RoundFactory
from tests.scoring.conftest import make_hands

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("run_on_commit_at_once")]

NEW_LEAGUE_KIND = "round.opened_new_league"
PASSWORD = "correct-horse-battery-42"  # a test account's


def told(kind):
    return sorted(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def mailed(kind):
    return sorted(Message.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def open_round_in(league, moderator, title="4 Card Goblins"):
    now = timezone.now()
    return round_services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title=title,
        hand_size=4,
        deadline=now + timedelta(days=3),
    )


def people(*names):
    return [
        register_player(
            username=name, password=PASSWORD, email=f"{name}@example.org", forum_username=name.title()
        )
        for name in names
    ]


def played(league, users, *, days_ago, state=RoundState.FINAL):
    """`users` have hands in a round of `league` whose deadline was `days_ago` days ago (negative: ahead)."""
    round_ = RoundFactory(league=league, deadline=timezone.now() - timedelta(days=days_ago), state=state)
    make_hands(round_, users)
    return round_


@pytest.fixture
def old_league(moderator):
    return create_league(actor=moderator, name="League 44", moderators=[moderator])


@pytest.fixture
def new_league(moderator):
    return create_league(actor=moderator, name="Summer Cup", moderators=[moderator])


def test_a_new_league_s_round_reaches_the_site_s_recent_players_and_only_them(
    moderator, old_league, new_league
):
    recent, also_recent, long_ago, entered_now, gone = people("recent", "also", "longago", "entered", "gone")
    played(old_league, [recent, also_recent], days_ago=20)
    played(old_league, [long_ago], days_ago=200)  # more than six months ago
    # A hand in a round still open is secret: it makes nobody "recent" (nor would it show in who was told).
    played(old_league, [entered_now], days_ago=-2, state=RoundState.OPEN)
    played(old_league, [gone], days_ago=10)
    gone.is_active = False
    gone.save(update_fields=["is_active"])

    round_ = open_round_in(new_league, moderator)

    assert told("round.opened") == [] and mailed("round.opened") == []  # a new league's own audience: nobody
    assert told(NEW_LEAGUE_KIND) == ["also", "recent"] and mailed(NEW_LEAGUE_KIND) == ["also", "recent"]
    note = Notification.objects.get(kind=NEW_LEAGUE_KIND, recipient=recent)
    assert note.url == f"/rounds/{round_.pk}/my-hand/" and "A new league, Summer Cup" in note.text
    body = Message.objects.get(kind=NEW_LEAGUE_KIND, recipient=recent).body
    assert "played a round on this site in the last six months" in body and "4 Card Goblins" in body


def test_nobody_is_told_twice_of_one_round(moderator, old_league, new_league):
    follower, earlier_player, recent = people("follower", "earlier", "recent")
    played(old_league, [follower, earlier_player, recent], days_ago=20)
    new_league.followers.add(follower)
    played(new_league, [earlier_player], days_ago=1, state=RoundState.REVEALED)  # round 1, not final yet

    open_round_in(new_league, moderator, title="Round two")

    assert told("round.opened") == ["earlier", "follower"]
    assert told(NEW_LEAGUE_KIND) == ["recent"]  # still a new league: no round of it is final
    assert mailed("round.opened") == ["earlier", "follower"] and mailed(NEW_LEAGUE_KIND) == ["recent"]


def test_a_league_with_a_final_round_has_players_of_its_own_and_announces_to_them_only(
    moderator, old_league, new_league
):
    own, recent = people("own", "recent")
    played(old_league, [recent], days_ago=20)
    played(new_league, [own], days_ago=5, state=RoundState.FINAL)

    open_round_in(new_league, moderator)

    assert told("round.opened") == ["own"] and told(NEW_LEAGUE_KIND) == []
    assert not notifications.is_new_league(RoundFactory(league=new_league, number=99, state=RoundState.DRAFT))


def test_each_person_can_turn_the_new_league_kind_off(moderator, old_league, new_league):
    quiet, site_only = people("quiet", "siteonly")
    played(old_league, [quiet, site_only], days_ago=20)
    preferences.update(quiet, {NEW_LEAGUE_KIND: {"email": False, "site": False}})
    preferences.update(site_only, {NEW_LEAGUE_KIND: {"email": False}})

    open_round_in(new_league, moderator)

    assert told(NEW_LEAGUE_KIND) == ["siteonly"] and mailed(NEW_LEAGUE_KIND) == []


FORUM_POST = """[b][size=150]3 Card Vintage \u2014 Summer Cup 1[/size][/b]

[b]Deck Size:[/b] 3
[b]Land Rule:[/b] None
[b]Additional Banned list:[/b] Sol Ring
[b]Deadline:[/b] 2023-03-12 23:59 UTC

[b]01 Quentinwrites :: "Lotus"[/b]
Black Lotus / Mox Ruby / Lightning Bolt

[b]02 Yarrowmoon :: "Bolt"[/b]
Lightning Bolt / Mountain / Mox Ruby
"""


def test_a_round_imported_from_the_forum_never_announces_and_its_league_is_not_new(
    moderator, old_league, new_league
):
    [recent] = people("recent")
    played(old_league, [recent], days_ago=20)
    imported = import_post(actor=moderator, league=new_league, post=FORUM_POST, players={}).round
    assert imported.imported_fingerprint and imported.state == RoundState.REVEALED  # no table: not final
    assert (
        not Notification.objects.exists() and not Message.objects.filter(kind__startswith="round.").exists()
    )

    open_round_in(new_league, moderator)

    # The archived round's players are the league's own audience; the site at large is not told.
    assert told(NEW_LEAGUE_KIND) == [] and len(told("round.opened")) == 2


def test_the_audience_is_found_in_a_fixed_number_of_queries(moderator, old_league, monkeypatch):
    """However many recent players the site has, finding them is one query, and the transaction opening a new
    league's round costs the same number of queries for 3 of them as for 30 (bulk writes, profiles loaded with
    the people). The mail is delivered after the commit, by workers: not counted here."""
    monkeypatch.setattr(transaction, "on_commit", lambda func, using=None, robust=False: None)
    counts = []
    for size in (3, 30):
        league = create_league(actor=moderator, name=f"Cup of {size}", moderators=[moderator])
        players = people(*(f"size{size}p{index}" for index in range(size)))
        played(old_league, players, days_ago=3)
        probe = RoundFactory(league=league, number=99, state=RoundState.DRAFT)
        with CaptureQueriesContext(connection) as audience:
            found = notifications.new_league_audience(probe)
        assert len(audience.captured_queries) == 1
        assert {user.username for user in found} >= {user.username for user in players}
        with CaptureQueriesContext(connection) as opening:
            open_round_in(league, moderator)
        counts.append(len(opening.captured_queries))
        assert Notification.objects.filter(kind=NEW_LEAGUE_KIND, round__league=league).count() >= size
    assert counts[0] == counts[1], counts
