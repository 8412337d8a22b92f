"""build_index, retrieve, evaluate_retrieval and build_anchors end to end (call_command)."""
import io
import json
import tempfile
from pathlib import Path
from unittest import TestCase

from django.core.management import CommandError, call_command

from tests.test_retrieval_support import DOCS, write_corpus
from verifier_core.retrieval import RetrievalEngine

WIKI_PAGES = {
    "Cities.wiki": "Visit [[Paris|the French capital]] and [[Paris]] or [[London|the British capital]].",
    "Towers.wiki": "The [[Eiffel Tower|iron lady]] stands in [[Paris|the French capital]]. "
                   "See also [[Eiffel Tower|iron lady]] and [[Eiffel Tower]] and [[Eiffel Tower]].",
    "Notes.txt": "[[Ignored]] because it is not a .wiki file",
}

QUERIES = [
    {"id": "q1", "input": "Paris has many sights. The iron tower was completed in 1889.[CIT] More text.",
     "meta": {"wikipedia_title": "Eiffel Tower", "wikipedia_section": "History", "sentences": []}},
    {"id": "q2", "input": "The club plays its home games at Stark's Park. [CIT]",
     "meta": {"wikipedia_title": "Raith Rovers", "wikipedia_section": "", "sentences": []}},
    {"id": "q3", "input": "[CIT]", "meta": {}},
    {"id": "q4", "input": "It makes most of the cell's chemical energy as ATP. [CIT]",
     "meta": {"wikipedia_title": "Mitochondrion"}},
]
GOLD = {"q1": DOCS[0].url, "q2": DOCS[9].url, "q3": DOCS[3].url, "q4": DOCS[6].url}


