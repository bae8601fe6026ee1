"""Stage 3: the walk over the classified lines that builds the round, its entries and what was skipped.

The post reads top to bottom as: a heading (the title), a preamble (header fields, format rule, commentary),
the entries (header line, card lines, comment lines), and a trailer of sections that are no part of the
round. An entry header only counts where cards follow it (or, among entries, where it is the next number in
the post's own style), so a rules document's `1. Overview` or a `4 Card - Goblin Party` heading never
becomes one.
"""

import datetime as dt
import re
from dataclasses import dataclass, field

from phm.text import clean_name

from . import classify, fields
from .banned_list import read_banned_list
from .blocks import split_lines
from .deadlines import byline_date, place_year, read_posted_deadline
from .problems import entry_problems

MAX_SKIPPED_TEXT = 2000
_RULE_WORDS = re.compile(
    r"\b(?:must|only|may|allowed|cannot|can't|every|each|exactly|begins?|starts?|banned|legal|no\s+\w+s)\b",
    re.IGNORECASE,
)
_POST_HEADING = re.compile(r"hands?\s+(?:posted|revealed)", re.IGNORECASE)
_CORRECTION = re.compile(r"(?:correction|corrected|edit|update|fix)\b", re.IGNORECASE)


@dataclass
class _Entry:
    number: int
    player: str
    hand_name: str
    line: int
    style: str
    cards: list = field(default_factory=list)
    card_lines: list = field(default_factory=list)
    comment: list = field(default_factory=list)  # (line, text, after a blank line)


def _trim(text):
    return text if len(text) <= MAX_SKIPPED_TEXT else text[: MAX_SKIPPED_TEXT - 1].rstrip() + "\u2026"


