"""The forum results post carries what the forum argues about: every moderator's ruling in the round (a result
set, a challenge upheld or rejected, each with its note) and the bonus League points awarded in it. A round
with neither gets the post it always had, byte for byte."""

import pytest
from django.utils import timezone

from accounts import services as account_services
from archive.forum.post_import.write import set_results
from phm.text import bbcode_text
from rounds.services.leagues import create_league
from scoring.rulings import round_rulings
from scoring.services.bonus import award_bonus, withdraw_bonus
from scoring.services.decisions import challenge_match, resolve_challenge, set_result
from scoring.services.reports import report_match
from submissions.models import Hand

from .conftest import match_between

pytestmark = pytest.mark.django_db


def _post(client, round_):
    response = client.get(f"/api/rounds/{round_.pk}/export/bbcode/")
    assert response.status_code == 200
    return response.content.decode()


def _section(post, title):
    """The lines of the post's section headed `[b]title[/b]`, or None."""
    for block in post.split("\n\n"):
        lines = block.splitlines()
        if lines and lines[0] == f"[b]{title}[/b]":
            return lines[1:]
    return None


@pytest.fixture
def ruled_round(revealed_round, moderator):
    """Four hands; the moderator set 01 v 02, upheld a challenge on 01 v 03 and rejected one on 02 v 03, and
    awarded two bonuses, one of them withdrawn."""
    round_, players = revealed_round(4)
    report_match(reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2)
    set_result(
        actor=moderator, match_id=match_between(round_, 1, 2).pk, points_a=4, points_b=1, note="Game 2 drawn."
    )
    report_match(reporter=players[0], match_id=match_between(round_, 1, 3).pk, points_a=6, points_b=0)
    upheld = challenge_match(
        challenger=players[3], match_id=match_between(round_, 1, 3).pk, reason="Nevermore stops the Bolt."
    )
    resolve_challenge(
        actor=moderator, challenge_id=upheld.pk, decision="upheld", points_a=0, points_b=6, note="Agreed."
    )
    report_match(reporter=players[1], match_id=match_between(round_, 2, 3).pk, points_a=2, points_b=2)
    rejected = challenge_match(
        challenger=players[0], match_id=match_between(round_, 2, 3).pk, reason="[b]Surely[/b] 6-0?"
    )
    resolve_challenge(actor=moderator, challenge_id=rejected.pk, decision="rejected", note="A split it is.")
    award_bonus(
        actor=moderator, round_id=round_.pk, player_username="p2", points=50, reason="Featured set card"
    )
    typo = award_bonus(actor=moderator, round_id=round_.pk, player_username="p4", points=5, reason="Typo")
    withdraw_bonus(actor=moderator, award_id=typo.pk, reason="Wrong player")
    return round_, players


def test_the_post_lists_each_ruling_with_its_note_and_the_bonus_that_counts(ruled_round, client):
    round_, _players = ruled_round
    post = _post(client, round_)
    assert _section(post, "Rulings") == [
        "01 Forum p1 v 02 Forum p2 — result set: 4-1 to 01 Forum p1. Note: “Game 2 drawn.”",
        "01 Forum p1 v 03 Forum p3 — challenge by Forum p4 upheld: 6-0 to 03 Forum p3. "
        "Challenge: “Nevermore stops the Bolt.” Note: “Agreed.”",
        "02 Forum p2 v 03 Forum p3 — challenge by Forum p1 rejected. "
        f"Challenge: “{bbcode_text('[b]Surely[/b]')} 6-0?” Note: “A split it is.”",  # typed text made inert
    ]
    # The withdrawn award counts nowhere: left out, as in the standings post.
    assert _section(post, "Bonus League points") == ["Forum p2: +50 League points — Featured set card"]
    # Both sections come after the table and before the hands by rank.
    assert post.index("[/code]") < post.index("[b]Rulings[/b]") < post.index("[b]Bonus League points[/b]")
    assert post.index("[b]Bonus League points[/b]") < post.index("[b]1st[/b]")


def test_a_set_result_after_an_upheld_challenge_is_the_result_that_stands(ruled_round, moderator, client):
    round_, _players = ruled_round
    set_result(actor=moderator, match_id=match_between(round_, 1, 3).pk, points_a=2, points_b=2, note="Redo.")
    lines = [
        line for line in _section(_post(client, round_), "Rulings") if line.startswith("01 Forum p1 v 03")
    ]
    assert lines == [
        "01 Forum p1 v 03 Forum p3 — challenge by Forum p4 upheld. Challenge: “Nevermore stops the Bolt.” "
        "Note: “Agreed.”",
        "01 Forum p1 v 03 Forum p3 — result set: 2-2. Note: “Redo.”",
    ]


