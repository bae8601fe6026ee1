"""Leagues and rounds: create, edit, open, extend, close. Every change is audited.

State changes that race (a deadline edit against a close, two opens) lock the round row first.
"""

import re
from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.services import is_moderator
from audit.services import log_action
from phm.text import clean_name

from .. import signals
from ..models import MAX_HAND_SIZE, USUAL_MAX_HAND_SIZE, HandSizeMode, League, Round, RoundState
from ..signals import deadline_set
from ..variants import clean_decisions, clean_variant_order
from .errors import RoundConflict, RoundInputError

# What the audit trail records of a round (before → after) when a moderator edits it.
AUDITED_ROUND_FIELDS = [
    "title",
    "hand_size",
    "hand_size_mode",
    "land_rule",
    "life_rule",
    "backbuild",
    "backbuild_hands",
    "sanctioned_format",
    "allowed_sets",
    "extra_banned",
    "card_rules",
    "unbanned",
    "variant_order",
    "decisions",
    "format_rule",
    "bonus_rule",
    "commentary",
    "counts_in_standings",
    "deadline",
    "state",
]
EDITABLE_WHILE_OPEN = {
    "title",
    "deadline",
    "extra_banned",
    "unbanned",  # lifting a ban never makes a submitted hand illegal
    "format_rule",
    "bonus_rule",
    "commentary",
    "backbuild_hands",
}
# An imported round's rules were only described by the forum post: a moderator may set them right afterwards,
# whatever the round's state, and choose whether it counts in the standings. What the hands were checked
# against or entered with (size, card rules, decisions, deadline) stays as imported.
EDITABLE_WHEN_IMPORTED = set(AUDITED_ROUND_FIELDS) - {
    "hand_size",
    "hand_size_mode",
    "card_rules",
    "decisions",
    "deadline",
    "state",
}
MINIMUM_LEAD_TIME = timedelta(minutes=5)
# Bounds on what a moderator may store (forms and API alike): a deadline is at most a year ahead, a round's
# texts are a forum post's length, not a megabyte, and its own banned list is a list, not the catalog.
MAXIMUM_LEAD_TIME = timedelta(days=365)
MAX_ROUND_TEXT = 10_000
ROUND_TEXT_FIELDS = ("format_rule", "bonus_rule", "commentary", "backbuild_hands")
MAX_EXTRA_BANNED = 500
MAX_ALLOWED_SETS = 200


def _round_values(round_):
    return {name: getattr(round_, name) for name in AUDITED_ROUND_FIELDS}


# The highest league number a name may end in (the forum is at a few dozen; the column holds 2,147,483,647).
MAX_LEAGUE_NUMBER = 999_999


def league_number_from_name(name):
    """ "League 45" → 45: the forum numbers leagues, and round codes (45:01) use that number. Digits beyond
    MAX_LEAGUE_NUMBER are returned as they are; league_number_problem names them."""
    match = re.search(r"(\d+)\s*$", name.strip())
    if not match:
        return None
    digits = match.group(1).lstrip("0") or "0"
    # Past the limit's length the exact value does not matter (and int() of thousands of digits would refuse).
    return int(digits) if len(digits) <= len(str(MAX_LEAGUE_NUMBER)) else MAX_LEAGUE_NUMBER + 1


def league_number_problem(number):
    """Why `number` cannot be a league's number, or None."""
    if number is not None and number > MAX_LEAGUE_NUMBER:
        return (
            f"A league's number (the number its name ends in) goes up to {MAX_LEAGUE_NUMBER:,}: "
            "end the name with a smaller number."
        )
    return None


# Permissions ------------------------------------------------------------------------------------------------


def can_manage_league(user, league):
    """Superusers always; site moderators when the league names none, else only the league's moderators."""
    if not is_moderator(user):
        return False
    if user.is_superuser:
        return True
    named = list(league.moderators.all())
    return not named or user in named


