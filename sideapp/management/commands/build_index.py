"""Build the retrieval index from a corpus file (DESIGN.md contract):

    python manage.py build_index --corpus CORPUS.jsonl --out DIR [--anchors FILE]

CORPUS lines are {"url", "title", "text"}. The index is built into a new version and
swapped in atomically; bad lines are skipped and reported with their line numbers.
"""
from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from verifier_core.retrieval.encoders import ENCODERS

SHOWN_SKIPPED = 20


class Command(BaseCommand):
    help = "Build the hybrid BM25 + dense retrieval index from a JSONL corpus."

    def add_arguments(self, parser):
        parser.add_argument("--corpus", required=True, help="JSONL file of {url, title, text}")
        parser.add_argument("--out", required=True, help="index directory (created or updated)")
        parser.add_argument("--anchors", help="anchor dictionary from build_anchors (enables query expansion)")
        parser.add_argument("--passage-words", type=int, default=100)
        parser.add_argument("--stride", type=int, default=50, help="words between passage starts")
        parser.add_argument("--approx-threshold", type=int, default=None,
                            help="passages from which the dense index is approximate (IVF)")
        parser.add_argument("--nlist", type=int, default=None, help="IVF clusters (default ~4*sqrt(n))")
        parser.add_argument("--nprobe", type=int, default=None, help="IVF clusters probed per query")
        parser.add_argument("--bm25-method", choices=["lucene", "robertson"], default="lucene")
        parser.add_argument("--k1", type=float, default=1.5)
        parser.add_argument("--b", type=float, default=0.75)
        parser.add_argument("--batch-size", type=int, default=64, help="encoder batch size")
        parser.add_argument("--encoder", choices=ENCODERS, default=None,
                            help="passage encoder (default: SIDE_ENCODER); see bench/bench_encoding.py")

    def handle(self, *args, **opts):
        from verifier_core.progress import Progress
        from verifier_core.retrieval import make_encoder, read_corpus
        from verifier_core.retrieval.builder import build_index
        from verifier_core.retrieval.corpus import file_checksum

        if opts["passage_words"] < 1 or opts["stride"] < 1:
            raise CommandError("--passage-words and --stride must be positive")
        try:
            docs, report = read_corpus(opts["corpus"])
        except OSError as exc:
            raise CommandError(f"cannot read corpus: {exc}") from exc
        self._report_skipped(report)
        encoder = make_encoder(opts["encoder"] or settings.SIDE_ENCODER, batch_size=opts["batch_size"])
        self.stderr.write(f"{len(docs):,} documents; encoder {encoder.name} (dim {encoder.dim})")
        try:
            with Progress(total=len(docs), what="documents encoded", stream=self.stderr._out) as progress:
                result = build_index(
                    opts["out"], docs, report, encoder=encoder, config=_config(opts),
                    anchors_path=opts["anchors"], corpus_checksum=file_checksum(opts["corpus"]),
                    log=self.stderr.write, progress=progress,
                )
        except (ValueError, FileExistsError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"corpus: {report.summary()}\n"
            f"index {result.version} at {opts['out']}: {result.documents} documents, "
            f"{result.passages} passages, dense index {result.dense_kind}, "
            f"anchors {'yes' if opts['anchors'] else 'no'}, built in {result.seconds:.1f} s"
        )

    def _report_skipped(self, report) -> None:
        for number, reason in report.skipped[:SHOWN_SKIPPED]:
            self.stderr.write(f"line {number}: skipped ({reason})")
        if len(report.skipped) > SHOWN_SKIPPED:
            self.stderr.write(f"... and {len(report.skipped) - SHOWN_SKIPPED} more skipped lines")


def _config(opts):
    from dataclasses import replace

    from verifier_core.retrieval import Bm25Params, DenseParams, IndexConfig

    dense = DenseParams()
    changes = {k: opts[key] for k, key in (("approx_threshold", "approx_threshold"), ("nlist", "nlist"),
                                           ("nprobe", "nprobe")) if opts[key] is not None}
    return IndexConfig(
        passage_words=opts["passage_words"], stride=opts["stride"],
        bm25=Bm25Params(k1=opts["k1"], b=opts["b"], method=opts["bm25_method"]),
        dense=replace(dense, **changes),
    )
