"""Claims, the citations behind them, their verdicts and the suggested sources.

Identity across revisions: a Claim is keyed by a fingerprint of its text and the
citations behind it, so a new revision that leaves a claim unchanged maps onto the same
row and its verdicts and votes stay attached. Which claims a revision holds is recorded
in RevisionClaim.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex, OpClass
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Cast, Upper

from sideapp.scans.models import Article, Revision
from sideapp.sources.models import Source
from verifier_core.verification import Verdict
from verifier_core.verification.judgement.reasons import RULES
from verifier_core.verification.judgement.verdicts import HIGH, LOW

VERDICT_CHOICES = [(v.value, v.label) for v in Verdict]
CONFIDENCE_CHOICES = [(HIGH, "high"), (LOW, "low: needs a look")]


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

    @property
    def unavailable_reason(self) -> str | None:
        """Why this citation has no text to check, or None when it has."""
        if self.source is None:
            return "the citation has no online copy (no URL)"
        return self.source.unavailable_reason

    @property
    def archive_copy_url(self) -> str:
        """Where a reader finds the page as it was when it cannot be read now: the ref's
        own archive-url, else the copy from when Side editor last read it."""
        if self.archive_url:
            return self.archive_url
        return self.source.earlier_copy_url if self.source is not None else ""


class Claim(models.Model):
    class State(models.TextChoices):
        PENDING = "pending"  # waiting for its sources to be fetched
        QUEUED = "queued"
        DONE = "done"
        FAILED = "failed"

    FINISHED = (State.DONE, State.FAILED)

    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="claims")
    fingerprint = models.CharField(max_length=64)
    text = models.TextField()
    context = models.TextField(blank=True)
    section = models.JSONField(default=list, blank=True)
    section_number = models.PositiveIntegerField(default=0)  # for the wiki's action=edit&section=N
    sentence_rest = models.TextField(blank=True)  # the rest of its sentence when the claim is a clause
    # The statement verified when the cited words are not one on their own (a list item, a
    # table cell, an infobox value, a clause): blank when it is `text` itself. A claim from
    # which no statement can be built is not checkable: no verdict, suggestion or action.
    checked = models.TextField(blank=True)
    checkable = models.BooleanField(default=True)
    needs_citation = models.BooleanField(default=False)
    tags = models.JSONField(default=list, blank=True)
    citations = models.ManyToManyField(Citation, through="ClaimCitation", related_name="claims")
    first_revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="+")
    last_revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="+")
    # Verification: the claim judged on the union of its citations' evidence.
    verify_state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    verify_reason = models.TextField(blank=True)  # the reason in words, as `reasons` renders it
    # The reason as data ([Reason.to_json()]: kind, part, terms or figures, the page sentence),
    # rendered in words at display (claims.reasons); empty for claims judged before it was kept.
    reasons = models.JSONField(default=list, blank=True)
    verdict = models.CharField(max_length=32, choices=VERDICT_CHOICES, blank=True)
    confidence = models.CharField(max_length=8, choices=CONFIDENCE_CHOICES, blank=True)
    score = models.FloatField(null=True, blank=True)
    evidence = models.JSONField(null=True, blank=True)
    parts = models.JSONField(default=list, blank=True)  # [{text, score, verdict}], weakest decides
    method = models.CharField(max_length=100, blank=True)  # model version, or the fallback
    verified_at = models.DateTimeField(null=True, blank=True)
    flagged = models.BooleanField(default=False)  # in the default flagged list (flag_rule)
    needs_look = models.BooleanField(default=False)  # "needs a look": its own filter, not a failure
    suggest_state = models.CharField(max_length=16, choices=State.choices, blank=True)
    suggest_reason = models.TextField(blank=True)
    queued_at = models.DateTimeField(null=True, blank=True)  # handed to a verify or suggest job
    # Held by its article's current revision (RevisionClaim says so too; this copy lets the
    # editors' list walk an index instead of joining every revision). Kept by claims_mark_current.
    current = models.BooleanField(default=False)
    # The wiki revision in which its citation was first seen tagged {{failed verification}}
    # on the wiki (null: not tagged): such a claim leaves the flagged list for "Tagged".
    tagged_revision = models.BigIntegerField(null=True, blank=True)
    # The words the editors' search reads (sideapp.claims.search): the claim, then its section
    # path, then the rest of its sentence, by weight. Kept by PostgreSQL (a stored generated
    # column), so a search reads and ranks stored vectors instead of parsing every match.
    search = models.GeneratedField(
        expression=(SearchVector("text", config="english", weight="A")
                    + SearchVector(Cast("section", models.TextField()), config="english", weight="B")
                    + SearchVector("sentence_rest", config="english", weight="C")),
        output_field=SearchVectorField(), db_persist=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["article", "fingerprint"], name="claim_unique_fp")]
        # The editors' list reads 50 rows in SIDE's order (weakest first) straight off one of
        # these; the flagged one also answers the list's count without touching the table.
        indexes = [
            models.Index(F("score").asc(nulls_first=True), F("id").asc(), name="claim_flagged_list",
                         condition=Q(current=True, flagged=True)),
            # The flagged list filtered by verdict, in SIDE's order (the list's main filter).
            models.Index("verdict", F("score").asc(nulls_first=True), F("id").asc(), name="claim_flagged_verdict",
                         condition=Q(current=True, flagged=True)),
            models.Index(F("score").asc(nulls_first=True), F("id").asc(), name="claim_current_score",
                         condition=Q(current=True)),
            models.Index(F("score").asc(nulls_first=True), F("id").asc(), name="claim_needs_source",
                         condition=Q(current=True, needs_citation=True)),
            # "Sources that could not be read": their own list, out of the flagged one.
            models.Index(F("score").asc(nulls_first=True), F("id").asc(), name="claim_unreadable",
                         condition=Q(current=True, verdict="source_unavailable")),
            # "Newest scan first": revision ids grow with their scan time.
            models.Index(F("last_revision_id").desc(), F("score").asc(nulls_first=True), F("id").asc(),
                         name="claim_current_newest", condition=Q(current=True)),
            # The editors' search (full text) and the section filter (icontains is UPPER(x)
            # LIKE ...: a trigram index; ANALYZE's statistics on its expression also tell the
            # planner how many rows a word matches).
            GinIndex("search", name="claim_search_current", condition=Q(current=True)),
            GinIndex(OpClass(Upper(Cast("section", models.TextField())), name="gin_trgm_ops"),
                     name="claim_section_trgm"),
        ]

    def __str__(self) -> str:
        return self.text[:80]

    @property
    def section_path(self) -> str:
        return " > ".join(self.section)

    @property
    def statement(self) -> str:
        """What the verifier checks: the built statement, or the claim's own words."""
        return self.checked or self.text

    @staticmethod
    def flag_rule(*, verdict: str, confidence: str, needs_citation: bool,
                  checkable: bool = True, tagged: bool = False, hint: bool = False) -> tuple[bool, bool]:
        """(flagged, needs a look). The default flagged list holds only what an editor can
        act on: claims that need a source (`{{citation needed}}`) and claims whose cited
        source was read and, with high confidence, does not support them (the verdict
        head's cross-validated precision target is 0.8). A source that could not be read
        says nothing about the claim: those claims have their own list ("sources that
        could not be read"), as do claims never judged. "Needs a look" is a triage queue:
        partial support, and `not_supported` verdicts the verifier is not sure of; a claim
        it calls `supported` stays quiet whatever its confidence (out of fold on WiCE `dev`,
        0.72-0.80 of the claims it calls supported are fully supported). A claim that is not checkable
        on its own is neither: there is nothing to
        act on; nor is one already tagged {{failed verification}} on the wiki (its own list,
        "Tagged": the editors' action is done). A `hint` (the page gives another figure that
        may be of another thing: "check they are the same figure") puts any judged claim that
        is not flagged in "Needs a look", a supported one too."""
        if not checkable or tagged:
            return False, False
        if needs_citation:
            return True, False
        if verdict == Verdict.NOT_SUPPORTED and confidence == HIGH:
            return True, False
        if not verdict or verdict == Verdict.SOURCE_UNAVAILABLE or (verdict == Verdict.SUPPORTED and not hint):
            return False, False
        return False, True

    @staticmethod
    def needs_editor(*, verdict: str, needs_citation: bool, confidence: str = HIGH) -> bool:
        """Whether the claim is in the default flagged list (see flag_rule)."""
        return Claim.flag_rule(verdict=verdict, confidence=confidence, needs_citation=needs_citation)[0]

    @classmethod
    def judged_under_older_rules(cls) -> QuerySet["Claim"]:
        """Verdicts whose reasons come from rules since changed: judged again when a scan
        dispatches their revision, new or already stored (pipeline.stages.revision_dispatch)."""
        return cls.objects.filter(verify_state=cls.State.DONE).exclude(method="").exclude(method__endswith=RULES)

    @staticmethod
    def wants_suggestions(*, verdict: str, flagged: bool, needs_look: bool, tagged: bool = False,
                          checkable: bool = True) -> bool:
        """Claims worth a search for better sources: flagged, needing a look, cited to a
        source that could not be read (a readable one may be added beside it), or tagged
        {{failed verification}} on the wiki: out of the flagged list (the tag is done), but
        the "Tagged" list is exactly where an editor comes looking for a better source."""
        return flagged or needs_look or verdict == Verdict.SOURCE_UNAVAILABLE or (tagged and checkable)


