"""The gadget on a 200-citation article: what it adds to the page, and its size.

    .venv/bin/python bench/bench_gadget_page.py [--citations 200] [--views 15]

A fresh local MediaWiki (Debian's package) holds one article whose claims each cite their
own page; Side editor (gunicorn, its own database sideeditor_bench_gadget) scans it and the
claims get verdicts as a finished verification leaves them (a third not supported, a fifth
partly, the rest supported). The gadget is installed on the wiki's own pages; headless
Chromium (Debian's) opens the article N times with the gadget and, as the baseline in the
same run, N times with the gadget definition removed. Per view: the page's domInteractive
and load event (Navigation Timing), and the gadget's marks: `side-editor:loading` (its
script started), `side-editor:findings` (the answer in hand) and `side-editor:ready` (markers
placed). MediaWiki's ResourceLoader starts gadgets after the page is interactive, on its own
schedule; the gadget's own time is loading -> ready. The first view
with the gadget is reported apart: it is the one that asks the wiki to render the revision.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.benchdb import django_with, fresh_database, gunicorn, own_redis, redis_forget  # noqa: E402
from bench.machine import load_line  # noqa: E402

REDIS_DB = own_redis()
DB_NAME = "sideeditor_bench_gadget"
TITLE = "Bench gadget article"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run"]
TIMING = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const mark = n => (performance.getEntriesByName('side-editor:' + n)[0] || {}).startTime;
  return {interactive: nav.domInteractive, load: nav.loadEventEnd, loading: mark('loading'),
          findings: mark('findings'), ready: mark('ready'),
          markers: document.querySelectorAll('.side-editor-marker').length};
}"""


def article(citations: int) -> str:
    sentences = []
    demo = (ROOT / "fixtures" / "wiki").glob("*.wiki")
    for path in sorted(demo):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and line[0].isalpha() and "<ref" in line:
                sentences.append(line.split("<ref")[0].strip())
    parts = ["'''Bench gadget article''' gathers claims from the demo articles."]
    for n in range(citations):
        claim = sentences[n % len(sentences)].replace("[[", "").replace("]]", "").replace("|", " ")
        cite = f"{{{{cite web |url=http://127.0.0.1:9/bench-{n} |title=Bench source {n}}}}}"
        parts.append(f"{claim} (item {n}).<ref>{cite}</ref>" + ("\n\n" if n % 4 == 3 else " "))
    return "".join(parts) + "\n\n== References ==\n{{reflist}}\n"


def scan_and_judge(api_url: str) -> int:
    from sideapp.models import Claim, ClaimCitation, ScanJob
    from sideapp.pipeline.stages import scan_job
    from sideapp.scans.services import scan_request
    from sideapp.scans.wikis import wiki_for

    job = scan_request(wiki=wiki_for(api_url=api_url), kind=ScanJob.Kind.TITLES, titles=[TITLE], enqueue=False)
    scan_job(job.items.get().pk)
    ScanJob.objects.filter(pk=job.pk).update(status=ScanJob.Status.DONE)
    evidence = {"passage": "A quoted sentence.", "sentences": ["A quoted sentence."], "start": 0, "end": 18}
    for n, claim in enumerate(Claim.objects.order_by("pk")):
        verdict, confidence = (("not_supported", "high") if n % 3 == 0 else ("partially_supported", "low")
                               if n % 5 == 0 else ("supported", "high"))
        flagged, look = Claim.flag_rule(verdict=verdict, confidence=confidence, needs_citation=False)
        Claim.objects.filter(pk=claim.pk).update(verdict=verdict, confidence=confidence, flagged=flagged,
                                                 needs_look=look, verify_state="done", evidence=evidence, score=0.3)
        ClaimCitation.objects.filter(claim=claim).update(verdict=verdict, confidence=confidence, evidence=evidence)
    return Claim.objects.filter(current=True).count()


