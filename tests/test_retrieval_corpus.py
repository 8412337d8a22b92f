"""Corpus reading, passages with offsets, duplicate URLs, bad lines; query construction."""
import json
import tempfile
from pathlib import Path
from unittest import TestCase

from verifier_core.retrieval import Document, Query, claim_before_marker, query_from_kilt, read_corpus
from verifier_core.retrieval.corpus import MAX_DOCUMENT_CHARS, iter_passages, merge_documents
from verifier_core.retrieval.query import MAX_QUERY_WORDS


def write_lines(lines: list[str]) -> Path:
    handle = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8")
    handle.write("\n".join(lines) + "\n")
    handle.close()
    return Path(handle.name)


def doc_line(url, text, title="T"):
    return json.dumps({"url": url, "title": title, "text": text})


class ReadCorpusTests(TestCase):
    def test_it_skips_bad_lines_and_reports_their_numbers_and_reasons(self):
        path = write_lines([
            doc_line("https://a.example/1", "alpha beta"),
            "{not json",
            json.dumps({"url": "https://a.example/2", "title": "x"}),
            doc_line("https://a.example/3", "   "),
            json.dumps({"title": "no url", "text": "words"}),
            "",
            json.dumps(["a", "list"]),
            doc_line("https://a.example/4", "gamma"),
        ])
        docs, report = read_corpus(path)
        self.assertEqual([d.url for d in docs], ["https://a.example/1", "https://a.example/4"])
        reasons = dict(report.skipped)
        self.assertTrue(reasons[2].startswith("invalid JSON"))
        self.assertEqual(reasons[3], "missing text")
        self.assertEqual(reasons[4], "empty text")
        self.assertEqual(reasons[5], "missing url")
        self.assertEqual(reasons[6], "blank line")
        self.assertEqual(reasons[7], "not a JSON object")
        self.assertEqual((report.lines, report.documents), (8, 2))
        self.assertIn("6 lines skipped", report.summary())

    def test_it_merges_duplicate_urls_keeping_first_title_and_new_text_only(self):
        path = write_lines([
            doc_line("https://a.example/1", "first part", title="First"),
            doc_line("https://a.example/1", "first part", title="Other"),
            doc_line("https://a.example/1", "second part", title=""),
        ])
        docs, report = read_corpus(path)
        self.assertEqual(len(docs), 1)
        self.assertEqual(docs[0].title, "First")
        self.assertEqual(docs[0].text, "first part\n\nsecond part")
        self.assertEqual(report.duplicates_merged, 2)

    def test_it_truncates_giant_documents_and_counts_them(self):
        docs, report = merge_documents([Document("https://big.example", "", "word " * (MAX_DOCUMENT_CHARS // 4))])
        self.assertEqual(len(docs[0].text), MAX_DOCUMENT_CHARS)
        self.assertEqual(report.truncated, 1)

    def test_it_reads_non_utf8_bytes_without_failing(self):
        path = write_lines([doc_line("https://a.example/1", "caf\u00e9")])
        with open(path, "ab") as handle:
            handle.write(b'{"url": "https://a.example/2", "title": "", "text": "bad \xff byte"}\n')
        docs, report = read_corpus(path)
        self.assertEqual(len(docs), 2)


class PassageTests(TestCase):
    def test_passages_keep_offsets_into_the_document_text_and_its_title(self):
        text = " ".join(f"w{i}" for i in range(250)) + "\n\nlast  words here"
        passages = list(iter_passages([Document("u", "Title", text)], size=100, stride=50))
        self.assertEqual(len(passages), 5)
        for p in passages:
            self.assertEqual(text[p.start : p.end], p.text)
            self.assertEqual(p.title, "Title")
        self.assertTrue(passages[1].text.startswith("w50 "))
        self.assertTrue(passages[-1].text.endswith("last  words here"))

    def test_each_document_is_numbered_in_its_batch(self):
        docs = [Document("a", "", "one two"), Document("b", "", "three")]
        self.assertEqual([p.doc for p in iter_passages(docs)], [0, 1])


class QueryConstructionTests(TestCase):
    def test_claim_is_the_sentence_before_the_citation_marker(self):
        text = "Paris is in France. The tower opened in 1889.[CIT] It is tall. [CIT]"
        self.assertEqual(claim_before_marker(text), "The tower opened in 1889.")

    def test_without_a_marker_the_last_sentence_is_the_claim(self):
        self.assertEqual(claim_before_marker("One. Two three."), "Two three.")

    def test_query_is_title_plus_claim_and_section_only_when_asked(self):
        record = {"id": 1, "input": "Context here. It opened in 1889. [CIT]",
                  "meta": {"wikipedia_title": "Eiffel Tower", "wikipedia_section": "History",
                           "sentences": []}}
        self.assertEqual(query_from_kilt(record).text(), "Eiffel Tower. It opened in 1889.")
        self.assertEqual(query_from_kilt(record, with_section=True).text(),
                         "Eiffel Tower. History. It opened in 1889.")

    def test_a_marker_at_the_start_falls_back_to_the_last_context_sentence(self):
        record = {"id": 1, "input": "[CIT] later", "meta": {"sentences": ["Earlier.", "The claim."]}}
        self.assertEqual(query_from_kilt(record).claim, "The claim.")

    def test_missing_meta_gives_a_claim_only_query(self):
        self.assertEqual(query_from_kilt({"id": 1, "input": "Just a claim [CIT]", "meta": None}).text(),
                         "Just a claim")

    def test_huge_queries_are_cut_to_the_word_limit(self):
        text = Query("word " * 5000, "Title").text()
        self.assertEqual(len(text.split()), MAX_QUERY_WORDS)
