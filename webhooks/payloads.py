"""What a webhook receives: Discord's webhook JSON (a short text and one embed) or the generic signed JSON.

Built inside the transaction of the change, from what is public at that moment: a round that opens tells its
rules only (nothing about hands, not even how many there are); the hands go out with the reveal, the table
when the results are final. User text is escaped for Discord's Markdown and no message may mention anyone
(`allowed_mentions`), so a hand named "@everyone" pings nobody.
"""

import json
import re
from datetime import UTC

from django.urls import reverse
from django.utils import timezone

from phm.links import site_url
from phm.text import quoted
from rounds.bbcode import LAND_RULE_LINES, deadline_utc_text, variant_lines
from rounds.models import LandRule
from rounds.services.effective_banned import effective_banned_entries
from scoring.selectors import results_table
from submissions.models import HandStatus
from submissions.selectors import hands_of_round, player_display_name

USERNAME = "PHM Moderator"
# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
CONTENT_LIMIT = 2000
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELDS_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000
TABLE_ROWS = 10  # the top of the table

COLORS = {
    "round_opened": 0x198754,
    "hands_revealed": 0x0D6EFD,
    "results_final": 0xFFC107,
    "test": 0x6C757D,
}
_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>\[\]()<#@])")


# Text helpers -----------------------------------------------------------------------------------------------


def escape(text):
    """User text made inert in Discord: Markdown, masked links, mentions and timestamps are escaped."""
    return _DISCORD_MARKDOWN.sub(r"\\\1", str(text))


def clip(text, limit, ellipsis="…"):
    """`text` cut to at most `limit` characters, ending with `ellipsis` when cut (never inside an escape)."""
    if len(text) <= limit:
        return text
    cut = text[: max(limit - len(ellipsis), 0)]
    if cut.endswith("\\") and not cut.endswith("\\\\"):
        cut = cut[:-1]
    return cut + ellipsis


def discord_time(moment, style="F"):
    return f"<t:{int(moment.timestamp())}:{style}>"


def absolute(path):
    """An absolute link (settings.SITE_URL), or None when the site does not know its address: Discord
    refuses an embed whose URL is not absolute."""
    url = site_url(path)
    return url if url.startswith(("https://", "http://")) else None


def encode(payload):
    """The exact bytes sent, as stored text: compact UTF-8 JSON."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


# What is said about a round ---------------------------------------------------------------------------------


def round_links(round_):
    return {
        "url": site_url(round_.get_absolute_url()),
        "results_url": site_url(reverse("scoring:results", args=[round_.pk])),
        "league_url": site_url(reverse("scoring:league", args=[round_.league_id])),
    }


def round_rules(round_):
    """The round's public rules, as announced (rounds.bbcode.announcement): nothing about hands."""
    return {
        "id": round_.pk,
        "code": round_.code,
        "number": round_.number,
        "title": round_.title,
        "state": round_.state,
        "deadline": round_.deadline.astimezone(UTC).isoformat(),
        "hand_size": round_.hand_size,
        "hand_size_mode": round_.hand_size_mode,
        "land_rule": round_.land_rule,
        "extra_banned": [
            entry["name"] for entry in effective_banned_entries(round_) if entry["list"] == "round"
        ],
        "variants": variant_lines(round_),
        "unbanned": list(round_.unbanned),
        "format_rule": round_.format_rule,
        "tiebreak": round_.tiebreak,
        **round_links(round_),
    }


def posted_hands(round_):
    """The public "hands posted" list (submissions.selectors.hands_of_round, as the round page shows it)."""
    rows = []
    for hand in hands_of_round(round_):
        version = hand.current_version
        rows.append(
            {
                "number": hand.display_number,
                "player": hand.player.username,
                "player_name": player_display_name(hand.player),
                "name": hand.name,
                "cards": list(version.cards) if version else [],
                "status": hand.status,
                "disqualification_reason": hand.disqualification_reason,
                "notice": hand.notice,
            }
        )
    return rows


def table_top(round_, limit=TABLE_ROWS):
    """The top of the round's table by rank, as the table API gives it (scoring.selectors.results_table)."""
    table = results_table(round_, cells=False)
    return [
        {
            "rank": row.rank,
            "number": row.number,
            "player": row.hand.player.username,
            "player_name": row.player,
            "hand_name": row.hand_name,
            "points": row.points,
            "league_points": row.league_points,
        }
        for row in table.by_rank[:limit]
    ]


