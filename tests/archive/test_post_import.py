"""A forum post pasted as it is becomes an imported round, with what the post says about the round,
the entries' comments, players matched (near matches asked), legality accepted visibly, duplicates refused."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archive.forum.post_import.preview import preview_post
from archive.forum.post_import.results import ArchiveDuplicate, PostImportRefused
from archive.forum.post_import.write import import_post
from audit.selectors import audit_trail
from rounds.catalog import resolve
from rounds.models import Round, RoundState
from scoring.models import Match
from submissions.models import Hand

NOW = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)

# Written for these tests in the shape of the forum's posts (the names are made up).
GOBLIN_POST = """[b][size=150]4 Card LR Goblins \u2014 League 31:03[/size][/b]

[b]Deck Size:[/b] 4
[b]Land Rule:[/b] Basic
[b]Additional Banned list:[/b] Sol Ring
[b]Deadline:[/b] 2023-03-12 23:59 UTC

Eleven entries last week, three this week. The Recruiter piles were popular.

[b]01 Suberbajt :: "Goblin Party"[/b]
Goblin Lackey / Goblin Recruiter / Mountain / Black Lotus
Fast, but folds to one removal spell. Starts at 12 life.

[b]02 nerdyjoe :: "Welder"[/b]
Goblin Welder / Mishra's Workshop / Ancient Tomb / Chaos Orb
0-6 against the field, welded nothing.

[b]03 Mogg :: "Kiki"[/b]
Kiki-Jiki, Mirror Breaker / Mountain / Mox Ruby / Lightning Bolt
The only hand that races the lock.

[u]How to submit[/u]
Send your hand to the moderator by private message before the deadline.
Submission deadline: Sunday 19 March 2023

