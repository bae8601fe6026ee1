"""A round's card rules: card filters (rounds.cardquery) a hand must satisfy, e.g. "Only Dragon creature
cards" as `t:dragon t:creature`, or "at most one card may match o:draw".

A rule is `{"query", "at_least"?, "at_most"?, "message"?}`. Without counts every card of the hand must match
(a per-card problem, like a banned card); with counts the number of matching cards must lie between them (a
problem of the hand). Cards a moderator accepted for the round (rule 3.2a) are not in the catalog, so no
filter can judge them: they count as matching every rule, because accepting a card for a round is the
moderator's judgement that it may be played in it.
"""

import re
from dataclasses import dataclass

from .cardquery import QuerySyntaxError, compile_filter
from .cardquery.parser import MAX_QUERY_LENGTH

MAX_CARD_RULES = 20
MAX_RULE_QUERY = 500
MAX_RULE_MESSAGE = 300
MAX_RULE_COUNT = 100
RULE_KEYS = {"query", "at_least", "at_most", "message"}


@dataclass(frozen=True)
class CardRule:
    query: str
    at_least: int | None = None
    at_most: int | None = None
    message: str = ""

    @classmethod
    def from_dict(cls, data):
        return cls(data["query"], data.get("at_least"), data.get("at_most"), data.get("message") or "")

    @property
    def every_card(self):
        return self.at_least is None and self.at_most is None

    @property
    def label(self):
        """What a problem quotes: the moderator's own wording if any, else the filter."""
        return self.message or self.query

    def describe(self):
        """One line for rules lists, e.g. "Every card must match t:dragon t:creature (Only Dragons)"."""
        if self.every_card:
            head = "Every card must match"
        elif self.at_most is None:
            head = f"At least {_cards(self.at_least)} must match"
        elif self.at_least is None:
            head = f"At most {_cards(self.at_most)} may match"
        elif self.at_least == self.at_most:
            head = f"Exactly {_cards(self.at_least)} must match"
        else:
            head = f"Between {self.at_least} and {self.at_most} cards must match"
        return f"{head} {self.query}" + (f" ({self.message})" if self.message else "")


def _cards(count):
    return f"{count} card{'s' if count != 1 else ''}"


def round_card_rules(round_):
    return [CardRule.from_dict(rule) for rule in (round_.card_rules or [])]


def card_rule_lines(round_):
    return [rule.describe() for rule in round_card_rules(round_)]


# ---- validation (round services: form and API alike) -----------------------------------------------------


def _count(value, name, label, problems):
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_RULE_COUNT:
        problems.append(f"{label}: {name} must be a whole number from 0 to {MAX_RULE_COUNT}.")
        return None
    return value


def clean_card_rules(raw):
    """(rules as stored, problems): each problem names the rule (1-based) and, for a filter that does not
    parse, the 0-based position in its query."""
    if raw in (None, ""):
        return [], []
    if not isinstance(raw, list | tuple):
        return [], ["Card rules are a list of rules."]
    if len(raw) > MAX_CARD_RULES:
        return [], [f"At most {MAX_CARD_RULES} card rules, not {len(raw)}."]
    rules, problems = [], []
    for number, item in enumerate(raw, start=1):
        if isinstance(item, str):
            item = {"query": item}
        label = f"Rule {number}"
        if not isinstance(item, dict):
            problems.append(f"{label}: a rule is an object with a query.")
            continue
        unknown = sorted(set(item) - RULE_KEYS)
        if unknown:
            fields = ", ".join(unknown)
            problems.append(f"{label}: unknown field {fields} (use query, at_least, at_most, message).")
            continue
        query = item.get("query")
        if not isinstance(query, str) or not query.strip():
            problems.append(f"{label}: the query is empty.")
            continue
        query = query.strip()
        label = f"Rule {number} “{query[:80]}”"
        if len(query) > min(MAX_RULE_QUERY, MAX_QUERY_LENGTH):
            problems.append(f"{label}: at most {MAX_RULE_QUERY} characters.")
            continue
        message = item.get("message") or ""
        if not isinstance(message, str) or len(message) > MAX_RULE_MESSAGE:
            problems.append(f"{label}: the message is text of at most {MAX_RULE_MESSAGE} characters.")
            continue
        before = len(problems)
        at_least = _count(item.get("at_least"), "at_least", label, problems)
        at_most = _count(item.get("at_most"), "at_most", label, problems)
        if at_least is not None and at_most is not None and at_least > at_most:
            problems.append(f"{label}: at_least ({at_least}) is more than at_most ({at_most}).")
        try:
            compile_filter(query)
        except QuerySyntaxError as error:
            problems.append(f"{label}, position {error.position}: {error.message}")
        if len(problems) > before:
            continue
        rule = {"query": query}
        if at_least is not None:
            rule["at_least"] = at_least
        if at_most is not None:
            rule["at_most"] = at_most
        if message.strip():
            rule["message"] = " ".join(message.split())
        rules.append(rule)
    return rules, problems


# ---- the form's textarea: one rule per line ----------------------------------------------------------------

