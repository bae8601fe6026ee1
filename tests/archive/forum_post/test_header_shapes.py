"""The header block of a hands post as the forum writes it: a banned list that says "none" with a remark, or is
only a reminder sentence, means no extra ban (the remark kept); card names that hold commas, listed with commas,
are split where the catalog says (never at every comma); a deadline without a year gets one placed, among the
years whose calendar has the weekday the post names, and a post without a deadline is read all the same."""

import datetime as dt

import pytest

from archive.forum.post import parse_post
from archive.forum.post.banned_list import MAX_NAME_PARTS, read_banned_list, split_names
from archive.forum.post.deadlines import byline_date, place_year, read_posted_deadline

from .posts.expected import read_post

TODAY = dt.date(2026, 11, 30)
CARDS = frozenset(
    {
        "Sliver Queen", "Hazezon Tamar", "Jace, the Mind Sculptor", "Ajani, Caller of the Pride",
        "Borborygmos Enraged", "Black Lotus", "Sol Ring", "Forget", "Muscle Sliver", "Crystalline Sliver",
        "Gemstone Mine", "Forest", "Mountain", "Plains", "Island", "Counterspell", "Brainstorm", "Savannah",
        "Swords to Plowshares", "Thalia, Guardian of Thraben", "Kiki-Jiki, Mirror Breaker", "Lightning Bolt",
        "Aang, at the Crossroads // Aang, Destined Savior",
    }
)  # fmt: skip
KNOWN = {name.casefold() for name in CARDS}


def is_card(name):
    return name.strip().casefold() in KNOWN


def banned(value, catalog=is_card):
    return read_banned_list(value, catalog)


@pytest.mark.parametrize(
    "value, remarks",
    [
        (
            "None (don't forget the permanent list and the land rule list)",
            ["don't forget the permanent list and the land rule list"],
        ),
        ("none.", []),
        ("-", []),
        ("n/a", []),
        ("Nothing", []),
        ("nothing (see the rules)", ["see the rules"]),
        ("None this week", []),
        ("None - remember the permanent list still applies", ["remember the permanent list still applies"]),
        ("No additional bans this week.", ["this week."]),
        ("The usual (PHM list and land rule list)", ["PHM list and land rule list"]),
        (
            "don't forget the permanent list and the land rule list",
            ["don't forget the permanent list and the land rule list"],
        ),
        (
            "Remember: the permanent list applies as always.",
            ["Remember: the permanent list applies as always."],
        ),
        ("see the permanent list", ["see the permanent list"]),
    ],
)
@pytest.mark.parametrize("catalog", [is_card, None], ids=["with catalog", "shape only"])
def test_a_banned_list_that_names_no_card_is_no_ban_and_its_remark_is_kept(value, remarks, catalog):
    result = banned(value, catalog)
    assert (result.names, result.remarks) == ([], remarks)


def test_a_reminder_sentence_that_holds_a_card_name_bans_that_card_and_keeps_the_sentence():
    result = banned("Only Black Lotus is banned this week.")
    assert result.names == ["Black Lotus"]
    assert result.remarks == ["Only Black Lotus is banned this week."]


def test_a_card_word_opening_a_sentence_is_no_ban():
    # "Forget" is a card; "Forget the extra bans" is a sentence about none.
    assert banned("Forget the extra bans, the permanent list is enough.").names == []


@pytest.mark.parametrize(
    "value",
    ["Sliver Qeen", "Brood Mother", "Sliver Queen, Brood Mother", "Blak Lotus / Sol Ring"],
)
def test_a_misspelt_or_unknown_card_in_a_list_stays_a_name_for_the_import_to_suggest_a_fix(value):
    result = banned(value)
    assert result.names == [name.strip() for name in value.replace(" / ", ", ").split(", ")]
    assert result.remarks == []


