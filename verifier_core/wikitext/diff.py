"""The diff of a proposed change, as editors read it: a line diff (a paragraph is one
line of wikitext) with the words that change marked inside their lines, so that adding
one ref to a long paragraph shows the ref, not the whole paragraph, as the change."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

# A ref tag (`<ref name="x" />`, `<ref>`, `</ref>`) and template braces are one token each:
# a ref added after another, or put in its place, then reads as one whole change.
_TOKEN = re.compile(r"</?ref\b[^<>]*>|\{\{|\}\}|\s+|\w+|[^\w\s]", re.U | re.I)
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


def word_unified_diff(old: str, new: str, *, title: str = "page", context: int = 1) -> str:
    """`diff_lines` as text, the way `git diff --word-diff=plain` writes it: each changed
    line once, removed words as [-...-] and added ones as {+...+} inside it."""
    out: list[str] = []
    rows = diff_lines(old, new, title=title, context=context)
    for i, line in enumerate(rows):
        if line.kind in ("file", "hunk"):
            out.append(line.text)
        elif line.kind == "same":
            out.append(line.text[1:])
        elif line.kind == "add" or not _partner(rows, i):  # a paired removal is shown in its addition
            out.append(_inline(line, _partner_line(rows, i)))
    return "\n".join(out) + "\n" if out else ""


def _partner(rows: list[DiffLine], i: int) -> list[DiffLine]:
    """The added line paired with removed line `i` (diff_lines puts a run's removals first)."""
    partner = _partner_line(rows, i)
    return [partner] if partner is not None else []


def _partner_line(rows: list[DiffLine], i: int) -> DiffLine | None:
    kind = rows[i].kind
    start = i
    while start > 0 and rows[start - 1].kind in ("del", "add"):
        start -= 1
    run = rows[start:]
    run = run[: next((n for n, r in enumerate(run) if r.kind not in ("del", "add")), len(run))]
    dels, adds = [r for r in run if r.kind == "del"], [r for r in run if r.kind == "add"]
    mine, others = (dels, adds) if kind == "del" else (adds, dels)
    index = next(n for n, r in enumerate(mine) if r is rows[i])
    return others[index] if index < len(others) else None


def _inline(line: DiffLine, partner: DiffLine | None) -> str:
    """One changed line with its partner's changes merged in, word runs marked."""
    if line.kind == "del" and partner is None:
        return "[-" + line.text[1:] + "-]"
    if line.kind == "add" and partner is None:
        return "{+" + line.text[1:] + "+}"
    old, new = (partner, line) if line.kind == "add" else (line, partner)
    a, b, opcodes = _word_opcodes(old.text[1:], new.text[1:])
    out, gone, came = [], [], []
    for tag, a1, a2, b1, b2 in [*opcodes, ("equal", 0, 0, 0, 0)]:
        if tag != "equal":  # neighbouring changes read as one
            gone += a[a1:a2]
            came += b[b1:b2]
            continue
        out += [f"[-{''.join(gone)}-]"] if gone else []
        out += [f"{{+{''.join(came)}+}}"] if came else []
        gone, came = [], []
        out.append("".join(a[a1:a2]))
    return "".join(out)


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
    a, b, opcodes = _word_opcodes(old, new)
    old_runs = [(a[a1:a2], tag != "equal") for tag, a1, a2, _, _ in opcodes]
    new_runs = [(b[b1:b2], tag != "equal") for tag, _, _, b1, b2 in opcodes]
    return _merged(old_runs), _merged(new_runs)


def _word_opcodes(old: str, new: str) -> tuple[list[str], list[str], list[tuple]]:
    """Both lines as tokens and the edit between them, short unchanged stretches glued in."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    for i, (tag, a1, a2, b1, b2) in enumerate(opcodes):
        inside = 0 < i < len(opcodes) - 1
        if tag == "equal" and inside and max(a2 - a1, b2 - b1) <= _GLUE_TOKENS:
            opcodes[i] = ("replace", a1, a2, b1, b2)
    return a, b, opcodes


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
