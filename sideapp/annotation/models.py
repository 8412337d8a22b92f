"""Annotation items, who was shown what, and the votes (with their revision history).

Answers are stored in terms of the sources (wiki / suggested), never of the screen
(A / B): the screen order is a per-assignment draw, kept beside the vote as `wiki_left`.
In a passage-control item both sides come from one source: "suggested" is the passage
the verifier chose and "wiki" a random passage of the same text.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from sideapp.claims.models import Claim
from sideapp.sources.models import Source


class Kind(models.TextChoices):
    PAIR = "pair", "wiki citation vs suggested source"
    PASSAGE = "passage", "verifier's passage vs a random passage"
    GOLD = "gold", "gold (answer set by an admin)"


class Preference(models.TextChoices):
    WIKI = "wiki"
    SUGGESTED = "suggested"
    EQUAL = "equal"
    NEITHER = "neither"
    SKIP = "skip"


class Evidence(models.TextChoices):
    ENOUGH = "enough", "enough evidence"
    PARTIAL = "partial", "partial evidence"
    NONE = "none", "no evidence"


class SkipReason(models.TextChoices):
    WONT_LOAD = "wont_load", "a source will not load or is empty"
    PAYWALLED = "paywalled", "a source is paywalled"
    CLAIM_UNCLEAR = "claim_unclear", "the claim is unclear"
    OTHER = "other", "another reason (say in the note)"


class Item(models.Model):
    """(claim, the wiki's current source, a suggested source), with each side's passage."""

    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PAIR)
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="annotation_items")
    wiki_source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="+")
    suggested_source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="+")
    # The passages shown ({passage, start, end, sentence_spans}), frozen when the item is
    # made so that every annotator sees the same thing even if the claim is re-verified.
    wiki_evidence = models.JSONField()
    suggested_evidence = models.JSONField()
    # The verifier's view, for the results: score buckets and calibration.
    wiki_score = models.FloatField(null=True, blank=True)
    wiki_verdict = models.CharField(max_length=32, blank=True)
    suggested_score = models.FloatField(null=True, blank=True)
    suggested_verdict = models.CharField(max_length=32, blank=True)
    gold_preference = models.CharField(max_length=16, choices=Preference.choices, blank=True)
    # Votes plus live assignments: the one counter the conditional update guards.
    taken = models.PositiveIntegerField(default=0)
    created_by = models.CharField(max_length=32, default="scan")  # scan, admin, command
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "claim", "wiki_source", "suggested_source"],
                                    name="annotation_item_unique_triple"),
            models.CheckConstraint(condition=~Q(kind="gold") | ~Q(gold_preference=""),
                                   name="annotation_gold_has_answer"),
        ]
        # The next-item query walks one of these in order and stops at the first unseen
        # rows, instead of sorting every open item.
        indexes = [models.Index(fields=["taken", "id"], name="annotation_item_queue", condition=~Q(kind="gold")),
                   models.Index(fields=["taken", "id"], name="annotation_item_gold", condition=Q(kind="gold"))]

    def __str__(self) -> str:
        return f"item {self.pk} ({self.kind}) claim {self.claim_id}"


class Assignment(models.Model):
    """An item shown to an annotator, with the screen order drawn for them."""

    class State(models.TextChoices):
        OPEN = "open"
        ANSWERED = "answered"
        EXPIRED = "expired"

    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="assignments")
    annotator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="annotation_assignments")
    wiki_left = models.BooleanField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["item", "annotator"], name="annotation_assignment_once")]
        indexes = [models.Index(fields=["annotator", "state"], name="annotation_assignment_user"),
                   models.Index(fields=["state", "expires_at"], name="annotation_assignment_exp")]

    def side_of(self, letter: str) -> str:
        """'wiki' or 'suggested' for the screen letter 'A' (left) or 'B' (right)."""
        left = "wiki" if self.wiki_left else "suggested"
        right = "suggested" if self.wiki_left else "wiki"
        return left if letter.upper() == "A" else right


class Vote(models.Model):
    """One annotator's answer on one item (a skip is an answer too, apart from neither)."""

    item = models.ForeignKey(Item, on_delete=models.CASCADE, related_name="votes")
    annotator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="annotation_votes")
    assignment = models.OneToOneField(Assignment, on_delete=models.CASCADE, related_name="vote")
    wiki_left = models.BooleanField()
    preference = models.CharField(max_length=16, choices=Preference.choices)
    evidence_wiki = models.CharField(max_length=16, choices=Evidence.choices, blank=True)
    evidence_suggested = models.CharField(max_length=16, choices=Evidence.choices, blank=True)
    skip_reason = models.CharField(max_length=32, choices=SkipReason.choices, blank=True)
    note = models.TextField(blank=True)
    guidelines_version = models.CharField(max_length=32)
    seconds = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["item", "annotator"], name="annotation_one_vote_per_item"),
            models.CheckConstraint(condition=Q(preference="skip") | (~Q(evidence_wiki="") & ~Q(evidence_suggested="")),
                                   name="annotation_vote_has_evidence"),
            models.CheckConstraint(condition=~Q(preference="skip") | ~Q(skip_reason=""),
                                   name="annotation_skip_has_reason"),
        ]
        indexes = [models.Index(fields=["annotator", "-created_at"], name="annotation_vote_recent")]

    @property
    def is_skip(self) -> bool:
        return self.preference == Preference.SKIP


class VoteRevision(models.Model):
    """The answer a vote held before its annotator revised it."""

    vote = models.ForeignKey(Vote, on_delete=models.CASCADE, related_name="revisions")
    preference = models.CharField(max_length=16, choices=Preference.choices)
    evidence_wiki = models.CharField(max_length=16, blank=True)
    evidence_suggested = models.CharField(max_length=16, blank=True)
    skip_reason = models.CharField(max_length=32, blank=True)
    note = models.TextField(blank=True)
    guidelines_version = models.CharField(max_length=32)
    answered_at = models.DateTimeField()  # when the replaced answer was given
    revised_at = models.DateTimeField(auto_now_add=True)
