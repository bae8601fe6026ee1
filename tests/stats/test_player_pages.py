"""Player pages: every revealed round entered with hand, cards, rank, points and League points (stored
or computed), League totals with bonus points apart, the chart, secrecy of open rounds, bounded queries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from rounds.catalog import resolve
from rounds.models import Card, RoundState
from rounds.services import lifecycle as round_services
from scoring import selectors
from scoring.services.bonus import award_bonus
from scoring.services.decisions import set_result
from scoring.services.tally import compute_tallies, compute_tally, store_tally
from stats.metagame import card_metagame
from stats.player_selectors import player_page
from submissions.services.review import review_hand
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db

# A card no fixture hand plays: whatever shows it on a page comes from the open round's hand.
SECRET_CARDS = [
    "Ancient Tomb",
    "Gustha's Scepter",
    "Lodestone Golem",
    "Mishra's Workshop",
    "Sphere of Resistance",
]
SECRET_CARD = "Gustha's Scepter"
SECRET_NAME = "Sceptre of Secrets"


@pytest.fixture
def catalog_index(db, monkeypatch):
    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return index


def play(round_, moderator, results):
    """Set results {(a, b): (points_a, points_b)} as the moderator."""
    for (a, b), (points_a, points_b) in results.items():
        set_result(
            actor=moderator, match_id=match_between(round_, a, b).pk, points_a=points_a, points_b=points_b
        )


THREE = {(1, 2): (6, 0), (1, 3): (4, 1), (2, 3): (2, 2)}  # PT 10, 2, 3 -> League points 500, 100, 150


def expected_lines(round_):
    """{player id: (points, League points, rank)} from the results page's own selector."""
    table = selectors.results_table(round_)
    return {row.hand.player_id: (row.points, row.league_points, row.rank) for row in table.rows}


def test_player_page_lists_revealed_rounds_with_stored_and_computed_lines(
    revealed_round, make_players, moderator, client
):
    players = make_players(3)
    stored, _ = revealed_round(3, players=players)
    computed, _ = revealed_round(3, players=[players[2], players[0], players[1]])
    play(stored, moderator, THREE)
    play(computed, moderator, THREE)
    store_tally(stored.pk)  # current stored table; `computed` stays stale (no task ran)

    page = player_page(players[0])
    by_round = {entry.round.pk: entry for entry in page.entries}
    first, second = by_round[stored.pk], by_round[computed.pk]
    assert (first.number, first.points, first.league_points, first.rank, first.computed) == (
        1,
        10,
        500,
        1,
        False,
    )
    assert (second.number, second.points, second.league_points, second.rank, second.computed) == (
        2, 2, 100, 3, True,
    )  # fmt: skip
    assert first.hands_in_table == 3 and first.cards == [
        "Black Lotus",
        "Mox Pearl",
        "Mox Sapphire",
        "Mox Jet",
        "Mox Ruby",
    ]
    # The same numbers as the results tables, for every player.
    for player in players:
        lines = {
            entry.round.pk: (entry.points, entry.league_points, entry.rank)
            for entry in player_page(player).entries
        }
        assert lines[stored.pk] == expected_lines(stored)[player.pk]
        assert lines[computed.pk] == expected_lines(computed)[player.pk]
    assert [total.league_points for total in page.leagues] == [600]

    body = client.get(f"/players/{players[0].username}/").content.decode()
    assert f'href="/rounds/{stored.pk}/"' in body and f'href="/rounds/{computed.pk}/"' in body
    assert stored.code in body and stored.title in body
    assert "“Hand of p1”" in body
    assert '1<span class="text-body-secondary small d-none d-sm-inline"> of 3</span>' in body
    assert '<td class="text-end fw-semibold">500' in body and '<td class="text-end fw-semibold">100' in body
    assert 'role="img"' in body and "League points per round of Forum p1" in body
    assert "Black Lotus" in body


def test_compute_tallies_agrees_with_compute_tally_for_many_rounds_at_once(revealed_round, moderator):
    rounds = []
    for size, results in [(3, THREE), (4, {(1, 2): (1, 4), (3, 4): (2, 2), (1, 4): (6, 0)}), (2, {})]:
        round_, _ = revealed_round(size)
        play(round_, moderator, results)
        rounds.append(round_)
    lines = compute_tallies([round_.pk for round_ in rounds])
    for round_ in rounds:
        for line in compute_tally(round_.pk):
            found = lines[line.hand.pk]
            assert (found.points, found.opponents, found.league_points, found.rank) == (
                line.points, line.opponents, line.league_points, line.rank,
            )  # fmt: skip


def test_username_is_case_insensitive_and_unknown_is_404(revealed_round, client):
    _round, players = revealed_round(2)
    assert client.get(f"/players/{players[0].username.upper()}/").status_code == 200
    assert client.get("/players/nobody-here/").status_code == 404


def test_league_totals_with_bonus_apart_and_its_reason_as_title(
    revealed_round, make_players, moderator, client
):
    players = make_players(3)
    first, _ = revealed_round(3, players=players)
    second, _ = revealed_round(3, players=players)
    play(first, moderator, THREE)
    play(second, moderator, {(1, 2): (0, 6), (1, 3): (0, 6), (2, 3): (2, 2)})  # p1: 0
    award_bonus(
        actor=moderator,
        round_id=second.pk,
        player_username=players[0].username,
        points=25,
        reason='Best "name"',
    )
    page = player_page(players[0])
    (total,) = page.leagues
    assert (total.rounds, total.league_points, total.bonus_points, total.total) == (2, 500, 25, 525)
    assert total.bonus_reasons == [f'{second.code}: +25 (Best "name")']
    assert total.provisional
    body = client.get(f"/players/{players[0].username}/").content.decode()
    assert f'title="{second.code}: +25 (Best &quot;name&quot;)"' in body
    assert ">+25</span>" in body and ">525</td>" in body
    assert "Provisional" in body
    # The chart draws both rounds' League points, oldest first.
    assert page.chart_series == ([first.code, second.code], [500, 0])