class ClaimCitation(models.Model):
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="claim_citations")
    citation = models.ForeignKey(Citation, on_delete=models.CASCADE, related_name="claim_citations")
    position = models.PositiveSmallIntegerField(default=0)
    # This citation's own judgement of the claim.
    verdict = models.CharField(max_length=32, choices=VERDICT_CHOICES, blank=True)
    score = models.FloatField(null=True, blank=True)
    evidence = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)  # the verdict in words, or why the source is unavailable
    reasons = models.JSONField(default=list, blank=True)  # the same as data (Claim.reasons)
    confidence = models.CharField(max_length=8, choices=CONFIDENCE_CHOICES, blank=True)
    parts = models.JSONField(default=list, blank=True)
    # What became of the cited page (verifier_core.fetch.pagestate kinds: live, changed, gone,
    # home, moved, soft404, usurped, unreadable; blank before its verdict) and the archived
    # copy the verdict read, if it read one ({"archive", "timestamp", "url", "words"}).
    page_state = models.CharField(max_length=16, blank=True)
    copy = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["claim", "citation"], name="claimcitation_unique")
        ]
        ordering = ["position"]


class RevisionClaim(models.Model):
    """Which claims a revision holds, in article order, and where in that revision's text
    each claim's citations stand."""

    revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="revision_claims")
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="revision_claims")
    position = models.PositiveIntegerField()
    # Each occurrence of the claim's citations in this revision (sideapp.scans.occurrences):
    # offsets, how it is written (a definition, a re-use, {{sfn}}), the tags right after it,
    # and the citation fields of that very ref, for the cited-source box.
    occurrences = models.JSONField(default=list, blank=True)

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
    verdict = models.CharField(max_length=32, choices=VERDICT_CHOICES, blank=True)
    evidence = models.JSONField(null=True, blank=True)
    # SIDE's rule: shown as better only where it outscores the current citation.
    beats_current = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rank"]
        constraints = [models.UniqueConstraint(fields=["claim", "rank"], name="suggestion_unique_rank")]