def event_data(event, round_):
    """What the event adds to the round: the hands on reveal, the table when final."""
    if event == "hands_revealed":
        return {"hands": posted_hands(round_)}
    if event == "results_final":
        return {"table": table_top(round_)}
    return {}


# Generic JSON -----------------------------------------------------------------------------------------------


def json_payload(event, round_, data, now):
    return {
        "event": event,
        "league": {"id": round_.league_id, "name": round_.league.name},
        "round": round_rules(round_),
        **data,
        "sent_at": now.isoformat(),
    }


def json_test_payload(league, now):
    return {
        "event": "test",
        "league": {"id": league.pk, "name": league.name},
        "message": "A test message from PHM Moderator: this webhook works.",
        "sent_at": now.isoformat(),
    }


# Discord ----------------------------------------------------------------------------------------------------


def _field(name, value, inline=False):
    return {
        "name": clip(name, FIELD_NAME_LIMIT),
        "value": clip(value or "—", FIELD_VALUE_LIMIT),
        "inline": inline,
    }


def _embed_size(embed):
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + sum(len(field["name"]) + len(field["value"]) for field in embed.get("fields", []))
        + len(embed.get("footer", {}).get("text", ""))
    )


def _fit(embed):
    """Within Discord's limits: 25 fields, and 6000 characters in all (the description gives way first,
    then the last fields)."""
    embed["title"] = clip(embed["title"], TITLE_LIMIT)
    if "description" in embed:
        embed["description"] = clip(embed["description"], DESCRIPTION_LIMIT)
    embed["fields"] = embed.get("fields", [])[:FIELDS_LIMIT]
    excess = _embed_size(embed) - EMBED_TOTAL_LIMIT
    if excess > 0 and embed.get("description"):
        embed["description"] = clip(embed["description"], max(len(embed["description"]) - excess, 1))
    while _embed_size(embed) > EMBED_TOTAL_LIMIT and embed["fields"]:
        embed["fields"].pop()
    return embed


def _lines_within(blocks, limit, more):
    """As many whole blocks as fit in `limit` characters, then `more(n)` naming the n left out."""
    text = ""
    for position, block in enumerate(blocks):
        candidate = f"{text}\n\n{block}" if text else block
        tail = more(len(blocks) - position - 1) if position < len(blocks) - 1 else ""
        if len(candidate) + len(tail) + 2 > limit:
            return (text + "\n\n" + more(len(blocks) - position)).strip()
        text = candidate
    return text


def _message(event, league, content, embed, now):
    embed = {**embed, "timestamp": now.isoformat(), "color": COLORS[event]}
    embed["footer"] = {"text": clip(f"PHM Moderator · {league.name}", FOOTER_LIMIT)}
    if embed.get("url") is None:
        embed.pop("url", None)
    return {
        "username": USERNAME,
        "content": clip(content, CONTENT_LIMIT),
        "embeds": [_fit(embed)],
        "allowed_mentions": {"parse": []},
    }


def _deadline_text(deadline):
    return f"{deadline_utc_text(deadline)}\n{discord_time(deadline)} ({discord_time(deadline, 'R')})"


def discord_round_opened(round_, data, now):
    rules = round_rules(round_)
    title = f"{round_.code} — {round_.title}"
    fields = [
        _field("Hand size", round_.hand_size_text, inline=True),
        _field("Land rule", LAND_RULE_LINES[LandRule(round_.land_rule)], inline=True),
        _field("Extra banned", " / ".join(escape(name) for name in rules["extra_banned"]) or "None"),
    ]
    if rules["variants"]:
        fields.append(_field("Variants", "\n".join(f"• {escape(line)}" for line in rules["variants"])))
    fields.append(_field("Deadline", _deadline_text(round_.deadline)))
    link = absolute(round_.get_absolute_url())
    if link:
        fields.append(
            _field("Submit your hand", f"[Open the round]({link}) — hands stay secret until the deadline.")
        )
    description = round_.format_rule.strip() or "Submit your hand on the site before the deadline."
    content = (
        f"**New round open** in {escape(round_.league.name)}: {escape(title)} — "
        f"deadline {discord_time(round_.deadline)}"
    )
    embed = {"title": title, "url": link, "description": description, "fields": fields}
    return _message("round_opened", round_.league, content, embed, now)


