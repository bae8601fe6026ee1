from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from audit.selectors import audit_trail
from rounds import permissions
from rounds.models import BannedCard, BannedList, Round, RoundState
from rounds.services import effective_banned
from rounds.services import leagues as league_services
from rounds.services import lifecycle as services
from rounds.services.errors import RoundConflict, RoundInputError
from tests.factories import RoundFactory

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def new_round(league, actor, *, now=NOON, open_now=True, **rules):
    values = {"title": "5 Card Alphabetized", "hand_size": 5, "deadline": now + timedelta(days=2), **rules}
    return services.create_round(actor=actor, league=league, now=now, open_now=open_now, **values)


# State derived from time --------------------------------------------------------------------------------------


def test_state_is_derived_from_the_deadline_to_the_microsecond(league):
    round_ = RoundFactory(league=league, deadline=NOON)
    assert round_.state_at(NOON - timedelta(microseconds=1)) == RoundState.OPEN
    assert round_.state_at(NOON) == RoundState.REVEALED
    assert round_.state_at(NOON + timedelta(days=30)) == RoundState.REVEALED
    assert round_.accepts_hands_at(NOON - timedelta(seconds=1))
    assert not round_.accepts_hands_at(NOON)


def test_draft_and_final_do_not_move_with_time(league):
    draft = RoundFactory(league=league, deadline=NOON, state=RoundState.DRAFT)
    final = RoundFactory(league=league, deadline=NOON, state=RoundState.FINAL)
    assert draft.state_at(NOON + timedelta(days=1)) == RoundState.DRAFT
    assert final.state_at(NOON - timedelta(days=1)) == RoundState.FINAL


def test_public_page_shows_revealed_once_the_clock_passes_the_deadline(client, league):
    round_ = RoundFactory(league=league, deadline=NOON, title="Clockwork")
    with time_machine.travel(NOON - timedelta(seconds=1), tick=False):
        page = client.get(round_.get_absolute_url()).content.decode()
        assert "Hands due" in page
    with time_machine.travel(NOON, tick=False):
        page = client.get(round_.get_absolute_url()).content.decode()
        assert "Submissions closed" in page
    round_.refresh_from_db()
    assert round_.state == RoundState.OPEN  # nothing had to run for the page to be right


# Creating, numbering, validating -------------------------------------------------------------------------------


def test_rounds_are_numbered_within_their_league_and_coded_like_the_forum(league, moderator):
    first = new_round(league, moderator)
    second = new_round(league, moderator, title="3 Card Vintage")
    assert (first.number, second.number) == (1, 2)
    assert (first.code, second.code) == ("45:01", "45:02")
    assert first.state == second.state == RoundState.OPEN


def test_create_round_refuses_bad_rules_with_every_reason(league, moderator):
    with pytest.raises(RoundInputError) as caught:
        new_round(
            league,
            moderator,
            title=" ",
            hand_size=16,
            deadline=NOON - timedelta(minutes=1),
            sanctioned_format="chess",
            allowed_sets=["ISD", "NOPE"],
            extra_banned=["Black Lotus", "Thalia, Gaurdian of Thraben"],
        )
    errors = caught.value.errors
    assert set(errors) == {
        "title",
        "hand_size",
        "deadline",
        "sanctioned_format",
        "allowed_sets",
        "extra_banned",
    }
    assert "Thalia, Guardian of Thraben" in errors["extra_banned"][0]
    assert errors["allowed_sets"] == ["Unknown set code: NOPE."]
    assert not Round.objects.exists()


def test_extra_bans_are_stored_the_way_players_write_them(league, moderator):
    round_ = new_round(
        league, moderator, extra_banned=["mishras workshop", "Tear", "Delver of Secrets", "Tear"]
    )
    assert round_.extra_banned == ["Mishra's Workshop", "Wear // Tear", "Delver of Secrets"]


# Snapshot of the banned lists ----------------------------------------------------------------------------------


