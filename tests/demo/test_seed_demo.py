"""`manage.py seed_demo`: the living demo of `make demo`, built through the services."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from demo import data
from demo.specs import Entry, LeagueSpec, RoundSpec, Schedule, split_cards
from outbox.models import Message, Notification
from rounds.models import Card, League, Round, RoundState
from scoring.models import BonusAward, Challenge, Match, MatchReport, MatchStatus
from submissions.models import Hand, HandReview, HandsPreview, HandVersion
from submissions.services import submit as hand_services

# Rows of every model the demo writes: a second run must leave each count as it was.
SEEDED_MODELS = [
    get_user_model(),
    League,
    Round,
    Hand,
    HandVersion,
    HandReview,
    HandsPreview,
    Match,
    MatchReport,
    Challenge,
    BonusAward,
    AuditEntry,
    Message,
    Notification,
]


def seed(**options):
    out = StringIO()
    call_command("seed_demo", stdout=out, **options)
    return out.getvalue()


def counts():
    return {model.__name__: model.objects.count() for model in SEEDED_MODELS}


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    """The demo, seeded once for the module (DEBUG is off in tests: with --force) and rolled back after it;
    each test runs in a savepoint inside it."""
    with django_db_blocker.unblock(), transaction.atomic():
        output = seed(force=True)
        yield output
        transaction.set_rollback(True)


@pytest.fixture
def living(seeded, db):
    return League.objects.get(name="League 52")


@pytest.fixture
def open_round(living):
    return living.rounds.get(state=RoundState.OPEN)


def test_the_living_league_has_three_final_rounds_and_one_open_with_a_future_deadline(living, open_round):
    rounds = list(living.rounds.order_by("number"))
    assert [round_.state for round_ in rounds] == ["final", "final", "final", "open"]
    assert open_round.number == 4
    assert open_round.deadline > timezone.now()
    assert open_round.accepts_hands_at(timezone.now())
    hands = [Hand.objects.filter(round=round_).count() for round_ in rounds]
    assert hands == [10, 9, 11, 8]
    assert living.state == League.State.ACTIVE
    assert not living.winners.exists()
    assert living.moderators.get().username == "moderator"


def test_the_demo_moderator_does_not_play_and_previewed_the_open_round(living, open_round):
    moderator = living.moderators.get()
    assert not Hand.objects.filter(player=moderator).exists()
    assert HandsPreview.objects.filter(round=open_round, moderator=moderator).exists()


def test_the_second_league_is_finished_with_its_winner(seeded, db):
    league = League.objects.get(name="League 51")
    assert league.state == League.State.FINISHED
    assert [user.username for user in league.winners.all()] == ["quietroom"]
    assert league.winners_computed
    assert set(league.rounds.values_list("state", flat=True)) == {"final"}
    assert "won by Quiet Room" in seeded


def test_rounds_vary_their_rules(seeded, db):
    rounds = list(Round.objects.all())
    assert {round_.hand_size for round_ in rounds} == {1, 3, 4, 5, 6, 7}
    assert {round_.hand_size_mode for round_ in rounds} == {"exactly", "up_to"}
    assert {round_.land_rule for round_ in rounds} == {"none", "LR", "ELR", "DLR"}
    assert {round_.sanctioned_format for round_ in rounds} == {"", "modern", "pauper"}
    assert any(round_.extra_banned for round_ in rounds)
    assert any(round_.unbanned == ["Magus of the Moon"] for round_ in rounds)
    assert any(round_.card_rules for round_ in rounds)
    assert any(round_.decisions for round_ in rounds)
    assert any(round_.life_rule for round_ in rounds)
    assert any(round_.bonus_rule for round_ in rounds)
    # The life rule's attestation (7.5b) is recorded with the hands of its round.
    life = next(round_ for round_ in rounds if round_.life_rule)
    assert all("7.5b" in version.attested for version in HandVersion.objects.filter(hand__round=life))


def test_every_stored_hand_is_legal_under_its_round(seeded, db):
    versions = list(HandVersion.objects.select_related("hand__round__league"))
    assert len(versions) == Hand.objects.count() + 3  # three hands were changed once before a deadline
    for version in versions:
        verdict = hand_services.judge(version.hand.round, version.cards)
        assert verdict.legal, (version.hand.round.code, version.cards)


def test_hands_carry_names_decisions_reviews_and_changes(seeded, db):
    assert not Hand.objects.filter(name="").exists()  # the unnamed ones were named by the moderator (4.3)
    assert HandVersion.objects.filter(is_current=True).exclude(decisions={}).count() == 11
    actions = set(HandReview.objects.values_list("action", flat=True))
    assert actions == {"flag", "notice", "rename"}
    flagged = HandReview.objects.get(action="flag").hand
    assert not flagged.flagged  # the player's change lifted the flag
    assert flagged.versions.count() == 2


def test_a_dispute_decided_by_the_moderator(living):
    match = Match.objects.get(round__league=living, round__number=1, hand_a__number=4, hand_b__number=9)
    reports = {
        report.side: (report.points_a, report.points_b)
        for report in MatchReport.objects.filter(match=match, is_current=True)
    }
    assert reports == {"a": (4, 1), "b": (2, 2)}
    assert (match.decided_points_a, match.decided_points_b) == (2, 2)
    assert match.decided_by.username == "moderator"
    assert AuditEntry.objects.filter(object_id=match.pk, action="match.result_set").exists()


def test_challenges_one_upheld_one_rejected_none_open(living):
    challenges = {challenge.state: challenge for challenge in Challenge.objects.select_related("match")}
    assert set(challenges) == {"upheld", "rejected"}
    upheld = challenges["upheld"].match
    assert (upheld.points_a, upheld.points_b) == (2, 2)
    assert challenges["rejected"].note
    assert not Challenge.objects.filter(state=Challenge.State.OPEN).exists()


def test_results_are_varied_and_come_from_reports(living):
    final = Match.objects.filter(round__league__name__in=["League 51", "League 52"], status=MatchStatus.FINAL)
    assert {(m.points_a, m.points_b) for m in final} == {(6, 0), (4, 1), (2, 2), (1, 4), (0, 6)}
    assert not Match.objects.exclude(round__state=RoundState.OPEN).filter(points_a__isnull=True).exists()
    # A third player checked a match (6.3a); silent players' matches stand on their opponents' reports.
    assert MatchReport.objects.filter(side="other").count() == 1
    silent_players_matches = 5 + 9 + 8 + 10  # one silent player in each of four rounds
    assert MatchReport.objects.filter(side__in=["a", "b"]).count() == 2 * Match.objects.count() - (
        silent_players_matches
    )


def test_bonus_points_with_their_reasons(living):
    awards = BonusAward.objects.filter(round__league=living)
    assert {(award.player.username, award.points) for award in awards} == {
        ("mox_monday", 10),
        ("tolarian_tutor", 10),
    }
    assert all("no creature card" in award.reason for award in awards)


def test_timestamps_tell_the_story(living):
    """Things happened when the demo says they did: a report after its round's deadline, weeks ago."""
    first = living.rounds.get(number=1)
    report = MatchReport.objects.filter(match__round=first).earliest("created_at")
    assert first.deadline < report.created_at < first.deadline + timezone.timedelta(days=1)
    opened = AuditEntry.objects.get(action="round.opened", object_id=first.pk, content_type__model="round")
    assert abs(opened.created_at - first.opened_at) < timezone.timedelta(seconds=1)
    # Nothing is stamped with the moment of the seeding itself: the story's last step is hours before it.
    an_hour_ago = timezone.now() - timezone.timedelta(hours=1)
    for model in (AuditEntry, Notification, Message, MatchReport, HandVersion, Hand):
        field = "submitted_at" if model is HandVersion else "created_at"
        assert not model.objects.filter(**{f"{field}__gt": an_hour_ago}).exists(), model.__name__