def _hand_block(hand):
    heading = f"**{hand['number']:02d}** {escape(hand['player_name'])}"
    if hand["name"]:
        heading += f" :: {escape(quoted(hand['name']))}"
    lines = [heading, " / ".join(escape(card) for card in hand["cards"]) or "(no cards)"]
    if hand["status"] == HandStatus.DISQUALIFIED:
        reason = f": {escape(hand['disqualification_reason'])}" if hand["disqualification_reason"] else ""
        lines.append(f"*Disqualified (rule 4.2a){reason}*")
    elif hand["status"] == HandStatus.REPLACED:
        lines.append("*Replaced by a similar hand (rule 4.2a)*")
    if hand["notice"]:
        lines.append(f"*{escape(hand['notice'])}*")
    return "\n".join(lines)


def discord_hands_revealed(round_, data, now):
    hands = data["hands"]
    title = f"Hands posted — {round_.code} {round_.title}"
    blocks = [_hand_block(hand) for hand in hands]
    description = (
        _lines_within(
            blocks,
            DESCRIPTION_LIMIT - 200,
            lambda n: f"… and {n} more hand{'s' if n != 1 else ''} on the site.",
        )
        if blocks
        else "No hands were submitted in this round."
    )
    results = absolute(reverse("scoring:results", args=[round_.pk]))
    fields = [_field("Hands", str(len(hands)), inline=True)]
    if results:
        fields.append(_field("Score your row", f"[Report your results]({results})", inline=True))
    content = f"**Hands posted** — {escape(round_.code)} {escape(round_.title)}: score your row now."
    embed = {"title": title, "url": results, "description": description, "fields": fields}
    return _message("hands_revealed", round_.league, content, embed, now)


def _table_line(row):
    hand = f" — {escape(quoted(row['hand_name']))}" if row["hand_name"] else ""
    return (
        f"**{row['rank']}.** {escape(row['player_name'])}{hand} · {row['points']} PT · "
        f"{row['league_points']} League points"
    )


def discord_results_final(round_, data, now):
    table = data["table"]
    title = f"Results final — {round_.code} {round_.title}"
    description = "\n".join(_table_line(row) for row in table) or "No hands were in the table."
    winners = [escape(row["player_name"]) for row in table if row["rank"] == 1]
    won = f": {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}" if winners else ""
    results = absolute(reverse("scoring:results", args=[round_.pk]))
    standings = absolute(reverse("scoring:league", args=[round_.league_id]))
    fields = []
    if results:
        fields.append(_field("Full table", f"[Results of {escape(round_.code)}]({results})", inline=True))
    if standings:
        fields.append(_field("League", f"[{escape(round_.league.name)} standings]({standings})", inline=True))
    content = f"**Results final** — {escape(round_.code)} {escape(round_.title)}{won}."
    embed = {"title": title, "url": results, "description": description, "fields": fields}
    return _message("results_final", round_.league, content, embed, now)


def discord_test_payload(league, now):
    embed = {
        "title": "Test message",
        "description": (
            f"This channel will be told when a round of {escape(league.name)} opens, when its hands are "
            "posted and when its results are final."
        ),
        "url": absolute(reverse("scoring:league", args=[league.pk])),
    }
    return _message("test", league, f"Test message from PHM Moderator for {escape(league.name)}.", embed, now)


DISCORD_BUILDERS = {
    "round_opened": discord_round_opened,
    "hands_revealed": discord_hands_revealed,
    "results_final": discord_results_final,
}


def build(kind, event, round_, data, now):
    """The body for a webhook of `kind`, as stored text."""
    if kind == "discord":
        return encode(DISCORD_BUILDERS[event](round_, data, now))
    return encode(json_payload(event, round_, data, now))


def build_test(kind, league, now=None):
    now = now or timezone.now()
    if kind == "discord":
        return encode(discord_test_payload(league, now))
    return encode(json_test_payload(league, now))