# The count prefix of a line: `[at least N][, at most M]:`. Every run of spaces is followed by something that
# is not a space (a count, a comma, the colon), so no two runs can meet: one pattern for the whole line, with
# `\s*,?\s*` and `(?P<query>.*?)(?:\s+\|…)?\s*$`, tried every way of splitting a run of spaces (a
# moderator's line of 8,000 spaces took seconds).
_COUNTS = re.compile(
    r"\s*(?:at\s+least\s+(?P<least>\d+)\s*)?(?:,\s*)?(?:at\s+most\s+(?P<most>\d+)\s*)?:\s*", re.IGNORECASE
)
# Where the query of a counted line ends and its message begins: the first run of spaces before a "|".
_MESSAGE_BAR = re.compile(r"(?<!\s)\s+\|")


def _counted_line(line):
    """(at least, at most, query, message) of a line with a count prefix (a count as text, or None), or
    None when the line has none."""
    prefix = _COUNTS.match(line)
    if prefix is None or (prefix["least"] is None and prefix["most"] is None):
        return None
    rest = line[prefix.end() :]
    bar = _MESSAGE_BAR.search(rest)
    if bar is None:
        return prefix["least"], prefix["most"], rest.rstrip(), ""
    return prefix["least"], prefix["most"], rest[: bar.start()], rest[bar.end() :].strip()


def rules_from_text(text):
    """Textarea lines → raw rules. A line is `[at least N][, at most M]: QUERY [| message]`; blank lines and
    lines starting with # are skipped."""
    rules = []
    for line in (text or "").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        counted = _counted_line(line)
        if counted is None:
            # No count prefix: the whole line before " | " is the filter (it may contain a colon: t:dragon).
            query, _, message = line.partition(" | ")
            rules.append({"query": query.strip(), "message": message.strip()})
            continue
        least, most, query, message = counted
        rule = {"query": query, "message": message}
        if least is not None:
            rule["at_least"] = int(least)
        if most is not None:
            rule["at_most"] = int(most)
        rules.append(rule)
    return rules


_COUNT_START = re.compile(r"^\s*at\s+(least|most)\b", re.IGNORECASE)


def text_line_problems(text):
    """Lines that start like a count but are not one ("at most 1 o:draw" lacks its colon): as typed, they
    would be a name search no card matches."""
    problems = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if _COUNT_START.match(line) and _counted_line(line) is None:
            problems.append(
                f"Line {number}: write the count with a colon, e.g. “at most 1: o:draw” or "
                "“at least 1, at most 2: t:land”."
            )
    return problems


def rules_to_text(rules):
    lines = []
    for rule in rules or []:
        counts = []
        if rule.get("at_least") is not None:
            counts.append(f"at least {rule['at_least']}")
        if rule.get("at_most") is not None:
            counts.append(f"at most {rule['at_most']}")
        prefix = f"{', '.join(counts)}: " if counts else ""
        message = f" | {rule['message']}" if rule.get("message") else ""
        lines.append(f"{prefix}{rule['query']}{message}")
    return "\n".join(lines)


# ---- checking a hand (rounds.legality.check_hand) ---------------------------------------------------------


def check_card_rules(verdicts, card_rules, problem_class, legalities_then=None):
    """Add per-card problems to `verdicts` and return the hand's problems, for rules given as tuples
    (query, at_least, at_most, message) — HandRules.card_rules. `legalities_then` ({card id: {format:
    value}}, rounds.catalog.history) holds legalities that changed since the round opened: format filters
    (`f:`, `banned:`, `restricted:`) see them as they were then (rule 2.1a), like the rest of check_hand."""
    legalities_then = legalities_then or {}
    hand_problems = []
    for query, at_least, at_most, message in card_rules:
        rule = CardRule(query, at_least, at_most, message or "")
        try:
            card_filter = compile_filter(query)
        except QuerySyntaxError as error:
            hand_problems.append(
                problem_class(
                    "card_rule_broken",
                    f"This round's rule “{query}” cannot be checked ({error.message}); tell the moderator.",
                )
            )
            continue
        matching = []
        for verdict in verdicts:
            if verdict.card is None:
                if verdict.accepted:  # not in the catalog, accepted by a moderator: see the module docstring
                    matching.append(verdict)
                continue  # otherwise already refused as unknown
            if card_filter.matches_card_id(verdict.card.id, legalities_then.get(verdict.card.id)):
                matching.append(verdict)
            elif rule.every_card:
                message = f"{verdict.name} does not match this round's rule: {rule.label}"
                verdict.problems.append(problem_class("card_rule", message))
        count = len(matching)
        names = ", ".join(verdict.name for verdict in matching)
        if at_least is not None and count < at_least:
            hand_problems.append(
                problem_class(
                    "card_rule_at_least",
                    f"At least {_cards(at_least)} must match this round's rule: {rule.label}; "
                    f"the hand has {count}{': ' + names if names else ''}.",
                )
            )
        if at_most is not None and count > at_most:
            hand_problems.append(
                problem_class(
                    "card_rule_at_most",
                    f"At most {_cards(at_most)} may match this round's rule: {rule.label}; "
                    f"the hand has {count}: {names}.",
                )
            )
    return hand_problems
