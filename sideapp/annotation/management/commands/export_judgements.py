"""export_judgements: annotators' majority judgements, for verifier training and evaluation."""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from sideapp.annotation.judgements import verify_jsonl_rows


class Command(BaseCommand):
    help = ("Write majority judgements in verify_jsonl's input shape ({id, claim, context, title, section, "
            "source: {url, title, text}}) plus gold_verdict, votes and agreement.")

    def add_arguments(self, parser):
        parser.add_argument("--format", default="verify-jsonl", choices=["verify-jsonl"])
        parser.add_argument("--output", required=True, help="the JSON-lines file to write")

    def handle(self, *args, **opts):
        try:
            with open(opts["output"], "w", encoding="utf-8") as out:
                count = 0
                for row in verify_jsonl_rows():
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    count += 1
        except OSError as exc:
            raise CommandError(f"cannot write {opts['output']}: {exc}") from exc
        self.stdout.write(f"{count} judgements -> {opts['output']}")
