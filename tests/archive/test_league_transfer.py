"""League export and import (archive.transfer): a league goes out as JSON and comes back, into a database
emptied of it, exactly as it was."""

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import Profile
from archive.transfer import TransferConflict, TransferFormatError, export_league, import_league
from audit.models import AuditEntry
from rounds.catalog import resolve
from rounds.models import AcceptedCard, LandRule, League, Round
from rounds.services import lifecycle as round_services
from scoring.models import BonusAward, Challenge, HandTally, Match, MatchReport, RoundTally
from scoring.services.bonus import award_bonus
from scoring.services.decisions import challenge_match
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match
from scoring.services.table import build_match_table
from submissions import commitments
from submissions.models import Hand, HandReview, HandsPreview, HandVersion
from submissions.services.preview import declare_not_playing
from submissions.services.review import review_hand
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand
from tests.scoring.conftest import match_between

KJELD = ["Leyline of Singularity", "Karakas", "Kjeldoran Warrior", "Mishra's Workshop", "Wheel of Torture"]
SCEPTER = ["Ancient Tomb", "Gustha's Scepter", "Lodestone Golem", "Mishra's Workshop", "Sphere of Resistance"]
VOID = [
    "Leyline of the Void",
    "Chalice of the Void",
    "Dark Depths",
    "Thespian's Stage",
    "Urborg, Tomb of Yawgmoth",
]

LEAGUE_MODELS = [
    AuditEntry,
    BonusAward,
    HandTally,
    RoundTally,
    Challenge,
    MatchReport,
    Match,
    HandReview,
    HandVersion,
    Hand,
    HandsPreview,
    AcceptedCard,
    Round.eligible_players.through,
    Round,
    League,
]


@pytest.fixture(autouse=True)
def catalog_index(db, monkeypatch):
    """Hands are submitted through the service, which checks them against the snapshot's catalog."""
    monkeypatch.setattr(resolve, "REVALIDATE_SECONDS", 10**9)
    return resolve.get_index()


def _round_past_deadline(league, moderator, players_and_hands, **rules):
    """A round opened by the moderator, hands submitted (several versions each), then its deadline passed and
    its match table built."""
    now = timezone.now()
    round_ = round_services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title=rules.pop("title"),
        hand_size=5,
        deadline=now + timedelta(days=2),
        **rules,
    )
    for player, versions in players_and_hands:
        for name, cards in versions:
            submit_hand(
                player=player,
                round_id=round_.pk,
                name=name,
                cards=cards,
                attested=EVERY_LISTED_RULE,
            )
    return round_


def _pass_deadline(round_):
    Round.objects.filter(pk=round_.pk).update(deadline=timezone.now() - timedelta(minutes=5))
    build_match_table(round_.pk)


