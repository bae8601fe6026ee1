"""A hand's decisions (rule 7.2b) and a moderator's similar-hand note (4.2a) wherever the scoring app shows a
revealed hand: the player page, the match page, the results post (page and .bbcode), the results CSV and the
league transfer. Never before the deadline, to anyone."""

import csv
import io
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from archive.transfer import export_league, import_league
from rounds.models import Round
from scoring.services.table import build_match_table
from submissions.models import Hand, HandStatus, HandVersion
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db

DECISIONS = [
    {"key": "tribe", "label": "Creature type", "kind": "choice", "choices": ["Goblin", "Elf"]},
    {"key": "motto", "label": "Motto", "kind": "text"},
]
SECRET_MOTTO = "Wombat Stratagem Nine"


def answer(round_, player, **answers):
    version = HandVersion.objects.get(hand__round=round_, hand__player=player, is_current=True)
    version.decisions = answers
    version.save(update_fields=["decisions"])
    return version


def replace_with_similar(round_, player, moderator):
    """The hand's current version becomes a moderator's similar hand (4.2a) with its card changes."""
    hand = Hand.objects.get(round=round_, player=player)
    previous = hand.versions.get(is_current=True)
    previous.is_current = False
    previous.save(update_fields=["is_current"])
    HandVersion.objects.create(
        hand=hand,
        number=previous.number + 1,
        name=previous.name,
        cards=["Island", *previous.cards[1:]],
        decisions=previous.decisions,
        nonce="f" * 64,
        commitment="e" * 64,
        source=HandVersion.Source.MODERATOR,
        created_by=moderator,
        submitted_at=timezone.now(),
        card_changes={"replaced": [{"card": previous.cards[0], "by": "Island"}]},
    )
    Hand.objects.filter(pk=hand.pk).update(status=HandStatus.REPLACED)


@pytest.fixture
def decided_round(league, make_players, moderator):
    """A revealed round asking two decisions; p1 answered both, p2 one and had a similar hand; p3 none."""
    round_ = RoundFactory(league=league, decisions=DECISIONS)
    players = make_players(3, prefix="d")
    make_hands(round_, players)
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    answer(round_, players[0], tribe="Goblin", motto=SECRET_MOTTO)
    answer(round_, players[1], tribe="Elf")
    replace_with_similar(round_, players[1], moderator)
    build_match_table(round_.pk)
    round_.refresh_from_db()
    return round_, players


def test_player_page_shows_decisions_and_the_similar_hand_note(decided_round, client):
    _, players = decided_round
    body = client.get(f"/players/{players[0].username}/").content.decode()
    assert "Creature type: <span" in body and "Goblin" in body and SECRET_MOTTO in body
    assert body.index("Creature type") < body.index("Motto")  # the round's order
    body = client.get(f"/players/{players[1].username}/").content.decode()
    assert "Elf" in body and "Motto" not in body
    assert "Replaced by a similar hand (rule 4.2a): Black Lotus replaced by Island." in body
    body = client.get(f"/players/{players[2].username}/").content.decode()
    assert "phm-decisions" not in body and "phm-replaced" not in body


def test_match_page_shows_both_hands_decisions_and_the_note(decided_round, client):
    round_, _ = decided_round
    body = client.get(f"/matches/{match_between(round_, 1, 2).pk}/").content.decode()
    assert SECRET_MOTTO in body and "Goblin" in body and "Elf" in body
    assert "Black Lotus replaced by Island" in body
    assert "Island" in body  # the similar hand's cards, not the player's own
    body = client.get(f"/matches/{match_between(round_, 1, 3).pk}/").content.decode()
    assert body.count("phm-decisions") == 1 and "phm-replaced" not in body


def test_results_post_and_csv_carry_the_decisions(decided_round, client, api_client):
    round_, players = decided_round
    page = client.get(f"/rounds/{round_.pk}/results/").content.decode()
    export = api_client.get(f"/api/rounds/{round_.pk}/export/bbcode/").content.decode()
    # The page's "Copy forum post" fetches the export when pressed: the page itself does not carry the post.
    assert f'data-copy-url="/api/rounds/{round_.pk}/export/bbcode/"' in page
    assert SECRET_MOTTO in export and "[code]" in export and "[code]" not in page
    assert f"Creature type: Goblin\nMotto: {SECRET_MOTTO}" in export
    assert (
        "Creature type: Elf\n[i]Replaced by a similar hand (rule 4.2a): Black Lotus replaced by Island.[/i]"
        in (export)
    )

    rows = list(
        csv.reader(io.StringIO(api_client.get(f"/api/rounds/{round_.pk}/export/csv/").content.decode()))
    )
    assert rows[0][-2:] == ["tribe", "motto"]
    by_player = {row[1]: row[-2:] for row in rows[1:]}
    names = {player.profile.display_name or player.username: player for player in players}
    answers = {names[name].username: cells for name, cells in by_player.items()}
    assert answers == {
        players[0].username: ["Goblin", SECRET_MOTTO],
        players[1].username: ["Elf", ""],
        players[2].username: ["", ""],
    }


def test_a_round_without_decisions_keeps_its_csv_columns(revealed_round, api_client):
    round_, _ = revealed_round(2)
    rows = list(
        csv.reader(io.StringIO(api_client.get(f"/api/rounds/{round_.pk}/export/csv/").content.decode()))
    )
    assert rows[0][-1] == "rank"