@pytest.mark.parametrize(
    "value, names",
    [
        ("Sliver Queen, Brood Mother, Hazezon Tamar", ["Sliver Queen", "Brood Mother", "Hazezon Tamar"]),
        (
            "Jace, the Mind Sculptor, Ajani, Caller of the Pride, Borborygmos Enraged",
            ["Jace, the Mind Sculptor", "Ajani, Caller of the Pride", "Borborygmos Enraged"],
        ),
        (
            "Sliver Queen, Jace, the Mind Sculptor; Thalia, Guardian of Thraben / Sol Ring",
            ["Sliver Queen", "Jace, the Mind Sculptor", "Thalia, Guardian of Thraben", "Sol Ring"],
        ),
        (
            "Aang, at the Crossroads // Aang, Destined Savior, Sol Ring",
            ["Aang, at the Crossroads // Aang, Destined Savior", "Sol Ring"],
        ),
        # Misspelt names across a comma stay one name, so the import suggests the card.
        ("Jace, the Mind Sculpter, Sol Ring", ["Jace, the Mind Sculpter", "Sol Ring"]),
        ("Ajani, Caler of the Pride, Sol Ring", ["Ajani, Caler of the Pride", "Sol Ring"]),
    ],
)
def test_card_names_with_commas_split_where_the_catalog_says(value, names):
    assert banned(value).names == names


def test_without_the_catalog_a_lower_case_part_continues_the_name_before_it():
    assert split_names("Jace, the Mind Sculptor, Sol Ring") == ["Jace, the Mind Sculptor", "Sol Ring"]


def test_splitting_a_long_list_asks_the_catalog_a_bounded_number_of_times():
    asked = []

    def counting(name):
        asked.append(name)
        return is_card(name)

    parts = ["Sliver Queen", "Jace, the Mind Sculptor", "Hazezon Tamar", "Ajani, Caller of the Pride"] * 10
    value = ", ".join(parts)
    comma_parts = value.count(",") + 1
    assert read_banned_list(value, counting).names == parts
    assert len(asked) <= MAX_NAME_PARTS * comma_parts + 1


def test_the_none_post_reads_no_ban_and_keeps_its_remark_and_the_comma_card_in_a_hand():
    post = parse_post(read_post("header_none_no_year.txt"), is_card=is_card, today=TODAY)
    assert post.round.extra_banned == []
    assert post.round.extra_banned_remarks == ["don't forget the permanent list and the land rule list"]
    assert post.entries[2].cards[0] == "Jace, the Mind Sculptor"
    assert post.problems == []


def test_the_comma_names_post_splits_its_list_and_its_reminder_line_bans_nothing():
    post = parse_post(read_post("header_comma_names_no_deadline.txt"), is_card=is_card, today=TODAY)
    assert post.round.extra_banned == [
        "Sliver Queen",
        "Jace, the Mind Sculptor",
        "Ajani, Caller of the Pride",
        "Borborygmos Enraged",
    ]
    assert post.round.extra_banned_remarks == ["the usual permanent and land rule lists apply, as always."]
    assert (post.round.deadline, post.round.deadline_precision) == (None, "unknown")
    assert [entry.player for entry in post.entries] == ["Quillon", "Ravenna", "Ostrander"]
    assert post.problems == []


def test_a_banned_list_under_its_key_one_name_a_line_keeps_names_with_commas_whole():
    text = (
        "4 Card Test\nDeck Size: 4\nAdditional banned cards:\n[list]\n[*]Jace, the Mind Sculptor\n"
        "[*]Ajani, Caller of the Pride\n[/list]\n\n01 A :: B\nSol Ring / Black Lotus / Forest / Island\n"
    )
    post = parse_post(text, is_card=None, today=TODAY)
    assert post.round.extra_banned == ["Jace, the Mind Sculptor", "Ajani, Caller of the Pride"]


# Deadlines -------------------------------------------------------------------------------------------------


def test_a_deadline_without_a_year_is_approximate_and_the_weekday_chooses_the_year():
    posted = read_posted_deadline("Tuesday, March 4th, 11:00 PM GMT")
    assert (posted.year_given, posted.weekday) == (False, 1)
    anchor = dt.datetime(2016, 6, 1, tzinfo=dt.UTC)
    placed = place_year(posted, anchor=anchor)
    # 4 March was a Tuesday in 2014 and 2025: 2014 is the nearer one.
    assert placed.moment == dt.datetime(2014, 3, 4, 23, 0, tzinfo=dt.UTC)
    assert placed.by_weekday


