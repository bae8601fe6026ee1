"""A hands post imports on first paste whatever its header block says: a banned list of "None" with a remark or
a reminder sentence is no ban (shown, not dropped); card names with commas are split by the catalog; a deadline
without a year is placed and imported as approximate, a missing one as unknown, and the round says so (history,
never a gate: it stays revealed, is never scheduled, and its moderator can set the deadline right later); the
forum's round code survives in a league without a number, and finds the round."""

import datetime as dt

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from archive.forum.post_import.preview import preview_post
from archive.forum.post_import.write import import_post
from rounds.catalog import resolve
from rounds.models import DeadlinePrecision, Round, RoundState
from rounds.services.errors import RoundConflict, RoundInputError
from rounds.services.leagues import create_league
from rounds.services.lifecycle import update_round
from submissions.services.reveal import reveal_round, rounds_due_for_reveal
from tests.archive.forum_post.posts.expected import read_post

NOW = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)
NONE_POST = read_post("header_none_no_year.txt")  # 32:02, "Tuesday, March 4th, 11:00 PM GMT"
COMMA_POST = read_post("header_comma_names_no_deadline.txt")  # 32:03, no deadline


def small_post(code, header, players=("Quillon", "Ravenna")):
    """A made-up hands post of round `code` with the given header lines."""
    hands = [
        ("Sol Ring / Black Lotus / Forest / Island", "Quick."),
        ("Sliver Queen / Muscle Sliver / Plains / Mountain", "Slow."),
    ]
    entries = "\n\n".join(
        f'{number:02d} {player} :: "Hand {number}"\n{cards}\n{comment}'
        for number, (player, (cards, comment)) in enumerate(zip(players, hands, strict=True), start=1)
    )
    return f"[b]4 Card Test - League {code}[/b]\n\nDeck Size: 4\nLand Rule: None\n{header}\n\n{entries}\n"


@pytest.fixture(autouse=True)
def catalog_index(db, monkeypatch):
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return resolve.get_index()


@pytest.fixture
def league32(moderator):
    league = create_league(actor=moderator, name="League 32", moderators=[moderator])
    league.number = 32
    league.save(update_fields=["number"])
    return league


@pytest.fixture
def archive_league(moderator):
    league = create_league(actor=moderator, name="Archive league", moderators=[moderator])
    assert league.number is None
    return league


def preview(moderator, league, post, **options):
    return preview_post(actor=moderator, league=league, post=post, now=NOW, **options)


def import_(moderator, league, post, **options):
    return import_post(actor=moderator, league=league, post=post, now=NOW, **options).round


# The banned list -------------------------------------------------------------------------------------------


def test_a_banned_list_of_none_with_a_remark_is_no_ban_and_the_post_is_ready_on_first_paste(
    moderator, league32
):
    result = preview(moderator, league32, NONE_POST)
    assert result.fields.extra_banned == []
    assert [problem.code for problem in result.all_problems] == []
    assert result.ready
    assert any(
        "don't forget the permanent list and the land rule list" in warning for warning in result.warnings
    )


def test_a_banned_list_line_that_is_only_a_reminder_sentence_bans_nothing(moderator, league32):
    post = small_post("32:05", "Additional Banned list: remember that the permanent list applies as always.")
    result = preview(moderator, league32, post, corrections={"deadline": "2014-03-25"})
    assert result.fields.extra_banned == []
    assert result.ready, result.errors
    assert any("remember that the permanent list applies" in warning for warning in result.warnings)


def test_a_misspelt_card_in_a_reminder_sentence_is_pointed_out_with_the_card_it_is_close_to(
    moderator, league32
):
    post = small_post("32:05", "Additional Banned list: This week only Blak Lotus is out, as always.")
    result = preview(moderator, league32, post, corrections={"deadline": "2014-03-25"})
    assert result.fields.extra_banned == []
    assert any("close to Black Lotus" in warning for warning in result.warnings), result.warnings