def test_mail_waits_in_the_outbox_and_nothing_was_sent(seeded, db):
    assert Message.objects.filter(state=Message.State.PENDING).exists()
    assert not Message.objects.exclude(state=Message.State.PENDING).exists()
    assert mail.outbox == []


def test_players_and_the_moderator_log_in_with_the_published_passwords(seeded, client):
    players = get_user_model().objects.filter(username__in=[spec.username for spec in data.PLAYERS])
    assert len({player.password for player in players}) == 1  # one hash, shared: checking one checks all
    assert client.login(username=data.PLAYERS[-1].username, password=data.PLAYER_PASSWORD)
    assert client.login(username="moderator", password="phm-moderator")


def test_the_open_rounds_hands_are_secret_to_anonymous_visitors(open_round, client):
    earlier = {
        card for version in HandVersion.objects.exclude(hand__round=open_round) for card in version.cards
    }
    versions = [version for entry in data.SEVEN_CARD_PAUPER.entries for version in (*entry.earlier, entry)]
    own_cards = {card for version in versions for card in split_cards(version.cards)} - earlier
    names = {version.name for version in versions}
    assert own_cards and names
    players = {spec_player.username for spec_player in data.PLAYERS}
    pages = [
        reverse("home"),
        reverse("rounds:round-list"),
        open_round.get_absolute_url(),
        reverse("scoring:league", args=[open_round.league_id]),
        *[reverse("players:player", args=[username]) for username in sorted(players)],
        *[card.get_absolute_url() for card in Card.objects.filter(name__in=own_cards)],
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        text = response.content.decode()
        leaked = [word for word in own_cards | names if word in text and not _is_card_page_of(path, word)]
        assert leaked == [], path
    hands = client.get(f"/api/rounds/{open_round.pk}/hands/")
    assert hands.status_code in (403, 404)


def _is_card_page_of(path, name):
    return path == Card.objects.get(name=name).get_absolute_url() if Card.objects.filter(name=name) else False


def test_the_seeded_sites_main_pages_answer_anonymous_visitors(living, client):
    final = living.rounds.filter(state=RoundState.FINAL).order_by("-number").first()
    match = Match.objects.filter(round=final).first()
    paths = [
        reverse("home"),
        reverse("rounds:round-list"),
        reverse("scoring:results", args=[final.pk]),
        final.get_absolute_url(),
        reverse("scoring:league", args=[living.pk]),
        reverse("scoring:match", args=[match.pk]),
        reverse("scoring:league-list"),
        reverse("players:player", args=["ashenvale"]),
    ]
    for path in paths:
        assert client.get(path).status_code == 200, path


def test_the_output_gives_the_logins_and_where_to_look(seeded, living, open_round):
    assert "Created League 52: 3 final rounds, round 52:04 open until" in seeded
    assert "username moderator, password phm-moderator" in seeded
    assert f"password {data.PLAYER_PASSWORD}" in seeded
    assert f"http://127.0.0.1:8000{open_round.get_absolute_url()}" in seeded
    assert f"http://127.0.0.1:8000{reverse('scoring:league', args=[living.pk])}" in seeded


def test_a_second_run_changes_nothing(seeded, db):
    before = counts()
    states = sorted(Round.objects.values_list("pk", "state", "deadline"))
    output = seed(force=True)
    assert counts() == before
    assert sorted(Round.objects.values_list("pk", "state", "deadline")) == states
    assert "Already there, left as it was: League 52" in output
    assert "Already there, left as it was: League 51" in output


def test_a_league_of_the_same_name_that_is_not_the_demos_is_left_alone(db, moderator, monkeypatch):
    from rounds.services.leagues import create_league

    monkeypatch.setattr(data, "LEAGUES", (_tiny_league("Swords to Plowshares"),))
    create_league(actor=moderator, name="League 90", moderators=[moderator])
    before = counts()
    with pytest.raises(CommandError, match="already exists and the demo did not build it"):
        seed(force=True)
    assert counts() == before


def test_refused_while_debug_is_off_without_force(db):
    before = counts()
    with pytest.raises(CommandError, match="only seeded when DEBUG is on"):
        seed()
    assert counts() == before


def test_seeded_without_force_while_debug_is_on(db, settings, monkeypatch):
    settings.DEBUG = True
    monkeypatch.setattr(data, "LEAGUES", (_tiny_league("Swords to Plowshares"),))
    output = seed()
    assert "Created League 90: 1 final round" in output


def test_an_illegal_hand_fails_loudly_and_nothing_is_stored(db, monkeypatch):
    monkeypatch.setattr(data, "LEAGUES", (_tiny_league("Trinisphere"),))
    before = counts()
    with pytest.raises(CommandError, match="Trinisphere is on the PHM Banned List") as raised:
        seed(force=True)
    assert "nothing was stored" in str(raised.value)
    assert counts() == before


def test_rows_that_do_not_add_up_fail_loudly(db, monkeypatch):
    monkeypatch.setattr(
        data, "LEAGUES", (_tiny_league("Swords to Plowshares", results="01 | X 6\n02 | 6 X"),)
    )
    before = counts()
    with pytest.raises(CommandError, match="rows 01 and 02 say 6-6, which no match can score"):
        seed(force=True)
    assert counts() == before


def _tiny_league(second_card, results="01 | X 4\n02 | 1 X"):
    round_spec = RoundSpec(
        title="1 Card Test",
        schedule=Schedule(opened=-10, deadline=-5, finalized=-4),
        rules={"hand_size": 1},
        entries=(Entry("ashenvale", "One", "Juggernaut"), Entry("sundial", "Two", second_card)),
        results=results,
    )
    return LeagueSpec(name="League 90", rounds_planned=1, rounds=(round_spec,))