def test_opening_snapshots_the_effective_banned_list(league, moderator):
    round_ = new_round(league, moderator, land_rule="LR", extra_banned=["Mox Pearl"])
    names = {entry["list"]: [] for entry in round_.banned_snapshot}
    for entry in round_.banned_snapshot:
        names[entry["list"]].append(entry["name"])
    assert "Force of Will" in names["phm"]
    assert "Black Lotus" in names["land-rule"]
    assert names["round"] == ["Mox Pearl"]
    assert round_.catalog_as_of is not None
    assert list(names) == ["phm", "land-rule", "round"]


def test_no_land_rule_means_no_land_rule_list(league, moderator):
    round_ = new_round(league, moderator)
    assert {entry["list"] for entry in round_.banned_snapshot} == {"phm"}


def test_later_edits_of_the_standing_lists_do_not_change_an_open_round(league, moderator):
    round_ = new_round(league, moderator)
    BannedCard.objects.filter(card_name="Force of Will").delete()
    phm = BannedList.objects.get(key="phm")
    BannedCard.objects.create(
        banned_list=phm, card_name="Brainstorm", normalized_name="brainstorm", category="disruption"
    )
    names = [
        entry["name"] for entry in effective_banned.effective_banned_entries(Round.objects.get(pk=round_.pk))
    ]
    assert "Force of Will" in names and "Brainstorm" not in names

    services.resync_banned_lists(actor=moderator, round_id=round_.pk, now=NOON + timedelta(hours=1))
    names = [
        entry["name"] for entry in effective_banned.effective_banned_entries(Round.objects.get(pk=round_.pk))
    ]
    assert "Brainstorm" in names and "Force of Will" not in names
    assert audit_trail(round_).filter(action="round.banned_resynced").count() == 1


def test_a_draft_follows_the_standing_lists(league, moderator):
    draft = new_round(league, moderator, open_now=False)
    assert draft.banned_snapshot == []
    BannedCard.objects.filter(card_name="Force of Will").delete()
    names = [entry["name"] for entry in effective_banned.effective_banned_entries(draft)]
    assert "Force of Will" not in names and "Show and Tell" in names


# Opening, editing, extending, closing --------------------------------------------------------------------------


def test_open_a_draft_and_not_twice(league, moderator):
    draft = new_round(league, moderator, open_now=False)
    opened = services.open_round(actor=moderator, round_id=draft.pk, now=NOON)
    assert opened.state == RoundState.OPEN and opened.opened_at == NOON
    with pytest.raises(RoundConflict, match="Only a draft can be opened"):
        services.open_round(actor=moderator, round_id=draft.pk, now=NOON)


def test_a_draft_whose_deadline_passed_cannot_open(league, moderator):
    draft = new_round(league, moderator, open_now=False)
    with pytest.raises(RoundConflict, match="Move the deadline"):
        services.open_round(actor=moderator, round_id=draft.pk, now=NOON + timedelta(days=3))


def test_open_round_only_changes_texts_deadline_and_extra_bans(league, moderator):
    round_ = new_round(league, moderator)
    with pytest.raises(RoundConflict, match="hand_size"):
        services.update_round(actor=moderator, round_id=round_.pk, now=NOON, changes={"hand_size": 3})
    changed = services.update_round(
        actor=moderator,
        round_id=round_.pk,
        now=NOON,
        changes={"format_rule": "New text", "extra_banned": ["Brainstorm"]},
    )
    assert changed.format_rule == "New text"
    assert [e["name"] for e in changed.banned_snapshot if e["list"] == "round"] == ["Brainstorm"]
    entry = audit_trail(round_).get(action="round.changed")
    assert ("format_rule", "", "New text") in entry.changes()
    assert entry.actor == moderator


def test_nothing_changes_after_the_deadline(league, moderator):
    round_ = new_round(league, moderator)
    later = round_.deadline + timedelta(seconds=1)
    with pytest.raises(RoundConflict, match="Submissions for this round have ended"):
        services.update_round(actor=moderator, round_id=round_.pk, now=later, changes={"title": "Too late"})
    with pytest.raises(RoundConflict, match="Only an open round's deadline can be extended"):
        services.extend_deadline(
            actor=moderator, round_id=round_.pk, now=later, new_deadline=later + timedelta(days=1)
        )


