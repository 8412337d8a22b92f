"""Cited (or retrieved) web pages and the text fetched from them."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone


_STATUS_WORDS = {
    "pending": "not fetched yet",
    "ok": "fetched",
    "http_error": "the page could not be fetched",
    "timeout": "the site did not answer in time",
    "too_large": "the page is too large to check",
    "unsupported_type": "the page is not a document the app can read",
    "blocked": "fetching it was refused",
    "paywall_suspected": "the page looks paywalled",
    "connection_error": "the site could not be reached",
    "empty": "the page has no readable text",
    "no_url": "the citation has no online copy",
}


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
        EMPTY = "empty"
        NO_URL = "no_url"

    normalized_url = models.CharField(max_length=2000, unique=True)
    url = models.URLField(max_length=2000)
    status = models.CharField(max_length=32, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(blank=True)
    title = models.TextField(blank=True)
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
    def status_sentence(self) -> str:
        """The fetch status as editors read it: "the page could not be fetched: HTTP 404"."""
        words = _STATUS_WORDS.get(self.status, self.status)
        if self.status == self.Status.HTTP_ERROR and self.http_status:
            return f"{words}: HTTP {self.http_status}"
        if self.reason and self.status not in (self.Status.OK, self.Status.PENDING):
            return f"{words} ({self.reason[:200]})"
        return words

    @property
    def unavailable_reason(self) -> str | None:
        """Why this source has no text to check, or None when it has."""
        if self.status != self.Status.OK or not hasattr(self, "document"):
            return self.status_sentence
        return None


class SourceDocument(models.Model):
    """The text of a fetched source; it is also a document of the retrieval corpus."""

    source = models.OneToOneField(Source, on_delete=models.CASCADE, primary_key=True,
                                  related_name="document")
    title = models.TextField(blank=True)
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    fetched_at = models.DateTimeField()
    indexed_at = models.DateTimeField(null=True, blank=True)
