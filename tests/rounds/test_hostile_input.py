"""Hostile input on leagues and rounds: bounds on what a moderator may store (texts, extra bans, deadline),
invisible characters in titles, and BBCode typed into a round that must stay inert in its announcement."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.models import League, Round
from rounds.services import leagues as league_services
from rounds.services import lifecycle as services
from rounds.services.errors import RoundInputError

pytestmark = pytest.mark.django_db

IMG = "[img]http://evil.example/x.png[/img]"
BREAKOUT = "[/code][url=http://evil.example]click[/url]"


@pytest.fixture
def as_moderator(api_client, moderator):
    api_client.force_authenticate(moderator)
    return api_client


def round_body(league, **overrides):
    return {
        "league": league.pk,
        "title": "4 Card Innistrad",
        "hand_size": 4,
        "deadline": (timezone.now() + timedelta(days=4)).isoformat(),
        **overrides,
    }


def form_body(league, **overrides):
    deadline = timezone.localtime(timezone.now() + timedelta(days=4))
    return {
        "league": league.pk,
        "title": "4 Card Innistrad",
        "hand_size": "4",
        "deadline": deadline.strftime("%Y-%m-%dT%H:%M"),
        "land_rule": "none",
        **overrides,
    }


@pytest.mark.parametrize("field", ["format_rule", "commentary", "bonus_rule", "backbuild_hands"])
def test_a_megabyte_of_round_text_is_refused(as_moderator, league, field):
    response = as_moderator.post("/api/rounds/", round_body(league, **{field: "x" * 10_001}), format="json")
    assert response.status_code == 400
    assert "At most 10,000 characters" in response.json()[field][0]
    assert not Round.objects.exists()
    fits = as_moderator.post("/api/rounds/", round_body(league, **{field: "x" * 10_000}), format="json")
    assert fits.status_code == 201


def test_a_megabyte_format_rule_is_refused_by_the_form_too(client, moderator, league):
    client.force_login(moderator)
    response = client.post("/moderate/rounds/new/", form_body(league, format_rule="x" * 20_000))
    assert response.status_code == 200
    assert "At most 10,000 characters" in response.content.decode()
    assert not Round.objects.exists()


def test_thousands_of_extra_bans_are_refused_before_any_lookup(
    as_moderator, league, django_assert_max_num_queries
):
    bans = [f"Card {n}" for n in range(5000)]
    with django_assert_max_num_queries(20):
        response = as_moderator.post("/api/rounds/", round_body(league, extra_banned=bans), format="json")
    assert response.status_code == 400
    assert response.json()["extra_banned"] == ["At most 500 additional banned cards, not 5,000."]


def test_extra_bans_by_the_form_are_capped(client, moderator, league):
    client.force_login(moderator)
    response = client.post("/moderate/rounds/new/", form_body(league, extra_banned="Black Lotus\n" * 600))
    assert "At most 500 additional banned cards" in response.content.decode()
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    "deadline", ["9999-12-31T23:59:59Z", "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00Z"]
)
def test_far_deadlines_are_refused_by_the_api(as_moderator, league, deadline):
    response = as_moderator.post("/api/rounds/", round_body(league, deadline=deadline), format="json")
    assert response.status_code == 400
    assert "deadline" in response.json()
    assert not Round.objects.exists()


def test_a_deadline_more_than_a_year_ahead_is_refused(as_moderator, league):
    late = (timezone.now() + timedelta(days=366)).isoformat()
    response = as_moderator.post("/api/rounds/", round_body(league, deadline=late), format="json")
    assert response.status_code == 400
    assert response.json()["deadline"] == ["The deadline must be within 365 days from now."]
    soon = (timezone.now() + timedelta(days=364)).isoformat()
    assert (
        as_moderator.post("/api/rounds/", round_body(league, deadline=soon), format="json").status_code == 201
    )


@pytest.mark.parametrize("zone", ["UTC", "America/Los_Angeles", "Pacific/Kiritimati"])
def test_year_9999_in_the_round_form_is_a_form_error(client, make_user, league, zone):
    from accounts.services import make_moderator

    user = make_user("tzmod", time_zone=zone)
    make_moderator(user)
    league.moderators.add(user)
    client.force_login(user)
    client.raise_request_exception = False
    response = client.post("/moderate/rounds/new/", form_body(league, deadline="9999-12-31T23:59"))
    assert response.status_code == 200
    assert "The deadline must be within 365 days from now." in response.content.decode() or (
        "Enter a valid date" in response.content.decode()
    )
    assert not Round.objects.exists()


def test_extending_a_deadline_beyond_a_year_is_refused(client, moderator, league):
    round_ = services.create_round(
        actor=moderator,
        league=league,
        now=timezone.now(),
        open_now=True,
        title="Open",
        deadline=timezone.now() + timedelta(days=2),
    )
    with pytest.raises(RoundInputError):
        services.extend_deadline(
            actor=moderator,
            round_id=round_.pk,
            now=timezone.now(),
            new_deadline=timezone.now() + timedelta(days=400),
        )
    client.force_login(moderator)
    client.raise_request_exception = False
    response = client.post(
        f"/moderate/rounds/{round_.pk}/extend/", {"deadline": "9999-12-31T23:59"}, follow=True
    )
    assert response.status_code == 200
    round_.refresh_from_db()
    assert round_.deadline < timezone.now() + timedelta(days=3)


def test_league_names_and_round_titles_lose_invisible_characters(as_moderator, league, moderator):
    created = league_services.create_league(actor=moderator, name="League\u200b \u202e46\u202c")
    assert created.name == "League 46" and created.number == 46
    response = as_moderator.post(
        "/api/rounds/", round_body(league, title="\u2066Evil\u2069 \u200dtitle\ufeff"), format="json"
    )
    assert response.json()["title"] == "Evil title"


def test_control_characters_in_round_fields_are_refused(as_moderator, client, moderator, league):
    response = as_moderator.post("/api/rounds/", round_body(league, title="Bell\x07"), format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid_characters"
    client.force_login(moderator)
    page = client.post("/moderate/leagues/new/", {"name": "League\x00 47", "rounds_planned": "4"})
    assert page.status_code == 400
    assert "U+0000 NUL" in page.content.decode()
    assert list(League.objects.values_list("name", flat=True)) == [league.name]
    assert not Round.objects.exists()


def test_announcement_keeps_every_moderator_text_inert(client, moderator, league):
    round_ = services.create_round(
        actor=moderator,
        league=league,
        now=timezone.now(),
        open_now=True,
        title=f"Title {IMG}",
        format_rule=f"Rule with {BREAKOUT} and `code [/font]` and [a link](http://ok.example/a]b)\n\n"
        "```\n[/code][img]x[/img]\n```",
        bonus_rule=f"Bonus {IMG}",
        backbuild=True,
        backbuild_hands=f"Hand {BREAKOUT}",
        commentary=f"**Bold** {IMG}",
        deadline=timezone.now() + timedelta(days=2),
    )
    text = client.get(f"/rounds/{round_.pk}/export/announcement.bbcode").content.decode()
    for tag in ("[img]", "[/img]", "[/code][", "[url=http://evil", "[/font]`", "a]b"):
        assert tag not in text, tag
    assert "[b]Bold[/b]" in text  # Markdown still becomes BBCode
    assert "[url=http://ok.example/a%5Db]a link[/url]" in text
    assert text.count("[code]") == 1 and text.count("[/code]") == 1  # the fence's own block, intact
    assert "Title \uff3bimg\uff3d" in text