def test_extend_deadline_must_move_it_later(league, moderator):
    round_ = new_round(league, moderator)
    with pytest.raises(RoundInputError, match="after the current one"):
        services.extend_deadline(
            actor=moderator, round_id=round_.pk, now=NOON, new_deadline=round_.deadline - timedelta(hours=1)
        )
    extended = services.extend_deadline(
        actor=moderator, round_id=round_.pk, now=NOON, new_deadline=round_.deadline + timedelta(days=1)
    )
    assert extended.deadline == NOON + timedelta(days=3)
    entry = audit_trail(round_).get(action="round.deadline_extended")
    assert entry.before["deadline"].startswith("2026-12-03T12:00")
    assert entry.after["deadline"].startswith("2026-12-04T12:00")


def test_an_open_rounds_deadline_is_not_moved_earlier_by_an_edit(league, moderator):
    round_ = new_round(league, moderator)
    posted = round_.deadline
    with pytest.raises(RoundInputError) as refused:
        services.update_round(
            actor=moderator,
            round_id=round_.pk,
            now=NOON,
            changes={"title": "Shorter", "deadline": posted - timedelta(hours=1)},
        )
    assert refused.value.http_status == 400  # as extend_deadline refuses an earlier time
    (message,) = refused.value.errors["deadline"]
    assert "only move later" in message and "End submissions now" in message
    round_.refresh_from_db()
    assert (round_.deadline, round_.title) == (posted, "5 Card Alphabetized")  # nothing of the edit kept
    assert not audit_trail(round_).filter(action="round.changed").exists()
    # Later is fine, and so is the deadline as it stands.
    later = services.update_round(
        actor=moderator, round_id=round_.pk, now=NOON, changes={"deadline": posted + timedelta(hours=1)}
    )
    assert later.deadline == posted + timedelta(hours=1)
    same = services.update_round(
        actor=moderator, round_id=round_.pk, now=NOON, changes={"title": "Same", "deadline": later.deadline}
    )
    assert same.title == "Same" and same.deadline == posted + timedelta(hours=1)


def test_an_edit_made_before_an_extension_cannot_undo_it(league, moderator):
    """Two moderators: one extends the deadline, the other saves the edit form they opened before, with the
    deadline it showed then. The extension stands; the edit is refused and says why."""
    round_ = new_round(league, moderator)
    shown = round_.deadline
    services.extend_deadline(
        actor=moderator, round_id=round_.pk, now=NOON, new_deadline=shown + timedelta(days=1)
    )
    with pytest.raises(RoundInputError, match="only move later"):
        services.update_round(
            actor=moderator, round_id=round_.pk, now=NOON, changes={"title": "Renamed", "deadline": shown}
        )
    round_.refresh_from_db()
    assert round_.deadline == shown + timedelta(days=1)


def test_a_drafts_deadline_may_move_earlier(league, moderator):
    draft = new_round(league, moderator, open_now=False)
    earlier = draft.deadline - timedelta(days=1)
    assert (
        services.update_round(
            actor=moderator, round_id=draft.pk, now=NOON, changes={"deadline": earlier}
        ).deadline
        == earlier
    )


def test_close_now_is_idempotent_and_audited_once(league, moderator):
    round_ = new_round(league, moderator)
    closed_at = NOON + timedelta(hours=5)
    # The clock stands at closed_at: closing never sets a deadline before the real moment of the lock.
    with time_machine.travel(closed_at, tick=False):
        services.close_round_now(actor=moderator, round_id=round_.pk, now=closed_at)
        services.close_round_now(actor=moderator, round_id=round_.pk, now=closed_at + timedelta(minutes=1))
    round_.refresh_from_db()
    assert round_.deadline == closed_at
    assert round_.state_at(closed_at) == RoundState.REVEALED
    assert audit_trail(round_).filter(action="round.closed_early").count() == 1


def test_a_draft_cannot_be_closed(league, moderator):
    draft = new_round(league, moderator, open_now=False)
    with pytest.raises(RoundConflict, match="draft"):
        services.close_round_now(actor=moderator, round_id=draft.pk, now=NOON)


