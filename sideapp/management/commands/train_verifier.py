"""train_verifier: fine-tune the cross-encoder, cross-validate, write models/verifier/."""
from __future__ import annotations

import logging
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Train the verifier on WiCE (read from --data) and write the checkpoint, head, metrics and MODEL_CARD.md to --out."
    requires_system_checks: list[str] = []  # training needs no database
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--data", default="../shared/data/wice", help="folder with dev.jsonl, nst_dev.jsonl, nst_train.jsonl")
        parser.add_argument("--out", default="models/verifier")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--folds", type=int, default=5, help="k of the grouped cross-validation (0: skip)")
        parser.add_argument("--limit", type=int, default=None, help="use the first N rows of each file (smoke tests)")
        parser.add_argument("--epochs", type=int, default=None)
        parser.add_argument("--threads", type=int, default=2)
        parser.add_argument("--quantize", action="store_true", help="int8 dynamic quantisation at inference (faster, less accurate)")
        parser.add_argument("--head-only", action="store_true",
                            help="keep the cross-encoder in --out; refit the word model and the verdict head")
        parser.add_argument("--precision", type=float, default=None,
                            help="cross-validated precision the not_supported cut aims at (default 0.8)")

    def handle(self, *args, **opts):
        import torch

        from verifier_core.verification.model.pipeline import TrainOptions, run_training

        torch.set_num_threads(max(1, opts["threads"]))
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
        data = Path(opts["data"])
        if not (data / "dev.jsonl").exists():
            raise CommandError(f"no WiCE data in {data} (expected dev.jsonl, nst_dev.jsonl, nst_train.jsonl)")
        options = TrainOptions(data=data, out=Path(opts["out"]), seed=opts["seed"], folds=opts["folds"], limit=opts["limit"])
        options.quantize, options.head_only = opts["quantize"], opts["head_only"]
        if opts["precision"] is not None:
            options.precision = opts["precision"]
        if opts["epochs"] is not None:
            options.train.epochs = opts["epochs"]
        started = time.time()
        report = run_training(options)
        cv = report.get("cv") or {}
        for key, value in (cv.get("metrics") or {}).items():
            pooled = (cv.get("pooled") or {}).get(key, float("nan"))
            self.stdout.write(f"{key}: {value['mean']:.3f} ± {value['std']:.3f} (pooled {pooled:.3f})")
        self.stdout.write(f"wrote {options.out} in {(time.time() - started) / 60:.1f} min")
