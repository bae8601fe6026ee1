"""Moderators write round texts in Markdown. On the site, raw HTML in them is shown as text, never run;
in forum exports the same text becomes BBCode."""

from django.utils.safestring import mark_safe
from markdown_it import MarkdownIt

from phm.text import bbcode_text

# CommonMark with HTML disabled: `<script>` becomes `&lt;script&gt;`; markdown-it validates link targets
# (javascript: and similar are refused).
_parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")

# Markdown inline tokens and the BBCode tags forums use for them.
_INLINE_TAGS = {
    "strong_open": "[b]",
    "strong_close": "[/b]",
    "em_open": "[i]",
    "em_close": "[/i]",
    "link_close": "[/url]",
    "softbreak": "\n",
    "hardbreak": "\n",
}


def render_markdown(text):
    return mark_safe(_parser.render(text or ""))  # noqa: S308 - html=False escapes every tag in the source


def markdown_to_bbcode(text):
    """Paragraphs, lists, bold, italics, links and code as forum BBCode; anything else as its plain text.
    The moderator's own text can open or close no tag (phm.text.bbcode_text): only the Markdown becomes
    BBCode."""
    out = []
    for token in _parser.parse(text or ""):
        if token.type == "inline":
            out.append(_inline_bbcode(token.children or []))
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            out.append("[list=1]\n" if token.type == "ordered_list_open" else "[list]\n")
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            out.append("[/list]\n\n")
        elif token.type == "list_item_open":
            out.append("[*]")
        elif token.type == "paragraph_close":
            out.append("\n" if token.hidden else "\n\n")
        elif token.type == "heading_close":
            out.append("[/b]\n\n")
        elif token.type == "heading_open":
            out.append("[b]")
        elif token.type in ("fence", "code_block"):
            out.append(f"[code]{bbcode_text(token.content.rstrip())}[/code]\n\n")
    return "".join(out).strip()


def _inline_bbcode(children):
    parts = []
    for child in children:
        if child.type == "link_open":
            parts.append(f"[url={_bbcode_url(child.attrs.get('href', ''))}]")
        elif child.type == "code_inline":
            parts.append(f"[font=monospace]{bbcode_text(child.content)}[/font]")
        elif child.type in _INLINE_TAGS:
            parts.append(_INLINE_TAGS[child.type])
        else:
            parts.append(bbcode_text(child.content))
    return "".join(parts)


def _bbcode_url(href):
    """A link target that cannot end the [url=…] tag early: brackets percent-encoded, as in any URL."""
    return str(href).replace("[", "%5B").replace("]", "%5D")