X | 1 2 3 | PT | Points
1 | X 0 0 | 0 | 0
"""

TABLE = """X | 1 2 3 | PT | Points
1 | X 6 2 | 8 | 400
2 | 0 X 4 | 4 | 200
3 | 2 1 X | 3 | 150"""


@pytest.fixture(autouse=True)
def catalog_index(db, monkeypatch):
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return resolve.get_index()


def preview(moderator, league, post=GOBLIN_POST, **options):
    return preview_post(actor=moderator, league=league, post=post, now=NOW, **options)


def test_the_whole_post_is_understood(moderator, league31, superbajt):
    result = preview(moderator, league31)
    fields = result.fields
    assert (fields.code, fields.number, fields.title) == ("31:03", 3, "4 Card LR Goblins")
    assert (fields.hand_size, fields.land_rule, fields.extra_banned) == (4, "LR", ["Sol Ring"])
    assert fields.deadline == dt.datetime(2023, 3, 12, 23, 59, tzinfo=dt.UTC)
    assert "Recruiter piles" in fields.commentary
    assert fields.counts_in_standings is True  # the post names a round of this league
    assert [(e.number, e.posted_player, e.hand_name) for e in result.entries] == [
        (1, "Suberbajt", "Goblin Party"),
        (2, "nerdyjoe", "Welder"),
        (3, "Mogg", "Kiki"),
    ]
    assert result.entries[0].card_names == ["Goblin Lackey", "Goblin Recruiter", "Mountain", "Black Lotus"]
    assert result.entries[0].comment == "Fast, but folds to one removal spell. Starts at 12 life."
    assert {part.kind for part in result.skipped} >= {"how to submit", "row template"}
    # Land rule: Black Lotus is on the Land Rule Banned List; Chaos Orb is banned in Vintage. Accepted.
    assert any("Black Lotus" in sentence for sentence in result.entries[0].accepted)
    assert any("Chaos Orb" in sentence for sentence in result.entries[1].accepted)
    assert result.entries[2].accepted == []
    # The one thing left: "Suberbajt" is one letter from an account.
    assert [problem.code for problem in result.all_problems] == ["near_player"]
    assert "did you mean \u201cSuperbajt\u201d" in result.all_problems[0].message
    assert not result.ready


def test_a_near_match_is_settled_by_choosing_the_account_and_the_round_imports(
    moderator, league31, superbajt
):
    users_before = get_user_model().objects.count()
    result = import_post(
        actor=moderator,
        league=league31,
        post=GOBLIN_POST,
        table=TABLE,
        players={"Suberbajt": "Superbajt"},
        now=NOW,
    )
    round_ = result.round
    assert (round_.number, round_.code, round_.state) == (3, "31:03", RoundState.FINAL)
    assert (round_.land_rule, round_.extra_banned, round_.hand_size) == ("LR", ["Sol Ring"], 4)
    assert round_.counts_in_standings and round_.imported_fingerprint
    hands = {hand.number: hand for hand in Hand.objects.filter(round=round_).select_related("player")}
    assert hands[1].player == superbajt
    assert hands[1].comment.startswith("Fast, but folds")
    assert any("Black Lotus" in sentence for sentence in hands[1].accepted_problems)
    assert get_user_model().objects.count() == users_before + 2  # nerdyjoe and Mogg
    imported = audit_trail(round_).get(action="round.imported")
    assert imported.after["players_chosen"] == {"Suberbajt": "Superbajt"}
    assert imported.after["players_created"] == ["nerdyjoe", "Mogg"]
    assert imported.after["hands_accepted_with_problems"] == 2


def test_choosing_a_new_account_for_a_near_match_creates_one(moderator, league31, superbajt):
    result = import_post(
        actor=moderator, league=league31, post=GOBLIN_POST, players={"Suberbajt": ""}, now=NOW
    )
    hand = Hand.objects.get(round=result.round, number=1)
    assert hand.player != superbajt and hand.player.profile.forum_username == "Suberbajt"
    assert result.round.state == RoundState.REVEALED  # no table: results to be entered here


def test_the_same_post_twice_is_refused_with_a_link(moderator, league31, superbajt):
    options = {"players": {"Suberbajt": "Superbajt"}, "now": NOW}
    first = import_post(actor=moderator, league=league31, post=GOBLIN_POST, **options)
    again = preview(moderator, league31, players={"Suberbajt": "Superbajt"})
    assert again.duplicate_of == first.round and not again.ready
    reworded = GOBLIN_POST.replace("Eleven entries", "Twelve entries")  # the entries are what count
    with pytest.raises(ArchiveDuplicate) as caught:
        import_post(actor=moderator, league=league31, post=reworded, **options)
    assert caught.value.round == first.round
    assert Round.objects.filter(league=league31).count() == 1


def test_a_post_of_another_league_is_archive_only_unless_chosen(moderator, league, superbajt):
    # `league` is League 45 with no number: the post's code names league 31.
    result = preview(moderator, league, players={"Suberbajt": "Superbajt"})
    assert result.fields.counts_in_standings is False
    league.number = 45
    league.save(update_fields=["number"])
    result = preview(moderator, league, players={"Suberbajt": "Superbajt"})
    assert [problem.code for problem in result.problems] == ["code_other_league"]
    corrected = preview(moderator, league, players={"Suberbajt": "Superbajt"}, corrections={"code": "45:07"})
    # Corrected to a round of this league, it counts unless the moderator says otherwise.
    assert corrected.ready and corrected.fields.code == "45:07" and corrected.fields.counts_in_standings
    chosen = preview(
        moderator,
        league,
        players={"Suberbajt": "Superbajt"},
        corrections={"code": "45:07"},
        counts_in_standings=False,
    )
    assert chosen.fields.counts_in_standings is False


def test_corrections_replace_what_the_post_says(moderator, league31, superbajt):
    corrections = {
        "title": "4 Card Goblins",
        "hand_size": 4,
        "land_rule": "ELR",
        "extra_banned": ["Sol Ring", "Mana Crypt"],
        "deadline": "2023-03-13",
        "format_rule": "Every hand has a Goblin.",
    }
    result = preview(moderator, league31, players={"Suberbajt": "Superbajt"}, corrections=corrections)
    fields = result.fields
    assert fields.title == "4 Card Goblins" and fields.land_rule == "ELR"
    assert fields.extra_banned == ["Sol Ring", "Mana Crypt"]
    assert fields.deadline == dt.datetime(2023, 3, 13, 12, tzinfo=dt.UTC)
    assert fields.corrected == {
        "title",
        "land_rule",
        "extra_banned",
        "deadline",
        "format_rule",
    }  # not hand_size


def test_unknown_cards_block_with_suggestions_and_nothing_is_saved(moderator, league31, superbajt):
    post = GOBLIN_POST.replace("Goblin Welder", "Goblin Welderr")
    before = Round.objects.count(), Hand.objects.count()
    with pytest.raises(PostImportRefused) as caught:
        import_post(actor=moderator, league=league31, post=post, players={"Suberbajt": "Superbajt"}, now=NOW)
    problems = caught.value.result.unknown_cards
    assert [problem.typed for problem in problems] == ["Goblin Welderr"]
    assert "Goblin Welder" in problems[0].suggestions
    assert (Round.objects.count(), Hand.objects.count()) == before


def test_a_comment_line_is_not_a_card_and_a_longer_hand_is_refused(moderator, league31, superbajt):
    post = GOBLIN_POST.replace("Kiki-Jiki, Mirror Breaker / ", "Kiki-Jiki, Mirror Breaker / Goblin Lackey / ")
    result = preview(moderator, league31, post=post, players={"Suberbajt": "Superbajt"})
    assert [problem.code for problem in result.all_problems] == ["too_many_cards"]


def test_the_api_previews_and_imports_with_the_contracts_statuses(client, moderator, league31, superbajt):
    client.force_login(moderator)
    body = {"league": league31.pk, "post": GOBLIN_POST}
    answer = client.post(reverse("api-archive-preview"), body, content_type="application/json")
    assert answer.status_code == 200
    data = answer.json()
    assert data["ready"] is False
    assert data["round"]["code"] == "31:03" and data["round"]["land_rule"] == "LR"
    assert data["entries"][0]["matched_user"] is None and data["entries"][0]["player_match"] == "near"
    assert data["entries"][1]["cards"][0] == "Goblin Welder"
    assert any("How to submit" in text for text in data["skipped"])
    refused = client.post(reverse("api-archive-import"), body, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["problems"][0]["code"] == "near_player"
    body["players"] = {"Suberbajt": "Superbajt"}
    body["counts_in_standings"] = False
    done = client.post(reverse("api-archive-import"), body, content_type="application/json")
    assert done.status_code == 201
    round_ = Round.objects.get(pk=done.json()["round"])
    assert round_.counts_in_standings is False
    twice = client.post(reverse("api-archive-import"), body, content_type="application/json")
    assert twice.status_code == 409 and twice.json()["round"] == round_.pk


def test_the_api_is_for_the_leagues_moderators(client, make_user, league31):
    player = make_user("someone")
    client.force_login(player)
    body = {"league": league31.pk, "post": GOBLIN_POST}
    assert (
        client.post(reverse("api-archive-preview"), body, content_type="application/json").status_code == 403
    )
    assert (
        client.post(reverse("api-archive-import"), body, content_type="application/json").status_code == 403
    )
    client.logout()
    assert client.post(reverse("api-archive-preview"), body, content_type="application/json").status_code in (
        401,
        403,
    )


PIECES = st.sampled_from(
    [
        '01 Ann :: "Hand"', "1Bob : Name", "1) Cy", "Black Lotus / Sol Ring", "Mox Pearl", "3 Black Lotus",
        "Blak Lotus / Sole Ring", "Deck Size: 4", "Land Rule: Extra", "Deadline: 12/03/2023", "Deadline: soon",
        "Additional Banned list: Blak Lotus", "X | 1 2 3 | PT | Points", "1 | X 0 0", "League 31:03", "99:99",
        "Contents", "1. Overview", "[quote]", "[b]", "0-6 leylined again", "Fast, but folds.", "", "\r", "Suberbajt",
    ]
)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(PIECES | st.text(max_size=30), max_size=25))
def test_no_pasted_text_makes_the_preview_fail(moderator, league31, superbajt, pieces):
    result = preview(moderator, league31, post="\n".join(pieces))
    assert isinstance(result.as_dict()["ready"], bool)
    assert result.ready == (not result.all_problems)


def test_a_megabyte_of_entries_is_checked_within_bounds(moderator, league31):
    entry = '{n:02d} Player{n} :: "Hand {n}"\nBlak Lotuss / Sole Rong / Goblin Lakey / Xyzzy {n}\nNice.\n\n'
    post = "".join(entry.format(n=n) for n in range(1, 16_000))
    assert len(post) > 1_000_000
    result = preview(moderator, league31, post=post)
    # Entry numbers stop at 999 (a round's most): what follows is no new entry, and is refused with the last.
    assert len(result.entries) == 999 and not result.ready
    unknown = result.unknown_cards
    assert len(unknown) >= 998 * 4
    # Suggestions (fuzzy matching, milliseconds each) only for the first names: a worker is not held for minutes.
    assert sum(1 for problem in unknown if problem.suggestions) <= 200


def test_table_totals_that_differ_are_reported_and_row_notes_kept(moderator, league31, superbajt):
    table = TABLE.replace("1 | X 6 2 | 8 | 400", "1 | X 6 2 | 18 | 300").replace(
        "3 | 2 1 X | 3 | 150", "3 | 2 1 X | 3 | 150 | (2-2 vs 1 is controversial)"
    )
    options = {"players": {"Suberbajt": "Superbajt"}, "table": table}
    result = preview(moderator, league31, **options)
    assert result.ready
    assert (
        "Row 1 states PT 18, but its cells add up to 8 (unknown matches count 0, rule 6.3b)."
        in result.warnings
    )
    assert any(warning.startswith("Row 1 states Points 300") for warning in result.warnings)
    assert (result.entries[0].points, result.entries[0].league_points) == (8, 400)  # recomputed, labelled so
    assert result.entries[2].row_note == "2-2 vs 1 is controversial"
    imported = import_post(actor=moderator, league=league31, post=GOBLIN_POST, now=NOW, **options).round
    match = Match.objects.get(round=imported, hand_a__number=1, hand_b__number=3)
    assert match.decided_note == "Imported from the forum (row 3: 2-2 vs 1 is controversial)"
    assert (match.points_a, match.points_b) == (2, 2)


def test_rounds_imported_before_fingerprints_get_the_same_one(moderator, league31, superbajt):
    from importlib import import_module

    from django.apps import apps

    backfill = import_module("submissions.migrations.0009_backfill_imported_fingerprints").backfill
    options = {"players": {"Suberbajt": ""}, "now": NOW}
    round_ = import_post(actor=moderator, league=league31, post=GOBLIN_POST, **options).round
    fingerprint = round_.imported_fingerprint
    Round.objects.filter(pk=round_.pk).update(imported_fingerprint="")
    backfill(apps, None)
    round_.refresh_from_db()
    assert round_.imported_fingerprint == fingerprint
    with pytest.raises(ArchiveDuplicate):
        import_post(actor=moderator, league=league31, post=GOBLIN_POST, **options)