def test_secret_before_the_deadline_for_other_players_and_anonymous(league, make_players, client, api_client):
    """SECRECY: with the deadline ahead, no page or export of the scoring app shows a decision."""
    round_ = RoundFactory(league=league, decisions=DECISIONS, deadline=timezone.now() + timedelta(days=1))
    owner, other = make_players(2, prefix="s")
    make_hands(round_, [owner, other])
    answer(round_, owner, tribe="Goblin", motto=SECRET_MOTTO)
    urls = [
        f"/players/{owner.username}/",
        f"/rounds/{round_.pk}/results/",
        f"/api/rounds/{round_.pk}/export/bbcode/",
        f"/api/rounds/{round_.pk}/export/csv/",
        f"/api/rounds/{round_.pk}/table/",
    ]
    for viewer in (None, other, owner):
        for http in (client, api_client):
            http.logout()
            if viewer is not None:
                http.force_login(viewer)
        for url in urls:
            http = api_client if url.startswith("/api/") else client
            body = http.get(url).content.decode()
            assert SECRET_MOTTO not in body and "Wombat" not in body, (viewer, url)
        # My PHM shows the owner their own answers (tests/home); never anyone else.
        if viewer is not owner:
            assert SECRET_MOTTO not in client.get("/").content.decode(), viewer

    # Past the deadline the same answer shows (the test above is not vacuous).
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    client.logout()
    assert SECRET_MOTTO in client.get(f"/players/{owner.username}/").content.decode()


def _queries(http, url, *, built=False):
    http.get(url)
    if built:
        cache.clear()  # the request measured builds what it answers
    with CaptureQueriesContext(connection) as ctx:
        assert http.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_decisions_cost_no_query(catalog_index, decided_round, revealed_round, client, api_client):
    """Decisions and the similar-hand note are fields of the version the pages already read."""
    round_, players = decided_round
    plain, plain_players = revealed_round(3)
    assert _queries(client, f"/players/{players[1].username}/") == _queries(
        client, f"/players/{plain_players[1].username}/"
    )
    assert _queries(client, f"/matches/{match_between(round_, 1, 2).pk}/") == _queries(
        client, f"/matches/{match_between(plain, 1, 2).pk}/"
    )
    assert _queries(api_client, f"/api/rounds/{round_.pk}/export/bbcode/") == _queries(
        api_client, f"/api/rounds/{plain.pk}/export/bbcode/"
    )
    # Building the CSV reads the versions only for a round that asks decisions: one query, whatever the hands.
    # Once built it comes from the cache (scoring.export_reply), at the same cost for both.
    decided_csv, plain_csv = f"/api/rounds/{round_.pk}/export/csv/", f"/api/rounds/{plain.pk}/export/csv/"
    assert _queries(api_client, decided_csv, built=True) == 1 + _queries(api_client, plain_csv, built=True)
    assert _queries(api_client, decided_csv) == _queries(api_client, plain_csv)


def test_league_transfer_keeps_decisions_and_card_changes(decided_round):
    round_, players = decided_round
    before = {
        (version.hand.player.username, version.number): (
            version.decisions,
            version.card_changes,
            version.source,
        )
        for version in HandVersion.objects.filter(hand__round=round_).select_related("hand__player")
    }
    document = export_league(round_.league_id)
    moved = import_league(document, rename="League 145").league
    after = {
        (version.hand.player.username, version.number): (
            version.decisions,
            version.card_changes,
            version.source,
        )
        for version in HandVersion.objects.filter(hand__round__league=moved).select_related("hand__player")
    }
    assert after == before
    assert after[(players[0].username, 1)][0] == {"tribe": "Goblin", "motto": SECRET_MOTTO}
    assert Round.objects.get(league=moved, number=round_.number).decisions == DECISIONS


class _DecisionLists(HTMLParser):
    """The tags directly inside each `<dl class="… phm-decisions">` and directly inside each of its groups."""

    VOID = {"br", "img", "input", "meta", "link", "hr"}

    def __init__(self):
        super().__init__()
        self.stack, self.children, self.group_children = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag == "dl" and "phm-decisions" in (dict(attrs).get("class") or ""):
            tag = "dl.decisions"
        if self.stack and self.stack[-1] == "dl.decisions":
            self.children.append(tag)
        elif self.stack[-2:] == ["dl.decisions", "div"]:
            self.group_children.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        names = ("dl", "dl.decisions") if tag == "dl" else (tag,)
        while self.stack and self.stack.pop() not in names:
            pass


def test_decision_lists_hold_only_term_and_description_groups_as_a_definition_list_must(decided_round, client):
    round_, _ = decided_round
    for path in (f"/matches/{match_between(round_, 1, 2).pk}/", f"/rounds/{round_.pk}/"):
        body = client.get(path).content.decode()
        assert "phm-decisions" in body
        lists = _DecisionLists()
        lists.feed(body)
        assert lists.children and set(lists.children) == {"div"}, (path, lists.children)
        assert set(lists.group_children) == {"dt", "dd"}, (path, lists.group_children)


def test_a_hand_name_with_its_own_quotes_is_quoted_once(decided_round, client):
    round_, players = decided_round
    Hand.objects.filter(round=round_, player=players[0]).update(name='Ashenvale’s "Burn"')
    body = client.get(f"/matches/{match_between(round_, 1, 2).pk}/").content.decode()
    assert "“Ashenvale’s ‘Burn’”" in body
    assert "“Ashenvale’s “Burn””" not in body and "&quot;Burn&quot;" not in body
