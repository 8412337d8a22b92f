"""Where a claim's citations stand in one revision, as stored on its RevisionClaim.

One dict per occurrence (verifier_core's `RefOccurrence`): its offsets in the revision's
text, how it is written ("ref", "reuse", "sfn", "r"), its name and group, the maintenance
tags right after it, which Citation row it is (`citation`: a page cited twice is one row,
but two places), and the fields of that very ref: a re-use shows its definition's, an
unnamed ref citing the same page as a named one shows its own; a short footnote names its
target, the bibliography entry it resolves to. The cited-source box, the
"tagged on the wiki" state and the API read these; an edit finds its place afresh in the
text it is built on (sideapp.edits.locating).
"""
from __future__ import annotations

from verifier_core.wikitext import types as wt

FIELDS = ("url", "archive_url", "title", "work", "publisher", "date", "access_date", "template", "ref_name",
          "kind", "location")
TAGGED = "failed verification"


def occurrences_json(claim: wt.Claim, citations: list[wt.Citation], rows: list) -> list[dict]:
    """The claim's occurrences as stored; `rows[i]` is the Citation row of citation `i`."""
    positions = {index: n for n, index in enumerate(dict.fromkeys(claim.citation_indices))}
    out = []
    for occurrence in claim.occurrences:
        cited = citations[occurrence.citation]
        out.append({
            "start": occurrence.start, "end": occurrence.end, "kind": occurrence.kind,
            "name": occurrence.name, "group": occurrence.group, "tags": list(occurrence.tags),
            "citation": rows[occurrence.citation].pk, "position": positions.get(occurrence.citation, 0),
            "fields": {name: value for name in FIELDS if (value := getattr(cited, name, None))},
            # A short footnote's target: the bibliography entry it resolves to, as written.
            **({"target": cited.resolved_from[:500]} if occurrence.kind == "sfn" and cited.resolved_from else {}),
        })
    return out


def tagged(occurrences: list[dict]) -> bool:
    """Whether one of the claim's citations carries {{failed verification}} on the wiki."""
    return any(TAGGED in o.get("tags", ()) for o in occurrences)
