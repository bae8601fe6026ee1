"""Results entry checks what forum posts get wrong: a row's stated `| PT | Points` against its cells (the cells
count, and the player or moderator sees the difference before anything is saved), the disputes a paste of
players' rows will make, and a player's one-click agreement with the opponent's report."""

import pytest
from rest_framework.test import APIClient

from scoring.forum_rows import parse_row, row_total_mismatches
from scoring.models import MatchReport, MatchStatus
from scoring.services.decisions import set_result
from scoring.services.errors import ScoringConflict, ScoringForbidden
from scoring.services.posted_rows import import_posted_rows
from scoring.services.reports import StatedTotalsDiffer, agree_with_opponent, report_match, report_row
from submissions.services.review import review_hand

from .conftest import match_between

pytestmark = pytest.mark.django_db


def _as(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _reports(round_):
    return set(
        MatchReport.objects.filter(match__round=round_, is_current=True).values_list(
            "reporter__username", "points_a", "points_b"
        )
    )


# Stated totals against the cells ------------------------------------------------------------------------------

WRONG_TOTALS = "1 | X 6 2 1 | 10 | 999"  # the cells give PT 9 and Points 300 over 3 opponents


def test_each_stated_total_the_cells_do_not_give_is_named_with_what_the_cells_give():
    mismatches = row_total_mismatches(parse_row(WRONG_TOTALS))
    assert [(m.total, m.stated, m.computed) for m in mismatches] == [("PT", 10, 9), ("Points", 999, 300)]
    assert [m.message for m in mismatches] == [
        "Row 1 states PT 10, but its cells add up to 9.",
        "Row 1 states Points 999, but its cells give 300 (PT 9 over 3 opponents, times 100, a half rounded "
        "up: rule 5.2).",
    ]
    # A right PT with a wrong Points names only Points; rounding is the app's (1 over 8 is 12.5, so 13).
    [only] = row_total_mismatches(parse_row("1 | X 1 0 0 0 0 0 0 0 | 1 | 12"))
    assert (only.total, only.computed) == ("Points", 13)
    assert row_total_mismatches(parse_row("1 | X 1 0 0 0 0 0 0 0 | 1 | 13")) == []
    assert row_total_mismatches(parse_row("1 | X 6 2 1")) == []  # nothing stated, nothing to check


def test_the_table_scores_a_row_without_its_disqualified_column(revealed_round, moderator):
    """Opponents are the hands in the table (rule 5.2): a disqualified hand is neither an opponent nor a
    column that counts."""
    round_, players = revealed_round(4)
    review_hand(actor=moderator, hand_id=round_.hands.get(number=4).pk, action="disqualify", message="Late")
    outcome = report_row(player=players[0], round_id=round_.pk, row="1 | X 6 2 ? | 8 | 400")
    assert outcome.warnings == []
    wrong = report_row(player=players[0], round_id=round_.pk, row="1 | X 6 2 ? | 8 | 267")
    assert wrong.warnings == [
        "Row 1 states Points 267, but its cells give 400 (PT 8 over 2 opponents, times 100, a half rounded "
        "up: rule 5.2). The cells count, not the stated totals: they are what is reported, and they give "
        "PT 8 and Points 400."
    ]


def test_a_players_row_with_wrong_totals_is_saved_only_after_the_player_confirms_the_cells(
    revealed_round, client
):
    round_, players = revealed_round(4)
    client.force_login(players[0])
    url = f"/rounds/{round_.pk}/results/"
    first = client.post(url, {"row": WRONG_TOTALS})
    page = first.content.decode()
    assert first.status_code == 200 and not MatchReport.objects.exists()
    assert "Not reported yet." in page
    assert "Row 1 states PT 10, but its cells add up to 9." in page
    assert "Row 1 states Points 999, but its cells give 300" in page
    assert "they give PT 9 and Points 300" in page
    assert 'name="confirmed_row" value="1 | X 6 2 1 | 10 | 999"' in page and "Report the cells" in page
    confirmed = client.post(url, {"row": WRONG_TOTALS, "confirmed_row": WRONG_TOTALS}, follow=True)
    assert "Your row is reported: 3 matches." in confirmed.content.decode()
    assert "Row 1 states PT 10" in confirmed.content.decode()  # said again beside what was saved
    assert _reports(round_) == {("p1", 6, 0), ("p1", 2, 2), ("p1", 1, 4)}
    # Confirming one row never lets another, different one through unseen.
    stale = client.post(url, {"row": "1 | X 0 2 1 | 3 | 5", "confirmed_row": WRONG_TOTALS})
    assert "Not reported yet." in stale.content.decode()
    assert _reports(round_) == {("p1", 6, 0), ("p1", 2, 2), ("p1", 1, 4)}


def test_a_row_whose_totals_are_right_is_saved_at_once(revealed_round, client):
    round_, players = revealed_round(4)
    client.force_login(players[0])
    done = client.post(f"/rounds/{round_.pk}/results/", {"row": "1 | X 6 2 1 | 9 | 300"}, follow=True)
    assert "Your row is reported: 3 matches." in done.content.decode()


def test_the_service_stops_a_row_with_wrong_totals_only_when_asked(revealed_round):
    round_, players = revealed_round(4)
    with pytest.raises(StatedTotalsDiffer) as refused:
        report_row(player=players[0], round_id=round_.pk, row=WRONG_TOTALS, stop_if_totals_differ=True)
    assert refused.value.code == "stated_totals_differ" and not MatchReport.objects.exists()
    outcome = report_row(player=players[0], round_id=round_.pk, row=WRONG_TOTALS)
    assert len(outcome.reports) == 3 and "Row 1 states PT 10" in outcome.warnings[0]


def test_the_api_saves_the_cells_and_says_which_total_differs(revealed_round):
    round_, players = revealed_round(4)
    response = _as(players[0]).post(f"/api/rounds/{round_.pk}/rows/", {"row": WRONG_TOTALS}, format="json")
    assert response.status_code == 201, response.json()
    assert len(response.json()["reports"]) == 3
    [warning] = response.json()["warnings"]
    assert warning.startswith("Row 1 states PT 10, but its cells add up to 9. Row 1 states Points 999")
    right = _as(players[0]).post(f"/api/rounds/{round_.pk}/rows/", {"row": "1 | X 6 2 1"}, format="json")
    assert right.json()["warnings"] == []


def test_a_posted_row_with_wrong_totals_is_marked_in_the_preview(revealed_round, moderator):
    round_, _players = revealed_round(4)
    preview = import_posted_rows(actor=moderator, round_id=round_.pk, text=WRONG_TOTALS, dry_run=True)
    assert preview.warnings == [
        "Line 1: Row 1 states PT 10, but its cells add up to 9. Row 1 states Points 999, but its cells give "
        "300 (PT 9 over 3 opponents, times 100, a half rounded up: rule 5.2). The cells count, not the stated "
        "totals: they are what is reported, and they give PT 9 and Points 300."
    ]
    assert [row.number for row in preview.totals_differ] == [1] and preview.needs_a_look


# Disputes a paste will make --------------------------------------------------------------------------------


def test_the_preview_names_each_match_that_will_be_disputed(revealed_round, moderator):
    round_, players = revealed_round(4)
    report_match(reporter=players[1], match_id=match_between(round_, 1, 2).pk, points_a=1, points_b=4)
    report_match(reporter=players[2], match_id=match_between(round_, 1, 3).pk, points_a=2, points_b=2)
    report_match(reporter=players[3], match_id=match_between(round_, 1, 4).pk, points_a=6, points_b=0)
    # Row 1 against hand 2 differs from hand 2's report, agrees with hand 3's; rows 1 and 4 disagree with
    # each other (row 4's cell replaces its player's earlier report).
    text = "1 | X 6 2 0\n4 | 0 ? ? X"
    preview = import_posted_rows(actor=moderator, round_id=round_.pk, text=text, dry_run=True)
    assert preview.disputes == [
        "01 Forum p1 v 02 Forum p2 will be a dispute: Forum p1's row says 6-0 to Forum p1; Forum p2 "
        "reported 4-1 to Forum p2.",
        "01 Forum p1 v 04 Forum p4 will be a dispute: Forum p1's row says 6-0 to Forum p4; Forum p4's row "
        "says 6-0 to Forum p1.",
    ]
    assert not MatchReport.objects.filter(reporter=players[0]).exists()
    import_posted_rows(actor=moderator, round_id=round_.pk, text=text)
    assert match_between(round_, 1, 2).status == match_between(round_, 1, 4).status == MatchStatus.DISPUTED
    assert match_between(round_, 1, 3).status == MatchStatus.AGREED


def test_a_dispute_that_goes_on_and_a_moderators_result_are_told_apart(revealed_round, moderator):
    round_, players = revealed_round(3)
    report_match(reporter=players[0], match_id=match_between(round_, 1, 2).pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match_between(round_, 1, 2).pk, points_a=2, points_b=2)
    report_match(reporter=players[2], match_id=match_between(round_, 1, 3).pk, points_a=0, points_b=6)
    set_result(actor=moderator, match_id=match_between(round_, 1, 3).pk, points_a=0, points_b=6)
    preview = import_posted_rows(actor=moderator, round_id=round_.pk, text="1 | X 6 6", dry_run=True)
    # 1 v 2 was disputed already; 1 v 3 has the moderator's result, which reports do not move.
    assert preview.disputes == [
        "01 Forum p1 v 02 Forum p2 stays a dispute: Forum p1's row says 6-0 to Forum p1; Forum p2 reported 2-2."
    ]


def test_the_page_holds_an_import_back_until_its_warnings_were_previewed(revealed_round, moderator, client):
    round_, players = revealed_round(3)
    report_match(reporter=players[1], match_id=match_between(round_, 1, 2).pk, points_a=1, points_b=4)
    client.force_login(moderator)
    url = f"/moderate/rounds/{round_.pk}/results/"
    text = "1 | X 6 2 | 9 | 400"
    held = client.post(url, {"action": "posted_rows_import", "text": text})
    page = held.content.decode()
    assert held.status_code == 200 and not MatchReport.objects.filter(reporter=players[0]).exists()
    assert "Nothing imported yet." in page and "Preview: 1 row, 2 reports, 1 dispute" in page
    assert (
        "will be a dispute: Forum p1&#x27;s row says 6-0 to Forum p1; Forum p2 reported 4-1 to Forum p2."
        in page
    )
    assert "Row 1 states PT 9, but its cells add up to 8." in page and "stated totals differ" in page
    previewed = page.split('name="previewed" value="')[1].split('"')[0]
    done = client.post(
        url, {"action": "posted_rows_import", "text": text, "previewed": previewed}, follow=True
    )
    assert "1 player&#x27;s row imported: 2 reports, 1 match disputed." in done.content.decode()
    assert match_between(round_, 1, 2).status == MatchStatus.DISPUTED


def test_the_api_lists_the_disputes_and_still_imports(revealed_round, moderator):
    round_, players = revealed_round(3)
    report_match(reporter=players[1], match_id=match_between(round_, 1, 2).pk, points_a=1, points_b=4)
    response = _as(moderator).post(
        f"/api/rounds/{round_.pk}/posted-rows/", {"text": "1 | X 6 2"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["disputes"] == [
        "01 Forum p1 v 02 Forum p2 will be a dispute: Forum p1's row says 6-0 to Forum p1; Forum p2 reported "
        "4-1 to Forum p2."
    ]


# Agree with the opponent's report ------------------------------------------------------------------------------


def test_the_match_page_offers_the_opponents_claim_with_an_agree_button(revealed_round, client):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    claim = report_match(
        reporter=players[1], match_id=match.pk, points_a=1, points_b=4, comment="Scepter locked you out."
    )
    client.force_login(players[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="opponent-claim"' in page
    assert "Forum p2 reported: You drew one, lost one (1-4)" in page and "Scepter locked you out." in page
    assert "You have not reported this match yet." in page
    assert f'name="report" value="{claim.pk}"' in page and 'name="action" value="agree"' in page
    done = client.post(f"/matches/{match.pk}/", {"action": "agree", "report": claim.pk}, follow=True)
    assert "Saved: your report agrees with your opponent&#x27;s." in done.content.decode()
    assert match_between(round_, 1, 2).status == MatchStatus.AGREED
    assert 'id="opponent-claim"' not in done.content.decode()  # agreed: nothing left to agree with


def test_a_player_who_differs_sees_both_claims(revealed_round, client):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[0], match_id=match.pk, points_a=6, points_b=0)
    report_match(reporter=players[1], match_id=match.pk, points_a=1, points_b=4)
    client.force_login(players[1])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Forum p1 reported: You lost both games (0-6)" in page
    assert "You reported “You won one, drew one (4-1)”" in page


def test_nobody_else_is_offered_an_agreement(revealed_round, moderator, client):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    report_match(reporter=players[1], match_id=match.pk, points_a=1, points_b=4)
    for viewer in (players[1], players[2], moderator):
        client.force_login(viewer)
        assert 'id="opponent-claim"' not in client.get(f"/matches/{match.pk}/").content.decode()
    set_result(actor=moderator, match_id=match.pk, points_a=2, points_b=2)
    client.force_login(players[0])  # the moderator's result stands: agreeing would change nothing
    assert 'id="opponent-claim"' not in client.get(f"/matches/{match.pk}/").content.decode()


def test_agreeing_with_a_report_that_changed_meanwhile_saves_nothing(revealed_round, client):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    read = report_match(reporter=players[1], match_id=match.pk, points_a=1, points_b=4)
    report_match(reporter=players[1], match_id=match.pk, points_a=0, points_b=6)
    with pytest.raises(ScoringConflict, match="Forum p2 changed their report since you read it"):
        agree_with_opponent(player=players[0], match_id=match.pk, report_id=read.pk)
    client.force_login(players[0])
    page = client.post(f"/matches/{match.pk}/", {"action": "agree", "report": read.pk}).content.decode()
    assert "changed their report since you read it: they now say 0-6" in page
    assert not MatchReport.objects.filter(reporter=players[0]).exists()


def test_only_the_two_players_agree_and_only_with_a_report(revealed_round):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    with pytest.raises(ScoringConflict, match="Forum p2 has not reported this match"):
        agree_with_opponent(player=players[0], match_id=match.pk)
    report_match(reporter=players[1], match_id=match.pk, points_a=1, points_b=4)
    with pytest.raises(ScoringForbidden, match="Only the two players of a match agree"):
        agree_with_opponent(player=players[2], match_id=match.pk)
    mine = agree_with_opponent(player=players[0], match_id=match.pk)
    assert (mine.side, mine.points_a, mine.points_b) == ("a", 1, 4)
    assert agree_with_opponent(player=players[0], match_id=match.pk) == mine  # once is enough


def test_the_api_agrees_with_201_and_refuses_as_the_page_does(revealed_round):
    round_, players = revealed_round(3)
    match = match_between(round_, 1, 2)
    url = f"/api/matches/{match.pk}/agree/"
    assert _as(players[0]).post(url, {}, format="json").status_code == 409  # nothing to agree with yet
    claim = report_match(reporter=players[1], match_id=match.pk, points_a=1, points_b=4)
    assert _as(players[2]).post(url, {}, format="json").status_code == 403
    assert _as(players[0]).post(url, {"report": claim.pk + 1000}, format="json").status_code == 409
    agreed = _as(players[0]).post(url, {"report": claim.pk}, format="json")
    assert agreed.status_code == 201, agreed.json()
    assert {key: agreed.json()[key] for key in ("reporter", "side", "points_a", "points_b")} == {
        "reporter": "p1",
        "side": "a",
        "points_a": 1,
        "points_b": 4,
    }
    assert match_between(round_, 1, 2).status == MatchStatus.AGREED
