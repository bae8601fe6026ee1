"""The card page's answer to "can I play this in PHM?": a card's verdict under the standing rules, outside any
round."""

import datetime
from dataclasses import dataclass

from .banned_matching import banned_entries, matches
from .catalog.names import normalize_name
from .models import BannedList, DataQuality, Legality

PHM_LEGAL = "legal"
PHM_BANNED = "phm_banned"
LAND_RULE_BANNED = "land_rule_banned"
VINTAGE_BANNED = "vintage_banned"
NOT_VINTAGE_LEGAL = "not_vintage_legal"


@dataclass(frozen=True)
class PhmVerdict:
    """What the rules say of a card in a round with no round-specific bans, lifts or variants: `kind` is the
    decisive reason (one of the constants above), `headline` and `details` say it in words."""

    kind: str
    headline: str
    details: tuple
    restricted: bool = False  # restricted in Vintage, which PHM ignores (rule 3.2)
    phm_category: str = ""  # the PHM Banned List's category, when the card is on it
    land_rule_category: str = ""  # the Land Rule Banned List's category, when the card is on it
    known_only_by_name: bool = False

    @property
    def playable(self):
        """Legal in a round without a land rule."""
        return self.kind in (PHM_LEGAL, LAND_RULE_BANNED)


def _standing_list_category(card, entries):
    key = normalize_name(card.name)
    for card_id, name_key, category in entries:
        if matches(card.id, key, (card_id, name_key)):
            return category
    return ""


def phm_verdict(card, today=None):
    """Whether `card` (a catalog Card) may be played in PHM by the standing rules: Vintage-legal or restricted
    (3.2), not on the PHM Banned List (3.3), and with a land rule not on the Land Rule Banned List (7.3). The
    catalog's legality as it is now, i.e. for rounds opened from now on (2.1a). One query (the lists)."""
    today = today or datetime.date.today()
    lists = banned_entries()
    phm_category = _standing_list_category(card, lists.get(BannedList.PHM, []))
    land_category = _standing_list_category(card, lists.get(BannedList.LAND_RULE, []))
    vintage = card.legality("vintage")
    restricted = vintage == Legality.RESTRICTED
    details = []
    if vintage == Legality.BANNED:
        kind, headline = VINTAGE_BANNED, "Not legal in PHM: banned in Vintage"
        details.append(
            "A hand may contain only cards legal in Vintage (rule 3.2): restricted is fine, banned is not."
        )
    elif vintage not in (Legality.LEGAL, Legality.RESTRICTED):
        kind, headline = NOT_VINTAGE_LEGAL, "Not legal in PHM: not legal in Vintage"
        if not card.paper:
            details.append("It is a digital-only card, never legal in Vintage (rule 3.2).")
        else:
            details.append("A hand may contain only cards legal in Vintage (rule 3.2).")
        if card.paper and (card.first_printed is None or card.first_printed > today):
            details.append(
                "Not released yet? A round's moderator may accept it once the release notes of its set are "
                "published before the round starts (rule 3.2a)."
            )
    elif phm_category:
        kind, headline = PHM_BANNED, f"Banned in PHM: on the PHM Banned List ({phm_category})"
        details.append("No round allows it unless the round's own rules lift the ban (rule 3.3).")
    elif land_category:
        kind, headline = LAND_RULE_BANNED, "Legal in PHM, but banned in rounds with a land rule"
        details.append(
            f"It is on the Land Rule Banned List ({land_category}): rounds that use a land rule (LR, ELR or "
            "DLR, rule 7.3) refuse it; rounds without one allow any number of copies (rule 3.2)."
        )
    else:
        kind, headline = PHM_LEGAL, "Legal in PHM"
        details.append("A hand may contain any number of copies of it (rule 3.2).")
    if restricted and kind in (PHM_LEGAL, LAND_RULE_BANNED, PHM_BANNED):
        details.append(
            "It is restricted in Vintage; PHM has no restricted list, so the restriction does not matter "
            "here (rule 3.2)."
        )
    if phm_category and kind != PHM_BANNED:
        details.append(f"It is also on the PHM Banned List ({phm_category}).")
    if land_category and kind != LAND_RULE_BANNED:
        details.append(
            f"It is also on the Land Rule Banned List ({land_category}), for rounds with a land rule."
        )
    known_only_by_name = card.data_quality == DataQuality.NAME_ONLY
    if known_only_by_name:
        details.append(
            "The catalog knows this card only by its name and the sets it was printed in (it came out "
            "after the full card data's cut-off): its Vintage legality is that of those sets. When in "
            "doubt, ask the round's moderator."
        )
    return PhmVerdict(
        kind=kind,
        headline=headline,
        details=tuple(details),
        restricted=restricted,
        phm_category=phm_category,
        land_rule_category=land_category,
        known_only_by_name=known_only_by_name,
    )
