"""Citations whose pages died or changed: checked before (HEAD, live pages only) and after
(archived copies as cited), in one run, over a fixture set built here.

    .venv/bin/python bench/bench_archives.py [--citations 120] [--rate 600]

The set: N citations (default 120), each a page written for the bench (a headline, a site
name, a byline, a dated claim with figures), in six states now (live and unchanged, live
and rewritten since the access-date, gone (404), redirected to the site's home page, a
soft 404, a usurped (parked) domain) and, by turns, with or without a capture in the local
archive (pywb on loopback, WARCs written with warcio) a few days before the access-date.
The cited-pages server (harness/webserver.py) serves the pages as they are now.

Both sides read every citation's URL and judge the claim with the project's verifier
(models/verifier):
- before: the fetcher and verifier of the commit given (`--base`, default HEAD), as
  `git archive` writes them: the live page, whatever it is now;
- after: this tree: what became of the page (verifier_core.fetch.pagestate), the copy as
  cited (verifier_core.fetch.copies, lookups kept as the app keeps them) where the live page
  is not the cited work, or where a dated claim fails against the live page.

It prints: citations checked against the cited work (a text that is the cited work was
read), supported, checked against something else (a soft 404, a home page, a parked
domain), misjudged page states (live pages called dead), archive requests per citation and
seconds per citation under the archive's rate budget (`--rate` requests a minute; the time
at the Internet Archive's default budget of 30 a minute is computed from the requests).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STATES = ("live", "rewritten", "gone", "home", "soft404", "usurped")
ROUTE = {"live": "pages", "rewritten": "pages", "gone": "missing", "home": "moved-home", "soft404": "soft404",
         "usurped": "parked"}
SITES = ("Arle Valley Gazette", "Dunmere Courier", "Kellhaven Harbour Authority", "Estuary Rowing Association",
         "Lowick Parish Council", "Brannock Moor Trust")
THINGS = ("footbridge", "sea wall", "library", "lifeboat house", "market hall", "swimming pool", "bandstand",
          "pier", "school", "museum wing")
PLACES = ("Kellhaven", "Dunmere", "Lowick", "Gull Point", "Carrow", "Senn Bridge", "Brannock", "Arlemouth")
FILLER = ("Residents came to see the work when it was finished. The council thanked the builders and the "
          "volunteers who raised part of the money. More details are in the minutes of the meeting.")


@dataclass
class Cited:
    name: str
    state: str
    with_copy: bool
    site: str
    title: str
    claim: str
    access: date


def page_html(cited: Cited, sentence: str) -> str:
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{cited.title} | {cited.site}</title>"
            f"<meta property='og:site_name' content='{cited.site}'><meta property='og:title' content='{cited.title}'>"
            f"</head><body><header><a href='/'>{cited.site}</a></header><main><article><h1>{cited.title}</h1>"
            f"<p class='byline'>By Ann Lee</p><p>{sentence}</p><p>{FILLER}</p><p>{FILLER}</p></article></main>"
            f"</body></html>")


def build_set(n: int, root: Path) -> list[Cited]:
    rng = random.Random(33)
    pages = root / "pages"
    pages.mkdir(parents=True)
    for name in ("index.html", "not-found.html", "parked-domain.html"):
        (pages / name).write_text((ROOT / "fixtures/sources/pages" / name).read_text())
    out = []
    for i in range(n):
        thing, place = rng.choice(THINGS), rng.choice(PLACES)
        year, cost = rng.randrange(1950, 2015), rng.randrange(2, 90) * 10_000
        cited = Cited(f"c{i:03d}.html", STATES[i % 6], (i // 6) % 2 == 0, SITES[i % len(SITES)],
                      f"New {thing} for {place} ({i})",
                      f"The {thing} at {place} opened in {year} and cost {cost:,} pounds.",
                      date(2019, 1, 1) + timedelta(days=3 * i))
        now = cited.claim if cited.state != "rewritten" else (
            f"The {thing} at {place} was rebuilt in {year + 7}; the old building was pulled down.")
        (pages / cited.name).write_text(page_html(cited, now))
        out.append(cited)
    return out


def snapshots(citations: list[Cited], base: str):
    from harness.archive import Snapshot

    return [Snapshot(f"{base}/{ROUTE[c.state]}/{c.name}", f"{c.access - timedelta(days=3):%Y%m%d}120000",
                     page_html(c, c.claim).encode()) for c in citations if c.with_copy]


# --- before: the baseline commit's own code, in a subprocess ------------------------------
BEFORE = """
import time
from verifier_core.fetch import FetchPolicy, HostSlots, fetch_source
from verifier_core.verification import ClaimInput, get_verifier
verifier = get_verifier(payload["model"])
policy = FetchPolicy(allowlist=["127.0.0.2"], host_slot=HostSlots(min_delay=0))
rows, started = [], time.monotonic()
for c in payload["citations"]:
    result = fetch_source(c["url"], policy=policy)
    verdict = ""
    if result.ok:
        verdict = verifier.score_claim(ClaimInput(text=c["claim"], context="", title="", section=""),
                                       [result.text], urls=[c["url"]]).verdict
    rows.append({"read": "live" if result.ok else "", "verdict": verdict})