@pytest.fixture
def full_league(league, moderator, make_user):
    """League 45: round 1 final (versions, a flag, reports, a bonus, stored tallies) and round 2 revealed with
    a dispute and an open challenge; a tie-break eligibility list, an accepted card, declared winners."""
    alice = make_user(
        "alice", forum_username="WhammeWhamme", email="alice@example.org", time_zone="Europe/Paris"
    )
    bob = make_user("bob", forum_username="nerdyjoe", email="bob@example.org")
    carol = make_user("carol", email="carol@example.org", time_zone="America/New_York")
    Token.objects.create(user=alice)

    first = _round_past_deadline(
        league,
        moderator,
        [
            (alice, [("The Might of Kjeld", KJELD), ("Kjeld again", KJELD[::-1])]),
            (bob, [("", SCEPTER)]),
            (carol, [("Void", VOID)]),
        ],
        title="5 Card Vintage",
        land_rule=LandRule.LR,
        life_rule=True,
        format_rule="Only *artifacts* matter.",
        bonus_rule="5 points for the prettiest hand.",
        commentary="Good luck.",
        extra_banned=["Black Lotus"],
    )
    carol_hand = Hand.objects.get(round=first, player=carol)
    declare_not_playing(moderator=moderator, round_id=first.pk)
    review_hand(actor=moderator, hand_id=carol_hand.pk, action="flag", message="Check 7.3.")
    submit_hand(
        player=carol,
        round_id=first.pk,
        name="Void, fixed",
        cards=VOID[::-1],
        attested=EVERY_LISTED_RULE,
    )
    _pass_deadline(first)
    ab, ac, bc = match_between(first, 1, 2), match_between(first, 1, 3), match_between(first, 2, 3)
    report_match(reporter=alice, match_id=ab.pk, points_a=6, points_b=0, comment="leylined")
    report_match(reporter=alice, match_id=ab.pk, points_a=4, points_b=1, comment="on second thought")
    report_match(reporter=bob, match_id=ab.pk, points_a=4, points_b=1)
    report_match(reporter=carol, match_id=ac.pk, points_a=2, points_b=2)
    report_match(reporter=bob, match_id=bc.pk, points_a=0, points_b=6)
    award_bonus(
        actor=moderator, round_id=first.pk, player_username="alice", points=5, reason="Prettiest hand."
    )
    finalize_round(actor=moderator, round_id=first.pk, force=True)

    second = _round_past_deadline(
        league,
        moderator,
        [(alice, [("Scepter", SCEPTER)]), (bob, [("Kjeld", KJELD), ("Kjeld 2", KJELD[::-1])])],
        title="Tie-break",
    )
    Round.objects.filter(pk=second.pk).update(tiebreak=True)
    second.eligible_players.set([alice, bob])
    AcceptedCard.objects.create(
        round=second,
        name="Brand New Card",
        normalized_name="brand new card",
        reason="Spoiled.",
        accepted_by=moderator,
    )
    _pass_deadline(second)
    disputed = match_between(second, 1, 2)
    report_match(reporter=alice, match_id=disputed.pk, points_a=6, points_b=0)
    report_match(reporter=bob, match_id=disputed.pk, points_a=0, points_b=6)
    challenge_match(challenger=carol, match_id=disputed.pk, reason="I watched: it was a draw.")

    league.winners.set([alice])
    League.objects.filter(pk=league.pk).update(winners_note="Alice by a mile.", state=League.State.FINISHED)
    league.refresh_from_db()
    return league


# A normalised snapshot: every row of the league, ids replaced by natural keys ---------------------------------


def _natural(obj):
    if obj is None:
        return None
    if isinstance(obj, get_user_model()):
        return obj.get_username()
    if isinstance(obj, League):
        return ("league", obj.name)
    if isinstance(obj, Round):
        return ("round", obj.number)
    if isinstance(obj, Hand):
        return ("hand", obj.round.number, obj.player.username)
    if isinstance(obj, Match):
        return ("match", obj.round.number, obj.hand_a.player.username, obj.hand_b.player.username)
    if isinstance(obj, Challenge):
        return ("challenge", _natural(obj.match), obj.challenger.username, obj.created_at)
    return (obj._meta.label, str(obj))  # a content type


def _row(obj):
    row = {}
    for field in obj._meta.concrete_fields:
        if field.primary_key:
            continue
        row[field.name] = (
            _natural(getattr(obj, field.name)) if field.is_relation else getattr(obj, field.attname)
        )
    if isinstance(obj, HandVersion):
        row["commitment_round_key"] = None  # the key differs by design; what it hashes is compared below
        row["committed_text"] = commitments.version_text(obj)
    if isinstance(obj, AuditEntry):
        row["object_id"] = _natural(obj.subject)
        if "challenge" in obj.after:
            row["after"] = {
                **obj.after,
                "challenge": _natural(Challenge.objects.get(pk=obj.after["challenge"])),
            }
    return row


def snapshot(league_name):
    league = League.objects.get(name=league_name)
    rounds = Round.objects.filter(league=league)
    hands = Hand.objects.filter(round__in=rounds)
    matches = Match.objects.filter(round__in=rounds)
    rows = {
        "league": [
            _row(league),
            sorted(u.username for u in league.moderators.all()),
            sorted(u.username for u in league.winners.all()),
        ],
        "eligible": sorted((r.number, u.username) for r in rounds for u in r.eligible_players.all()),
    }
    for model, queryset in [
        (Round, rounds),
        (AcceptedCard, AcceptedCard.objects.filter(round__in=rounds)),
        (HandsPreview, HandsPreview.objects.filter(round__in=rounds)),
        (BonusAward, BonusAward.objects.filter(round__in=rounds)),
        (RoundTally, RoundTally.objects.filter(round__in=rounds)),
        (Hand, hands),
        (HandVersion, HandVersion.objects.filter(hand__in=hands)),
        (HandReview, HandReview.objects.filter(hand__in=hands)),
        (HandTally, HandTally.objects.filter(hand__in=hands)),
        (Match, matches),
        (MatchReport, MatchReport.objects.filter(match__in=matches)),
        (Challenge, Challenge.objects.filter(match__in=matches)),
    ]:
        rows[model.__name__] = sorted((_row(obj) for obj in queryset), key=repr)
    entries = [e for e in AuditEntry.objects.all() if _belongs_to(e.subject, league)]
    rows["AuditEntry"] = sorted((_row(e) for e in entries), key=repr)
    users = get_user_model().objects.filter(username__in=_usernames_in(rows))
    rows["users"] = sorted(
        (
            u.username,
            u.email,
            u.first_name,
            u.last_name,
            u.date_joined,
            u.profile.forum_username,
            u.profile.time_zone,
        )
        for u in users
    )
    return rows


