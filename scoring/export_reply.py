"""The results exports (`GET /api/rounds/{id}/export/bbcode/` and `…/csv/`, docs/api.md): whole documents (a
forum post, a spreadsheet), so not paged, but built once per state of the round and kept in the cache, like
the table's reply (scoring.table_reply): building one reads every cell of the table (seconds for a round of
400 hands, bench/matches.py), and a request that finds it in the cache costs four queries (the forum post
five).

The state is the table's (the tally's revision, every hand's number, names and bonus) and, because the
post also shows each hand's cards, notes and decisions, the ids of the hands' current versions (a
replacement is a new version, with or without results), with the round's own fields (title, state,
decisions; `updated_at` moves with any of them). The post also lists the moderators' rulings, which move
the tally's revision like every change of results, and the bonus awards that count, whose ids are read for
it. An export is the same for every viewer. Before the reveal `table_state` raises ScoringNotFound: the 404
of every results document then.
"""

import hashlib

from submissions.models import HandVersion
from submissions.selectors import hands_of_round

from . import exports, selectors, table_reply
from .rulings import counted_bonus_awards, round_rulings

EXPORT_FORMAT = 2  # 2: the post lists the round's rulings and bonus League points
CACHE_SECONDS = 3600  # keys are content digests: a copy is never wrong, only superseded


def export_text(round_, kind: str) -> str:
    """The round's results as `kind` ("csv" or "bbcode") text, from the cache or built (then cached)."""
    state = table_reply.table_state(round_)  # before anything else: a 404 before the reveal
    versions = list(
        HandVersion.objects.filter(hand__round_id=round_.pk, is_current=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    # The post lists the bonus awards that count with their reasons: a withdrawal and a new award of the
    # same points leave the table's bonus totals as they were, not the post. (Rulings move the revision.)
    awards = list(counted_bonus_awards(round_).values_list("pk", flat=True)) if kind == "bbcode" else []
    material = (
        EXPORT_FORMAT,
        kind,
        state.digest,
        versions,
        awards,
        round_.updated_at,
        round_.state,
        round_.title,
        round_.code,
        round_.decisions,
    )
    digest = hashlib.blake2b(repr(material).encode(), digest_size=16).hexdigest()
    build = _csv if kind == "csv" else _bbcode
    return table_reply.cached_or_built(
        f"scoring:export:{kind}:{digest}", lambda: build(round_), CACHE_SECONDS, "results export"
    )


def _csv(round_):
    table = selectors.results_table(round_)
    # Decisions (7.2b) only for a round that asks some: one more query then, none otherwise.
    decisions = (
        {
            hand_id: version.decisions
            for hand_id, version in selectors.current_versions([row.hand.pk for row in table.rows]).items()
        }
        if round_.decisions
        else {}
    )
    return exports.results_csv(table, decisions)


def _bbcode(round_):
    table = selectors.results_table(round_)
    hands = [hand for hand in hands_of_round(round_) if hand.current_version]
    cards = {hand.pk: hand.current_version.cards for hand in hands}
    notes = {hand.pk: hand.current_version.changes_note for hand in hands}
    decisions = {hand.pk: hand.current_version.decisions for hand in hands}
    rulings, bonuses = round_rulings(round_), list(counted_bonus_awards(round_))
    return exports.results_bbcode(table, cards, notes, decisions, rulings, bonuses)
