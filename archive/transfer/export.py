"""Export one league as a JSON document (`document.py` describes it): every row of the league, the users it
names, and the audit trail of its league, rounds, hands, matches and challenges. Never a password, a token or
a secret: users are written with the few fields listed in USER_FIELDS and nothing else."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q
from django.utils import timezone

from accounts.models import Profile
from audit.models import AuditEntry
from rounds.models import AcceptedCard, League, Round
from scoring.models import BonusAward, Challenge, HandTally, Match, MatchReport, RoundTally
from submissions.commitments import committed_round_key
from submissions.models import Hand, HandReview, HandsPreview, HandVersion

from .document import FORMAT, VERSION, LeagueTransferError, iso_time, json_value, row_of

# What a user is in the document; deliberately a short list, so no credential can slip in.
USER_FIELDS = ["email", "first_name", "last_name", "date_joined"]


def export_league_json(league_id: int | str, *, now: dt.datetime | None = None) -> str:
    return json.dumps(export_league(league_id, now=now), ensure_ascii=False, indent=1)


def export_league(league_id: int | str, *, now: dt.datetime | None = None) -> dict:
    try:
        league = League.objects.get(pk=league_id)
    except (League.DoesNotExist, ValueError):
        raise LeagueTransferError(f"There is no league with id {league_id}.") from None
    rows = _LeagueRows(league)
    usernames = rows.usernames()
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": iso_time(now or timezone.now()),
        "source": {"site_url": settings.SITE_URL},
        "users": _users(usernames),
        "league": {
            **row_of(league, usernames),
            "moderators": sorted(usernames[pk] for pk in rows.league_moderators),
            "winners": sorted(usernames[pk] for pk in rows.league_winners),
        },
        "rounds": [_round(round_, rows, usernames) for round_ in rows.rounds],
        "audit_trail": [_audit_entry(entry, rows, usernames) for entry in rows.audit_trail],
    }


class _LeagueRows:
    """Every row of the league, read with one query per model and grouped by what holds them."""

    def __init__(self, league):
        self.league = league
        self.rounds = list(Round.objects.filter(league=league).order_by("number"))
        self.league_moderators = list(league.moderators.values_list("pk", flat=True))
        self.league_winners = list(league.winners.values_list("pk", flat=True))
        in_league = {"round__league": league}
        self.eligible = _grouped(
            Round.eligible_players.through.objects.filter(round__league=league), "round_id"
        )
        self.accepted_cards = _grouped(AcceptedCard.objects.filter(**in_league).order_by("pk"), "round_id")
        self.previews = _grouped(HandsPreview.objects.filter(**in_league).order_by("pk"), "round_id")
        self.bonuses = _grouped(
            BonusAward.objects.filter(**in_league).order_by("created_at", "pk"), "round_id"
        )
        self.round_tallies = {t.round_id: t for t in RoundTally.objects.filter(**in_league)}
        hands = list(Hand.objects.filter(**in_league).order_by("created_at", "pk"))
        self.hands = _grouped(hands, "round_id")
        self.hand_players = {hand.pk: hand.player_id for hand in hands}
        in_rounds = {"hand__round__league": league}
        self.versions = _grouped(HandVersion.objects.filter(**in_rounds).order_by("number"), "hand_id")
        self.reviews = _grouped(
            HandReview.objects.filter(**in_rounds).order_by("created_at", "pk"), "hand_id"
        )
        self.hand_tallies = {t.hand_id: t for t in HandTally.objects.filter(**in_league)}
        matches = list(Match.objects.filter(**in_league).order_by("pk"))
        self.matches = _grouped(matches, "round_id")
        in_matches = {"match__round__league": league}
        self.reports = _grouped(
            MatchReport.objects.filter(**in_matches).order_by("created_at", "pk"), "match_id"
        )
        challenges = list(Challenge.objects.filter(**in_matches).order_by("created_at", "pk"))
        self.challenges = _grouped(challenges, "match_id")
        self.subjects = self._subjects(hands, matches, challenges)
        self.audit_trail = list(_audit_of(league).order_by("created_at", "pk"))

    def _subjects(self, hands, matches, challenges):
        """(content type id, object id) → the subject's natural key in the document."""
        numbers = {round_.pk: round_.number for round_ in self.rounds}
        keys = {(League, self.league.pk): {"model": "league"}}
        keys.update({(Round, r.pk): {"model": "round", "round": r.number} for r in self.rounds})
        keys.update(
            {
                (Hand, h.pk): {"model": "hand", "round": numbers[h.round_id], "player": h.player_id}
                for h in hands
            }
        )
        keys.update(
            {
                (Match, m.pk): {
                    "model": "match",
                    "round": numbers[m.round_id],
                    "hand_a": self.hand_players[m.hand_a_id],
                    "hand_b": self.hand_players[m.hand_b_id],
                }
                for m in matches
            }
        )
        keys.update({(Challenge, c.pk): {"model": "challenge", "ref": c.pk} for c in challenges})
        types = ContentType.objects.get_for_models(
            League, Round, Hand, Match, Challenge, for_concrete_models=False
        )
        return {(types[model].pk, pk): key for (model, pk), key in keys.items()}

    def usernames(self):
        """Every user the league's rows name, id → username."""
        ids = {*self.league_moderators, *self.league_winners, *self.hand_players.values()}
        ids.update(row.user_id for rows in self.eligible.values() for row in rows)
        ids.update(entry.actor_id for entry in self.audit_trail)
        for table in (
            self.accepted_cards,
            self.previews,
            self.bonuses,
            self.versions,
            self.reviews,
            self.matches,
            self.reports,
            self.challenges,
        ):
            ids.update(_user_ids(row for rows in table.values() for row in rows))
        ids.update(_user_ids([*self.rounds, *self.round_tallies.values()]))
        ids.discard(None)
        return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def _grouped(rows, key):
    groups = defaultdict(list)
    for row in rows:
        groups[getattr(row, key)].append(row)
    return groups


