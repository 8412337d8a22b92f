"""Corpus files imported by admins into the retrieval corpus."""
from __future__ import annotations

from django.conf import settings
from django.db import models


class CorpusImport(models.Model):
    """An admin's upload of `{url, title, text}` JSONL documents into the corpus."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    UNFINISHED = (Status.QUEUED, Status.RUNNING)

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

    @property
    def is_running(self) -> bool:
        return self.status in self.UNFINISHED


class CorpusPassage(models.Model):
    """One passage of a corpus document with its embedding: the corpus's source of truth.

    Every worker machine keeps a local BM25 + faiss replica and reads the passages after
    the last id it holds; ids are taken under one advisory lock per writing transaction
    (services.passages_store), so they grow in the order passages become visible and a
    replica reading by id never skips one."""

    id = models.BigAutoField(primary_key=True)
    document = models.ForeignKey("sideapp.SourceDocument", on_delete=models.CASCADE, related_name="passages")
    start = models.PositiveIntegerField()  # character offsets into the document text
    end = models.PositiveIntegerField()
    text = models.TextField()
    encoder = models.CharField(max_length=200)  # the encoder that wrote `embedding`
    embedding = models.BinaryField()  # float16, little-endian, the encoder's width

    class Meta:
        indexes = [models.Index(fields=["encoder", "id"], name="corpus_passage_feed")]

    def __str__(self) -> str:
        return f"passage {self.pk} of document {self.document_id}"


class CorpusReplica(models.Model):
    """A worker machine's local index: how far it has read the passages, for the admins'
    corpus page (done / total, passages/s, time left while it syncs)."""

    name = models.CharField(max_length=300, unique=True)  # host:index directory
    encoder = models.CharField(max_length=200)
    synced_through = models.BigIntegerField(default=0)
    passages = models.PositiveIntegerField(default=0)
    documents = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)  # passages read in the running sync
    total = models.PositiveIntegerField(default=0)
    rate = models.FloatField(default=0.0)  # passages/s
    seconds_left = models.FloatField(null=True, blank=True)
    syncing = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