def test_a_misspelt_or_unknown_card_in_a_banned_list_still_blocks_with_a_suggestion(moderator, league32):
    post = small_post("32:05", "Additional Banned list: Sliver Qeen, Brood Mother, Hazezon Tamar")
    result = preview(moderator, league32, post, corrections={"deadline": "2014-03-25"})
    unknown = {problem.typed: problem for problem in result.problems if problem.code == "unknown_banned_card"}
    assert set(unknown) == {"Sliver Qeen", "Brood Mother"}
    assert "Sliver Queen" in unknown["Sliver Qeen"].suggestions
    assert unknown["Brood Mother"].suggestions  # something to choose from, never dropped
    assert "Hazezon Tamar" in result.fields.extra_banned


def test_card_names_with_commas_listed_with_commas_are_split_by_the_catalog(moderator, league32):
    result = preview(moderator, league32, COMMA_POST)
    assert result.fields.extra_banned == [
        "Sliver Queen",
        "Jace, the Mind Sculptor",
        "Ajani, Caller of the Pride",
        "Borborygmos Enraged",
    ]
    assert not [problem for problem in result.all_problems if problem.code == "unknown_banned_card"]
    assert any("the usual permanent and land rule lists" in warning for warning in result.warnings)


def test_a_longer_banned_list_costs_the_preview_no_more_queries(moderator, league32):
    names = ["Jace, the Mind Sculptor", "Ajani, Caller of the Pride", "Sol Ring", "Hazezon Tamar"]

    def queries(count):
        post = small_post("32:05", "Additional Banned list: " + ", ".join((names * 10)[:count]))
        with CaptureQueriesContext(connection) as context:
            result = preview(moderator, league32, post, corrections={"deadline": "2014-03-25"})
        assert result.ready, result.errors
        return len(context.captured_queries)

    assert queries(40) == queries(4)


# The deadline ----------------------------------------------------------------------------------------------


def test_a_post_without_a_deadline_imports_with_the_deadline_unknown_and_says_so(moderator, league32, client):
    result = preview(moderator, league32, COMMA_POST)
    assert result.ready, result.errors
    assert result.fields.deadline_precision == DeadlinePrecision.UNKNOWN
    assert any("deadline unknown" in warning for warning in result.warnings)

    round_ = import_(moderator, league32, COMMA_POST)
    assert round_.deadline_precision == DeadlinePrecision.UNKNOWN
    assert round_.deadline <= NOW and round_.legal_as_of is None
    assert round_.state == RoundState.REVEALED
    page = client.get(round_.get_absolute_url()).content.decode()
    assert "Deadline unknown" in page


def test_an_archived_round_with_an_unknown_deadline_is_never_open_nor_scheduled(moderator, league32):
    round_ = import_(moderator, league32, COMMA_POST)
    for moment in (round_.deadline - dt.timedelta(days=3650), round_.deadline, NOW + dt.timedelta(days=3650)):
        assert round_.state_at(moment) == RoundState.REVEALED
        assert not round_.accepts_hands_at(moment)
        assert round_.pk not in rounds_due_for_reveal(now=moment)
        assert not reveal_round(round_.pk, now=moment)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.filter(pk=round_.pk).update(state=RoundState.OPEN)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(
            league=league32,
            number=40,
            title="Played here",
            deadline=NOW + dt.timedelta(days=2),
            deadline_precision=DeadlinePrecision.UNKNOWN,
        )


def test_a_deadline_without_a_year_is_placed_by_the_weekday_and_the_neighbouring_round(
    moderator, league32, client
):
    import_(moderator, league32, small_post("32:01", "Deadline: Tuesday 25 February 2014, 23:00 GMT"))

    result = preview(moderator, league32, NONE_POST)
    assert result.ready, result.errors
    fields = result.fields
    assert fields.deadline == dt.datetime(2014, 3, 4, 23, 0, tzinfo=dt.UTC)
    assert fields.deadline_precision == DeadlinePrecision.APPROXIMATE
    assert "2014 is inferred from the weekday (Tuesday) and round 32:01's deadline" in fields.deadline_note
    assert fields.deadline_note in result.warnings

    round_ = import_(moderator, league32, NONE_POST)
    assert (round_.deadline_precision, round_.deadline.year) == (DeadlinePrecision.APPROXIMATE, 2014)
    page = client.get(round_.get_absolute_url()).content.decode()
    assert "Deadline: <time" in page and "about 4 March 2014" in page


