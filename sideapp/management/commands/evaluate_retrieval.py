"""Score retrieval predictions against gold provenance (DESIGN.md contract):

    python manage.py evaluate_retrieval --gold GOLD.jsonl --pred PRED.jsonl --ks 1,10,100

P@1 and success@k by url, as KILT's retrieval evaluation with rank key url. Prints one
JSON object (or a markdown table with --table).
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "P@1 and success@k of KILT-form retrieval predictions, by url."

    def add_arguments(self, parser):
        parser.add_argument("--gold", required=True)
        parser.add_argument("--pred", required=True)
        parser.add_argument("--ks", default="1,10,100", help="comma-separated cut-offs")
        parser.add_argument("--table", action="store_true", help="print a markdown table")

    def handle(self, *args, **opts):
        from verifier_core.retrieval.evaluation import evaluate_files

        try:
            ks = sorted({int(k) for k in opts["ks"].split(",") if k.strip()})
        except ValueError as exc:
            raise CommandError("--ks takes positive integers, e.g. 1,10,100") from exc
        if not ks or ks[0] < 1:
            raise CommandError("--ks takes positive integers, e.g. 1,10,100")
        try:
            result = evaluate_files(opts["gold"], opts["pred"], ks)
        except OSError as exc:
            raise CommandError(str(exc)) from exc
        for path, number, reason in result.skipped_lines:
            self.stderr.write(f"{path} line {number}: skipped ({reason})")
        if result.missing_predictions:
            self.stderr.write(f"{result.missing_predictions} gold queries have no prediction (counted as misses)")
        data = result.as_dict()
        if opts["table"]:
            names = ["P@1"] + [f"success@{k}" for k in ks]
            self.stdout.write("| queries | " + " | ".join(names) + " |")
            self.stdout.write("|---" * (len(names) + 1) + "|")
            self.stdout.write(f"| {data['queries']} | " + " | ".join(f"{data[n]:.4f}" for n in names) + " |")
        else:
            self.stdout.write(json.dumps(data))