def test_disqualified_hand_is_listed_out_of_the_table(revealed_round, moderator, client):
    round_, players = revealed_round(3)
    play(round_, moderator, THREE)
    hand = players[0].hands.get(round=round_)
    review_hand(actor=moderator, hand_id=hand.pk, action="disqualify", message="Illegal")
    (entry,) = player_page(players[0]).entries
    assert entry.disqualified and entry.league_points is None and entry.points is None
    (other,) = player_page(players[1]).entries
    assert (other.points, other.opponents, other.league_points) == (2, 1, 200)  # only 2-3 counts
    body = client.get(f"/players/{players[0].username}/").content.decode()
    assert "Disqualified" in body and "Out of the table" in body


def test_round_past_its_deadline_before_any_task_ran_is_listed_with_its_number(league, make_players, client):
    """Revealed by time: listed (with the number the reveal will give) though no table exists yet."""
    round_ = RoundFactory(league=league)
    players = make_players(2)
    make_hands(round_, players)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    (entry,) = player_page(players[1]).entries
    assert entry.number == 2 and entry.league_points is None
    body = client.get(f"/players/{players[1].username}/").content.decode()
    assert "Table not built yet" in body and round_.code in body


def test_open_round_hand_shows_nowhere(
    catalog_index, league, moderator, revealed_round, make_players, client, settings
):
    """SECRECY: a hand in a round still open is not listed, counted or linked on the player's page (for
    anyone, its owner included), nor on the card's metagame or the most played pages; drafts neither."""
    players = make_players(2)
    revealed, _ = revealed_round(2, players=players)
    now = timezone.now()
    open_round = round_services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title="Very Secret Round",
        hand_size=5,
        deadline=now + timedelta(days=2),
    )
    submit_hand(
        player=players[0],
        round_id=open_round.pk,
        name=SECRET_NAME,
        cards=SECRET_CARDS,
        attested=EVERY_LISTED_RULE,
    )
    last = max(league.rounds.values_list("number", flat=True))  # the factory's numbers run on across tests
    draft = RoundFactory(
        league=league,
        number=last + 1,
        state=RoundState.DRAFT,
        deadline=now - timedelta(days=1),
        title="Drafty",
    )
    make_hands(draft, players[:1])
    assert open_round.state == RoundState.OPEN and players[0].hands.count() == 3

    outsider = make_players(1, prefix="x")[0]
    slug = Card.objects.get(name=SECRET_CARD).slug
    for viewer in (None, players[1], outsider, players[0]):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        body = client.get(f"/players/{players[0].username}/").content.decode()
        assert revealed.code in body  # the revealed round is there
        for secret in (
            SECRET_CARD,
            "Gustha",
            SECRET_NAME,
            open_round.title,
            open_round.code,
            f"/rounds/{open_round.pk}/",
            "Drafty",
            "Lodestone",
        ):
            assert secret not in body, (viewer, secret)
        assert "1 revealed round entered" in body
        for url in ("/cards/most-played/", f"/leagues/{league.pk}/most-played/"):
            body = client.get(url).content.decode()
            assert "Gustha" not in body and slug not in body and "Lodestone" not in body
            assert "2 revealed hands in 1 round" in body
    page = player_page(players[0])
    assert [entry.round.pk for entry in page.entries] == [revealed.pk]
    assert [total.rounds for total in page.leagues] == [1]
    assert card_metagame(SECRET_CARD).hands == 0 and card_metagame(SECRET_CARD).all_hands == 2
    assert card_metagame("Ancient Tomb").rounds == 0

    # Once the deadline passes, the same hand shows (the test above is not vacuous).
    open_round.deadline = timezone.now() - timedelta(seconds=1)
    open_round.save(update_fields=["deadline"])
    body = client.get(f"/players/{players[0].username}/").content.decode()
    assert SECRET_NAME in body and SECRET_CARD.replace("'", "&#x27;") in body and open_round.code in body
    assert card_metagame(SECRET_CARD).hands == 1
    assert "Gustha" in client.get("/cards/most-played/").content.decode()


def _queries(client, url):
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_player_page_queries_do_not_grow_with_rounds(
    revealed_round, make_players, moderator, client, settings
):
    # The count is of the database's work: a cache of this process alone, so that a shared cache answering
    # late under load (it is then treated as a miss) cannot add a query to one measurement only.
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "q"}
    }
    counts = []
    for number_of_rounds in (2, 6):
        players = make_players(3, prefix=f"r{number_of_rounds}x")
        for index in range(number_of_rounds):
            round_, _ = revealed_round(3, players=players)
            play(round_, moderator, THREE)
            if index % 2 == 0:
                store_tally(round_.pk)  # half stored, half computed
            award_bonus(
                actor=moderator,
                round_id=round_.pk,
                player_username=players[0].username,
                points=5,
                reason="7.7",
            )
        client.force_login(players[1])
        counts.append(_queries(client, f"/players/{players[0].username}/"))
        assert len(player_page(players[0]).entries) == number_of_rounds
    assert counts[0] == counts[1], counts
    assert counts[0] <= 16, counts