def test_the_neighbouring_rounds_window_settles_the_year_when_the_weekday_repeats():
    posted = read_posted_deadline("Tuesday, March 4th, 11:00 PM GMT")
    placed = place_year(
        posted,
        anchor=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
        not_after=dt.datetime(2026, 11, 30, tzinfo=dt.UTC),
        after=dt.datetime(2014, 2, 25, 23, tzinfo=dt.UTC),
        before=dt.datetime(2014, 3, 11, 23, tzinfo=dt.UTC),
    )
    assert placed.moment.year == 2014 and placed.by_weekday and placed.in_window


def test_a_weekday_no_nearby_year_matches_lets_the_weekday_go():
    posted = read_posted_deadline("Sunday 29 February, 18:00 UTC")  # no Sunday in 2012, 2016, 2020, 2024
    placed = place_year(posted, anchor=dt.datetime(2026, 11, 30, tzinfo=dt.UTC))
    assert placed.moment.date() == dt.date(2024, 2, 29)
    assert not placed.weekday_matches


def test_a_time_alone_is_no_deadline():
    assert read_posted_deadline("23:59 GMT") is None
    assert read_posted_deadline("when everyone is ready") is None


def test_a_time_without_minutes_is_on_the_hour():
    posted = read_posted_deadline("Thurs 6 Mar 11pm EST")
    assert (posted.local.hour, posted.local.minute, posted.weekday) == (23, 0, 3)


def test_the_post_precision_exact_approximate_unknown():
    base = "4 Card Test\nDeck Size: 4\n{deadline}\n\n01 A :: B\nSol Ring / Black Lotus / Forest / Island\n"
    exact = parse_post(
        base.format(deadline="Deadline: 12 March 2023 18:00 UTC"), is_card=is_card, today=TODAY
    )
    about = parse_post(base.format(deadline="Deadline: Tuesday, March 4th"), is_card=is_card, today=TODAY)
    none = parse_post(base.format(deadline=""), is_card=is_card, today=TODAY)
    assert (exact.round.deadline_precision, about.round.deadline_precision) == ("exact", "approximate")
    assert (none.round.deadline_precision, none.round.deadline) == ("unknown", None)
    assert about.round.deadline.weekday() == 1  # a Tuesday, as posted


def test_a_forum_byline_pasted_with_the_post_dates_it_and_places_the_deadline_before_it():
    text = (
        "Post by Quillon \u00bb Wed Mar 05, 2014 9:12 am\n\n[b]4 Card Test - League 32:02[/b]\n"
        "Deck Size: 4\nDeadline: March 4th, 11:00 PM GMT\n\n01 A :: B\nSol Ring / Black Lotus / Forest / Island\n"
    )
    post = parse_post(text, is_card=is_card, today=TODAY)
    assert post.round.post_date == dt.datetime(2014, 3, 5, 9, 12, tzinfo=dt.UTC)
    assert post.round.title == "4 Card Test"
    assert post.round.deadline == dt.datetime(2014, 3, 4, 23, 0, tzinfo=dt.UTC)
    assert [(skipped.kind, skipped.line) for skipped in post.skipped] == [("post date", 1)]


@pytest.mark.parametrize(
    "line, expected",
    [
        ("Post by Mogg \u00bb Tue Mar 04, 2014 11:05 pm", dt.datetime(2014, 3, 4, 23, 5, tzinfo=dt.UTC)),
        ("Posted: 04 Mar 2014, 23:05", dt.datetime(2014, 3, 4, 23, 5, tzinfo=dt.UTC)),
        ("\u00bb Tue Mar 04, 2014 11:05 pm", dt.datetime(2014, 3, 4, 23, 5, tzinfo=dt.UTC)),
        ("Posted by the moderator, as always", None),
        ("Post by Mogg \u00bb Tue Mar 04 11:05 pm", None),  # no year: no date to anchor on
        ("Eleven entries last week", None),
    ],
)
def test_byline_dates(line, expected):
    assert byline_date(line) == expected