def leagues_managed_by(user):
    if not is_moderator(user):
        return League.objects.none()
    leagues = League.objects.prefetch_related("moderators")
    if user.is_superuser:
        return leagues
    return [league for league in leagues if can_manage_league(user, league)]


# Leagues ----------------------------------------------------------------------------------------------------


MAX_TIEBREAK_ROUNDS = 20


def _clean_tiebreak_rounds_allowed(value, errors):
    """Rule 5.3a: "until a specified number of additional rounds have been played" — 0 to 20."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TIEBREAK_ROUNDS:
        errors["tiebreak_rounds_allowed"] = [
            f"Give the number of tie-break rounds allowed, from 0 to {MAX_TIEBREAK_ROUNDS} (rule 5.3a)."
        ]
    return value


@transaction.atomic
def update_league(*, actor, league_id, tiebreak_rounds_allowed=None):
    """Change a league's settings (the tie-break rounds allowed, 5.3a); audited. Scoring settles the league's
    computed winners again in the same transaction (signals.league_changed)."""
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise League.DoesNotExist("No such league.")
    if not can_manage_league(actor, league):
        raise RoundConflict("Only a moderator of this league can change it.")
    errors = {}
    before, after = {}, {}
    if tiebreak_rounds_allowed is not None:
        _clean_tiebreak_rounds_allowed(tiebreak_rounds_allowed, errors)
        if not errors and tiebreak_rounds_allowed != league.tiebreak_rounds_allowed:
            before["tiebreak_rounds_allowed"] = league.tiebreak_rounds_allowed
            after["tiebreak_rounds_allowed"] = league.tiebreak_rounds_allowed = tiebreak_rounds_allowed
    if errors:
        raise RoundInputError(errors)
    if after:
        league.save(update_fields=list(after))
        log_action(league, "league.changed", actor=actor, before=before, after=after)
        signals.league_changed.send(sender=League, league_id=league.pk, actor=actor)
    return league


@transaction.atomic
def create_league(*, actor, name, rounds_planned=4, moderators=(), tiebreak_rounds_allowed=1):
    name = clean_name(name)
    errors = {}
    if not name:
        errors["name"] = ["A league needs a name, such as “League 45”."]
    elif League.objects.filter(name__iexact=name).exists():
        errors["name"] = [f"There is already a league called “{name}”."]
    number = league_number_from_name(name)
    if "name" not in errors and league_number_problem(number):
        errors["name"] = [league_number_problem(number)]
    elif "name" not in errors and number is not None and League.objects.filter(number=number).exists():
        errors["name"] = [f"League number {number} is already taken."]
    if not isinstance(rounds_planned, int) or rounds_planned < 1:
        errors["rounds_planned"] = ["Plan at least one round."]
    _clean_tiebreak_rounds_allowed(tiebreak_rounds_allowed, errors)
    if errors:
        raise RoundInputError(errors)
    league = League.objects.create(
        name=name,
        number=number,
        rounds_planned=rounds_planned,
        tiebreak_rounds_allowed=tiebreak_rounds_allowed,
    )
    if moderators:
        league.moderators.set(moderators)
    log_action(
        league,
        "league.created",
        actor=actor,
        after={
            "name": name,
            "rounds_planned": rounds_planned,
            "tiebreak_rounds_allowed": tiebreak_rounds_allowed,
            "moderators": [m.username for m in moderators],
        },
    )
    return league


# Round rules ------------------------------------------------------------------------------------------------


def _clean_rules(values, errors):
    """Check and normalise the rule fields present in `values` (in place); problems go to `errors`."""
    from ..legality import known_format

    if "title" in values:
        values["title"] = clean_name(values["title"])
        if not values["title"]:
            errors["title"] = ["A round needs a title, such as “5 Card Alphabetized”."]
    if "hand_size" in values:
        size = values["hand_size"]
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_HAND_SIZE:
            errors["hand_size"] = [
                f"A hand has 1 to {MAX_HAND_SIZE} cards (rule 7.1: usually 1 to {USUAL_MAX_HAND_SIZE})."
            ]
    if "hand_size_mode" in values:
        values["hand_size_mode"] = values["hand_size_mode"] or HandSizeMode.EXACTLY
        if values["hand_size_mode"] not in HandSizeMode.values:
            errors["hand_size_mode"] = [f"Use one of: {', '.join(HandSizeMode.values)}."]
    if "variant_order" in values:
        values["variant_order"], problems = clean_variant_order(values["variant_order"] or [])
        if problems:
            errors["variant_order"] = problems
    if "decisions" in values:
        values["decisions"], problems = clean_decisions(values["decisions"])
        if problems:
            errors["decisions"] = problems
    if "unbanned" in values:
        values["unbanned"] = _clean_card_names("unbanned", values["unbanned"], errors, "lifted cards")
    if values.get("sanctioned_format"):
        key = values["sanctioned_format"].strip().lower()
        values["sanctioned_format"] = key
        if not known_format(key):
            errors["sanctioned_format"] = [f"“{key}” is not a format the card catalog knows."]
    elif "sanctioned_format" in values:
        values["sanctioned_format"] = ""
    for name in ROUND_TEXT_FIELDS:
        if name in values and len(values[name] or "") > MAX_ROUND_TEXT:
            errors[name] = [
                f"At most {MAX_ROUND_TEXT:,} characters (this one has {len(values[name]):,}): "
                "link to a longer text instead."
            ]
    if "allowed_sets" in values:
        if len(values["allowed_sets"] or []) > MAX_ALLOWED_SETS:
            errors["allowed_sets"] = [f"At most {MAX_ALLOWED_SETS} set codes."]
            values["allowed_sets"] = []
        else:
            values["allowed_sets"] = _clean_set_codes(values["allowed_sets"] or [], errors)
    if "extra_banned" in values:
        values["extra_banned"] = _clean_card_names(
            "extra_banned", values["extra_banned"], errors, "additional banned cards"
        )


def _clean_card_names(field, raw_names, errors, what):
    """Card names as the catalog spells them, each once; unknown names go to errors[field], with
    suggestions."""
    from ..catalog.resolve import resolve_name

    if len(raw_names or []) > MAX_EXTRA_BANNED:
        # Refused before any name is resolved: each one is a catalog lookup.
        errors[field] = [f"At most {MAX_EXTRA_BANNED} {what}, not {len(raw_names):,}."]
        return []
    names, problems = [], []
    for raw in raw_names or []:
        text = (raw or "").strip()
        if not text:
            continue
        resolution = resolve_name(text)
        if resolution.resolved and resolution.status != "fuzzy":
            if resolution.card.name not in names:
                names.append(resolution.card.name)
            continue
        hint = ", ".join(resolution.suggestion_names[:5])
        problems.append(f"“{text}” is not a card name we know." + (f" Did you mean: {hint}?" if hint else ""))
    if problems:
        errors[field] = problems
    return names


def _clean_card_rules(values, errors):
    from ..card_rules import clean_card_rules

    if "card_rules" in values:
        values["card_rules"], problems = clean_card_rules(values["card_rules"])
        if problems:
            errors["card_rules"] = problems


def _clean_set_codes(codes, errors):
    from ..models import CardSet

    if isinstance(codes, str):
        codes = re.split(r"[\s,]+", codes)
    wanted = [code.strip().upper() for code in codes if code and code.strip()]
    known = set(CardSet.objects.filter(code__in=wanted).values_list("code", flat=True))
    unknown = [code for code in wanted if code not in known]
    if unknown:
        errors["allowed_sets"] = [f"Unknown set code{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}."]
    return list(dict.fromkeys(wanted))


def _check_deadline(deadline, now, errors):
    if deadline is None:
        errors["deadline"] = ["Set a deadline."]
    elif deadline <= now + MINIMUM_LEAD_TIME:
        errors["deadline"] = ["The deadline must be at least 5 minutes in the future."]
    elif deadline > now + MAXIMUM_LEAD_TIME:
        errors["deadline"] = [_too_far_message()]


def _too_far_message():
    return f"The deadline must be within {MAXIMUM_LEAD_TIME.days} days from now."


def effective_banned_entries(round_, standing=None):
    """The round's effective banned list as [{"name","list","category","lifted"?}]: PHM, then LR, then the
    round's; entries the round lifts carry "lifted": True.

    An open round answers from its snapshot; a draft from the standing lists as they are now (pass `standing`,
    from standing_banned_entries(), to answer many drafts with one query).
    """
    if round_.state != RoundState.DRAFT and round_.banned_snapshot:
        entries = round_.banned_snapshot
    else:
        entries = _banned_entries_now(round_, standing)
    return _mark_lifted(round_, entries)


def _mark_lifted(round_, entries):
    """Entries of the standing lists that the round lifts (its `unbanned`) get "lifted": True: they are shown
    struck, and are not in the round's effective list of names. The round's own extra bans stay."""
    if not round_.unbanned:
        return entries
    from ..catalog.names import normalize_name

    lifted = {normalize_name(name) for name in round_.unbanned}
    return [
        {**entry, "lifted": True}
        if entry["list"] != "round" and normalize_name(entry["name"]) in lifted
        else entry
        for entry in entries
    ]


def standing_banned_entries():
    """The standing PHM and Land Rule lists: {"phm": [entry], "land-rule": [entry]}, in display order."""
    from ..models import BannedCard

    lists = {}
    for entry in BannedCard.objects.select_related("banned_list").order_by(
        "banned_list__position", "position", "card_name"
    ):
        lists.setdefault(entry.banned_list.key, []).append(
            {"name": entry.card_name, "list": entry.banned_list.key, "category": entry.category}
        )
    return lists


def _banned_entries_now(round_, standing=None):
    from ..models import BannedList

    standing = standing_banned_entries() if standing is None else standing
    entries = list(standing.get(BannedList.PHM, []))
    if round_.land_rule != "none":
        entries += standing.get(BannedList.LAND_RULE, [])
    entries += [{"name": name, "list": "round", "category": ""} for name in round_.extra_banned]
    return entries


def _take_snapshot(round_, now):
    """The standing lists and the catalog's legalities as of `now` become the round's (rule 2.1a)."""
    from ..catalog.resolve import catalog_as_of

    round_.banned_snapshot = _banned_entries_now(round_)
    round_.catalog_as_of = catalog_as_of()
    round_.legal_as_of = now


def _snapshot_land_rule_list(round_):
    """An imported round whose land rule was set right afterwards: its snapshot gains (or loses) the Land Rule
    Banned List, as the standing list is now (the forum's list of the time is not known)."""
    from ..models import BannedList

    entries = [entry for entry in round_.banned_snapshot if entry["list"] != BannedList.LAND_RULE]
    if round_.land_rule != "none":
        phm = [entry for entry in entries if entry["list"] == BannedList.PHM]
        rest = [entry for entry in entries if entry["list"] != BannedList.PHM]
        entries = phm + standing_banned_entries().get(BannedList.LAND_RULE, []) + rest
    round_.banned_snapshot = entries


def _lock(round_id):
    try:
        return Round.objects.select_for_update().select_related("league").get(pk=round_id)
    except Round.DoesNotExist:
        raise RoundConflict("This round no longer exists.") from None


def _is_open(round_, now):
    return round_.state == RoundState.OPEN and round_.deadline > now


def _announce_deadline(round_):
    """Tell listeners (the reveal scheduler) about the deadline, once the change is committed."""
    round_id, deadline = round_.pk, round_.deadline
    transaction.on_commit(lambda: deadline_set.send(sender=Round, round_id=round_id, deadline=deadline))


# Round operations -------------------------------------------------------------------------------------------


def next_round_number(league):
    """The number of the league's next round; call inside the transaction that creates it. The league row is
    locked, so numbers are handed out one at a time."""
    League.objects.select_for_update().get(pk=league.pk)
    return (league.rounds.aggregate(last=Max("number"))["last"] or 0) + 1


def round_rule_problems(values):
    """The problems `create_round` or `update_round` would report for these rule values, saving nothing: a
    form with other errors shows them too, so the moderator sees every problem at once."""
    errors = {}
    values = dict(values)
    _clean_rules(values, errors)
    _clean_card_rules(values, errors)
    return errors


@transaction.atomic
def create_round(*, actor, league, now, open_now=False, **rules):
    """A new round of `league`, numbered after the league's last one; opened at once when `open_now`."""
    if rules.get("counts_in_standings") is False:
        raise RoundConflict(
            "Only a round imported from the forum can be archive-only: a round played here counts in the "
            "standings."
        )
    errors = {}
    rules.setdefault("title", "")
    rules.setdefault("hand_size", 5)
    _clean_rules(rules, errors)
    _clean_card_rules(rules, errors)
    _check_deadline(rules.get("deadline"), now, errors)
    if errors:
        raise RoundInputError(errors)
    round_ = Round.objects.create(league=league, number=next_round_number(league), created_by=actor, **rules)
    log_action(round_, "round.created", actor=actor, after=_round_values(round_))
    if open_now:
        return open_round(actor=actor, round_id=round_.pk, now=now)
    return round_


@transaction.atomic
def update_round(*, actor, round_id, now, changes):
    """Edit a draft freely; an open round only its texts, deadline and extra bans (docs/api.md PATCH); an
    imported round, whatever its state, only the rules its forum post described and whether it counts in the
    standings (`EDITABLE_WHEN_IMPORTED`)."""
    round_ = _lock(round_id)
    imported = bool(round_.imported_fingerprint)
    if imported:
        frozen = sorted(set(changes) - EDITABLE_WHEN_IMPORTED)
        if frozen:
            raise RoundConflict(
                f"This round was imported from the forum: {', '.join(frozen)} stay as imported. Only the "
                "rules its post described (title, variants, format, banned and lifted cards, texts) and "
                "whether it counts in the standings can change."
            )
    elif "counts_in_standings" in changes and changes["counts_in_standings"] != round_.counts_in_standings:
        raise RoundConflict(
            "Only a round imported from the forum can be archive-only: a round played here counts in the "
            "standings."
        )
    elif round_.state in (RoundState.REVEALED, RoundState.FINAL) or (
        round_.state == RoundState.OPEN and round_.deadline <= now
    ):
        raise RoundConflict("Submissions for this round have ended: its rules can no longer change.")
    elif round_.state == RoundState.OPEN:
        frozen = sorted(set(changes) - EDITABLE_WHILE_OPEN)
        if frozen:
            raise RoundConflict(
                f"The round is open: {', '.join(frozen)} can no longer change. "
                "Only the texts, the deadline, the extra bans and the lifted bans can."
            )
    changes = dict(changes)
    errors = {}
    _clean_rules(changes, errors)
    _clean_card_rules(changes, errors)
    if "deadline" in changes:
        _check_deadline(changes["deadline"], now, errors)
    if errors:
        raise RoundInputError(errors)
    before = _round_values(round_)
    for name, value in changes.items():
        setattr(round_, name, value)
    if round_.state != RoundState.DRAFT and "extra_banned" in changes:
        kept = [entry for entry in round_.banned_snapshot if entry["list"] != "round"]
        round_.banned_snapshot = kept + [
            {"name": n, "list": "round", "category": ""} for n in round_.extra_banned
        ]
    if imported and round_.banned_snapshot and round_.land_rule != before["land_rule"]:
        _snapshot_land_rule_list(round_)
    round_.save()
    after = _round_values(round_)
    if after != before:
        note = "Rules of an imported round set right after the import." if imported else ""
        log_action(round_, "round.changed", actor=actor, before=before, after=after, note=note)
    if round_.state == RoundState.OPEN and after["deadline"] != before["deadline"]:
        _announce_deadline(round_)
    return round_


@transaction.atomic
def open_round(*, actor, round_id, now):
    round_ = _lock(round_id)
    if round_.state != RoundState.DRAFT:
        raise RoundConflict(
            f"Only a draft can be opened; this round is {round_.state_at(now).label.lower()}."
        )
    errors = {}
    _check_deadline(round_.deadline, now, errors)
    if errors:
        raise RoundConflict("Move the deadline at least 5 minutes into the future before opening the round.")
    round_.state = RoundState.OPEN
    round_.opened_at = now
    _take_snapshot(round_, now)
    round_.save()
    log_action(
        round_,
        "round.opened",
        actor=actor,
        before={"state": RoundState.DRAFT},
        after={
            "state": RoundState.OPEN,
            "banned": len(round_.banned_snapshot),
            "catalog_as_of": round_.catalog_as_of,
        },
    )
    _announce_deadline(round_)
    signals.round_opened.send(sender=Round, round_id=round_.pk)
    return round_


@transaction.atomic
def extend_deadline(*, actor, round_id, now, new_deadline):
    round_ = _lock(round_id)
    if not _is_open(round_, now):
        raise RoundConflict(
            "Only an open round's deadline can be extended; submissions for this one have ended."
        )
    if new_deadline <= round_.deadline:
        raise RoundInputError({"deadline": ["To extend the deadline, choose a time after the current one."]})
    if new_deadline > now + MAXIMUM_LEAD_TIME:
        raise RoundInputError({"deadline": [_too_far_message()]})
    before = round_.deadline
    round_.deadline = new_deadline
    round_.save(update_fields=["deadline", "updated_at"])
    log_action(
        round_,
        "round.deadline_extended",
        actor=actor,
        before={"deadline": before},
        after={"deadline": new_deadline},
    )
    _announce_deadline(round_)
    return round_


@transaction.atomic
def close_round_now(*, actor, round_id, now):
    """End submissions now (deadline := now). Idempotent: a round past its deadline is left as it is."""
    round_ = _lock(round_id)
    if round_.state == RoundState.DRAFT:
        raise RoundConflict("This round is a draft: open it before ending its submissions.")
    if not _is_open(round_, now):
        return round_
    before = round_.deadline
    # Not earlier than the moment the lock was obtained: a hand saved while this call waited for the lock
    # must not end up after the deadline it recorded.
    now = max(now, timezone.now())
    round_.deadline = now
    round_.save(update_fields=["deadline", "updated_at"])
    log_action(
        round_, "round.closed_early", actor=actor, before={"deadline": before}, after={"deadline": now}
    )
    _announce_deadline(round_)
    return round_


@transaction.atomic
def resync_banned_lists(*, actor, round_id, now):
    """Take the standing banned lists into an open round again, by the moderator's choice (rule 2.1a)."""
    round_ = _lock(round_id)
    if not _is_open(round_, now):
        raise RoundConflict("Only an open round's banned lists can be re-synchronised.")
    before = {
        "banned": [entry["name"] for entry in round_.banned_snapshot],
        "catalog_as_of": round_.catalog_as_of,
    }
    _take_snapshot(round_, now)
    round_.save(update_fields=["banned_snapshot", "catalog_as_of", "legal_as_of", "updated_at"])
    after = {
        "banned": [entry["name"] for entry in round_.banned_snapshot],
        "catalog_as_of": round_.catalog_as_of,
    }
    log_action(round_, "round.banned_resynced", actor=actor, before=before, after=after)
    return round_


# Following a league -----------------------------------------------------------------------------------------


def follow_league(user, league_id):
    """`user` follows the league: told when its rounds open, its deadlines in their calendar. Idempotent.
    Returns the league; League.DoesNotExist when there is none."""
    league = League.objects.get(pk=league_id)
    league.followers.add(user)
    return league


def unfollow_league(user, league_id):
    """`user` stops following the league (idempotent). Returns the league; League.DoesNotExist when none."""
    league = League.objects.get(pk=league_id)
    league.followers.remove(user)
    return league
