"""Reading the project's Markdown documents the way a reader (and GitHub) sees them, for tests/phm/test_docs.py:
fenced code blocks, inline code, links and images, heading anchors."""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~)")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
# [text](target) and ![alt](target); a target has no spaces.
LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass(frozen=True)
class CodeBlock:
    language: str
    text: str
    line: int  # of the opening fence, 1-based


@dataclass(frozen=True)
class Link:
    target: str
    text: str
    image: bool
    line: int


def relative(path):
    return path.relative_to(ROOT).as_posix()


def split_fences(text):
    """(prose lines as (number, line), code blocks). Prose lines keep their numbers; code is taken out."""
    prose, blocks = [], []
    block = None
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line.strip()):
            if block is None:
                block = {"language": line.strip()[3:].strip(), "lines": [], "line": number}
            else:
                blocks.append(CodeBlock(block["language"], "\n".join(block["lines"]), block["line"]))
                block = None
            continue
        if block is None:
            prose.append((number, line))
        else:
            block["lines"].append(line)
    assert block is None, f"a code block opened on line {block['line']} is never closed"
    return prose, blocks


def prose_lines(path):
    return split_fences(path.read_text())[0]


def code_blocks(path):
    return split_fences(path.read_text())[1]


def inline_code(path):
    """[(line number, text inside backticks)] of the prose."""
    return [
        (number, match.group(1)) for number, line in prose_lines(path) for match in INLINE_CODE.finditer(line)
    ]


def links(path):
    found = []
    for number, line in prose_lines(path):
        # A link's text may hold inline code; inline code never holds a link.
        for match in LINK.finditer(
            INLINE_CODE.sub(lambda code: code.group(0).replace("](", "]\u200b("), line)
        ):
            found.append(
                Link(target=match.group(3), text=match.group(2), image=bool(match.group(1)), line=number)
            )
    return found


def github_anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    """Every heading's anchor; a repeated heading gets -1, -2… as on GitHub."""
    seen = {}
    result = set()
    for _, line in prose_lines(path):
        match = HEADING.match(line)
        if not match:
            continue
        anchor = github_anchor(match.group(2))
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        result.add(anchor if count == 0 else f"{anchor}-{count}")
    return result


def section(path, title):
    """The text of the section headed `title` (up to the next heading of the same or a higher level); a `#` line
    inside a code block is not a heading."""
    lines = path.read_text().splitlines()
    in_code, start, level = False, None, 0
    for index, line in enumerate(lines):
        if FENCE.match(line.strip()):
            in_code = not in_code
            continue
        match = None if in_code else HEADING.match(line)
        if match and start is None and match.group(2) == title:
            start, level = index, len(match.group(1))
        elif match and start is not None and len(match.group(1)) <= level:
            return "\n".join(lines[start:index])
    assert start is not None, f"no section “{title}” in {relative(path)}"
    return "\n".join(lines[start:])