class ClaimReview(models.Model):
    """An editor's judgement of a flag or of one suggestion: dismissed with a reason, or the
    claim verified by hand. Per user; a claim whose text or citations change is a new Claim
    row (see the module docstring), so a new revision that changes the claim clears them."""

    class Kind(models.TextChoices):
        DISMISSED = "dismissed", "dismissed"
        VERIFIED = "verified", "verified by hand"

    class Reason(models.TextChoices):
        SOURCE_SUPPORTS = "source_supports", "the source does support the claim"
        CLAIM_FINE = "claim_fine", "the claim is fine as it is"
        SUGGESTION_WRONG = "suggestion_wrong", "the suggestion does not support the claim"
        UNRELIABLE_SITE = "unreliable_site", "the suggested site is not reliable"
        OTHER = "other", "another reason"

    FLAG_REASONS = (Reason.SOURCE_SUPPORTS, Reason.CLAIM_FINE, Reason.OTHER)
    # An editor's word that the cited source supports the claim: the flag was a false alarm.
    SAYS_SUPPORTED = models.Q(kind=Kind.VERIFIED) | models.Q(kind=Kind.DISMISSED, reason=Reason.SOURCE_SUPPORTS)
    SUGGESTION_REASONS = (Reason.SUGGESTION_WRONG, Reason.UNRELIABLE_SITE, Reason.OTHER)

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="reviews")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="claim_reviews")
    suggestion = models.ForeignKey(Suggestion, null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="reviews")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    reason = models.CharField(max_length=32, choices=Reason.choices, blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One standing judgement per user of the claim, and one per suggestion.
            models.UniqueConstraint(fields=["claim", "user"], condition=models.Q(suggestion=None),
                                    name="claimreview_one_per_user"),
            models.UniqueConstraint(fields=["suggestion", "user"], name="claimreview_one_per_suggestion"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.kind} claim {self.claim_id}"
