"""Archive import: a past round from the forum's "hands posted" post and its results table."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from archive.forum.post import parse_post
from archive.forum.post_import.players import derive_username
from archive.forum.post_import.preview import preview_post
from archive.forum.post_import.results import PostImportRefused
from archive.forum.post_import.write import import_post
from audit.selectors import audit_trail
from rounds.catalog import resolve
from rounds.models import Round, RoundState
from scoring.models import HandTally, Match, MatchStatus
from submissions import commitments
from submissions.models import Hand, HandVersion

DEADLINE = dt.date(2012, 3, 4)

FORUM_POST = """[b]Hands posted \u2014 45:01 5 Card Alphabetized[/b]

01 WhammeWhamme :: "The Might of Kjeld"
Leyline of Singularity / Karakas / Kjeldoran Warrior / Mishra's Workshop / Wheel of Torture
0-6 kjeldoran warrior gets there! (or possible karakularity bones us)

02 nerdyjoe :: "Scepter Tricks"
Ancient Tomb / Gustha's Scepter / Lodestone Golem / Mishra's Workshop / Sphere of Resistance

03 Mogg :: \u201cNever get warm\u201d
Black Lotus / Black Lotus / Black Lotus / Frost Titan / Nevermore

[b]04 Feyd_Ruin[/b] :: "What not to wear featuring Thalia"
Leyline of Singularity / Karakas / Mox Pearl / Thalia, Guardian of Thraben / Wear // Tear
"""

PAREN_POST = """Hands posted - 44:03

1) Subtle_Relevance
Leyline of the Void
Chalice of the Void
Dark Depths
Thespian's Stage
Urborg, Tomb of Yawgmoth