def test_without_neighbours_the_weekday_takes_the_latest_fitting_year_before_now(moderator, league32):
    result = preview(moderator, league32, NONE_POST)
    # 4 March fell on a Tuesday in 2025 and 2014: the nearest before now.
    assert result.fields.deadline == dt.datetime(2025, 3, 4, 23, 0, tzinfo=dt.UTC)
    assert result.fields.deadline_precision == DeadlinePrecision.APPROXIMATE
    assert "inferred from the weekday (Tuesday)" in result.fields.deadline_note


def test_the_moderator_corrects_the_deadline_in_the_preview(moderator, league32):
    exact = preview(moderator, league32, NONE_POST, corrections={"deadline": "2014-03-04T23:00"})
    assert exact.fields.deadline == dt.datetime(2014, 3, 4, 23, 0, tzinfo=dt.UTC)
    assert exact.fields.deadline_precision == DeadlinePrecision.EXACT and exact.fields.deadline_note == ""
    about = preview(
        moderator,
        league32,
        NONE_POST,
        corrections={"deadline": "2014-03-04T23:00", "deadline_precision": "approximate"},
    )
    assert about.fields.deadline_precision == DeadlinePrecision.APPROXIMATE
    unknown = preview(moderator, league32, NONE_POST, corrections={"deadline_precision": "unknown"})
    assert unknown.ready and unknown.fields.deadline_precision == DeadlinePrecision.UNKNOWN
    no_date = preview(moderator, league32, COMMA_POST, corrections={"deadline_precision": "exact"})
    assert [problem.code for problem in no_date.problems] == ["deadline_missing"]
    assert "choose \u201cUnknown\u201d" in no_date.problems[0].message
    future = preview(moderator, league32, NONE_POST, corrections={"deadline": "2027-01-01"})
    assert [problem.code for problem in future.problems] == ["deadline_future"]


def test_the_form_sent_back_unchanged_corrects_nothing(client, moderator, league32):
    client.force_login(moderator)
    url = "/moderate/archive/import/"
    first = client.post(url, {"league": league32.pk, "post": COMMA_POST, "action": "preview"})
    form = first.context["form"]
    assert form["round_deadline"].value() == "" and form["round_deadline_precision"].value() == "unknown"
    data = {name: form[name].value() or "" for name in form.fields}
    again = client.post(url, {**data, "league": league32.pk, "action": "preview"})
    result = again.context["result"]
    assert result.fields.corrected == set() and result.ready


def test_an_archived_rounds_deadline_is_set_right_later_in_its_round_edit(moderator, league32):
    round_ = import_(moderator, league32, COMMA_POST)
    known = dt.datetime(2014, 3, 11, 23, 0, tzinfo=dt.UTC)
    update_round(actor=moderator, round_id=round_.pk, now=NOW, changes={"deadline": known})
    round_.refresh_from_db()
    assert (round_.deadline, round_.deadline_precision, round_.legal_as_of) == (known, "exact", known)
    assert round_.state == RoundState.REVEALED
    update_round(
        actor=moderator,
        round_id=round_.pk,
        now=NOW,
        changes={"deadline_precision": DeadlinePrecision.APPROXIMATE},
    )
    round_.refresh_from_db()
    assert round_.deadline_precision == DeadlinePrecision.APPROXIMATE
    with pytest.raises(RoundInputError) as refused:
        update_round(
            actor=moderator, round_id=round_.pk, now=NOW, changes={"deadline": NOW + dt.timedelta(days=1)}
        )
    assert refused.value.errors["deadline"] == ["An archived round's deadline is in the past."]