print(json.dumps({"rows": rows, "seconds": time.monotonic() - started}))
"""


def after(citations, base: str, archive_setting: str, rate: float, model: Path) -> dict:
    from verifier_core.fetch import FetchPolicy, HostSlots, fetch_source
    from verifier_core.fetch.archives import parse_archives
    from verifier_core.fetch.citedates import cited_day
    from verifier_core.fetch.copies import MemoryLookups, find_copy
    from verifier_core.fetch.metadata import PageMeta
    from verifier_core.fetch.pagestate import CitedWork, PageView, page_state
    from verifier_core.verification import ClaimInput, get_verifier

    verifier, archives = get_verifier(model), parse_archives(archive_setting)
    slots, requests = HostSlots(min_delay=60.0 / rate), []

    def counted(host):  # every archive request passes its host slot: count them
        requests.append(host)
        return slots(host)

    live_policy = FetchPolicy(allowlist=["127.0.0.2"], host_slot=HostSlots(min_delay=0))
    archive_policy = FetchPolicy(allowlist=["127.0.0.2"], host_slot=counted)
    lookups, rows, started = MemoryLookups(), [], time.monotonic()
    for c in citations:
        url = f"{base}/{ROUTE[c.state]}/{c.name}"
        work = CitedWork(url=url, title=c.title, site=c.site, authors=("Ann Lee",), access_date=c.access.isoformat())
        live = fetch_source(url, policy=live_policy)
        state = page_state(work, PageView(live.status.value, url, live.final_url, live.http_status,
                                          PageMeta.from_json(live.meta), live.text))
        judge = lambda text: verifier.score_claim(ClaimInput(text=c.claim, context="", title="", section=""),  # noqa: E731
                                                  [text], urls=[url]).verdict
        verdict = judge(live.text) if state.is_cited_work and live.ok else ""
        read = "live" if verdict else ""
        if not state.is_cited_work or verdict in ("not_supported", "partially_supported"):
            copy = find_copy(work, archives, policy=archive_policy, day=cited_day(work.access_date), lookups=lookups)
            if copy.found:
                copied = judge(copy.result.text)
                if copied == "supported" or not verdict:
                    verdict, read = copied, "copy"
        rows.append({"state": state.kind, "read": read, "verdict": verdict})
    return {"rows": rows, "seconds": time.monotonic() - started, "requests": len(requests)}


def summary(citations, rows) -> dict:
    """Counts over the citations; `read` in a row is what its verdict read: "live", "copy" or ""."""
    def count(pred):
        return sum(1 for c, r in zip(citations, rows) if pred(c, r))

    def on_the_work(c, r):
        return r["read"] == "copy" or (r["read"] == "live" and c.state in ("live", "rewritten"))

    return {
        "checked against the cited work": count(on_the_work),
        "checked against something else (home, soft 404, parked)": count(
            lambda c, r: r["read"] == "live" and c.state in ("home", "soft404", "usurped")),
        "supported": count(lambda c, r: r["verdict"] == "supported"),
        "with a copy: checked against the cited work": count(lambda c, r: c.with_copy and on_the_work(c, r)),
        "live pages called dead": count(lambda c, r: c.state in ("live", "rewritten") and
                                        r.get("state", "live") not in ("live", "changed")),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--citations", type=int, default=120)
    parser.add_argument("--rate", type=float, default=600.0, help="archive requests a minute (the budget)")
    parser.add_argument("--base", default="HEAD", help="the commit measured as 'before'")
    args = parser.parse_args()
    from bench.baseline import baseline_tree, run_in
    from bench.machine import load_line
    from harness.archive import LocalArchive
    from harness.webserver import SourceServer

    print(load_line("before"))
    model = ROOT / "models" / "verifier"
    with tempfile.TemporaryDirectory(prefix="side-bench-archives-") as tmp:
        citations = build_set(args.citations, Path(tmp) / "sources")
        with SourceServer(Path(tmp) / "sources", host="127.0.0.2") as sources, \
                LocalArchive(Path(tmp) / "archive") as archive:
            archive.add(snapshots(citations, sources.base_url))
            base = baseline_tree(args.base)
            payload = {"model": str(model), "citations": [
                {"url": f"{sources.base_url}/{ROUTE[c.state]}/{c.name}", "claim": c.claim} for c in citations]}
            before = run_in(base.name, BEFORE, payload)
            base.cleanup()
            now = after(citations, sources.base_url, archive.setting, args.rate, model)
    report(citations, before, now, args)
    print(load_line("after"))


def report(citations, before, now, args) -> None:
    n = len(citations)
    print(f"{n} citations: {', '.join(f'{n // 6} {s}' for s in STATES)}; half of each with a capture")
    b, a = summary(citations, before["rows"]), summary(citations, now["rows"])
    print(f"{'':58} {'before (' + args.base + ')':>16} {'after':>8}")
    for key in a:
        print(f"{key:58} {b[key]:>16} {a[key]:>8}")
    copies = sum(1 for c in citations if c.with_copy)
    print(f"{'citations with a copy':58} {copies:>16} {copies:>8}")
    per = now["requests"] / n
    print(f"archive requests per citation (CDX lookups and raw reads): {per:.2f}")
    print(f"seconds per citation: before {before['seconds'] / n:.3f}, after {now['seconds'] / n:.3f} "
          f"(archive budget {args.rate:g}/min); at 30/min the archive's share would be {per * 2.0:.1f} s")
    judged = {s: dict(Counter(r["state"] for c, r in zip(citations, now["rows"]) if c.state == s)) for s in STATES}
    states = json.dumps(judged)
    print(f"page states judged, by the page's true state (after): {states}")


if __name__ == "__main__":
    main()
