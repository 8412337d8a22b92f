"""An article's flagged claims as a wikitable for its talk page.

Text that comes from the article or from sources is wrapped in `<nowiki>` whenever it
holds a character wiki markup could take as its own (a `|` would split the cell, `{{`
call a template, `~~~~` sign), so the table shows what the claim says and nothing runs.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from .plain import NotPlain, plain_wikitext

_MARKUP = re.compile(r"[|{}\[\]<>'=*#:;!~&_]|^\s|\n")


@dataclass(frozen=True)
class Link:
    url: str
    title: str = ""


@dataclass(frozen=True)
class ReportRow:
    claim: str
    section: str  # "History > Early years"; "" for the lead
    verdict: str  # in words: "not supported", "needs a source"
    cited: tuple[Link, ...] = ()
    suggestion: Link | None = None


def plain(text: str) -> str:
    """`text` shown literally on the wiki."""
    text = " ".join(text.split())
    if not _MARKUP.search(text):
        return text
    return "<nowiki>" + text.replace("<", "&lt;").replace(">", "&gt;") + "</nowiki>"


def external_link(link: Link) -> str:
    try:
        url = plain_wikitext(link.url, "url")
    except NotPlain:  # not a web address: shown as text
        return plain(link.title or link.url)
    return f"[{url} {plain(link.title or link.url)}]"


def flagged_claims_table(rows: list[ReportRow], *, title: str, rev_id: int, checked: date) -> str:
    """The talk-page section: a heading, one line of what was checked, the table."""
    count = "1 claim" if len(rows) == 1 else f"{len(rows)} claims"
    lines = [
        "== Citations flagged by Side editor ==",
        f"Side editor checked the citations of [[Special:Permalink/{rev_id}|revision {rev_id}]] "
        f"of [[{title}]] on {checked.isoformat()}: {count} may not be supported by the "
        "sources cited for them, or need one. Please check. ~~~~",
        "",
        '{| class="wikitable sortable"',
        "! Claim !! Cited source !! Verdict !! Best suggestion",
    ]
    for row in rows:
        claim = plain(row.claim) + (f"<br/><small>{plain(row.section)}</small>" if row.section else "")
        cited = "<br/>".join(external_link(link) for link in row.cited) or "none"
        suggestion = external_link(row.suggestion) if row.suggestion else "none found"
        lines += ["|-", f"| {claim}", f"| {cited}", f"| {plain(row.verdict)}", f"| {suggestion}"]
    lines.append("|}")
    return "\n".join(lines) + "\n"