def test_every_change_is_in_the_trail_newest_first(league, moderator):
    round_ = new_round(league, moderator, open_now=False)
    services.open_round(actor=moderator, round_id=round_.pk, now=NOON)
    services.close_round_now(actor=moderator, round_id=round_.pk, now=NOON + timedelta(hours=1))
    assert [entry.action for entry in audit_trail(round_)] == [
        "round.closed_early",
        "round.opened",
        "round.created",
    ]


# Leagues and who manages them ----------------------------------------------------------------------------------


def test_league_number_comes_from_its_name(moderator):
    assert league_services.create_league(actor=moderator, name="League 46").number == 46
    assert league_services.create_league(actor=moderator, name="Summer Cup").number is None
    with pytest.raises(RoundInputError, match="already a league"):
        league_services.create_league(actor=moderator, name="league 46")


@pytest.mark.parametrize(
    ("name", "number"),
    [
        ("League 45", 45),
        ("league 45", 45),  # names are unique whatever their case: the same name, the same number
        ("LEAGUE   045", 45),
        ("Summer Cup 2", None),
        ("PHM League 45", None),
        ("League 45 Finals", None),
        ("League #45", None),
        ("2024 League", None),
        ("League \u0664\u0665", None),  # Arabic-Indic digits are not the community's numbers
    ],
)
def test_only_a_name_of_the_form_league_45_gives_a_number(name, number):
    assert league_services.league_number_from_name(name) == number


def test_a_name_ending_in_a_number_neither_numbers_the_league_nor_takes_the_number(moderator):
    summer = league_services.create_league(actor=moderator, name="Summer Cup 2")
    winter = league_services.create_league(actor=moderator, name="Winter Cup 2")
    assert summer.number is None and winter.number is None
    league_services.create_league(actor=moderator, name="League 2")  # the community's league 2 is still free
    round_ = new_round(summer, moderator)
    assert round_.code == "Summer Cup 2 #01"


def test_an_explicit_number_numbers_any_league_once(moderator):
    cup = league_services.create_league(actor=moderator, name="Summer Cup", number=7)
    assert cup.number == 7
    assert new_round(cup, moderator).code == "7:01"
    assert audit_trail(cup).get(action="league.created").after["number"] == 7
    with pytest.raises(RoundInputError) as taken:
        league_services.create_league(actor=moderator, name="League 7")
    assert taken.value.errors == {"name": ["League number 7 is already taken."]}
    with pytest.raises(RoundInputError) as taken:
        league_services.create_league(actor=moderator, name="Winter Cup", number=7)
    assert taken.value.errors == {"number": ["League number 7 is already taken."]}
    with pytest.raises(RoundInputError) as disagree:
        league_services.create_league(actor=moderator, name="League 45", number=46)
    assert "says league 45" in disagree.value.errors["number"][0]
    assert league_services.create_league(actor=moderator, name="League 45", number=45).number == 45
    for wrong in (0, -3, True, "8"):
        with pytest.raises(RoundInputError) as refused:
            league_services.create_league(actor=moderator, name=f"Cup {wrong!r}", number=wrong)
        assert list(refused.value.errors) == ["number"]
    with pytest.raises(RoundInputError, match="up to 999,999"):
        league_services.create_league(actor=moderator, name="Big Cup", number=1_000_000)


def test_who_manages_a_league(league, moderator, other_moderator, player, user_model):
    open_league = league_services.create_league(actor=moderator, name="League 50")
    admin = user_model.objects.create_superuser("root", "r@example.com", "pw-root-123456")
    assert permissions.can_manage_league(moderator, league)
    assert not permissions.can_manage_league(other_moderator, league)  # the league names its moderators
    assert permissions.can_manage_league(other_moderator, open_league)  # nobody named: every site moderator
    assert permissions.can_manage_league(admin, league)
    assert not permissions.can_manage_league(player, open_league)


def test_now_is_the_clock_by_default(league, moderator):
    # The services take `now` explicitly; the views pass timezone.now().
    round_ = new_round(league, moderator, now=timezone.now())
    assert round_.accepts_hands_at(timezone.now())
