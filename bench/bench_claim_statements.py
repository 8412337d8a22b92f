"""Benchmark: claims that are not statements, before and after issue 24, on the shared
real articles (../shared/data/wikitext), in one run.

    .venv/bin/python bench/bench_claim_statements.py [--show]

A claim is "not a statement" when what the verifier checks has fewer than three content
words (statements.content_words) or carries table or template markup. Before: the
extractor at bench/baseline.ISSUE_24_BASE (run from git), which checked the cited words
themselves; after: this checkout, which checks the statement each claim's structure
makes, and marks the claims from which none can be built "not checkable". Both sides
are counted with this checkout's content-word rule, so only the extraction differs.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "wikitext"
sys.path.insert(0, str(ROOT))

from bench.baseline import ISSUE_24_BASE, baseline_tree, run_in  # noqa: E402
from verifier_core.wikitext import extract  # noqa: E402
from verifier_core.wikitext.statements import MIN_CONTENT_WORDS, content_words  # noqa: E402

MARKUP = re.compile(r"\{\{|\}\}|\[\[|\]\]|\||<ref|==|!!|\b(?:align|style|class|rowspan|colspan|width)\s*=", re.I)
BEFORE = """
from pathlib import Path
from verifier_core.wikitext import extract
texts = {}
for path in sorted(Path(payload["shared"]).glob("*.wiki")):
    texts[path.stem] = [c.text for c in extract(path.read_text(encoding="utf-8"), path.stem.replace("-", " ")).claims]
print(json.dumps(texts))
"""


def not_statement(text: str) -> bool:
    return content_words(text) < MIN_CONTENT_WORDS or MARKUP.search(text) is not None


def share(hits: int, total: int) -> str:
    return f"{hits / total:5.1%} ({hits}/{total})" if total else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each claim still not a statement, and why")
    args = parser.parse_args()
    paths = sorted(SHARED.glob("*.wiki"))
    if not paths:
        sys.exit(f"../shared/data/wikitext not present: looked in {SHARED}")
    with baseline_tree() as folder:
        before = run_in(folder, BEFORE, {"shared": str(SHARED)})
    old = [t for texts in before.values() for t in texts]
    claims = [(p.stem, c) for p in paths for c in extract(p.read_text(encoding="utf-8"), p.stem.replace("-", " ")).claims]
    checkable = [c for _, c in claims if c.checkable]
    after_bad = [c for c in checkable if not_statement(c.statement)]
    kinds, unchecked = Counter(c.kind for _, c in claims), Counter(c.kind for _, c in claims if not c.checkable)
    print(f"{len(paths)} articles; baseline {ISSUE_24_BASE[:7]} vs this checkout\n")
    print("| | claims | not statements (< 3 content words or markup) | of them with markup |\n|---|---|---|---|")
    print(f"| before: the cited words checked | {len(old)} | {share(sum(map(not_statement, old)), len(old))} | "
          f"{sum(1 for t in old if MARKUP.search(t))} |")
    print(f"| after: the statement checked (checkable claims) | {len(checkable)} | {share(len(after_bad), len(checkable))} | "
          f"{sum(1 for c in checkable if MARKUP.search(c.statement))} |")
    print(f"| after: the cited words kept to find the claim | {len(claims)} | "
          f"{share(sum(not_statement(c.text) for _, c in claims), len(claims))} | "
          f"{sum(1 for _, c in claims if MARKUP.search(c.text))} |")
    print(f"\ncheckable {len(checkable)}, not checkable on their own {len(claims) - len(checkable)}; "
          f"checked as a built statement {sum(1 for _, c in claims if c.checked)}")
    print("by kind: " + ", ".join(f"{k} {n} ({unchecked[k]} not checkable)" for k, n in kinds.most_common()))
    if args.show:
        for name, c in claims:
            if not c.checkable or not_statement(c.statement):
                print(f"  {name}: {'not checkable' if not c.checkable else 'not a statement'}: {c.text!r}")


if __name__ == "__main__":
    main()
