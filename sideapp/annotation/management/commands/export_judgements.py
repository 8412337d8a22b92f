"""export_judgements: people's judgements of claims and their sources, for verifier
training and evaluation: annotators' majority labels (the default) and editors' overruled
flags (`--from editors`)."""
from __future__ import annotations

import json
from itertools import chain

from django.core.management.base import BaseCommand, CommandError

from sideapp.annotation.judgements import verify_jsonl_rows
from sideapp.claims.judgements import editor_judgement_rows

SOURCES = {"annotators": (verify_jsonl_rows,), "editors": (editor_judgement_rows,),
           "all": (verify_jsonl_rows, editor_judgement_rows)}


class Command(BaseCommand):
    help = ("Write judgements in verify_jsonl's input shape ({id, claim, context, title, section, "
            "source: {url, title, text}}) plus gold_verdict, votes and agreement.")

    def add_arguments(self, parser):
        parser.add_argument("--format", default="verify-jsonl", choices=["verify-jsonl"])
        parser.add_argument("--output", required=True, help="the JSON-lines file to write")
        parser.add_argument("--from", dest="people", default="annotators", choices=sorted(SOURCES),
                            help="annotators' majority votes (default); editors' claims verified by hand or "
                                 "flags dismissed because the source supports the claim (label supported "
                                 "only); or all")

    def handle(self, *args, **opts):
        rows = chain.from_iterable(read() for read in SOURCES[opts["people"]])
        try:
            with open(opts["output"], "w", encoding="utf-8") as out:
                count = 0
                for row in rows:
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
                    count += 1
        except OSError as exc:
            raise CommandError(f"cannot write {opts['output']}: {exc}") from exc
        self.stdout.write(f"{count} judgements -> {opts['output']}")
