"""A proposed change's word-level diff as data, for a script to draw as Side editor's own
preview draws it (verifier_core.wikitext.diff): lines, and inside each line the pieces
that change marked, so one added ref in a long paragraph reads as the ref."""
from __future__ import annotations

from verifier_core.wikitext.diff import diff_lines


def diff_json(old: str, new: str, *, title: str) -> list[dict]:
    """[{"kind": "file" | "hunk" | "same" | "del" | "add", "parts": [[text, changed], ...]}]"""
    return [{"kind": line.kind, "parts": [[text, changed] for text, changed in line.parts]}
            for line in diff_lines(old, new, title=title)]
