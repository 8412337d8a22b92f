"""Wikis, their articles and revisions, and the scans that read them."""
from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.utils import timezone

from sideapp import events
from sideapp.pipeline.names import StageName

# What a scan's final reason says about a stage that had failures: (one, several).
_FAILURES = ((StageName.VERIFY, ("claim could not be verified", "claims could not be verified")),
             (StageName.SUGGEST, ("suggestion search failed", "suggestion searches failed")))


def patrol_default() -> bool:
    """Whether a newly known wiki is patrolled (SIDE_PATROL_DEFAULT)."""
    return settings.SIDE_PATROL_DEFAULT


def counted(n: int, one: str, several: str) -> str:
    return f"{n} {one if n == 1 else several}"


class Wiki(models.Model):
    """A wiki, known by what it says of itself (siteinfo's wikiid and sitename) and what it
    holds, not by the address it was first reached at: `api_url` is where it answers now,
    and a wiki reached at a new address keeps its row when it holds what was stored of it
    (sideapp.scans.wikis.wiki_identify); two wikis named alike are two rows. A row whose
    wiki never answered has no wikiid yet."""

    api_url = models.URLField(max_length=500, unique=True)
    name = models.CharField(max_length=200, blank=True)  # siteinfo's sitename
    wikiid = models.CharField(max_length=100, blank=True, db_index=True)  # $wgDBname: "enwiki"
    server = models.CharField(max_length=300, blank=True)  # siteinfo's server
    script_path = models.CharField(max_length=200, blank=True)  # siteinfo's scriptpath
    identified_at = models.DateTimeField(null=True, blank=True)  # last siteinfo read
    # Its recent changes are followed and each edit's new citations checked (sideapp.patrol).
    patrol = models.BooleanField(default=patrol_default)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name or self.api_url

    @property
    def identity(self) -> tuple[str, str] | None:
        return (self.wikiid, self.name) if self.wikiid else None

    def page_url(self, title: str, **params: str | int) -> str:
        """A link into the wiki's own pages (index.php sits beside api.php)."""
        base = self.api_url.rsplit("/", 1)[0] + "/index.php"
        return f"{base}?{urlencode({'title': title, **params})}"


class Article(models.Model):
    """A page of a wiki, known by its page id: a move renames the row (its earlier titles
    are kept as ArticleTitle rows), so claims, judgements, patrol rows and audit entries
    stay with the page (sideapp.scans.pages). A row made before page ids were kept has none
    until its page is read again. Two rows may carry one title for a while (a page moved
    away and another one made under its old name): the one titled last is the page's."""

    wiki = models.ForeignKey(Wiki, on_delete=models.CASCADE, related_name="articles")
    title = models.CharField(max_length=255)
    page_id = models.BigIntegerField(null=True, blank=True)
    current_revision = models.ForeignKey(
        "Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_scanned_at = models.DateTimeField(null=True, blank=True)
    titled_at = models.DateTimeField(default=timezone.now)  # when it took its present title
    deleted_at = models.DateTimeField(null=True, blank=True)  # the page is deleted on the wiki
    # Bumped in the same transaction by every write that changes what the page's findings say
    # (a verdict, a reason, a suggestion, an editor's judgement: sideapp.claims.changes); the
    # public API's ETag and cache key come from it, so a changed verdict is never a 304.
    findings_version = models.PositiveBigIntegerField(default=0)
    # The title's words for the editors' search (sideapp.claims.search), kept by PostgreSQL
    # (a stored generated column: it follows a move).
    title_search = models.GeneratedField(expression=SearchVector("title", config="english", weight="B"),
                                         output_field=SearchVectorField(), db_persist=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["wiki", "page_id"], condition=models.Q(page_id__isnull=False),
                                               name="article_unique_page")]
        indexes = [models.Index(fields=["wiki", "title"], name="article_title"),
                   # The editors' list sorted by article walks titles in order and reads each
                   # article's claims (an incremental sort stops at the page's last row), where
                   # (wiki, title) gives no order across wikis: every match was sorted (3 s at 1M).
                   models.Index(fields=["title"], name="article_title_order"),
                   GinIndex("title_search", name="article_title_search")]

    def __str__(self) -> str:
        return self.title


class ArticleTitle(models.Model):
    """A title an article had before it was moved (its title history)."""

    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="titles")
    title = models.CharField(max_length=255)
    until = models.DateTimeField()  # when the page left this title
    reason = models.TextField(blank=True)  # "moved to X by Y", in words

    class Meta:
        ordering = ["-until", "-pk"]

    def __str__(self) -> str:
        return f"{self.article_id} was {self.title}"


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
    sha1 = models.CharField(max_length=40, blank=True)  # the wiki's hash of its text: reverts match it

    class Meta:
        constraints = [models.UniqueConstraint(fields=["article", "rev_id"], name="revision_unique_id")]
        # A revision id names one revision of a wiki: a scan finds the one stored under it
        # to tell whether another wiki answers at the address now (scans.services).
        indexes = [models.Index(fields=["rev_id"], name="revision_rev_id")]
        ordering = ["-rev_id"]

    def __str__(self) -> str:
        return f"{self.article} @ {self.rev_id}"