def views(browser, url: str, n: int, *, gadget: bool = True) -> list[dict]:
    out = []
    for _ in range(n):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(url, wait_until="load")
        if gadget:
            page.wait_for_selector("html[data-side-editor=ready]", timeout=30_000)
        page.wait_for_timeout(200)
        out.append(page.evaluate(TIMING))
        context.close()
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def row(name: str, values: list[float]) -> str:
    return f"| {name} | {statistics.median(values):.0f} | {p95(values):.0f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--citations", type=int, default=200)
    parser.add_argument("--views", type=int, default=15)
    args = parser.parse_args()
    print(load_line("before the run"))
    from harness.demo import demo_templates
    from harness.mediawiki import MediaWikiServer
    from playwright.sync_api import sync_playwright

    redis_forget(REDIS_DB)
    with tempfile.TemporaryDirectory(prefix="side-bench-gadget-") as tmp, MediaWikiServer(Path(tmp) / "wiki") as wiki:
        wiki.load_pages(demo_templates())
        wiki.load_pages({TITLE: article(args.citations)})
        env = fresh_database(DB_NAME, REDIS_URL=REDIS_DB, SIDE_WIKI_API_URL=wiki.api_url)
        django_with(env)
        from sideapp.gadget.assets import gadget_assets
        from sideapp.gadget.install import gadget_pages

        claims = scan_and_judge(wiki.api_url)
        with gunicorn(env) as base:
            url = f"{wiki.index_url}?title={TITLE.replace(' ', '_')}"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                wiki.edit_interface(gadget_pages(base, way="copy"))
                views(browser, url, 2)  # ResourceLoader builds and caches the gadget's module
                redis_forget(REDIS_DB)
                cold = views(browser, url, 1)[0]
                warm = views(browser, url, args.views)
                wiki.edit_interface({"MediaWiki:Gadgets-definition": ""})
                views(browser, url, 1, gadget=False)
                bare = views(browser, url, args.views, gadget=False)
                browser.close()
    assets = gadget_assets(base)
    report(args, claims, cold, warm, bare, assets)
    print(load_line("after the run"))


def report(args, claims: int, cold: dict, warm: list[dict], bare: list[dict], assets) -> None:
    print(f"command: .venv/bin/python bench/bench_gadget_page.py --citations {args.citations} --views {args.views}")
    print(f"article: {args.citations} citations, {claims} claims, {warm[0]['markers']} markers placed\n")
    print(f"| page view ({args.views} views each, ms from navigation start) | median | p95 |")
    print("|---|---|---|")
    print(row("baseline, no gadget: DOM interactive", [v["interactive"] for v in bare]))
    print(row("baseline, no gadget: load event end", [v["load"] for v in bare]))
    print(row("with the gadget: DOM interactive", [v["interactive"] for v in warm]))
    print(row("with the gadget: load event end", [v["load"] for v in warm]))
    print(row("with the gadget: markers placed (side-editor:ready)", [v["ready"] for v in warm]))
    print(row("**gadget's added time: ready minus DOM interactive**", [v["ready"] - v["interactive"] for v in warm]))
    print(row("gadget's own time: script start to ready (findings request included)",
              [v["ready"] - v["loading"] for v in warm]))
    print(row("of which placing the markers and cards' handlers (findings in hand to ready)",
              [v["ready"] - v["findings"] for v in warm]))
    print(f"| first view after a scan (the wiki renders the revision once): ready minus interactive "
          f"| {cold['ready'] - cold['interactive']:.0f} | - |")
    script, style = assets.script.encode(), assets.style.encode()
    print(f"\nsize: script {len(script) / 1024:.1f} KB ({len(gzip.compress(script)) / 1024:.1f} KB gzipped), "
          f"stylesheet {len(style) / 1024:.1f} KB ({len(gzip.compress(style)) / 1024:.1f} KB gzipped); "
          f"together {len(gzip.compress(script + style)) / 1024:.1f} KB gzipped")


if __name__ == "__main__":
    main()