2) [i]Mogg[/i]
3 Black Lotus
Frost Titan
Nevermore
"""

GLUED_POST = """1WhammeWhamme : The Might of Kjeld
Leyline of Singularity / Karakas / Kjeldoran Warrior / Mishra's Workshop / Wheel of Torture
2nerdyjoe : "Scepter Tricks"
[card]Ancient Tomb[/card] / [card]Gustha's Scepter[/card] / Lodestone Golem / Mishra's Workshop / Sphere of Resistance
"""

# 1-4 unknown (0-0 under rule 6.3b); 2-4 known from row 4 only (4 for hand 4, so 1 for hand 2).
TABLE = """[code]
X | 1 2 3 4 | PT | Points
1 | X 6 2 ? | 8 | 267
2 | 0 X 4 ? | 5 | 167
3 | 2 1 X 6 | 9 | 300
4 | ? 4 0 X | 4 | 133
[/code]"""

INCONSISTENT_TABLE = """1 | X 6 2 ? | 8 | 267
2 | 6 X 4 ? | 10 | 333
3 | 2 1 X 6 | 9 | 300
4 | ? 4 0 X | 4 | 133"""


@pytest.fixture(autouse=True)
def catalog_index(db, monkeypatch):
    index = resolve.get_index()
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return index


def is_card(name):
    resolution = resolve.resolve_name(name)
    return resolution.resolved and resolution.status != "fuzzy"


def run_import(moderator, league, hands_text=FORUM_POST, table_text="", dry_run=False, **round_values):
    """The post with the round's fields given as the moderator's corrections (these posts have no header)."""
    values = {"title": "5 Card Alphabetized", "hand_size": 5, "deadline": DEADLINE}
    values.update(round_values)
    call = preview_post if dry_run else import_post
    return call(actor=moderator, league=league, post=hands_text, table=table_text, corrections=values)


def saved_counts():
    return Round.objects.count(), Hand.objects.count(), get_user_model().objects.count()


# Parsing ----------------------------------------------------------------------------------------------------


def test_forum_style_entries_with_slashed_card_lists():
    entries = parse_post(FORUM_POST, is_card=is_card).entries
    assert [(e.number, e.player, e.hand_name, e.line) for e in entries] == [
        (1, "WhammeWhamme", "The Might of Kjeld", 3),
        (2, "nerdyjoe", "Scepter Tricks", 7),
        (3, "Mogg", "Never get warm", 10),
        (4, "Feyd_Ruin", "What not to wear featuring Thalia", 13),
    ]
    assert entries[0].cards == [
        "Leyline of Singularity",
        "Karakas",
        "Kjeldoran Warrior",
        "Mishra's Workshop",
        "Wheel of Torture",
    ]
    assert entries[3].cards[-1] == "Wear // Tear"  # a split card, not two cards
    assert entries[0].card_lines == (4, 4, 4, 4, 4)


def test_parenthesis_style_with_one_card_per_line_and_counts():
    entries = parse_post(PAREN_POST, is_card=is_card).entries
    assert [(e.number, e.player, e.hand_name) for e in entries] == [
        (1, "Subtle_Relevance", ""),
        (2, "Mogg", ""),
    ]
    assert entries[0].cards[-1] == "Urborg, Tomb of Yawgmoth"
    assert entries[1].cards == ["Black Lotus"] * 3 + ["Frost Titan", "Nevermore"]
    assert entries[1].card_lines == (11, 11, 11, 12, 13)


def test_glued_number_style_with_bbcode_card_tags():
    entries = parse_post(GLUED_POST, is_card=is_card).entries
    assert [(e.number, e.player, e.hand_name) for e in entries] == [
        (1, "WhammeWhamme", "The Might of Kjeld"),
        (2, "nerdyjoe", "Scepter Tricks"),
    ]
    assert entries[1].cards[:2] == ["Ancient Tomb", "Gustha's Scepter"]


def test_a_counted_card_line_is_not_taken_for_the_next_entry():
    post = "1) Mogg\nFrost Titan\n2 Black Lotus\n3 Nevermore\n2) nerdyjoe\n5 Mox Pearl\n"
    entries = parse_post(post, is_card=is_card).entries
    assert [(e.number, e.player, len(e.cards)) for e in entries] == [(1, "Mogg", 6), (2, "nerdyjoe", 5)]


def test_unreadable_posts_name_their_lines():
    post = "01 Mogg\nBlack Lotus\n01 nerdyjoe\nMox Pearl\n03 Feyd_Ruin\n"
    problems = parse_post(post).problems
    assert "Line 3: entry 01 appears twice (also line 1)." in problems
    assert "Line 5: entry 03 (Feyd_Ruin) has no cards after it." in problems
    assert parse_post("Hands posted - nothing yet").entries == []


def test_usernames_derived_from_forum_names():
    taken = {"the_moderator"}
    assert derive_username("The Moderator", lambda name: name.casefold() in taken) == "The_Moderator-2"
    assert derive_username("Feyd_Ruin", lambda name: False) == "Feyd_Ruin"
    assert derive_username("***", lambda name: False) == "player"


# The service ------------------------------------------------------------------------------------------------


def test_unknown_card_names_are_reported_with_suggestions_and_nothing_is_saved(moderator, league):
    post = FORUM_POST.replace("Gustha's Scepter", "Gusthas Sceptre").replace("Nevermore", "Nevermoor Rules")
    post = post.replace("Kjeldoran Warrior", "Kjeldoran Warior")  # a likely typo: still not taken silently
    before = saved_counts()
    preview = run_import(moderator, league, hands_text=post, dry_run=True)
    assert not preview.ready and preview.round is None
    unknown = {problem.typed: problem for problem in preview.unknown_cards}
    assert set(unknown) == {"Gusthas Sceptre", "Nevermoor Rules", "Kjeldoran Warior"}
    assert "Gustha's Scepter" in unknown["Gusthas Sceptre"].suggestions
    assert unknown["Kjeldoran Warior"].code == "not_exact"
    assert unknown["Kjeldoran Warior"].suggestions[0] == "Kjeldoran Warrior"
    assert (unknown["Gusthas Sceptre"].line, unknown["Gusthas Sceptre"].entry) == (8, 2)
    # Every entry is still shown, with the cards that did resolve.
    assert [entry.number for entry in preview.entries] == [1, 2, 3, 4]
    assert preview.entries[1].cards[0].name == "Ancient Tomb"
    assert len(preview.errors["post"]) == 3

    with pytest.raises(PostImportRefused) as caught:
        run_import(moderator, league, hands_text=post)
    assert len(caught.value.result.unknown_cards) == 3
    assert saved_counts() == before


def test_import_with_a_consistent_table_finalizes_the_round_and_stores_its_tally(moderator, league):
    result = run_import(moderator, league, table_text=TABLE)
    round_ = result.round
    assert round_.state == RoundState.FINAL
    assert round_.deadline == dt.datetime(2012, 3, 4, 12, tzinfo=dt.UTC)
    assert (round_.league, round_.number, round_.title, round_.hand_size) == (
        league,
        1,
        "5 Card Alphabetized",
        5,
    )
    assert (result.known_matches, result.total_matches) == (5, 6)

    tally = {
        row.hand.number: (row.points, row.league_points, row.rank)
        for row in HandTally.objects.filter(round=round_).select_related("hand")
    }
    # PT / 3 opponents x 100, rounded half up; 1-4 was never determined: 0-0 (rule 6.3b).
    assert tally == {1: (8, 267, 2), 2: (5, 167, 3), 3: (9, 300, 1), 4: (4, 133, 4)}
    assert round_.tally.is_current and round_.tally.finalized_by == moderator

    match_24 = Match.objects.get(round=round_, hand_a__number=2, hand_b__number=4)
    assert (match_24.points_a, match_24.points_b, match_24.status) == (1, 4, MatchStatus.FINAL)
    assert match_24.decided_note == "Imported from the forum"
    match_14 = Match.objects.get(round=round_, hand_a__number=1, hand_b__number=4)
    assert (match_14.points_a, match_14.points_b, match_14.decided_points_a) == (0, 0, None)
    actions = [entry.action for entry in audit_trail(round_)]
    assert "round.imported" in actions and "round.finalized" in actions


def test_an_inconsistent_table_is_refused_with_its_messages(moderator, league):
    before = saved_counts()
    with pytest.raises(PostImportRefused) as caught:
        run_import(moderator, league, table_text=INCONSISTENT_TABLE)
    message = "Hands 1 and 2: 6 and 6 is not a possible result (6 goes with 0)."
    assert caught.value.result.table_problems == [message]
    assert caught.value.errors["table"] == [message]
    assert saved_counts() == before


def test_a_table_must_have_a_row_per_hand(moderator, league):
    table = "1 | X 6 2 | 8 | 400\n2 | 0 X 4 | 4 | 200\n3 | 2 1 X | 3 | 150"
    preview = run_import(moderator, league, table_text=table, dry_run=True)
    assert preview.errors["table"] == ["The table has 3 rows but the post has 4 hands: they must match."]


def test_import_without_a_table_leaves_the_round_revealed_with_matches_unreported(moderator, league):
    # The post names round 44:03; imported into League 45 as its round 3 instead.
    result = run_import(moderator, league, hands_text=PAREN_POST, title="Void", deadline=DEADLINE, code="3")
    round_ = Round.objects.get(pk=result.round.pk)
    assert round_.state == RoundState.REVEALED
    assert list(Match.objects.filter(round=round_).values_list("status", "points_a")) == [
        (MatchStatus.UNREPORTED, None)
    ]
    assert not HandTally.objects.filter(round=round_).exists()
    hand = Hand.objects.get(round=round_, number=2)
    version = HandVersion.objects.select_related("hand__player").get(hand=hand)
    assert version.cards == ["Black Lotus"] * 3 + ["Frost Titan", "Nevermore"]
    assert (version.number, version.source, version.created_by, version.is_current) == (
        1, "player", moderator, True,
    )  # fmt: skip
    assert version.submitted_at == round_.deadline
    assert len(version.nonce) == 64
    assert commitments.matches(commitments.version_text(version), version.commitment)


def test_players_are_matched_by_forum_name_or_username_and_created_when_unknown(moderator, league, make_user):
    whamme = make_user("alice", forum_username="WhammeWhamme")
    mogg = make_user("mogg")  # no forum name: matched by username
    preview = run_import(moderator, league, dry_run=True)
    assert [(e.player.username, e.player.creates_account) for e in preview.entries] == [
        ("alice", False),
        ("nerdyjoe", True),
        ("mogg", False),
        ("Feyd_Ruin", True),
    ]
    assert [(e.posted_player, e.player.new_username) for e in preview.new_players] == [
        ("nerdyjoe", "nerdyjoe"),
        ("Feyd_Ruin", "Feyd_Ruin"),
    ]

    result = run_import(moderator, league, hands_text=FORUM_POST.replace("WhammeWhamme", "whammewhamme"))
    owners = dict(Hand.objects.filter(round=result.round).values_list("number", "player"))
    assert owners[1] == whamme.pk and owners[3] == mogg.pk
    created = get_user_model().objects.get(username="Feyd_Ruin")
    assert not created.has_usable_password()
    assert created.profile.forum_username == "Feyd_Ruin"


def test_round_fields_are_checked(moderator, league, other_moderator):
    future = dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    preview = run_import(moderator, league, title=" ", hand_size=16, deadline=future, dry_run=True)
    assert set(preview.errors) == {"round.title", "round.hand_size", "round.deadline"}
    wrong_size = run_import(moderator, league, hand_size=4, dry_run=True)
    assert wrong_size.errors["post"][0].startswith(
        "Entry 01 (WhammeWhamme) has 5 cards; this round's hands have 4."
    )
    assert "league" in run_import(other_moderator, league, dry_run=True).errors


def test_rounds_are_numbered_after_the_leagues_last(moderator, league):
    run_import(moderator, league)
    second = run_import(moderator, league, hands_text=GLUED_POST)
    assert second.round.number == 2


# The page ---------------------------------------------------------------------------------------------------

URL = reverse("archive:import")


def form_data(**changes):
    data = {
        "round_title": "5 Card Alphabetized",
        "round_hand_size": "5",
        "round_deadline": "2012-03-04",
        "post": FORUM_POST,
        "table": TABLE,
        "action": "preview",
    }
    data.update(changes)
    return data


def test_non_moderators_are_refused(client, player, password, db):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.login(username=player.username, password=password)
    assert client.get(URL).status_code == 403
    assert client.post(URL, form_data(action="import")).status_code == 403
    assert not Round.objects.exists()


def test_preview_then_import_round_trip(client, moderator, password, league):
    client.login(username=moderator.username, password=password)
    page = client.get(URL)
    assert page.status_code == 200
    assert list(page.context["form"].fields["league"].queryset) == [league]

    preview = client.post(URL, form_data(league=league.pk))
    assert preview.status_code == 200
    assert preview.context["result"].ready
    assert "Ready to import" in preview.content.decode()
    assert not Round.objects.exists()

    response = client.post(URL, form_data(league=league.pk, action="import"))
    round_ = Round.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("rounds:round-detail", args=[round_.pk])
    assert round_.state == RoundState.FINAL and round_.hands.count() == 4


def test_a_preview_with_an_unknown_card_keeps_the_text_and_shows_suggestions(
    client, moderator, password, league
):
    client.login(username=moderator.username, password=password)
    post = FORUM_POST.replace("Gustha's Scepter", "Gusthas Sceptre")
    for action in ("preview", "import"):
        response = client.post(URL, form_data(league=league.pk, post=post, action=action))
        html = response.content.decode()
        assert response.status_code == 200
        assert "Gusthas Sceptre" in html and "Gustha&#x27;s Scepter" in html
        assert "Did you mean" in html and "nothing was saved" in html
        assert response.context["form"]["post"].value() == post
        assert "Card names to fix (1)" in html
    assert not Round.objects.exists()


def test_field_errors_show_next_to_their_fields(client, moderator, password, league):
    client.login(username=moderator.username, password=password)
    response = client.post(URL, form_data(league=league.pk, table=INCONSISTENT_TABLE, action="import"))
    assert response.status_code == 200
    assert response.context["form"].errors["table"] == [
        "Hands 1 and 2: 6 and 6 is not a possible result (6 goes with 0)."
    ]
    assert not Round.objects.exists()