class _Walk:
    def __init__(self, text, *, is_card, today, partial, result_types):
        self.is_card = is_card
        self.today = today
        self.partial = partial
        self.types = result_types
        all_lines = split_lines(text)
        self.lines = [line for line in all_lines if not line.blank]
        # Whether a blank line stands right before each non-blank line: paragraphs and sections.
        self.gap = []
        previous_blank = False
        for line in all_lines:
            if line.blank:
                previous_blank = True
            else:
                self.gap.append(previous_blank)
                previous_blank = False
        self.round = result_types["round"]()
        self.skipped = []
        self.entries = []
        self.stray = []  # problems: entries that stand where the post's own text is

    # Line questions ------------------------------------------------------------------------------------

    def _next_cards(self, index):
        """The cards of the line after `index` when it is a card line (not another entry's header)."""
        if index + 1 >= len(self.lines):
            return None
        text = self.lines[index + 1].text
        shape = classify.entry_header(text)
        if shape is not None and (shape.style != "bare" or "::" in shape.rest):
            return None
        return classify.card_line(text, is_card=self.is_card, filling=True)

    def _starts_entry(self, index, shape, current, style):
        strong = shape.style != "bare" or "::" in shape.rest
        followed_by_cards = self._next_cards(index) is not None
        if current is None:
            return followed_by_cards and (strong or self._bare_header_allowed(index, shape, None))
        if not strong:
            return shape.number == current.number + 1 and self._bare_header_allowed(index, shape, current)
        if shape.style != style and shape.style != "padded" and style != "padded":
            # A line of another shape than the post's entries: a card with a count or a document's heading.
            return followed_by_cards and not self._fills_hand(index, current)
        if followed_by_cards:
            return True
        # The next number in the post's own shape is an entry even without cards (reported, not dropped);
        # so is a zero-padded number (`03`), which no card count looks like.
        next_number = shape.number == current.number + 1 or shape.style == "padded"
        return next_number and not classify.is_prose(self.lines[index].text)

    def _next_starts_entry(self, index, current, style):
        if index + 1 >= len(self.lines):
            return False
        shape = classify.entry_header(self.lines[index + 1].text)
        return shape is not None and self._starts_entry(index + 1, shape, current, style)

    def _fills_hand(self, index, current):
        size = self.round.hand_size
        text = self.lines[index].text
        return bool(size and len(current.cards) < size and classify.card_line(text, is_card=self.is_card))

    def _bare_header_allowed(self, index, shape, current):
        """`3 Word Word` could be a card with a count (`3 Black Lotus`)."""
        text = self.lines[index].text
        if current is not None and self._fills_hand(index, current):
            return False
        if self.is_card is not None:
            cards = classify.parse_hand_list(text, is_card=self.is_card)
            if cards and all(self.is_card(card) for card in cards):
                return False
        # Among entries of another shape (`1) Player`, `01 Player`), a bare `3 Word` is a card with a count.
        return current is None or current.style == "bare"

    # The walk ------------------------------------------------------------------------------------------

    def run(self):
        start = self._bylines(0)
        start = self._title(start)
        first = self._first_entry(start)
        self._preamble(start, first)
        end = self._entries(first)
        self._trailer(end)
        self._deadline()

    def _bylines(self, index):
        """The forum's byline above the post ("Post by Mogg » Tue Mar 04, 2014 11:05 pm"), pasted with it: the
        post's date, skipped as no part of the round."""
        while index < len(self.lines) and self._byline(index):
            index += 1
        return index

    def _byline(self, index):
        posted = byline_date(self.lines[index].text)
        if posted is None:
            return False
        if self.round.post_date is None:
            self.round.post_date = posted
        self._skip("post date", index, index + 1)
        return True

    def _title(self, start):
        if start >= len(self.lines):
            return start
        line = self.lines[start]
        text = line.text
        following = self.lines[start + 1 : start + 3]
        if fields.header_field(text) or len(text) > 200 or classify.section_kind(line, following):
            return start
        shape = classify.entry_header(text)
        sized = fields._TITLE_HAND_SIZE.match(text) is not None
        if shape is not None and not sized and self._starts_entry(start, shape, None, None):
            return start
        if self.partial and not (line.bold or line.heading or sized or fields.round_code(text)):
            return start
        if _CORRECTION.match(text) or (text.endswith(":") and not sized):
            return start
        headed = line.bold or line.heading or sized or fields.round_code(text) or _POST_HEADING.search(text)
        if classify.is_prose(text) and not headed:
            return start  # the post opens with commentary, not a heading
        for key, value in fields.title_fields(text).items():
            setattr(self.round, key, value)
        return self._bylines(start + 1)  # a byline may stand under the topic's title too

    def _first_entry(self, start):
        for index in range(start, len(self.lines)):
            shape = classify.entry_header(self.lines[index].text)
            if shape is not None and self._starts_entry(index, shape, None, None):
                return index
        return len(self.lines)

    def _preamble(self, start, end):
        paragraphs = []  # [first line index, lines, right after the header block]
        header_seen, last_header = False, -2
        index = start
        while index < end:
            line = self.lines[index]
            if self._byline(index):
                index += 1
                continue
            found = fields.header_field(line.text)
            if found:
                index = self._header(found, index, end)
                header_seen, last_header = True, index - 1
                continue
            kind = classify.section_kind(line, self.lines[index + 1 : index + 3])
            if kind is None and classify.is_result_comment(line.text):
                kind = "result comment"
            if kind:
                stop = index + 1
                while stop < end and not self.gap[stop]:
                    stop += 1
                self._skip(kind, index, stop)
                index = stop
                continue
            if fields.is_heading_only(line.text):
                if not self.round.code:
                    for key, value in fields.round_code(line.text).items():
                        setattr(self.round, key, value)
                index += 1
                continue
            if paragraphs and not self.gap[index] and paragraphs[-1][0] + len(paragraphs[-1][1]) == index:
                paragraphs[-1][1].append(line.text)
            else:
                paragraphs.append([index, [line.text], header_seen and index == last_header + 1])
            index += 1
        texts = ["\n".join(lines) for _, lines, _ in paragraphs]
        if not self.round.format_rule and paragraphs and paragraphs[0][2] and _RULE_WORDS.search(texts[0]):
            self.round.format_rule = texts.pop(0)
        self.round.commentary = "\n\n".join(texts)

    def _header(self, found, index, end):
        """Reads one header field (and the lines it owns); returns the index after them."""
        name, value = found
        index += 1
        if name in ("extra_banned", "format_rule") and not value:
            owned = []
            while index < end and not fields.header_field(self.lines[index].text):
                if owned and self.gap[index]:
                    break
                owned.append(self.lines[index].text.lstrip("-*\u2022 ").strip())
                index += 1
            value = "\n".join(item for item in owned if item)
        if name == "hand_size":
            size = fields.hand_size(value)
            if size:
                self.round.hand_size = size
        elif name == "land_rule":
            rule = fields.land_rule(value)
            if rule:
                self.round.land_rule = rule
        elif name == "extra_banned":
            banned = read_banned_list(value, self.is_card)
            self.round.extra_banned.extend(banned.names)
            self.round.extra_banned_remarks.extend(banned.remarks)
        elif name == "format_rule":
            self.round.format_rule = value
        elif name == "deadline" and value:
            self.round.deadline_text = value
        return index

    def _deadline(self):
        """The round's deadline: exact when the post gives its year; approximate when the year is placed (near
        the post's date, else `today`); unknown when the post gives none, or none that reads as a date."""
        posted = read_posted_deadline(self.round.deadline_text)
        if posted is None:
            self.round.deadline, self.round.deadline_precision = None, "unknown"
            return
        anchor = self.round.post_date or dt.datetime.combine(
            self.today or dt.date.today(), dt.time(12), tzinfo=dt.UTC
        )
        self.round.deadline = place_year(posted, anchor=anchor, not_after=self.round.post_date).moment
        self.round.deadline_precision = "exact" if posted.year_given else "approximate"

    def _entries(self, index):
        current, style = None, None
        while index < len(self.lines):
            line = self.lines[index]
            shape = classify.entry_header(line.text)
            if shape is not None and self._starts_entry(index, shape, current, style):
                self._close(current)
                player, hand_name = (clean_name(part) for part in classify.split_player_and_name(shape.rest))
                current = _Entry(shape.number, player, hand_name, line.number, shape.style)
                style = style or shape.style
                index += 1
                continue
            if current is None:
                return index
            size = self.round.hand_size
            filling = size is None or len(current.cards) < size
            if filling and self.gap[index] and current.cards:
                # Past a blank line after the cards, a lone unknown name is a card only amid more of the hand
                # ("Thanks all" closing the post is not).
                filling = self._next_cards(index) is not None or self._next_starts_entry(
                    index, current, style
                )
            if not (filling and not current.comment):
                cards = classify.card_line(line.text, is_card=self.is_card, filling=filling and bool(size))
            else:
                cards = classify.card_line(line.text, is_card=self.is_card, filling=filling)
            known = cards is not None and self.is_card is not None and all(map(self.is_card, cards))
            if not known and classify.section_kind(line, self.lines[index + 1 : index + 3]):
                break
            if cards is not None and not (current.comment and not filling and self.is_card is None):
                current.cards.extend(cards)
                current.card_lines.extend([line.number] * len(cards))
            else:
                current.comment.append((line.number, line.text, self.gap[index]))
            index += 1
        self._close(current, last=True)
        return index

    def _close(self, entry, last=False):
        if entry is None:
            return
        if last and entry.comment:
            # After the last hand, text past a blank line is the post's, not the hand's comment, unless the
            # post writes its comments so.
            spaced = any(gap for other in self.entries for gap in [other.comment and other.comment[0][2]])
            kept = [entry.comment[0]]
            for item in entry.comment[1:]:
                if item[2] and not spaced:
                    break
                kept.append(item)
            if entry.comment[0][2] and not spaced and entry.cards:
                kept = []
            rest = entry.comment[len(kept) :]
            if rest:
                text = "\n".join(text for _, text, _ in rest)
                self.skipped.append(self.types["skipped"](rest[0][0], "other", _trim(text)))
            entry.comment = kept
        self.entries.append(entry)

    def _trailer(self, index):
        chunk = None  # [kind, first index, last index]
        while index < len(self.lines):
            line = self.lines[index]
            kind = classify.section_kind(line, self.lines[index + 1 : index + 3])
            if kind is None and classify.is_result_comment(line.text):
                kind = "result comment"
            if chunk is None or (kind and kind != chunk[0] and chunk[0] != "rules document"):
                if chunk:
                    self._skip(chunk[0], chunk[1], index)
                chunk = [kind or "other", index]
            self._check_stray_entry(index, chunk[0])
            index += 1
        if chunk:
            self._skip(chunk[0], chunk[1], len(self.lines))

    def _check_stray_entry(self, index, kind):
        """An entry of known cards after the entries' end (say below a poll) is skipped with the section, but
        said, so that no hand is lost unseen. Examples in how-to-submit text and rules are no hands."""
        if self.is_card is None or kind in ("how to submit", "rules document"):
            return
        shape = classify.entry_header(self.lines[index].text)
        if shape is None or (shape.style == "bare" and "::" not in shape.rest):
            return
        cards = self._next_cards(index)
        if cards and all(map(self.is_card, cards)):
            self.stray.append(
                f"Line {self.lines[index].number}: “{self.lines[index].text[:80]}” comes after the "
                f"entries ended (with the {kind} text) and was skipped; if it is an entry, move it up."
            )

    def _skip(self, kind, start, stop):
        text = "\n".join(line.text for line in self.lines[start:stop])
        self.skipped.append(self.types["skipped"](self.lines[start].number, kind, _trim(text)))

    def entry_results(self):
        return [
            self.types["entry"](
                number=entry.number,
                player=entry.player,
                hand_name=entry.hand_name,
                cards=entry.cards,
                comment="\n".join(text for _, text, _ in entry.comment),
                line=entry.line,
                card_lines=tuple(entry.card_lines),
            )
            for entry in self.entries
        ]


def assemble(text, *, is_card, today, partial, result_types):
    """(round, entries, skipped, problems) for `text`; see `archive.forum.post.parse_post`."""
    walk = _Walk(text, is_card=is_card, today=today, partial=partial, result_types=result_types)
    walk.run()
    entries = walk.entry_results()
    problems = entry_problems(entries, partial=partial) + walk.stray
    if not entries:
        problems.append(
            'No entries found: an entry starts with its number and player, like `01 Player :: "Hand name"`, '
            "and its cards follow on the next line."
        )
    walk.skipped.sort(key=lambda skipped: skipped.line)
    return walk.round, entries, walk.skipped, problems
