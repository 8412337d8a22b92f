"""Clean-up of raw text runs: the markup mwparserfromhell leaves as plain text.

The parser is run with `skip_style_tags=True` (the style tokenizer is slow and
fragile on large pages), so bold/italic quotes arrive here; so do the remains of
malformed markup (an unclosed `<ref`, a stray `}}`, broken table rows). None of it
may reach a claim.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_STYLE_QUOTES = re.compile(r"'{2,}")
_MAGIC_WORDS = re.compile(r"__[A-Z]{2,}__")
# A ref tag the parser could not pair (unclosed, broken attributes): drop the tag text.
LEFTOVER_REF = re.compile(r"<ref\b[^<>]*>?|</ref\s*>|<references\b[^<>]*>?|</references\s*>", re.I)
LEFTOVER_REF_OPEN = re.compile(r"<ref(?=[\s>/])", re.I)
# Table rows whose markup the parser did not recognise ("{|", "|-", "|}", "!" headers).
_TABLE_LINE = re.compile(r"^[ \t]*(?:\{\||\|\}|\|-|\|\+)[^\n]*$", re.M)
_MARKUP = re.compile(r"\{\{+|\}\}+|\[\[+|\]\]+|\{\||\|\}|\||={2,}|<[^<>\n]{0,200}>|[<>{}]")
# Table syntax the parser left as text (a table that does not start a line): cell
# attributes (`align="left"`, `rowspan=3`), header separators `!!`, row starts `|-`.
_TABLE_LEFTOVER = re.compile(
    r"""\|-+|!!|(?<!\S)!(?=\s|$)|\b(?:class|style|align|valign|width|height|colspan|rowspan|bgcolor|scope|"""
    r"""border|cellpadding|cellspacing|nowrap)\s*=\s*(?:"[^"\n]*"?|'[^'\n]*'?|[^\s|!]+)""",
    re.I,
)


_REMOVED = re.compile(r"<!--.*?(?:-->|\Z)|\r(?=\n)", re.S)


class OffsetMap:
    """Offsets in a text with comments (and CRs before LFs) removed, back to the text as
    written: what was removed before an offset is added back."""

    def __init__(self, cuts: list[tuple[int, int]]) -> None:
        self._at = [at for at, _ in cuts]  # where, in the cleaned text, something was removed
        self._removed = [n for _, n in cuts]  # how much had been removed up to there

    def start(self, offset: int) -> int:
        """A start offset: after anything removed right before it (a comment before a ref)."""
        i = bisect_right(self._at, offset)
        return offset + (self._removed[i - 1] if i else 0)

    def end(self, offset: int) -> int:
        """An end offset: anything removed right after it stays outside."""
        i = bisect_left(self._at, offset)
        return offset + (self._removed[i - 1] if i else 0)


def without_comments(text: str) -> tuple[str, OffsetMap]:
    """`text` without comments and CRs before LFs, and the way back to its offsets."""
    parts, cuts, last, removed = [], [], 0, 0
    for match in _REMOVED.finditer(text):
        parts.append(text[last : match.start()])
        cuts.append((match.start() - removed, removed + match.end() - match.start()))
        removed += match.end() - match.start()
        last = match.end()
    parts.append(text[last:])
    return "".join(parts), OffsetMap(cuts)


def strip_comments(text: str) -> str:
    """Remove HTML comments; an unclosed one runs to the end, as in MediaWiki."""
    if "<!--" not in text:
        return text
    return _COMMENT.sub("", text)


def clean_run(text: str) -> str:
    """Plain text of a raw text run, with every markup leftover replaced by a space."""
    if "''" in text:
        text = _STYLE_QUOTES.sub("", text)
    if "__" in text:
        text = _MAGIC_WORDS.sub("", text)
    if "<" in text:
        text = LEFTOVER_REF.sub(" ", text)
    if "{|" in text or "|" in text:
        text = _TABLE_LINE.sub(" ", text)
    if "=" in text or "!" in text or "|-" in text:
        text = _TABLE_LEFTOVER.sub(" ", text)
    if _needs_markup_pass(text):
        text = _MARKUP.sub(" ", text)
    return text


def _needs_markup_pass(text: str) -> bool:
    return any(c in text for c in "{}[]|<>") or "==" in text