def _belongs_to(subject, league):
    if isinstance(subject, League):
        return subject == league
    if isinstance(subject, Challenge):
        subject = subject.match
    return (
        getattr(subject, "league", None) == league
        or getattr(getattr(subject, "round", None), "league", None) == league
    )


def _usernames_in(value):
    found = set()
    names = set(get_user_model().objects.values_list("username", flat=True))
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str) and item in names:
            found.add(item)
    return found


def flush_league(league, usernames):
    """Leave no row of the league and none of its users: the target is an instance that never saw them."""
    league_id = league.pk
    entries = [e.pk for e in AuditEntry.objects.all() if e.subject is None or _belongs_to(e.subject, league)]
    AuditEntry.objects.filter(pk__in=entries).delete()
    for model in LEAGUE_MODELS[1:]:
        if model is League:
            model.objects.filter(pk=league_id).delete()
        elif model is Round.eligible_players.through:
            model.objects.filter(round__league_id=league_id).delete()
        else:
            model.objects.all().delete()
    Token.objects.filter(user__username__in=usernames).delete()
    get_user_model().objects.filter(username__in=usernames).delete()
    assert not League.objects.filter(pk=league_id).exists()
    assert not get_user_model().objects.filter(username__in=usernames).exists()
    assert not Profile.objects.filter(user__username__in=usernames).exists()


# Tests ----------------------------------------------------------------------------------------------------------


def test_the_document_is_versioned_and_names_rows_by_natural_keys(full_league, settings):
    settings.SITE_URL = "https://phm.example"
    document = export_league(full_league.pk)
    assert document["format"] == "phm-league-export"
    assert document["version"] == 1
    assert document["source"] == {"site_url": "https://phm.example"}
    assert document["league"]["name"] == "League 45"
    assert document["league"]["winners"] == ["alice"]
    assert [r["number"] for r in document["rounds"]] == [1, 2]
    first, second = document["rounds"]
    assert first["state"] == "final" and first["land_rule"] == "LR" and first["banned_snapshot"]
    assert second["eligible_players"] == ["alice", "bob"]
    assert second["accepted_cards"][0]["name"] == "Brand New Card"
    alice = next(hand for hand in first["hands"] if hand["player"] == "alice")
    assert [v["number"] for v in alice["versions"]] == [1, 2]
    assert [v["is_current"] for v in alice["versions"]] == [False, True]
    assert alice["versions"][0]["commitment_round_key"] == first_round_id(full_league)
    match = second["matches"][0]
    assert (match["hand_a"], match["hand_b"], match["status"]) == ("alice", "bob", "challenged")
    assert match["challenges"][0]["state"] == "open"
    assert {user["username"] for user in document["users"]} == {"mod", "alice", "bob", "carol"}
    assert next(u for u in document["users"] if u["username"] == "alice")["time_zone"] == "Europe/Paris"
    assert "id" not in document["league"] and "id" not in first and "id" not in alice


def first_round_id(league):
    return league.rounds.get(number=1).pk


def test_no_credential_or_secret_travels(full_league, settings):
    settings.SECRET_KEY = "a-distinctive-secret-key-0123456789-abcdefghij"
    text = json.dumps(export_league(full_league.pk))
    lowered = text.lower()
    assert "pbkdf2" not in lowered and "argon2" not in lowered and "password" not in lowered
    for user in get_user_model().objects.all():
        assert user.password not in text
    for token in Token.objects.all():
        assert token.key not in text
    assert settings.SECRET_KEY not in text
    assert "session" not in lowered