class ScanJob(models.Model):
    """An admin's request to scan articles: titles, a category or recent changes."""

    class Kind(models.TextChoices):
        TITLES = "titles"
        CATEGORY = "category"
        RECENT = "recent"
        PATROL = "patrol"  # one edit of a patrolled wiki: the revision in params["rev_id"]

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        PARTIAL = "partial"  # finished, some articles failed
        FAILED = "failed"
        CANCELLED = "cancelled"

    OPEN = (Status.QUEUED, Status.RUNNING)
    LISTED = (Kind.TITLES, Kind.PATROL)  # kinds that know their articles when recorded
    _WORDS = {Status.PARTIAL: "Partly done"}  # the rest read well as their labels
    RERUNNABLE = (Status.DONE, Status.PARTIAL, Status.FAILED, Status.CANCELLED)

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

    @property
    def checked_claims(self) -> list[int] | None:
        """The claims a patrol scan checks (those its edit added); None: every claim of
        the scanned revisions."""
        return self.params.get("claims") if self.kind == self.Kind.PATROL else None

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN

    @property
    def status_words(self) -> str:
        return self._WORDS.get(self.status, self.get_status_display())

    @property
    def described(self) -> str:
        """What the scan reads, in words: "Titles: A, B, C and 2 more", "Category: X"."""
        if self.kind == self.Kind.CATEGORY:
            return f"Category: {self.params.get('category', '')}"
        if self.kind == self.Kind.RECENT:
            return f"Recent changes: at most {self.params.get('limit') or 50} articles"
        titles = self.params.get("titles") or []
        if self.kind == self.Kind.PATROL:
            return f"An edit of {', '.join(titles)} (revision {self.params.get('rev_id')})"
        shown, rest = titles[:3], len(titles) - 3
        listed = (f"{', '.join(shown)} and {rest} more" if rest > 0
                  else " and ".join([", ".join(shown[:-1]), shown[-1]] if len(shown) > 1 else shown))
        return f"Titles: {listed}"

    def outcome(self, progress: dict[str, dict[str, int]]) -> tuple[str, str] | None:
        """The final (status, reason) once every stage of every article has ended, from
        the job's progress ({stage: {done, total, failed}}); None while work remains."""
        scanned = progress[StageName.SCAN]
        if not scanned["total"] or any(p["done"] < p["total"] for p in progress.values()):
            return None
        failed, total = scanned["failed"], scanned["total"]
        if failed == total:
            return self.Status.FAILED, self._all_failed(total)
        problems = [f"{failed} of {total} articles failed"] if failed else []
        problems += [counted(progress[stage]["failed"], *what) for stage, what in _FAILURES
                     if progress[stage]["failed"]]
        return (self.Status.PARTIAL if problems else self.Status.DONE), "; ".join(problems)

    def _all_failed(self, total: int) -> str:
        """The reason of a scan none of whose articles could be read, with the articles'
        own reason when they share one (a wiki that did not answer fails them all alike)."""
        said = "the article could not be scanned" if total == 1 else f"none of the {total} articles could be scanned"
        reasons = list(self.items.filter(status=ScanItem.Status.FAILED).values_list("reason", flat=True)
                       .distinct()[:2]) if self.pk else []
        return f"{said}: {reasons[0]}" if len(reasons) == 1 and reasons[0] else said

    def finish(self, status: str, reason: str = "") -> bool:
        """End the job with its final status and a reason a user can read. Only an open
        job ends: a job cancelled meanwhile keeps its status (False)."""
        finished_at = timezone.now()
        ended = ScanJob.objects.filter(pk=self.pk, status__in=self.OPEN).update(
            status=status, reason=reason[:2000], finished_at=finished_at)
        if ended:
            self.status, self.reason, self.finished_at = status, reason[:2000], finished_at
            # Its pages' findings no longer name a running check.
            events.findings_changed.send(sender=ScanJob, articles=list(
                self.items.exclude(article=None).values_list("article_id", flat=True)))
        return bool(ended)


class ScanItem(models.Model):
    """One article of a scan job; one RQ job on the `scan` queue each."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        UNCHANGED = "unchanged"  # the revision was already scanned: nothing written
        FAILED = "failed"
        CANCELLED = "cancelled"  # its scan was cancelled before it ran

    UNFINISHED = (Status.QUEUED, Status.RUNNING)
    TERMINAL = (Status.DONE, Status.UNCHANGED, Status.FAILED, Status.CANCELLED)

    job = models.ForeignKey(ScanJob, on_delete=models.CASCADE, related_name="items")
    title = models.CharField(max_length=255)
    page_id = models.BigIntegerField(null=True, blank=True)  # asked by page id: read by it (moves)
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

    def take(self) -> bool:
        """Claim a queued item for this run; False when another run has it or had it.

        A conditional update, so that of two jobs for one item (a requeue racing the
        original) exactly one scans the article and the other does nothing."""
        taken = ScanItem.objects.filter(pk=self.pk, status=self.Status.QUEUED).update(
            status=self.Status.RUNNING, attempts=models.F("attempts") + 1, updated_at=timezone.now())
        if taken:
            self.status, self.attempts = self.Status.RUNNING, self.attempts + 1
        return bool(taken)

    def finish(self, *, written: bool, notes: str = "", **fields) -> None:
        """Done when the scan wrote a new revision, unchanged when it was known."""
        self.end(self.Status.DONE if written else self.Status.UNCHANGED, notes, **fields)

    def fail(self, reason: str) -> None:
        self.end(self.Status.FAILED, reason)

    def end(self, status: str, reason: str = "", **fields) -> None:
        self.status, self.reason = status, reason[:2000]
        for name, value in fields.items():
            setattr(self, name, value)
        self.save()
