"""The diff of a proposed change, as editors read it: a line diff (a paragraph is one
line of wikitext) with the words that change marked inside their lines, so that adding
one ref to a long paragraph shows the ref, not the whole paragraph, as the change."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.U)
# An unchanged stretch this short between two changes ("|", " ", "=") reads as part of
# one change; marking it separately would shred a replaced ref into confetti.
_GLUE_TOKENS = 2


@dataclass(frozen=True)
class DiffLine:
    kind: str  # "file", "hunk", "same", "del" or "add"
    parts: tuple[tuple[str, bool], ...]  # (text, changed) pieces of the line, in order

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.parts)


def unified_diff(old: str, new: str, *, title: str = "page", context: int = 1) -> str:
    """A unified diff by line, as `diff -u` prints it."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True),
        fromfile=f"{title} (current)", tofile=f"{title} (proposed)", n=context,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def diff_lines(old: str, new: str, *, title: str = "page", context: int = 1) -> list[DiffLine]:
    """`unified_diff` as lines whose changed words are marked: each run of removed lines
    is paired with the added lines that follow it, line by line, and each pair is
    compared word by word; a line without a partner is changed as a whole."""
    rows: list[DiffLine] = []
    removed: list[str] = []
    added: list[str] = []
    for line in unified_diff(old, new, title=title, context=context).splitlines():
        if line.startswith(("---", "+++")):
            rows.append(DiffLine("file", ((line, False),)))
        elif line.startswith("-"):
            removed.append(line)
        elif line.startswith("+"):
            added.append(line)
        else:
            rows += _paired(removed, added)
            removed, added = [], []
            rows.append(DiffLine("hunk" if line.startswith("@") else "same", ((line, False),)))
    return rows + _paired(removed, added)


def _paired(removed: list[str], added: list[str]) -> list[DiffLine]:
    dels, adds = [], []
    for index in range(max(len(removed), len(added))):
        old = removed[index][1:] if index < len(removed) else None
        new = added[index][1:] if index < len(added) else None
        old_parts, new_parts = word_diff(old or "", new or "")
        if old is not None:
            dels.append(DiffLine("del", (("-", False), *(old_parts if new is not None else ((old, True),)))))
        if new is not None:
            adds.append(DiffLine("add", (("+", False), *(new_parts if old is not None else ((new, True),)))))
    return dels + adds


def word_diff(old: str, new: str) -> tuple[tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...]]:
    """(old pieces, new pieces): each line cut into (text, changed) runs."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for i, (tag, a1, a2, b1, b2) in enumerate(opcodes):
        inside = 0 < i < len(opcodes) - 1
        if tag == "equal" and inside and max(a2 - a1, b2 - b1) <= _GLUE_TOKENS:
            opcodes[i] = ("replace", a1, a2, b1, b2)
    old_runs = [(a[a1:a2], tag != "equal") for tag, a1, a2, _, _ in opcodes]
    new_runs = [(b[b1:b2], tag != "equal") for tag, _, _, b1, b2 in opcodes]
    return _merged(old_runs), _merged(new_runs)


def _merged(runs: list[tuple[list[str], bool]]) -> tuple[tuple[str, bool], ...]:
    pieces: list[tuple[str, bool]] = []
    for tokens, changed in runs:
        text = "".join(tokens)
        if not text:
            continue
        if pieces and pieces[-1][1] == changed:
            pieces[-1] = (pieces[-1][0] + text, changed)
        else:
            pieces.append((text, changed))
    return tuple(pieces)
