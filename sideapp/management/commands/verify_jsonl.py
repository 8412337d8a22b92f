"""verify_jsonl: score claim/source pairs from a JSON-lines file (DESIGN.md contract).

Never touches the database, so it runs anywhere the model does; a malformed line
yields a source_unavailable line instead of stopping the run.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from sideapp.claims.reasons import reason_words
from verifier_core.progress import Progress
from verifier_core.verification.judgement.verdicts import HIGH, LOW
from verifier_core.verification.types import Verdict

UNAVAILABLE = Verdict.SOURCE_UNAVAILABLE


class Command(BaseCommand):
    help = ("Verify claims against source texts: IN lines {id, claim, source: {text}} -> "
            "OUT lines {id, score, verdict, confidence, reason, parts, evidence}.")
    requires_system_checks: list[str] = []  # no checks: they may reach for the database
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--input", required=True, help="JSON lines: {id, claim, context?, title?, section?, source: {url?, title?, text}}")
        parser.add_argument("--output", required=True, help="JSON lines: {id, score, verdict, confidence, reason, parts, evidence}")
        parser.add_argument("--model", default=None, help="model directory (default: SIDE_VERIFIER_DIR or models/verifier)")
        parser.add_argument("--threads", type=int, default=2)
        parser.add_argument("--explain", action="store_true", help="also write method and model_version")

    def handle(self, *args, **opts):
        import torch

        from verifier_core.verification import Verifier, VerifierModelError

        torch.set_num_threads(max(1, opts["threads"]))
        source = Path(opts["input"])
        if not source.exists():
            raise CommandError(f"input file not found: {source}")
        try:
            verifier = Verifier.load(Path(opts["model"]) if opts["model"] else None)
        except VerifierModelError as exc:
            raise CommandError(str(exc)) from exc
        if verifier.method != "cross-encoder":
            self.stderr.write(f"warning: {verifier.method}: no trained checkpoint, scores are bi-encoder similarity")
        counts: dict[str, int] = {}
        total = _count_lines(source)
        with open(source, encoding="utf-8", errors="replace") as fin, open(opts["output"], "w", encoding="utf-8") as fout, \
                Progress(total=total, what="claims", stream=_stream(self.stderr)) as progress:
            for number, line in enumerate(fin, start=1):
                if not line.strip():
                    continue
                row = self._verify_line(verifier, line, number, opts["explain"])
                counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
                fout.write(json.dumps(row, ensure_ascii=False) + "\n")
                progress.advance(1)
        self.stdout.write(f"{sum(counts.values())} lines -> {opts['output']}: {json.dumps(counts, sort_keys=True)}")

    def _verify_line(self, verifier, line: str, number: int, explain: bool) -> dict:
        from verifier_core.verification import ClaimInput

        try:
            item = json.loads(line)
            if not isinstance(item, dict):
                raise ValueError("a line must be a JSON object")
        except ValueError as exc:
            self.stderr.write(f"line {number}: not a JSON object ({exc}); written as {UNAVAILABLE}")
            return _row(None, 0.0, UNAVAILABLE, None, explain, reason=f"malformed input line: {exc}", confidence=HIGH)
        src = item.get("source") if isinstance(item.get("source"), dict) else {}
        claim = ClaimInput(
            text=_str(item.get("claim")),
            context=_str(item.get("context")),
            title=_str(item.get("title")),
            section=_str(item.get("section")),
        )
        try:
            verdict = verifier.score_source(claim, src.get("text"), url=_str(src.get("url")) or None,
                                            meta={"title": _str(src.get("title"))})
        except Exception as exc:  # one bad pair must not stop a batch of thousands
            print(f"line {number}: verification failed: {exc!r}", file=sys.stderr)
            return _row(item.get("id"), 0.0, UNAVAILABLE, None, explain, reason=f"verification failed: {exc}", confidence=HIGH)
        evidence = verdict.evidence.to_json() if verdict.evidence else None
        return _row(item.get("id"), verdict.score, verdict.verdict, evidence, explain, verdict.method,
                    reason_words(verdict.reasons, verdict.reason), verdict.model_version, verdict.confidence,
                    [p.to_json() for p in verdict.parts], [r.to_json() for r in verdict.reasons])


def _str(value) -> str:
    return value if isinstance(value, str) else ""


def _stream(wrapper):
    """The command's own stderr (tests capture it), or the terminal itself for a live bar:
    Django's wrapper would end every bar redraw with a newline."""
    return sys.stderr if wrapper.isatty() else wrapper


def _count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for line in handle if line.strip())


def _row(id_, score, verdict, evidence, explain, method=None, reason=None, version=None, confidence=LOW, parts=(),
         reasons=None) -> dict:
    """One output line: the DESIGN.md contract (id, score, verdict, evidence), extended with
    the verdict's confidence ("low" = needs a look), its reason in words (rendered from
    `reasons`, the same as data) and its parts."""
    reasons = reasons if reasons is not None else ([{"kind": "note", "text": reason}] if reason else [])
    row = {"id": id_, "score": round(float(score), 6), "verdict": str(verdict), "confidence": confidence,
           "reason": reason, "reasons": reasons, "parts": list(parts), "evidence": evidence}
    if explain:
        row.update({"method": method, "model_version": version})
    return row