def _user_ids(rows):
    user_model = get_user_model()
    for row in rows:
        for field in row._meta.concrete_fields:
            if field.is_relation and field.related_model is user_model:
                yield getattr(row, field.attname)


def _audit_of(league):
    """The entries about the league and its rows, by subqueries (a big round has half a million matches)."""
    subjects = {
        League: League.objects.filter(pk=league.pk),
        Round: Round.objects.filter(league=league),
        Hand: Hand.objects.filter(round__league=league),
        Match: Match.objects.filter(round__league=league),
        Challenge: Challenge.objects.filter(match__round__league=league),
    }
    types = ContentType.objects.get_for_models(*subjects, for_concrete_models=False)
    wanted = Q(pk__in=[])
    for model, rows in subjects.items():
        wanted |= Q(content_type=types[model], object_id__in=rows.values("pk"))
    return AuditEntry.objects.filter(wanted)


def _users(usernames):
    users = get_user_model().objects.filter(pk__in=usernames).order_by("username")
    profiles = {p.user_id: p for p in Profile.objects.filter(user__in=users)}
    rows = []
    for user in users:
        profile = profiles.get(user.pk)
        row = {"username": user.get_username()}
        row.update(
            {name: json_value(user._meta.get_field(name), getattr(user, name)) for name in USER_FIELDS}
        )
        row["forum_username"] = profile.forum_username if profile else ""
        row["time_zone"] = profile.time_zone if profile else None
        rows.append(row)
    return rows


def _round(round_, rows, usernames):
    hand_players = {hand.pk: usernames[hand.player_id] for hand in rows.hands[round_.pk]}
    tally = rows.round_tallies.get(round_.pk)
    return {
        **row_of(round_, usernames, skip={"league"}),
        "eligible_players": sorted(usernames[row.user_id] for row in rows.eligible[round_.pk]),
        "accepted_cards": [row_of(c, usernames, skip={"round"}) for c in rows.accepted_cards[round_.pk]],
        "hands_previews": [row_of(p, usernames, skip={"round"}) for p in rows.previews[round_.pk]],
        "bonus_awards": [row_of(b, usernames, skip={"round"}) for b in rows.bonuses[round_.pk]],
        "tally": row_of(tally, usernames, skip={"round"}) if tally else None,
        "hands": [_hand(hand, rows, usernames) for hand in rows.hands[round_.pk]],
        "matches": [_match(match, rows, usernames, hand_players) for match in rows.matches[round_.pk]],
    }


def _hand(hand, rows, usernames):
    tally = rows.hand_tallies.get(hand.pk)
    versions = []
    for version in rows.versions[hand.pk]:
        version.hand = hand
        # The round id the commitment hashes, written out so the importing instance can keep verifying it.
        versions.append(
            {
                **row_of(version, usernames, skip={"hand"}),
                "commitment_round_key": committed_round_key(version),
            }
        )
    return {
        **row_of(hand, usernames, skip={"round"}),
        "versions": versions,
        "reviews": [row_of(review, usernames, skip={"hand"}) for review in rows.reviews[hand.pk]],
        "tally": row_of(tally, usernames, skip={"round", "hand"}) if tally else None,
    }


def _match(match, rows, usernames, hand_players):
    return {
        "hand_a": hand_players[match.hand_a_id],
        "hand_b": hand_players[match.hand_b_id],
        **row_of(match, usernames, skip={"round", "hand_a", "hand_b"}),
        "reports": [row_of(report, usernames, skip={"match"}) for report in rows.reports[match.pk]],
        "challenges": [
            {"ref": challenge.pk, **row_of(challenge, usernames, skip={"match"})}
            for challenge in rows.challenges[match.pk]
        ],
    }


def _audit_entry(entry, rows, usernames):
    subject = dict(rows.subjects[(entry.content_type_id, entry.object_id)])
    for key in ("player", "hand_a", "hand_b"):
        if key in subject:
            subject[key] = usernames[subject[key]]
    return {"subject": subject, **row_of(entry, usernames, skip={"content_type", "object_id"})}
