"""A local index kept up to date from a shared passage store (RetrievalEngine.sync_from)."""
import tempfile
from pathlib import Path
from unittest import TestCase

from tests.test_retrieval_support import DOCS, EXTRA_DOCS, encoder
from verifier_core.retrieval import EncoderMismatchError, RetrievalEngine
from verifier_core.retrieval.corpus import dense_text, iter_passages
from verifier_core.retrieval.replica import FeedPassage


class ListFeed:
    """A passage store in a list: ids 1.., each document's passages together."""

    def __init__(self, docs, name=None, fail_after: int | None = None):
        self.encoder_name = name or encoder().name
        self.rows: list[FeedPassage] = []
        self.fail_after, self.calls = fail_after, 0
        self.add(docs)

    def add(self, docs) -> None:
        records = list(iter_passages(list(docs)))
        vectors = encoder().encode([dense_text(p) for p in records])
        for p, v in zip(records, vectors):
            doc = docs[p.doc]
            self.rows.append(FeedPassage(len(self.rows) + 1, doc.url, doc.title, p.start, p.end, p.text, v))

    def passages_after(self, passage_id: int, limit: int) -> list[FeedPassage]:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise ConnectionError("the database went away")
        rows = [r for r in self.rows if r.id > passage_id][:limit]
        more = [r for r in self.rows if r.id > passage_id][limit:]
        while rows and more and more[0].url == rows[-1].url:  # never split a document
            rows.append(more.pop(0))
        return rows


class ReplicaSyncTests(TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.engine = RetrievalEngine.create(Path(self.tmp.name) / "replica", encoder=encoder())

    def test_a_fresh_replica_takes_every_passage_and_remembers_the_last_id(self):
        feed = ListFeed(DOCS)
        report = self.engine.sync_from(feed, batch=5)
        self.assertEqual(report.added_documents, len(DOCS))
        self.assertEqual(self.engine.synced_through, feed.rows[-1].id)
        hits = self.engine.search("Which tower was completed in 1889 for the World's Fair?", k=1)
        self.assertEqual(hits[0].url, "https://www.paris-guide.example/eiffel")

    def test_the_next_sync_reads_only_what_came_after_and_skips_known_urls(self):
        feed = ListFeed(DOCS[:4])
        self.engine.sync_from(feed)
        feed.add(EXTRA_DOCS + DOCS[:1])
        report = self.engine.sync_from(feed)
        self.assertEqual((report.added_documents, report.skipped_documents), (2, 1))
        self.assertEqual(len(self.engine), sum(1 for r in feed.rows if r.url != DOCS[0].url) + 1)
        self.assertEqual(self.engine.search("largest planet gas giant", k=1)[0].url, EXTRA_DOCS[1].url)

    def test_a_sync_cut_off_half_way_keeps_what_it_published_and_resumes_there(self):
        feed = ListFeed(DOCS, fail_after=1)
        with self.assertRaises(ConnectionError):
            self.engine.sync_from(feed, batch=3)
        reopened = RetrievalEngine.load(self.engine.root.path, encoder=encoder())
        first = reopened.synced_through
        self.assertGreater(first, 0)
        self.assertLess(first, feed.rows[-1].id)
        self.assertTrue(reopened.search("Eiffel Tower Paris", k=1))
        feed.fail_after = None
        reopened.sync_from(feed, batch=3)
        self.assertEqual(reopened.synced_through, feed.rows[-1].id)
        self.assertEqual(reopened.manifest["document_count"], len(DOCS))

    def test_vectors_of_another_encoder_are_refused(self):
        with self.assertRaisesRegex(EncoderMismatchError, "rebuild the replica"):
            self.engine.sync_from(ListFeed(DOCS[:1], name="some-other-encoder"))