def test_round_trip_through_files_into_an_emptied_database(full_league, tmp_path, client):
    before = snapshot("League 45")
    old_round_ids = set(full_league.rounds.values_list("pk", flat=True))
    audit_count = len(before["AuditEntry"])
    assert {model: len(before[model]) for model in ["Round", "Hand", "HandVersion", "HandReview", "HandsPreview"]} == {
        "Round": 2, "Hand": 5, "HandVersion": 8, "HandReview": 1, "HandsPreview": 1,
    }  # fmt: skip
    assert {model: len(before[model]) for model in ["Match", "MatchReport", "Challenge", "BonusAward"]} == {
        "Match": 4, "MatchReport": 7, "Challenge": 1, "BonusAward": 1,
    }  # fmt: skip
    assert (len(before["RoundTally"]), len(before["HandTally"]), len(before["AcceptedCard"])) == (2, 3, 1)
    assert audit_count >= 15
    assert {row["action"] for row in before["AuditEntry"]} >= {
        "league.created", "round.created", "hand.submitted", "hand.changed", "hand.flag", "round.finalized",
        "round.bonus_awarded", "match.reported", "match.challenged",
    }  # fmt: skip

    exported = io.StringIO()
    call_command("export_league", str(full_league.pk), stdout=exported)
    path = tmp_path / "league.json"
    path.write_text(exported.getvalue(), encoding="utf-8")
    document = json.loads(path.read_text(encoding="utf-8"))
    flush_league(full_league, [user["username"] for user in document["users"]])

    out, err = io.StringIO(), io.StringIO()
    call_command("import_league", str(path), stdout=out, stderr=err)
    assert "Imported “League 45”" in out.getvalue()
    assert "New users (no password yet): alice, bob, carol, mod." in out.getvalue()
    assert "mod" in err.getvalue()  # not a moderator here yet: said, not granted

    after = snapshot("League 45")
    assert after == before
    assert len(after["AuditEntry"]) == audit_count
    imported = League.objects.get(name="League 45")
    assert not old_round_ids & set(imported.rounds.values_list("pk", flat=True))  # new ids, same numbers
    for user in get_user_model().objects.filter(username__in=["alice", "bob", "carol", "mod"]):
        assert not user.has_usable_password()

    # The commitments still verify, though the rounds have new ids, here and on the verify page.
    versions = HandVersion.objects.filter(hand__round__league=imported).select_related("hand__player")
    assert versions.count() == 8
    for version in versions:
        assert commitments.matches(commitments.version_text(version), version.commitment)
        assert version.commitment_round_key in old_round_ids
    version = versions.first()
    response = client.post(
        "/hands/verify/", {"text": commitments.version_text(version), "commitment": version.commitment}
    )
    assert "The text matches the commitment." in response.content.decode()


def test_import_keeps_matching_existing_users_and_sits_beside_other_leagues(full_league, make_user):
    document = export_league(full_league.pk)
    flush_league(full_league, ["alice", "bob", "carol"])
    Round.objects.create(
        league=League.objects.create(name="League 7", number=7), number=1, title="x", deadline=timezone.now()
    )
    bob = make_user("bob", forum_username="Bob Here")
    result = import_league(document)
    assert result.users_created == ["alice", "carol"]
    assert result.users_matched == ["bob", "mod"]
    bob.profile.refresh_from_db()
    assert bob.profile.forum_username == "Bob Here"  # an account of this instance stays as it is
    assert result.league.rounds.count() == 2
    assert Round.objects.get(league__name="League 7").number == 1


