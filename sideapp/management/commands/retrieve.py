"""Retrieve sources for claims (DESIGN.md contract):

    python manage.py retrieve --index DIR --input QUERIES.jsonl --output PRED.jsonl [--k 100]

Input lines in WAFER / KILT form: {"id", "input" (claim text with a [CIT] marker),
"meta": {"wikipedia_title", "wikipedia_section", "sentences"}}. The query is the
sentence before [CIT] plus the article title. Output lines in KILT prediction form,
one provenance entry per document, best first.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

BATCH = 32  # queries encoded together


class Command(BaseCommand):
    help = "Retrieve ranked source documents for WAFER/KILT claims."

    def add_arguments(self, parser):
        parser.add_argument("--index", required=True)
        parser.add_argument("--input", required=True)
        parser.add_argument("--output", required=True)
        parser.add_argument("--k", type=int, default=100, help="documents per claim")
        parser.add_argument("--mode", choices=["hybrid", "sparse", "dense"], default="hybrid")
        parser.add_argument("--no-expansion", action="store_true", help="no anchor-text query expansion")
        parser.add_argument("--with-section", action="store_true", help="add the section title to the query")
        parser.add_argument("--mmr", type=float, default=None, metavar="LAMBDA",
                            help="diversify documents with MMR (e.g. 0.7); off by default")
        parser.add_argument("--min-similarity", type=float, default=None,
                            help="abstain floor on the best passage cosine")
        parser.add_argument("--depth", type=int, default=None, help="passages taken from each retriever")

    def handle(self, *args, **opts):
        from verifier_core.retrieval import RetrievalEngine, RetrievalIndexError

        if opts["k"] < 1:
            raise CommandError("--k must be at least 1")
        try:
            engine = RetrievalEngine.load(opts["index"], auto_refresh=False)
        except RetrievalIndexError as exc:
            raise CommandError(str(exc)) from exc
        records, problems = self._read(opts)
        search = {"k": opts["k"], "mode": opts["mode"], "mmr_lambda": opts["mmr"],
                  "min_similarity": opts["min_similarity"], "depth": opts["depth"]}
        if opts["no_expansion"]:
            search["expand"] = False
        written = 0
        with open(opts["output"], "w", encoding="utf-8") as out:
            for lo in range(0, len(records), BATCH):
                batch = records[lo : lo + BATCH]
                asked = [q for _, q in batch if q is not None]
                found = iter(engine.search_many(asked, **search) if asked else [])
                # Claims without text get an empty prediction, in input order, so every
                # gold id has a line to score.
                for rid, query in batch:
                    hits = next(found) if query is not None else []
                    out.write(json.dumps(_prediction(rid, hits), ensure_ascii=False) + "\n")
                    written += 1
        self._report(problems, written, engine)

    def _read(self, opts):
        from verifier_core.retrieval import query_from_kilt
        from verifier_core.retrieval.evaluation import read_kilt_jsonl
        from verifier_core.retrieval.tokenize import words

        records, skipped, empty = [], [], []
        try:
            rows = read_kilt_jsonl(opts["input"], skipped)
        except OSError as exc:
            raise CommandError(f"cannot read queries: {exc}") from exc
        for number, record in rows:
            query = query_from_kilt(record, with_section=opts["with_section"])
            if not words(query.claim):
                empty.append((record["id"], number))
                query = None
            records.append((record["id"], query))
        return records, {"lines": [(number, reason) for _, number, reason in skipped], "empty": empty}

    def _report(self, problems, written, engine) -> None:
        for number, reason in problems["lines"]:
            self.stderr.write(f"line {number}: skipped ({reason})")
        for rid, number in problems["empty"]:
            self.stderr.write(f"line {number}: id {rid!r} has no claim text; empty prediction written")
        expansion = "with" if engine.has_anchors else "without"
        self.stdout.write(f"{written} predictions written ({expansion} an anchor dictionary in the index)")


def _prediction(rid, hits) -> dict:
    provenance = [{"url": h.url, "title": h.title, "text": h.passages[0].text if h.passages else "",
                   "score": round(float(h.score), 6)} for h in hits]
    return {"id": rid, "output": [{"provenance": provenance}]}
