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
