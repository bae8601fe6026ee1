"""Players' posted rows: a moderator pastes forum posts, each row becomes its player's reports with
the note as comment; preview and import; the service, the moderator's page and the API."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import services as account_services
from audit.models import AuditEntry
from scoring.models import MatchReport, MatchStatus
from scoring.services.errors import ScoringConflict, ScoringForbidden, ScoringInputError
from scoring.services.finalization import finalize_round
from scoring.services.posted_rows import import_posted_rows
from scoring.services.reports import report_row
from tests.factories import RoundFactory

from .conftest import make_hands, match_between

pytestmark = pytest.mark.django_db

POSTS = """[quote="Forum p1"]Posted by Forum p1 on 12 March
Here is my row, sorry for the delay:
1 | X 6 2 ? | 8 | 267 (2-2 vs 3 is controversial)
[/quote]

[quote=Forum p3]
3 | 2 1 X 6
good games all
[/quote]"""


def _reports(round_):
    return {
        (report.reporter.username, report.match.hand_a.number, report.match.hand_b.number): (
            report.points_a,
            report.points_b,
            report.comment,
        )
        for report in MatchReport.objects.filter(match__round=round_, is_current=True).select_related(
            "reporter", "match__hand_a", "match__hand_b"
        )
    }


# The service ----------------------------------------------------------------------------------------------


def test_preview_lists_the_rows_and_skipped_lines_and_saves_nothing(revealed_round, moderator):
    round_, _players = revealed_round(4)
    result = import_posted_rows(actor=moderator, round_id=round_.pk, text=POSTS, dry_run=True)
    assert [(row.number, row.player, row.cells_text, row.reports, row.note) for row in result.rows] == [
        (1, "p1", "X 6 2 ?", 2, "2-2 vs 3 is controversial"),
        (3, "p3", "2 1 X 6", 3, ""),
    ]
    assert result.skipped == [
        "Line 1: Posted by Forum p1 on 12 March",
        "Line 2: Here is my row, sorry for the delay:",
        "Line 8: good games all",
    ]
    assert result.problems == [] and result.warnings == []
    assert not MatchReport.objects.exists()


def test_each_known_cell_becomes_the_rows_players_report_with_the_note(revealed_round, moderator):
    round_, players = revealed_round(4)
    result = import_posted_rows(actor=moderator, round_id=round_.pk, text=POSTS)
    assert len(result.reports) == 5
    assert _reports(round_) == {
        ("p1", 1, 2): (6, 0, "2-2 vs 3 is controversial"),
        ("p1", 1, 3): (2, 2, "2-2 vs 3 is controversial"),
        ("p3", 1, 3): (2, 2, ""),
        ("p3", 2, 3): (4, 1, ""),
        ("p3", 3, 4): (6, 0, ""),
    }
    # The players' own reports, binding as usual (6.3): the two rows agree on 1 v 3.
    assert match_between(round_, 1, 3).status == MatchStatus.AGREED
    assert {report.side for report in MatchReport.objects.filter(reporter=players[0])} == {"a"}


def test_the_moderator_is_recorded_as_who_entered_each_report(revealed_round, moderator):
    round_, _players = revealed_round(4)
    import_posted_rows(actor=moderator, round_id=round_.pk, text=POSTS)
    reported = AuditEntry.objects.filter(action="match.reported")
    assert reported.count() == 5
    assert {entry.actor_id for entry in reported} == {moderator.pk}
    assert {(entry.after["reporter"], entry.after["entered_by"]) for entry in reported} == {
        ("p1", "mod"),
        ("p3", "mod"),
    }
    summary = AuditEntry.objects.get(action="round.posted_rows_imported")
    assert summary.after == {"rows": 2, "reports": 5} and summary.actor == moderator


def test_rows_that_disagree_make_a_dispute(revealed_round, moderator):
    round_, _players = revealed_round(3)
    import_posted_rows(actor=moderator, round_id=round_.pk, text="1 | X 6 ?\n2 | 4 X ?")
    assert match_between(round_, 1, 2).status == MatchStatus.DISPUTED


def test_the_later_row_of_a_hand_wins_with_a_warning(revealed_round, moderator):
    round_, _players = revealed_round(3)
    text = "2 | 0 X 4 (first try)\nsome prose\n2 | 1 X 6 (corrected)"
    result = import_posted_rows(actor=moderator, round_id=round_.pk, text=text)
    assert result.warnings == ["Line 3: row 2 again (first on line 1); the later one counts."]
    assert _reports(round_) == {("p2", 1, 2): (4, 1, "corrected"), ("p2", 2, 3): (6, 0, "corrected")}


def test_importing_the_same_posts_again_stores_nothing_new(revealed_round, moderator):
    round_, _players = revealed_round(4)
    import_posted_rows(actor=moderator, round_id=round_.pk, text=POSTS)
    import_posted_rows(actor=moderator, round_id=round_.pk, text=POSTS)
    assert MatchReport.objects.count() == 5


def test_a_row_that_does_not_read_is_a_problem_and_nothing_is_imported(revealed_round, moderator):
    round_, _players = revealed_round(4)
    text = POSTS + "\n4 | 0 1 9 X"
    preview = import_posted_rows(actor=moderator, round_id=round_.pk, text=text, dry_run=True)
    assert preview.problems == ['Line 10: Row 4, cell 3: "9" is not a match score (6, 4, 2, 1 or 0).']
    assert [row.number for row in preview.rows] == [1, 3]
    with pytest.raises(ScoringInputError) as refused:
        import_posted_rows(actor=moderator, round_id=round_.pk, text=text)
    assert "Line 10: Row 4, cell 3" in refused.value.sentences
    assert not MatchReport.objects.exists()


def test_a_row_beyond_the_round_is_a_problem(revealed_round, moderator):
    round_, _players = revealed_round(3)
    preview = import_posted_rows(
        actor=moderator, round_id=round_.pk, text="1 | X 6 0\n5 | 0 1 X", dry_run=True
    )
    assert preview.problems == ["Line 2: Row 5: this round has 3 hands, so rows are numbered 1 to 3."]


def test_no_row_in_the_text_is_an_input_error(revealed_round, moderator):
    round_, _players = revealed_round(3)
    with pytest.raises(ScoringInputError) as refused:
        import_posted_rows(actor=moderator, round_id=round_.pk, text="gg all\n[quote]nice[/quote]")
    assert "No results row found" in refused.value.sentences


def test_only_a_moderator_of_the_league_may_import(revealed_round, moderator, make_user):
    round_, players = revealed_round(3)
    other_moderator = make_user("elsewhere")
    account_services.make_moderator(other_moderator)
    for user in (players[0], other_moderator):
        with pytest.raises(ScoringForbidden):
            import_posted_rows(actor=user, round_id=round_.pk, text="1 | X 6 0")
    assert not MatchReport.objects.exists()


def test_the_round_must_be_revealed_and_not_final(league, make_players, revealed_round, moderator):
    open_round = RoundFactory(league=league)
    make_hands(open_round, make_players(2, prefix="o"))
    with pytest.raises(ScoringConflict, match="still open for hands"):
        import_posted_rows(actor=moderator, round_id=open_round.pk, text="1 | X 6")
    round_, _players = revealed_round(2)
    finalize_round(actor=moderator, round_id=round_.pk, force=True)
    with pytest.raises(ScoringConflict, match="is final"):
        import_posted_rows(actor=moderator, round_id=round_.pk, text="1 | X 6")


def test_a_non_moderator_learns_nothing_before_the_reveal(league, make_players, moderator):
    open_round = RoundFactory(league=league)
    players = make_players(2, prefix="o")
    make_hands(open_round, players)
    with pytest.raises(ScoringForbidden):
        import_posted_rows(actor=players[0], round_id=open_round.pk, text="1 | X 6")


def test_preview_queries_do_not_grow_with_rows(revealed_round, moderator):
    round_, _players = revealed_round(6)
    one_row = "1 | X 6 0 ? ? ?"
    all_rows = "\n".join(
        f"{number} | " + " ".join("X" if column == number else "?" for column in range(1, 7))
        for number in range(1, 7)
    )

    def queries(text):
        with CaptureQueriesContext(connection) as captured:
            import_posted_rows(actor=moderator, round_id=round_.pk, text=text, dry_run=True)
        return len(captured)

    assert queries(all_rows) == queries(one_row)


def test_a_players_own_row_keeps_its_note_as_the_comment(revealed_round):
    round_, players = revealed_round(3)
    report_row(
        player=players[1], round_id=round_.pk, row="2 | 0 X 4 | 4 | 200 (4-1 after a mulligan)"
    )
    assert _reports(round_) == {
        ("p2", 1, 2): (6, 0, "4-1 after a mulligan"),
        ("p2", 2, 3): (4, 1, "4-1 after a mulligan"),
    }
    report_row(player=players[1], round_id=round_.pk, row="2 | 0 X 4")  # no note: comment kept
    assert _reports(round_)[("p2", 2, 3)] == (4, 1, "4-1 after a mulligan")


# The moderator's page -------------------------------------------------------------------------------------


def test_page_previews_then_imports(revealed_round, moderator, client):
    round_, _players = revealed_round(4)
    client.force_login(moderator)
    url = f"/moderate/rounds/{round_.pk}/results/"
    assert "Paste players' rows" in client.get(url).content.decode()
    preview = client.post(url, {"action": "posted_rows_preview", "text": POSTS})
    page = preview.content.decode()
    assert preview.status_code == 200
    assert "Preview: 2 rows, 5 reports" in page
    assert "2-2 vs 3 is controversial" in page and "good games all" in page
    assert not MatchReport.objects.exists()
    done = client.post(url, {"action": "posted_rows_import", "text": POSTS}, follow=True)
    assert "2 players&#x27; rows imported: 5 reports." in done.content.decode()
    assert MatchReport.objects.count() == 5


def test_page_shows_problems_and_keeps_the_text(revealed_round, moderator, client):
    round_, _players = revealed_round(3)
    client.force_login(moderator)
    url = f"/moderate/rounds/{round_.pk}/results/"
    response = client.post(url, {"action": "posted_rows_import", "text": "1 | X 6 0\n2 | 0 X 7"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing imported: fix the problems first." in page
    assert "Line 2: Row 2, cell 3" in page and "2 | 0 X 7" in page
    assert not MatchReport.objects.exists()
    empty = client.post(url, {"action": "posted_rows_preview", "text": ""})
    assert empty.status_code == 200 and "This field is required." in empty.content.decode()


def test_page_is_404_for_a_player(revealed_round, client):
    round_, players = revealed_round(3)
    client.force_login(players[0])
    response = client.post(
        f"/moderate/rounds/{round_.pk}/results/", {"action": "posted_rows_import", "text": "1 | X 6 0"}
    )
    assert response.status_code in (302, 403, 404)
    assert not MatchReport.objects.exists()


# The API ----------------------------------------------------------------------------------------------------


def _url(round_):
    return f"/api/rounds/{round_.pk}/posted-rows/"


def test_api_previews_with_200_and_imports_with_201(revealed_round, moderator, api_client):
    round_, _players = revealed_round(4)
    api_client.force_authenticate(moderator)
    preview = api_client.post(_url(round_), {"text": POSTS, "dry_run": True}, format="json")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["rows"] == [
        {"number": 1, "player": "p1", "reports": 2, "note": "2-2 vs 3 is controversial"},
        {"number": 3, "player": "p3", "reports": 3, "note": ""},
    ]
    assert len(preview.json()["skipped"]) == 3 and preview.json()["problems"] == []
    assert not MatchReport.objects.exists()
    applied = api_client.post(_url(round_), {"text": POSTS}, format="json")
    assert applied.status_code == 201, applied.json()
    assert MatchReport.objects.count() == 5


def test_api_answers_400_when_no_row_is_found(revealed_round, moderator, api_client):
    round_, _players = revealed_round(3)
    api_client.force_authenticate(moderator)
    response = api_client.post(_url(round_), {"text": "just chatting"}, format="json")
    assert response.status_code == 400
    assert "No results row found" in str(response.json()["text"])
    assert api_client.post(_url(round_), {}, format="json").status_code == 400


def test_api_is_403_for_a_non_moderator_even_with_bad_input(league, revealed_round, make_players, api_client):
    round_, players = revealed_round(3)
    api_client.force_authenticate(players[0])
    assert api_client.post(_url(round_), {"text": "1 | X 6 0"}, format="json").status_code == 403
    assert api_client.post(_url(round_), {}, format="json").status_code == 403
    # Secrecy: before the deadline a non-moderator gets the same 403, not whether the round has hands.
    open_round = RoundFactory(league=league)
    make_hands(open_round, make_players(2, prefix="o"))
    assert api_client.post(_url(open_round), {"text": "1 | X 6"}, format="json").status_code == 403
    api_client.force_authenticate(None)
    assert api_client.post(_url(round_), {"text": "1 | X 6 0"}, format="json").status_code in (401, 403)
    assert not MatchReport.objects.exists()


def test_api_is_409_when_the_round_is_not_revealed_or_final(
    league, make_players, revealed_round, moderator, api_client
):
    api_client.force_authenticate(moderator)
    open_round = RoundFactory(league=league)
    make_hands(open_round, make_players(2, prefix="o"))
    response = api_client.post(_url(open_round), {"text": "1 | X 6"}, format="json")
    assert response.status_code == 409 and "still open for hands" in response.json()["detail"]
    round_, _players = revealed_round(2)
    finalize_round(actor=moderator, round_id=round_.pk, force=True)
    assert api_client.post(_url(round_), {"text": "1 | X 6"}, format="json").status_code == 409


def test_a_playing_moderator_may_not_import_rows_of_a_round_they_play_in(
    league, revealed_round, moderator, make_players, make_user
):
    round_, _players = revealed_round(3, players=[moderator, *make_players(2)])
    second = make_user("second")
    account_services.make_moderator(second)
    league.moderators.add(second)
    refusal = (
        "You play in this round, so you cannot enter its players' rows: its results are yours to win too. "
        "Ask another moderator of this league (second) to import them."
    )
    preview = import_posted_rows(
        actor=moderator, round_id=round_.pk, text="2 | 0 X 4\n3 | ? 1 X", dry_run=True
    )
    assert preview.problems == [refusal]
    # Not even the rows of a match between two other players: it moves the moderator's rank.
    rivals_only = import_posted_rows(
        actor=moderator, round_id=round_.pk, text="3 | ? 1 X", dry_run=True
    )
    assert rivals_only.problems == [refusal]
    import_posted_rows(actor=second, round_id=round_.pk, text="2 | 0 X 4\n3 | ? 1 X")
    assert MatchReport.objects.count() == 3