def test_a_playing_moderators_ruling_says_so(revealed_round, make_players, client):
    """Where nobody else can manage the league, its moderator who plays may rule: the post says so."""
    players = make_players(3, prefix="s")
    account_services.make_moderator(players[0])
    solo = create_league(actor=players[0], name="League 46", moderators=[players[0]])
    round_, _ = revealed_round(3, players=players)
    round_.league = solo
    round_.save(update_fields=["league"])
    report_match(reporter=players[1], match_id=match_between(round_, 2, 3).pk, points_a=6, points_b=0)
    set_result(actor=players[0], match_id=match_between(round_, 2, 3).pk, points_a=6, points_b=0)
    award_bonus(actor=players[0], round_id=round_.pk, player_username="s1", points=10, reason="Featured card")
    # Other site moderators could manage a league that names none; this one names its only moderator.
    post = _post(client, round_)
    assert _section(post, "Rulings") == [
        "02 Forum s2 v 03 Forum s3 — result set: 6-0 to 02 Forum s2. "
        "(decided by a moderator who played this round)"
    ]
    assert _section(post, "Bonus League points") == [
        "Forum s1: +10 League points — Featured card (awarded by themselves, the league's only moderator)"
    ]


def test_a_round_without_rulings_or_bonus_has_the_post_it_always_had(revealed_round, moderator, client):
    round_, players = revealed_round(3)
    report_match(reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)
    post = _post(client, round_)
    assert "[b]Rulings[/b]" not in post and "Bonus League points" not in post
    assert post.split("\n\n")[:3] == [
        f"[b]Results — {round_.code} {round_.title}: provisional results (not final yet)[/b]",
        "[code]\nX | 1 2 3 | PT | Points\n1 | X 6 ? |  6 |    300\n2 | 0 X ? |  0 |      0\n"
        "3 | ? ? X |  0 |      0\n[/code]",
        post.split("\n\n")[2],
    ]
    assert post.split("\n\n")[2].startswith("[b]1st[/b] 01 Forum p1")
    # A bonus awarded and then withdrawn leaves nothing in the post either.
    award = award_bonus(actor=moderator, round_id=round_.pk, player_username="p1", points=5, reason="Oops")
    withdraw_bonus(actor=moderator, award_id=award.pk, reason="Wrong round")
    assert _post(client, round_) == post


def test_a_withdrawn_bonus_and_its_replacement_of_the_same_points_change_the_post(
    revealed_round, moderator, client
):
    """The cached post is keyed by the awards that count, not only by the bonus totals they add up to."""
    round_, _players = revealed_round(3)
    award = award_bonus(actor=moderator, round_id=round_.pk, player_username="p1", points=5, reason="Tpyo")
    assert _section(_post(client, round_), "Bonus League points") == ["Forum p1: +5 League points — Tpyo"]
    withdraw_bonus(actor=moderator, award_id=award.pk, reason="Typo in the reason")
    award_bonus(actor=moderator, round_id=round_.pk, player_username="p1", points=5, reason="Typo")
    assert _section(_post(client, round_), "Bonus League points") == ["Forum p1: +5 League points — Typo"]


def test_a_new_ruling_changes_the_cached_post(revealed_round, moderator, client):
    round_, players = revealed_round(3)
    report_match(reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)
    assert _section(_post(client, round_), "Rulings") is None
    challenge = challenge_match(challenger=players[2], match_id=match_between(round_, 1, 2).pk, reason="No")
    resolve_challenge(actor=moderator, challenge_id=challenge.pk, decision="rejected", note="Yes.")
    assert _section(_post(client, round_), "Rulings") == [
        "01 Forum p1 v 02 Forum p2 — challenge by Forum p3 rejected. Challenge: “No” Note: “Yes.”"
    ]


def test_an_imported_forum_table_is_no_ruling(revealed_round, moderator):
    """An archive import decides every match of the forum's table: those are the forum's results, not a
    moderator's rulings on this site."""
    round_, _players = revealed_round(3)
    hands = {hand.number: hand for hand in Hand.objects.filter(round=round_)}
    set_results(moderator, round_, hands, {(1, 2): (6, 0), (1, 3): (2, 2)}, timezone.now())
    assert round_rulings(round_) == []
    set_result(actor=moderator, match_id=match_between(round_, 1, 3).pk, points_a=4, points_b=1)
    assert [(ruling.kind, ruling.result) for ruling in round_rulings(round_)] == [("set", (4, 1))]


def test_rulings_cost_the_same_queries_whatever_their_number(
    ruled_round, revealed_round, django_assert_num_queries
):
    round_, _players = ruled_round
    plain, _ = revealed_round(3)
    with django_assert_num_queries(2):
        assert len(round_rulings(round_)) == 3
    with django_assert_num_queries(2):
        assert round_rulings(plain) == []
