"""The round form says up front what a deadline must be: in which zone it is typed (named, with its offset
now) and how far ahead, and its input carries the bounds as `min` and `max`."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from accounts.models import Profile
from accounts.timezones import zone_description, zone_or_utc
from rounds.services import lifecycle as round_services

pytestmark = pytest.mark.django_db

WINTER = datetime(2026, 1, 20, 10, 2, 30, tzinfo=UTC)
SUMMER = datetime(2026, 7, 20, 10, 2, 30, tzinfo=UTC)


def set_zone(user, name):
    Profile.objects.filter(user=user).update(time_zone=name)


@pytest.mark.parametrize(
    ("moment", "expected"),
    [(WINTER, "Europe/Warsaw, UTC+01:00 now"), (SUMMER, "Europe/Warsaw, UTC+02:00 now")],
)
def test_the_zone_is_named_with_its_offset_at_that_moment(moment, expected):
    assert zone_description(zone_or_utc("Europe/Warsaw"), moment) == expected
    assert zone_description(zone_or_utc("America/St_Johns"), moment).endswith(":30 now")
    assert zone_description(zone_or_utc("America/New_York"), WINTER) == "America/New_York, UTC-05:00 now"
    assert zone_description(zone_or_utc("UTC"), moment) == "UTC"


def test_the_round_form_names_the_viewers_zone_and_the_minimum_before_submitting(client, moderator, league):
    set_zone(moderator, "Europe/Warsaw")
    client.force_login(moderator)
    with time_machine.travel(WINTER, tick=False):
        html = client.get("/moderate/rounds/new/").content.decode()
    assert "Europe/Warsaw, UTC+01:00 now" in html
    assert "At least 5 minutes from now, at most 365 days ahead." in html
    assert 'href="/accounts/profile/"' in html
    # 10:02:30 UTC + 5 min = 10:07:30 → the first whole minute after it, 10:08 UTC, is 11:08 in Warsaw.
    assert 'min="2026-01-20T11:08"' in html
    assert 'max="2027-01-20T11:02"' in html


def test_the_earliest_minute_offered_is_accepted_and_the_one_before_refused(client, moderator, league):
    client.force_login(moderator)  # UTC
    with time_machine.travel(WINTER, tick=False):
        base = {"league": league.pk, "title": "T", "hand_size": 5, "land_rule": "none"}
        refused = client.post("/moderate/rounds/new/", {**base, "deadline": "2026-01-20T10:07"})
        assert refused.status_code == 200
        assert "at least 5 minutes in the future" in refused.content.decode()
        accepted = client.post("/moderate/rounds/new/", {**base, "deadline": "2026-01-20T10:08"})
        assert accepted.status_code == 302


def test_the_extend_form_on_the_round_page_names_the_zone_too(client, moderator, league):
    set_zone(moderator, "Asia/Kolkata")
    with time_machine.travel(WINTER, tick=False):
        round_ = round_services.create_round(
            actor=moderator, league=league, now=WINTER, open_now=True, title="T", hand_size=5,
            deadline=WINTER + timedelta(days=2),
        )  # fmt: skip
        client.force_login(moderator)
        html = client.get(f"/moderate/rounds/{round_.pk}/").content.decode()
    assert "Asia/Kolkata, UTC+05:30 now" in html
    assert 'min="2026-01-20T15:38"' in html
