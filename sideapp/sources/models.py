"""Cited (or retrieved) web pages and the text fetched from them."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from verifier_core.fetch import failure_sentence


class Source(models.Model):
    """A cited or retrieved web page, unique per normalised URL."""

    class Status(models.TextChoices):
        PENDING = "pending"
        OK = "ok"
        HTTP_ERROR = "http_error"
        TIMEOUT = "timeout"
        TOO_LARGE = "too_large"
        UNSUPPORTED_TYPE = "unsupported_type"
        BLOCKED = "blocked"
        PAYWALL_SUSPECTED = "paywall_suspected"
        CONNECTION_ERROR = "connection_error"
        DNS_ERROR = "dns_error"
        EMPTY = "empty"
        NO_URL = "no_url"

    normalized_url = models.CharField(max_length=2000, unique=True)
    url = models.URLField(max_length=2000)
    status = models.CharField(max_length=32, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(blank=True)
    title = models.TextField(blank=True)
    site_name = models.CharField(max_length=200, blank=True)  # the site's own name, for website=
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    final_url = models.TextField(blank=True)
    used_archive = models.BooleanField(default=False)
    attempts = models.PositiveSmallIntegerField(default=0)
    queued_at = models.DateTimeField(null=True, blank=True)  # a fetch job is on the queue
    fetched_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    captured_at = models.DateTimeField(null=True, blank=True)  # last sent to an archive (SIDE_ARCHIVE_CAPTURE)

    def __str__(self) -> str:
        return self.url

    @property
    def is_fetched(self) -> bool:
        return self.status != self.Status.PENDING

    @property
    def is_fresh(self) -> bool:
        """Fetched recently enough that a re-scan does not fetch it again."""
        if not self.is_fetched or self.fetched_at is None:
            return False
        return timezone.now() - self.fetched_at < timedelta(days=settings.SIDE_FETCH_MAX_AGE_DAYS)

    @property
    def answers(self) -> bool:
        """Its last fetch read the live page (not only an archived copy): a page that may
        be offered to readers."""
        return self.status == self.Status.OK and not self.used_archive

    @property
    def status_sentence(self) -> str:
        """The fetch status as editors read it: "fetched", or why not in a sentence
        ("the site's address could not be found"); the technical reason is status_detail."""
        if self.status == self.Status.OK:
            return "fetched from its archived copy" if self.used_archive else "fetched"
        if self.status == self.Status.PENDING:
            return "not fetched yet"
        return failure_sentence(self.status, self.reason, self.http_status)

    @property
    def status_detail(self) -> str:
        """What the fetcher said, for a toggle behind the sentence."""
        if self.status in (self.Status.OK, self.Status.PENDING) or not self.reason:
            return ""
        return f"{self.status}: {self.reason}"

    @property
    def unavailable_reason(self) -> str | None:
        """Why this source has no text to check, or None when it has."""
        if self.status != self.Status.OK:
            return self.status_sentence
        if not hasattr(self, "document"):
            return "its text is not stored"
        return None

    @property
    def earlier_copy_url(self) -> str:
        """A page that could not be read now but was read before: the Wayback Machine's
        copy from the day Side editor last read it ("" when it never was)."""
        document = getattr(self, "document", None)  # None when there is none (no query if prefetched)
        if self.status == self.Status.OK or document is None:
            return ""
        return f"https://web.archive.org/web/{document.fetched_at:%Y%m%d}/{self.url}"


class SourceDocument(models.Model):
    """The text of a fetched source; it is also a document of the retrieval corpus."""

    source = models.OneToOneField(Source, on_delete=models.CASCADE, primary_key=True,
                                  related_name="document")
    title = models.TextField(blank=True)
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    fetched_at = models.DateTimeField()
    indexed_at = models.DateTimeField(null=True, blank=True)
    # What the page says about itself (verifier_core.fetch.metadata.PageMeta.to_json()):
    # {"title", "site_name", "date" (ISO), "authors": [...], "modified", "raw_title", "h1", ...}.
    meta = models.JSONField(default=dict, blank=True)


class ArchiveLookup(models.Model):
    """A web archive's list of captures of one URL (a CDX answer), kept so that every
    citation of the page, whatever its date, is answered from one lookup."""

    cdx_url = models.CharField(max_length=500)
    url = models.TextField()
    captures = models.JSONField(default=list, blank=True)  # [[timestamp, url, status, mime], ...]
    looked_up_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["cdx_url", "url"], name="archivelookup_unique")]


def retry_after() -> timedelta:
    return timedelta(minutes=settings.SIDE_ARCHIVE_RETRY_MINUTES)


class ArchivedCopy(models.Model):
    """The copy of a page as it was cited on one day (the citation's access-date, else its
    date; "" for undated citations): found in a web archive, or why not."""

    class State(models.TextChoices):
        WANTED = "wanted"  # a verdict asked for it (the live page fails a dated claim)
        QUEUED = "queued"
        FOUND = "found"
        NONE = "none"  # no archive holds a copy that is the cited work
        BUSY = "busy"  # an archive asked to slow down or did not answer: asked again later (retry_due)

    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="copies")
    target = models.CharField(max_length=8, blank=True)  # YYYYMMDD, "" for undated citations
    state = models.CharField(max_length=8, choices=State.choices, default=State.WANTED)
    reason = models.TextField(blank=True)
    archive_name = models.CharField(max_length=200, blank=True)  # "the Internet Archive"
    cdx_url = models.CharField(max_length=500, blank=True)
    replay_prefix = models.CharField(max_length=500, blank=True)
    timestamp = models.CharField(max_length=14, blank=True)
    capture_url = models.TextField(blank=True)  # the original URL as captured
    title = models.TextField(blank=True)
    text = models.TextField(blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    meta = models.JSONField(default=dict, blank=True)
    lookups = models.PositiveSmallIntegerField(default=0)  # CDX requests this copy cost
    queued_at = models.DateTimeField(null=True, blank=True)
    fetched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["source", "target"], name="archivedcopy_unique")]

    def __str__(self) -> str:
        return f"{self.source_id}@{self.target or 'undated'}: {self.state}"

    @property
    def found(self) -> bool:
        return self.state == self.State.FOUND

    def retry_due(self, now) -> bool:
        """A busy lookup is asked again once SIDE_ARCHIVE_RETRY_MINUTES have passed: the
        archives were slow or down, which says nothing about whether they hold a copy."""
        return self.state == self.State.BUSY and (
            self.fetched_at is None or self.fetched_at <= now - retry_after())

    @property
    def looked_up(self) -> bool:
        """The lookup has ended with an answer that stands for now (found, none, or busy
        and not yet due again)."""
        return self.state in (self.State.FOUND, self.State.NONE) or (
            self.state == self.State.BUSY and not self.retry_due(timezone.now()))

    @property
    def link_url(self) -> str:
        """The copy as readers open it (REPLAY_PREFIX<timestamp>/<url>)."""
        return f"{self.replay_prefix}{self.timestamp}/{self.capture_url}" if self.found else ""

    @property
    def words(self) -> str:
        """"the Internet Archive's copy of 12 March 2019"."""
        from verifier_core.fetch.citedates import day_words, timestamp_day

        day = timestamp_day(self.timestamp)
        return f"{self.archive_name}'s copy of {day_words(day)}" if self.found and day else ""

    def to_json(self) -> dict:
        return {"archive": self.archive_name, "timestamp": self.timestamp, "url": self.link_url,
                "words": self.words}