def test_importing_twice_is_refused_unless_renamed(full_league, tmp_path):
    path = tmp_path / "league.json"
    exported = io.StringIO()
    call_command("export_league", str(full_league.pk), stdout=exported)
    path.write_text(exported.getvalue(), encoding="utf-8")
    with pytest.raises(CommandError, match="already exists here") as refused:
        call_command("import_league", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 1
    League.objects.create(name="Summer Cup", number=47)  # numbered explicitly
    with pytest.raises(TransferConflict, match="League number 47 is already taken"):
        import_league(json.loads(path.read_text()), rename="League 47")

    count = AuditEntry.objects.count()
    call_command("import_league", str(path), "--rename", "League 46", stdout=io.StringIO())
    moved = League.objects.get(name="League 46")
    assert moved.number == 46
    assert list(moved.rounds.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert AuditEntry.objects.count() == 2 * count
    with pytest.raises(CommandError, match="“league 46” already exists"):
        call_command("import_league", str(path), "--rename", "league 46", stdout=io.StringIO())


def test_import_reads_standard_input(full_league, monkeypatch):
    text = json.dumps(export_league(full_league.pk))
    flush_league(full_league, ["alice", "bob", "carol", "mod"])
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    call_command("import_league", "-", stdout=io.StringIO(), stderr=io.StringIO())
    assert League.objects.get(name="League 45").rounds.count() == 2


def _row_counts():
    return {model: model.objects.count() for model in [*LEAGUE_MODELS, get_user_model(), Profile]}


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda doc: "{ not json", "not JSON"),
        (lambda doc: json.dumps({**doc, "format": "something-else"}), "not a league export"),
        (lambda doc: json.dumps({**doc, "version": 2}), "version 2"),
        (lambda doc: json.dumps({k: v for k, v in doc.items() if k != "rounds"}), "rounds"),
        (lambda doc: _broken_deep_inside(doc), r"rounds\[1\]\.matches\[0\]\.hand_b: 'nobody' has no hand"),
        (lambda doc: _broken_audit(doc), r"audit_trail\[0\]\.subject"),
        (
            lambda doc: _bad_value(doc),
            r"rounds\[0\]\.hands\[0\]\.status: 'lost' is not one of the known values",
        ),
    ],
)
def test_malformed_input_is_refused_and_nothing_written(full_league, tmp_path, mangle, message):
    document = export_league(full_league.pk)
    flush_league(full_league, ["alice", "bob", "carol"])  # so the import would create them
    path = tmp_path / "league.json"
    path.write_text(mangle(document), encoding="utf-8")
    counts = _row_counts()
    with pytest.raises(CommandError, match=message) as refused:
        call_command("import_league", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 2
    assert "Nothing imported" in str(refused.value)
    assert _row_counts() == counts


def _broken_deep_inside(doc):
    doc["rounds"][1]["matches"][0]["hand_b"] = "nobody"  # read after the users, league, rounds and hands
    return json.dumps(doc)


def _broken_audit(doc):
    doc["audit_trail"][0]["subject"] = {"model": "round", "round": 99}
    return json.dumps(doc)


def _bad_value(doc):
    doc["rounds"][0]["hands"][0]["status"] = "lost"
    return json.dumps(doc)


def test_unknown_league_and_unreadable_file(db, tmp_path):
    with pytest.raises(CommandError, match="There is no league with id 999") as unknown:
        call_command("export_league", "999", stdout=io.StringIO())
    assert unknown.value.returncode == 1
    with pytest.raises(CommandError, match="Cannot read") as unreadable:
        call_command("import_league", str(tmp_path / "missing.json"), stdout=io.StringIO())
    assert unreadable.value.returncode == 2


def test_service_errors_name_the_problem(db):
    with pytest.raises(TransferFormatError, match="not a league export"):
        import_league([1, 2])


def test_an_open_round_moves_and_takes_new_versions_that_verify_too(league, moderator, make_user):
    alice = make_user("alice", email="alice@example.org")
    round_ = _round_past_deadline(league, moderator, [(alice, [("Kjeld", KJELD)])], title="Still open")
    document = export_league(league.pk)
    flush_league(league, ["alice"])

    imported = import_league(document).league.rounds.get()
    assert imported.pk != round_.pk and imported.state == "open"
    alice = get_user_model().objects.get(username="alice")
    submit_hand(
        player=alice,
        round_id=imported.pk,
        name="Scepter",
        cards=SCEPTER,
        attested=EVERY_LISTED_RULE,
    )
    old, new = (
        HandVersion.objects.filter(hand__round=imported).select_related("hand__player").order_by("number")
    )
    assert (old.commitment_round_key, new.commitment_round_key) == (round_.pk, None)
    assert f"round: {round_.pk}\n" in commitments.version_text(old)
    assert f"round: {imported.pk}\n" in commitments.version_text(new)  # made here: this round's own id
    for version in (old, new):
        assert commitments.matches(commitments.version_text(version), version.commitment)
