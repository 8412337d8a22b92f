"""Where a claim's citations stand in its article's current revision, and what each of those
refs says: the fields of the claim's own ref (a page cited twice is two refs, each with its
own title and dates), how it is written and the tags right after it (RevisionClaim.occurrences,
written by the scan: sideapp.scans.occurrences)."""
from __future__ import annotations

from django.db.models import F, Prefetch

from sideapp.claims.models import Citation, Claim, RevisionClaim

PREFETCHED = "current_places_rows"
_WRITTEN = {"ref": "its own ref", "reuse": "a re-use of the named ref", "sfn": "a short footnote ({{sfn}})",
            "r": "a re-use through {{r}}"}


def current_places(claim: Claim) -> dict[int, dict]:
    """{Citation pk: the claim's first occurrence of it in the current revision} (empty when
    the claim is not in the current revision or was stored before occurrences were)."""
    prefetched = getattr(claim, PREFETCHED, None)  # read with the claims (places_prefetch)
    if prefetched is not None:
        held = [row.occurrences for row in prefetched]
    else:
        held = RevisionClaim.objects.filter(revision_id=claim.article.current_revision_id,
                                            claim=claim).values_list("occurrences", flat=True)
    places: dict[int, dict] = {}
    for occurrence in next(iter(held), None) or []:
        places.setdefault(occurrence.get("citation"), occurrence)
    return places


def places_prefetch(revision_id: int | None) -> Prefetch:
    """Read the places of many claims of one revision with them (one query, not one each)."""
    return Prefetch("revision_claims", queryset=RevisionClaim.objects.filter(revision_id=revision_id),
                    to_attr=PREFETCHED)


def current_places_prefetch(lookup: str = "revision_claims") -> Prefetch:
    """Read the places of claims of many articles with them, each in its article's current
    revision (`lookup`: the path to the claims' RevisionClaims, e.g. "claim__revision_claims")."""
    held = RevisionClaim.objects.filter(revision__article__current_revision_id=F("revision_id"))
    return Prefetch(lookup, queryset=held, to_attr=PREFETCHED)


def cited_fields(citation: Citation, place: dict | None) -> dict:
    """What the claim's own ref says (its place's fields), else the citation row's."""
    if place is not None and place.get("fields") is not None:
        fields = dict.fromkeys(("url", "archive_url", "title", "work", "publisher", "date", "access_date",
                                "template", "ref_name"), "") | place["fields"]
    else:
        fields = {name: getattr(citation, name) for name in ("url", "archive_url", "title", "work", "publisher",
                                                             "date", "access_date", "template", "ref_name")}
    fields["tags"] = list(place.get("tags", [])) if place is not None else list(citation.flags or [])
    fields["written"] = written(place)
    return fields


def written(place: dict | None) -> str:
    """How the claim's ref is written, in words ("a re-use of the named ref “ngc”")."""
    if place is None:
        return ""
    words = _WRITTEN.get(place.get("kind", ""), "")
    name = place.get("name")
    if place.get("kind") == "ref" and name:
        return f"the named ref “{name}”"
    return f"{words} “{name}”" if name and place.get("kind") in ("reuse", "r") else words