def test_the_round_form_of_an_archived_round_sets_its_deadline_and_precision(client, moderator, league32):
    round_ = import_(moderator, league32, COMMA_POST)
    client.force_login(moderator)
    url = f"/moderate/rounds/{round_.pk}/edit/"
    page = client.get(url)
    form = page.context["form"]
    assert not form.fields["deadline"].disabled and "min" not in form.fields["deadline"].widget.attrs
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update(deadline="2014-03-11T23:00", deadline_precision="exact")
    data = {name: value for name, value in data.items() if value is not False}
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors if response.context else ""
    round_.refresh_from_db()
    assert round_.deadline_precision == DeadlinePrecision.EXACT
    assert round_.deadline == dt.datetime(2014, 3, 11, 23, 0, tzinfo=dt.UTC)


def test_a_round_played_here_never_has_a_deadline_that_is_not_exact(moderator, league32):
    round_ = Round.objects.create(
        league=league32, number=9, title="Played here", deadline=NOW + dt.timedelta(days=2)
    )
    with pytest.raises(RoundConflict, match="Only a round imported from the forum"):
        update_round(
            actor=moderator,
            round_id=round_.pk,
            now=NOW,
            changes={"deadline_precision": DeadlinePrecision.UNKNOWN},
        )


def test_calendars_leave_out_deadlines_not_known_exactly(moderator, league32, client):
    exact = import_(moderator, league32, small_post("32:01", "Deadline: Tuesday 25 February 2014, 23:00 GMT"))
    unknown = import_(moderator, league32, COMMA_POST)
    calendar = client.get(f"/leagues/{league32.pk}/deadlines.ics").content.decode()
    assert f"round-{exact.pk}@" in calendar and f"round-{unknown.pk}@" not in calendar


def test_the_api_tells_the_deadline_precision_and_the_forum_code(moderator, league32, api_client):
    round_ = import_(moderator, league32, COMMA_POST)
    body = api_client.get(f"/api/rounds/{round_.pk}/").json()
    assert (body["deadline_precision"], body["forum_code"], body["code"]) == ("unknown", "32:03", "32:03")
    api_client.force_authenticate(moderator)
    preview_body = api_client.post(
        "/api/archive/preview/", {"league": league32.pk, "post": NONE_POST}, format="json"
    ).json()
    assert preview_body["ready"] is True
    assert preview_body["round"]["deadline_precision"] == "approximate"
    assert "inferred" in preview_body["round"]["deadline_note"]


# The forum's round code ------------------------------------------------------------------------------------


def test_the_forum_code_survives_in_a_league_without_a_number(moderator, archive_league):
    result = preview(moderator, archive_league, NONE_POST)
    assert (result.fields.code, result.fields.forum_code, result.fields.number) == ("32:02", "32:02", 2)
    round_ = import_(moderator, archive_league, NONE_POST)
    assert (round_.code, round_.forum_code, round_.number) == ("32:02", "32:02", 2)


def test_rounds_of_several_forum_leagues_share_a_league_without_a_number(moderator, archive_league):
    import_(moderator, archive_league, NONE_POST)
    other = import_(moderator, archive_league, small_post("33:02", "Deadline: 11 March 2014"))
    assert (other.code, other.forum_code, other.number) == ("33:02", "33:02", 3)
    again = preview(moderator, archive_league, small_post("32:02", "Deadline: 4 March 2014", ("Ann", "Bob")))
    assert [problem.code for problem in again.problems] == ["code_taken"]


def test_a_round_is_found_by_its_forum_code(moderator, archive_league, league32, client):
    kept = import_(moderator, archive_league, NONE_POST)
    other = import_(moderator, league32, small_post("32:01", "Deadline: Tuesday 25 February 2014, 23:00 GMT"))
    page = client.get("/rounds/", {"q": "32:02"}).content.decode()
    assert kept.get_absolute_url() in page and other.get_absolute_url() not in page
    assert "1 round found" in page
    by_code = client.get("/rounds/", {"q": "32:01"}).content.decode()
    assert other.get_absolute_url() in by_code and kept.get_absolute_url() not in by_code
