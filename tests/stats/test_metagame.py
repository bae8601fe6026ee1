"""The metagame: a card's hands, rounds and average League points; the most played cards overall and
per league; the URL order that makes /cards/most-played/ this page; bounded queries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import resolve as resolve_url
from django.utils import timezone

from rounds.models import Card
from rounds.services.leagues import create_league
from scoring.services.decisions import set_result
from scoring.services.table import build_match_table
from scoring.services.tally import store_tally
from stats import player_views
from stats.metagame import card_metagame, card_slugs, most_played
from submissions.models import Hand, HandVersion
from tests.factories import RoundFactory

from .conftest import match_between

pytestmark = pytest.mark.django_db


def enter(round_, player, cards, name="A hand"):
    hand = Hand.objects.create(round=round_, player=player, name=name)
    HandVersion.objects.create(
        hand=hand,
        number=1,
        name=name,
        cards=cards,
        nonce="0" * 64,
        commitment=f"{hand.pk:064x}",
        created_by=player,
        submitted_at=timezone.now(),
    )
    return hand


def past_round(league, entries, *, tally=True):
    """A round past its deadline with these (player, cards) entries, its table built (and stored)."""
    round_ = RoundFactory(league=league)
    for player, cards in entries:
        enter(round_, player, cards)
    round_.deadline = timezone.now() - timedelta(minutes=1)
    round_.save(update_fields=["deadline"])
    build_match_table(round_.pk)
    return round_


@pytest.fixture
def metagame(league, make_players, moderator):
    """Round A (3 hands, stored tally): 01 Lotus x2 + Mox Pearl beats everyone; 02 Lotus; 03 Mox Pearl.
    Round B in another league (2 hands, no stored tally): Lotus and Time Walk."""
    players = make_players(3)
    a = past_round(
        league,
        [
            (players[0], ["Black Lotus", "Black Lotus", "Mox Pearl"]),
            (players[1], ["Black Lotus", "Time Walk", "Ancestral Recall"]),
            (players[2], ["Mox Pearl", "Ancestral Recall", "Timetwister"]),
        ],
    )
    for (x, y), (pa, pb) in {(1, 2): (6, 0), (1, 3): (6, 0), (2, 3): (4, 1)}.items():
        set_result(actor=moderator, match_id=match_between(a, x, y).pk, points_a=pa, points_b=pb)
    store_tally(a.pk)  # League points 600, 200, 50
    other = create_league(actor=moderator, name="League 46", moderators=[moderator])
    b = past_round(other, [(players[0], ["Black Lotus"]), (players[1], ["Time Walk"])])
    return a, b, other, players


def test_card_metagame_counts_hands_and_rounds_and_averages_stored_league_points(metagame):
    lotus = card_metagame("Black Lotus")
    assert (lotus.hands, lotus.rounds, lotus.tallied_hands, lotus.all_hands) == (3, 2, 2, 5)
    assert lotus.average_league_points == (600 + 200) / 2  # round B has no stored tally: skipped
    assert lotus.share == 60
    pearl = card_metagame("Mox Pearl")
    assert (pearl.hands, pearl.rounds, pearl.average_league_points) == (2, 1, (600 + 50) / 2)
    nothing = card_metagame("Chaos Orb")
    assert (nothing.hands, nothing.rounds, nothing.average_league_points) == (0, 0, None)


def test_disqualified_hands_and_drafts_do_not_count(metagame, moderator, league, make_players):
    from submissions.services import review as hand_services

    a, _b, _other, players = metagame
    hand = Hand.objects.get(round=a, player=players[2])
    hand_services.review_hand(actor=moderator, hand_id=hand.pk, action="disqualify", message="Illegal")
    draft = RoundFactory(league=league, state="draft", deadline=timezone.now() - timedelta(days=1))
    enter(draft, players[0], ["Timetwister"])
    assert card_metagame("Timetwister").hands == 0
    assert card_metagame("Mox Pearl").hands == 1


def test_most_played_overall_and_per_league(metagame):
    a, _b, other, _players = metagame
    overall = most_played()
    assert [(c.name, c.hands, c.rounds) for c in overall.cards[:3]] == [
        ("Black Lotus", 3, 2),
        ("Time Walk", 2, 2),
        ("Ancestral Recall", 2, 1),
    ]
    assert (overall.hands, overall.rounds, overall.distinct_cards) == (5, 2, 5)
    lotus = overall.cards[0]
    assert lotus.slug == Card.objects.filter(name="Black Lotus").first().slug
    assert lotus.url == f"/cards/{lotus.slug}/"
    per_league = most_played(league_id=a.league_id)
    assert [(c.name, c.hands) for c in per_league.cards] == [
        ("Ancestral Recall", 2),
        ("Black Lotus", 2),
        ("Mox Pearl", 2),
        ("Time Walk", 1),
        ("Timetwister", 1),
    ]
    assert per_league.cards[1].average_league_points == 400
    assert [(c.name, c.hands) for c in most_played(league_id=other.pk).cards] == [
        ("Black Lotus", 1),
        ("Time Walk", 1),
    ]
    assert len(most_played(limit=2).cards) == 2


def test_most_played_pages_link_to_card_pages(metagame, client):
    _a, _b, other, _players = metagame
    slug = Card.objects.filter(name="Black Lotus").first().slug
    body = client.get("/cards/most-played/").content.decode()
    assert f'href="/cards/{slug}/">Black Lotus</a>' in body
    assert "5 revealed hands in 2 rounds, 5 different cards" in body
    assert 'role="img"' in body and "Most played cards, all leagues" in body
    assert "400.0" in body  # Black Lotus's average over its tallied hands
    league_page = client.get(f"/leagues/{other.pk}/most-played/").content.decode()
    assert "League 46" in league_page and "Mox Pearl" not in league_page
    assert client.get("/leagues/987654/most-played/").status_code == 404


def test_unknown_card_names_are_listed_without_a_link(league, make_players):
    players = make_players(2)
    past_round(league, [(players[0], ["Not A Real Card <b>"]), (players[1], ["Black Lotus"])])
    cards = {card.name: card for card in most_played().cards}
    assert cards["Not A Real Card <b>"].slug == "" and cards["Not A Real Card <b>"].url == ""
    assert card_slugs([]) == {}


def test_most_played_resolves_to_this_page_not_a_card_slug(client):
    assert resolve_url("/cards/most-played/").func is player_views.most_played
    assert resolve_url("/cards/black-lotus/").url_name == "card-detail"
    assert resolve_url("/leagues/3/most-played/").func is player_views.league_most_played
    assert client.get("/cards/most-played/").status_code == 200


def test_empty_site_says_so(db, client):
    body = client.get("/cards/most-played/").content.decode()
    assert "No revealed hands yet" in body


def test_card_metagame_include_renders(metagame):
    html = render_to_string("scoring/_card_metagame.html", {"metagame": card_metagame("Black Lotus")})
    assert "Revealed hands playing it" in html and ">3 <span" in html and "(60.0%)" in html
    assert "400.0" in html and "over 2" in html and 'href="/cards/most-played/"' in html
    html = render_to_string("scoring/_card_metagame.html", {"metagame": card_metagame("Chaos Orb")})
    assert "No revealed hand has played this card yet." in html


def test_queries_do_not_grow_with_hands_or_rounds(league, make_players, client):
    counts, card_counts = [], []
    for rounds, size in ((1, 3), (4, 8)):
        players = make_players(size, prefix=f"q{rounds}x")
        for _ in range(rounds):
            past_round(league, [(p, ["Black Lotus", f"Mox {p.username}"]) for p in players])
        for url in ("/cards/most-played/", f"/leagues/{league.pk}/most-played/"):
            client.get(url)
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts.append(len(ctx.captured_queries))
        with CaptureQueriesContext(connection) as ctx:
            card_metagame("Black Lotus")
        card_counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[2] and counts[1] == counts[3], counts
    assert counts[0] <= 3 and counts[1] <= 4, counts  # anonymous: the hands, the slugs (+ the league)
    assert card_counts == [1, 1]
