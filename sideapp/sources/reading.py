"""What the verifier reads for one citation: the live page, the copy as it was cited, or
both (a live page that changed), and how the two verdicts become one that says which copy
it read.

    reading = citation_reading(citation, copies=copies_of(sources))
    reading.texts()             # [(kind, text, url)]: "live" and/or "copy"
    reading.unavailable         # why nothing can be read, or None
    judged = reading.choose({"live": verdict, "copy": verdict})
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils import timezone

from sideapp.claims.changes import findings_changed
from sideapp.sources.archives import archives, citation_page_state, citation_target, copies_of, copy_wanted, wants_dead_copy
from sideapp.sources.models import ArchivedCopy, Source
from verifier_core.fetch.citedates import archive_url_day, day_words
from verifier_core.fetch.pagestate import PageState
from verifier_core.verification import Verdict

SUPPORTING = (Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED)
FAILING = (Verdict.NOT_SUPPORTED, Verdict.PARTIALLY_SUPPORTED)
_RANKS = {Verdict.SUPPORTED: 2, Verdict.PARTIALLY_SUPPORTED: 1}
AS_CITED = "supported as cited; the page has changed since"
OWN = "citation_archive"  # the kind of text read from the citation's own archive-url


@dataclass(frozen=True)
class OwnArchive:
    """The citation's own archive-url, read by the fetcher (through the same guard) because
    the live page could not be: the text the verdict reads, and the day of the copy."""
    url: str
    day: date | None
    text: str

    @property
    def words(self) -> str:
        """"the citation's archived copy of 11 February 2015"."""
        return "the citation's archived copy" + (f" of {day_words(self.day)}" if self.day else "")

    def to_json(self) -> dict:
        return {"url": self.url, "timestamp": f"{self.day:%Y%m%d}" if self.day else "", "words": self.words}


@dataclass
class Reading:
    state: PageState | None
    live: str | None  # the live page's text, when it is the cited work
    copy: ArchivedCopy | None  # the copy of the citation's day, when one was found
    looked_up: bool  # an archive lookup for the citation's day has ended (found or not)
    target: str  # the citation's day, YYYYMMDD ("" undated)
    unavailable: str | None = None
    own: OwnArchive | None = None  # the citation's own archived copy, read as the live page failed
    read_on: object = None  # when the live page was last read (a datetime)

    def texts(self) -> list[tuple[str, str]]:
        if self.own is not None:
            return [(OWN, self.own.text)]
        out = [("live", self.live)] if self.live else []
        return out + ([("copy", self.copy.text)] if self.copy is not None else [])

    def wants_copy(self, live_verdict: str) -> bool:
        """A dated claim fails against the live page and no archive was asked yet: the page
        may have been rewritten since it was cited."""
        return (self.live is not None and self.copy is None and not self.looked_up and bool(self.target)
                and live_verdict in FAILING and bool(archives()))

    def choose(self, verdicts: dict) -> tuple[str, object, str, dict]:
        """(kind read, its SourceVerdict, a note in words, the copy JSON) from the verdicts
        of the texts read: the live page wherever it supports the claim at least as well."""
        live, copy = verdicts.get("live"), verdicts.get("copy")
        if verdicts.get(OWN) is not None:
            note = f"read from {self.own.words}; {self.state.sentence}" if self.state else f"read from {self.own.words}"
            return OWN, verdicts[OWN], note, self.read_json(OWN)
        if copy is None:
            return "live", live, "", self.read_json("live")
        if live is None:
            note = f"read in {self.copy.words}; {self.state.words}" if self.state else f"read in {self.copy.words}"
            return "copy", copy, note, self.read_json("copy")
        if _rank(live.verdict) >= _rank(copy.verdict):
            note = "" if _rank(live.verdict) else f"the copy as cited ({self.copy.words}) does not support it either"
            return "live", live, note, self.read_json("both" if note else "live")
        return "copy", copy, f"{AS_CITED} (read in {self.copy.words})", self.read_json("copy")

    def read_json(self, kind: str) -> dict:
        """Which copy the verdict read, for pages and the API."""
        state = self.state.to_json() if self.state else None
        if kind in ("copy", "both") and self.copy is not None:
            return {"read": kind, **self.copy.to_json(), "state": state}
        if kind == OWN and self.own is not None:
            return {"read": OWN, **self.own.to_json(), "state": state}
        day = timezone.localdate(self.read_on) if self.read_on else timezone.localdate()
        return {"read": "live", "words": f"the live page, read on {day_words(day)}", "state": state}


def _rank(verdict: str) -> int:
    return _RANKS.get(verdict, 0)


def citation_reading(citation, *, copies: dict[tuple[int, str], ArchivedCopy]) -> Reading:
    """What can be read for `citation` (its source and document loaded)."""
    state = citation_page_state(citation)
    target = citation_target(citation)
    copy = copies.get((citation.source_id, target)) if citation.source_id else None
    found = copy if copy is not None and copy.found else None
    looked_up = copy is not None and copy.looked_up
    source = citation.source if citation.source_id else None
    reading = Reading(state, None, found, looked_up, target, own=own_archive(citation),
                      read_on=source.fetched_at if source is not None else None)
    if reading.own is not None:
        return reading
    if state is not None and state.is_cited_work and citation.unavailable_reason is None:
        reading.live = source.document.text
    elif found is None:
        reading.unavailable = _why_not(citation, state, copy)
    return reading


def own_archive(citation) -> OwnArchive | None:
    """The citation's own archive-url, when the fetcher read it because the live page failed
    (its text is the source's document), else None. A citation without an archive-url of its
    own is not read from another citation's: it waits for a copy of its own day."""
    source = citation.source if citation.source_id else None
    if (source is None or not source.used_archive or source.status != Source.Status.OK or not citation.archive_url
            or citation.unavailable_reason is not None):
        return None
    url = source.final_url or citation.archive_url
    return OwnArchive(url, archive_url_day(url, archive_date(citation)), source.document.text)


def archive_date(citation) -> str:
    """The citation's |archive-date= (any spelling), or {{webarchive|date=}}."""
    fields = citation.fields or {}
    return next((str(v) for k, v in fields.items() if k.lower().replace("-", "").replace("_", "") == "archivedate"), "")


def _why_not(citation, state: PageState | None, copy: ArchivedCopy | None) -> str:
    base = citation.unavailable_reason or (state.sentence if state else "the page could not be read")
    if state is not None and not state.is_cited_work and citation.unavailable_reason is None:
        base = state.sentence  # read, but not the cited work: say what it is now
    if not wants_dead_copy(citation, state) or not archives() or citation.archive_url:
        return base  # (a citation's own archive-url was tried by the fetcher already)
    if copy is None or copy.state in (ArchivedCopy.State.WANTED, ArchivedCopy.State.QUEUED):
        return f"{base}; no archived copy has been looked for yet"
    if copy.state == ArchivedCopy.State.BUSY:
        return f"{base}; the web archives could not be asked for a copy just now (asked again at the next check)"
    return f"{base}; no web archive holds a copy of it as it was cited"


def citation_readings(links) -> dict[int, Reading]:
    """{claim-citation pk: Reading} for a claim's citations (sources and documents loaded)."""
    copies = copies_of(link.citation.source for link in links)
    return {link.pk: citation_reading(link.citation, copies=copies) for link in links}


def claim_copies_wanted(*, claim, links, readings: dict[int, Reading], verdicts: dict[int, dict]) -> bool:
    """Ask for the copies of the claim's dated citations that fail against their live page
    (the archive stage reads them, then the claim is judged again). True when it asked: the
    claim waits, pending, so its scan does not end before the second verdict."""
    wanted = [link for link in links if link.pk in verdicts and "live" in verdicts[link.pk]
              and readings[link.pk].wants_copy(verdicts[link.pk]["live"].verdict)]
    for link in wanted:
        copy_wanted(source=link.citation.source, target=readings[link.pk].target)
    if wanted:
        claim.verify_state = "pending"  # the pipeline reads it to queue the lookups (stages.after_claim)
        with transaction.atomic():
            type(claim).objects.filter(pk=claim.pk).update(
                verify_state="pending", verify_reason="waiting for an archived copy: the live page does not "
                "support the claim and may have changed since it was cited")
            findings_changed(articles=[claim.article_id])
    return bool(wanted)

