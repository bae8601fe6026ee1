"""The community's rules text (rounds/data/phm-rules.txt) as sections and numbered rules."""

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

RULES_PATH = Path(__file__).resolve().parent / "data" / "phm-rules.txt"

SECTION = re.compile(r"^(\d+)\.\s+(.+)$")
RULE = re.compile(r"^(\d+\.\d+[a-z]?)\.\s+(.*)$")
CLAUSE = re.compile(r"^([ivx]+)\.\s+(.*)$")
END_OF_RULES = "PHM Banned List"


@dataclass
class RuleLine:
    kind: str  # "rule", "clause" or "text"
    text: str
    number: str = ""

    @property
    def anchor(self):
        return "rule-" + self.number.replace(".", "-") if self.kind == "rule" else ""


@dataclass
class Section:
    number: str
    title: str
    lines: list = field(default_factory=list)

    @property
    def anchor(self):
        return f"section-{self.number}"


def parse_rules(text):
    """Sections 1 to 7 of the rules text; the table of contents and the lists after them are skipped."""
    lines = [line.strip() for line in text.splitlines()]
    body_start = _start_of_body(lines)
    sections = []
    for line in lines[body_start:]:
        if line == END_OF_RULES:
            break
        if not line:
            continue
        if match := SECTION.match(line):
            sections.append(Section(number=match.group(1), title=match.group(2)))
        elif not sections:
            continue
        elif match := RULE.match(line):
            sections[-1].lines.append(RuleLine("rule", match.group(2), match.group(1)))
        elif match := CLAUSE.match(line):
            sections[-1].lines.append(RuleLine("clause", match.group(2), match.group(1)))
        else:
            sections[-1].lines.append(RuleLine("text", line))
    return sections


def _start_of_body(lines):
    """Where section 1 begins: the second "1. …" line (the first is in the table of contents)."""
    seen = 0
    for position, line in enumerate(lines):
        if SECTION.match(line) and line.startswith("1."):
            seen += 1
            if seen == 2:
                return position
    return 0


@lru_cache(maxsize=1)
def phm_rules():
    return parse_rules(RULES_PATH.read_text(encoding="utf-8"))