def run(name, *args):
    out, err = io.StringIO(), io.StringIO()
    call_command(name, *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


class CommandsEndToEndTests(TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        base = Path(cls.tmp.name)
        cls.corpus = write_corpus(base / "corpus.jsonl", extra_lines=["{broken", json.dumps({"url": "u", "text": ""})])
        cls.wiki = base / "wiki"
        cls.wiki.mkdir()
        for name, text in WIKI_PAGES.items():
            (cls.wiki / name).write_text(text, encoding="utf-8")
        cls.anchors = base / "anchors.json"
        cls.anchors_out = run("build_anchors", "--from-dir", str(cls.wiki), "--out", str(cls.anchors))[0]
        cls.index = base / "index"
        cls.build_out, cls.build_err = run("build_index", "--corpus", str(cls.corpus), "--out", str(cls.index),
                                           "--anchors", str(cls.anchors))
        cls.queries = base / "queries.jsonl"
        cls.queries.write_text("\n".join(json.dumps(q) for q in QUERIES) + "\nnot json\n", encoding="utf-8")
        cls.gold = base / "gold.jsonl"
        cls.gold.write_text("\n".join(json.dumps({"id": i, "output": [{"provenance": [{"url": u}]}]})
                                      for i, u in GOLD.items()), encoding="utf-8")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def retrieve(self, *extra) -> tuple[list[dict], str, Path]:
        pred = Path(self.tmp.name) / f"pred-{len(extra)}-{'-'.join(extra)}.jsonl"
        out, err = run("retrieve", "--index", str(self.index), "--input", str(self.queries),
                       "--output", str(pred), "--k", "5", *extra)
        return [json.loads(line) for line in pred.read_text().splitlines()], err, pred

    def test_build_anchors_reads_wiki_files_and_writes_the_dictionary(self):
        data = json.loads(self.anchors.read_text())
        self.assertIn(["Eiffel Tower", "iron lady", 2], data["links"])
        self.assertNotIn("Ignored", json.dumps(data))
        self.assertIn("2 pages", self.anchors_out)

    def test_build_index_reports_skipped_lines_by_number_and_stores_the_anchors(self):
        self.assertIn(f"line {len(DOCS) + 1}: skipped (invalid JSON", self.build_err)
        self.assertIn(f"line {len(DOCS) + 2}: skipped (empty text)", self.build_err)
        self.assertIn(f"{len(DOCS)} documents", self.build_out)
        self.assertTrue(RetrievalEngine.load(self.index).has_anchors)

    def test_retrieve_writes_kilt_predictions_in_input_order(self):
        preds, err, _ = self.retrieve()
        self.assertEqual([p["id"] for p in preds], ["q1", "q2", "q3", "q4"])
        first = preds[0]["output"][0]["provenance"]
        self.assertEqual(first[0]["url"], DOCS[0].url)
        self.assertEqual(set(first[0]), {"url", "title", "text", "score"})
        self.assertLessEqual(len(first), 5)
        self.assertEqual(preds[2]["output"][0]["provenance"], [])
        self.assertIn("line 5: skipped (invalid JSON", err)
        self.assertIn("id 'q3' has no claim text", err)

    def test_evaluate_retrieval_scores_p_at_1_and_success_at_k_by_url(self):
        _, _, pred = self.retrieve("--mode", "hybrid")
        out, _ = run("evaluate_retrieval", "--gold", str(self.gold), "--pred", str(pred), "--ks", "1,5")
        scores = json.loads(out)
        self.assertEqual(scores["queries"], 4)
        self.assertEqual(scores["P@1"], 0.75)  # q3 has no claim, so nothing can be found
        self.assertEqual(scores["success@5"], 0.75)

    def test_every_mode_and_flag_runs(self):
        for extra in (["--mode", "sparse", "--no-expansion"], ["--mode", "dense"], ["--with-section", "--mmr", "0.7"],
                      ["--min-similarity", "0.2"]):
            preds, _, _ = self.retrieve(*extra)
            self.assertEqual(len(preds), 4, extra)
            self.assertEqual(preds[1]["output"][0]["provenance"][0]["url"], DOCS[9].url, extra)

    def test_evaluate_retrieval_prints_a_table_on_request(self):
        _, _, pred = self.retrieve()
        out, _ = run("evaluate_retrieval", "--gold", str(self.gold), "--pred", str(pred), "--ks", "1,10", "--table")
        self.assertIn("| queries | P@1 | success@1 | success@10 |", out)

    def test_a_missing_index_is_a_command_error(self):
        with self.assertRaisesRegex(CommandError, "no index"):
            run("retrieve", "--index", str(Path(self.tmp.name) / "none"), "--input", str(self.queries),
                "--output", str(Path(self.tmp.name) / "x.jsonl"))

    def test_a_missing_corpus_is_a_command_error(self):
        with self.assertRaises(CommandError):
            run("build_index", "--corpus", str(Path(self.tmp.name) / "none.jsonl"), "--out", str(Path(self.tmp.name) / "i2"))

    def test_a_corpus_without_usable_documents_is_a_command_error(self):
        empty = Path(self.tmp.name) / "empty.jsonl"
        empty.write_text('{"url": "u", "text": ""}\n')
        with self.assertRaisesRegex(CommandError, "no usable documents"):
            run("build_index", "--corpus", str(empty), "--out", str(Path(self.tmp.name) / "i3"))

    def test_bad_ks_are_a_command_error(self):
        with self.assertRaises(CommandError):
            run("evaluate_retrieval", "--gold", str(self.gold), "--pred", str(self.gold), "--ks", "0,x")

    def test_build_anchors_can_install_the_dictionary_into_an_index(self):
        with tempfile.TemporaryDirectory() as tmp:
            index = Path(tmp) / "index"
            run("build_index", "--corpus", str(self.corpus), "--out", str(index))
            self.assertFalse(RetrievalEngine.load(index).has_anchors)
            out, _ = run("build_anchors", "--from-dir", str(self.wiki), "--out", str(Path(tmp) / "a.json"),
                         "--install-into", str(index))
            self.assertIn("installed", out)
            self.assertTrue(RetrievalEngine.load(index).has_anchors)

    def test_build_anchors_refuses_a_missing_folder(self):
        with self.assertRaisesRegex(CommandError, "not a directory"):
            run("build_anchors", "--from-dir", str(Path(self.tmp.name) / "nope"), "--out", str(self.anchors))
