"""Rows of Side editor. Each model holds rules about one row; workflows live in services.

Identity across revisions: a Claim is keyed by a fingerprint of its text and the
citations behind it, so a new revision that leaves a claim unchanged maps onto the same
row and its verdicts and votes stay attached. Which claims a revision holds is recorded
in RevisionClaim.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models


class Wiki(models.Model):
    api_url = models.URLField(max_length=500, unique=True)
    name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name or self.api_url


class Article(models.Model):
    wiki = models.ForeignKey(Wiki, on_delete=models.CASCADE, related_name="articles")
    title = models.CharField(max_length=255)
    page_id = models.BigIntegerField(null=True, blank=True)
    current_revision = models.ForeignKey(
        "Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_scanned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["wiki", "title"], name="article_unique_title")]

    def __str__(self) -> str:
        return self.title


class Revision(models.Model):
    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="revisions")
    rev_id = models.BigIntegerField()
    timestamp = models.DateTimeField(null=True, blank=True)
    wikitext = models.TextField()
    claim_count = models.PositiveIntegerField(default=0)
    citation_count = models.PositiveIntegerField(default=0)
    citation_occurrences = models.PositiveIntegerField(default=0)  # <ref> and {{sfn}} uses
    warnings = models.JSONField(default=list, blank=True)
    scanned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["article", "rev_id"], name="revision_unique_id")]
        ordering = ["-rev_id"]

    def __str__(self) -> str:
        return f"{self.article} @ {self.rev_id}"


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

    @property
    def is_fetched(self) -> bool:
        return self.status != self.Status.PENDING

    def __str__(self) -> str:
        return self.url


class SourceDocument(models.Model):
    """The text of a fetched source; it is also a document of the retrieval corpus."""

    source = models.OneToOneField(Source, on_delete=models.CASCADE, primary_key=True,
                                  related_name="document")
    title = models.TextField(blank=True)
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    fetched_at = models.DateTimeField()
    indexed_at = models.DateTimeField(null=True, blank=True)


class Citation(models.Model):
    """A cited work in an article; a named ref used several times is one row."""

    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="citations")
    fingerprint = models.CharField(max_length=64)
    kind = models.CharField(max_length=16)
    ref_name = models.CharField(max_length=255, blank=True)
    raw = models.TextField()
    template = models.CharField(max_length=100, blank=True)
    url = models.TextField(blank=True)
    archive_url = models.TextField(blank=True)
    title = models.TextField(blank=True)
    work = models.TextField(blank=True)
    publisher = models.TextField(blank=True)
    date = models.CharField(max_length=100, blank=True)
    access_date = models.CharField(max_length=100, blank=True)
    doi = models.CharField(max_length=255, blank=True)
    isbn = models.CharField(max_length=64, blank=True)
    quote = models.TextField(blank=True)
    location = models.CharField(max_length=255, blank=True)
    fields = models.JSONField(default=dict, blank=True)
    flags = models.JSONField(default=list, blank=True)
    source = models.ForeignKey(
        Source, null=True, blank=True, on_delete=models.SET_NULL, related_name="citations"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["article", "fingerprint"], name="citation_unique_fp")
        ]

    def __str__(self) -> str:
        return self.title or self.url or self.raw[:60]


class Verdict(models.TextChoices):
    SUPPORTED = "supported"
    PARTIALLY_SUPPORTED = "partially_supported"
    NOT_SUPPORTED = "not_supported"
    SOURCE_UNAVAILABLE = "source_unavailable"


class Claim(models.Model):
    class State(models.TextChoices):
        PENDING = "pending"  # waiting for its sources to be fetched
        QUEUED = "queued"
        DONE = "done"
        FAILED = "failed"

    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="claims")
    fingerprint = models.CharField(max_length=64)
    text = models.TextField()
    context = models.TextField(blank=True)
    section = models.JSONField(default=list, blank=True)
    needs_citation = models.BooleanField(default=False)
    tags = models.JSONField(default=list, blank=True)
    citations = models.ManyToManyField(Citation, through="ClaimCitation", related_name="claims")
    first_revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="+")
    last_revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="+")
    # Verification: the claim judged on the union of its citations' evidence.
    verify_state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    verify_reason = models.TextField(blank=True)
    verdict = models.CharField(max_length=32, choices=Verdict.choices, blank=True)
    score = models.FloatField(null=True, blank=True)
    evidence = models.JSONField(null=True, blank=True)
    method = models.CharField(max_length=100, blank=True)  # model version, or the fallback
    verified_at = models.DateTimeField(null=True, blank=True)
    flagged = models.BooleanField(default=False)
    suggest_state = models.CharField(max_length=16, choices=State.choices, blank=True)
    suggest_reason = models.TextField(blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["article", "fingerprint"], name="claim_unique_fp")]
        indexes = [models.Index(fields=["flagged", "score"], name="claim_flagged_score")]

    def __str__(self) -> str:
        return self.text[:80]

    @property
    def section_path(self) -> str:
        return " > ".join(self.section)


class ClaimCitation(models.Model):
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="claim_citations")
    citation = models.ForeignKey(Citation, on_delete=models.CASCADE, related_name="claim_citations")
    position = models.PositiveSmallIntegerField(default=0)
    # This citation's own judgement of the claim.
    verdict = models.CharField(max_length=32, choices=Verdict.choices, blank=True)
    score = models.FloatField(null=True, blank=True)
    evidence = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "citation"], name="claimcitation_unique")
        ]
        ordering = ["position"]


class RevisionClaim(models.Model):
    """Which claims a revision holds, in article order."""

    revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="revision_claims")
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="revision_claims")
    position = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["revision", "claim"], name="revisionclaim_unique")
        ]
        ordering = ["position"]


class Suggestion(models.Model):
    """A retrieved source for a claim, reranked by the verifier."""

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="suggestions")
    rank = models.PositiveSmallIntegerField()
    url = models.TextField()
    title = models.TextField(blank=True)
    source = models.ForeignKey(Source, null=True, blank=True, on_delete=models.SET_NULL)
    score = models.FloatField()
    verdict = models.CharField(max_length=32, choices=Verdict.choices, blank=True)
    evidence = models.JSONField(null=True, blank=True)
    # SIDE's rule: shown as better only where it outscores the current citation.
    beats_current = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rank"]
        constraints = [models.UniqueConstraint(fields=["claim", "rank"], name="suggestion_unique_rank")]


class CorpusImport(models.Model):
    """An admin's upload of `{url, title, text}` JSONL documents into the corpus."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    upload = models.FileField(upload_to="imports/")
    name = models.CharField(max_length=255)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    stage = models.CharField(max_length=32, blank=True)  # reading, storing, indexing
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    report = models.JSONField(default=dict, blank=True)  # counts and skipped lines
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class ScanJob(models.Model):
    """An admin's request to scan articles: titles, a category or recent changes."""

    class Kind(models.TextChoices):
        TITLES = "titles"
        CATEGORY = "category"
        RECENT = "recent"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        PARTIAL = "partial"  # finished, some articles failed
        FAILED = "failed"

    wiki = models.ForeignKey(Wiki, on_delete=models.CASCADE, related_name="scan_jobs")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"scan {self.pk} ({self.kind})"


class ScanItem(models.Model):
    """One article of a scan job; one RQ job on the `scan` queue each."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        UNCHANGED = "unchanged"  # the revision was already scanned: nothing written
        FAILED = "failed"

    job = models.ForeignKey(ScanJob, on_delete=models.CASCADE, related_name="items")
    title = models.CharField(max_length=255)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    reason = models.TextField(blank=True)
    article = models.ForeignKey(Article, null=True, blank=True, on_delete=models.SET_NULL)
    revision = models.ForeignKey(Revision, null=True, blank=True, on_delete=models.SET_NULL)
    attempts = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["job", "title"], name="scanitem_unique_title")]

    def __str__(self) -> str:
        return f"{self.title} [{self.status}]"
