"""The public findings API under load: 50,000 claims in PostgreSQL, 10 concurrent clients.

    .venv/bin/python bench/bench_findings_api.py [--claims 50000] [--clients 10] [--seconds 20]

Fills its own database (sideeditor_bench_api) with claims spread over 500 articles of one
wiki known by its identity (100 claims a page, verdicts as a finished scan leaves them,
a third with suggestions), puts each revision's rendered targets in Redis as the first
request for a page would (the wiki is asked once per revision; that cold request is timed
apart below), serves the app with gunicorn as configured in gunicorn.conf.py, and asks for
the findings of random pages as the gadget does (`?wiki_id=&page_id=&revision=`), from wrk
and then from Python client threads, one client and then N at once. A page's answer is kept
in Redis per scanned revision once no check of it runs (as in production), so after the
first request for a page the answer is its lookups and one Redis read; every page is asked
once before the timed runs, and the time to build an answer is printed apart (in-process). Baseline in the same run: the findings of pages whose
claims are all confidently supported (the same lookups, nothing to list), at the same load.
"""
from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_editor_pages import print_load_table  # noqa: E402
from bench.benchdb import django_with, fresh_database, gunicorn, load_arguments, own_redis, redis_forget  # noqa: E402
from bench.machine import load_line  # noqa: E402

REDIS_DB = own_redis()
DB_NAME = "sideeditor_bench_api"
WORDS = "viaduct railway lighthouse harbour mill bridge river tower church school station market".split()
VERDICTS = ["not_supported", "partially_supported", "supported", "source_unavailable"]
QUIET = 20  # articles whose claims are all supported: the baseline's pages


def fill(claims: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Write the claims; returns (page id, revision id) of the pages with findings and of
    the quiet ones."""
    from harness.claims import ClaimRow, add_claims
    from sideapp.api import cache
    from sideapp.models import Article, Revision, Wiki

    rng = random.Random(7)
    wiki = Wiki.objects.create(api_url="http://wiki.bench/api.php", wikiid="benchwiki", name="Bench wiki",
                               server="http://wiki.bench")
    per_article, busy, quiet = claims // 500, [], []
    for a in range(500):
        article = Article.objects.create(wiki=wiki, title=f"Bench {rng.choice(WORDS).title()} {a}", page_id=1000 + a)
        revision = Revision.objects.create(article=article, rev_id=5000 + a, wikitext="")
        article.current_revision = revision
        article.save(update_fields=["current_revision"])
        calm = a < QUIET
        rows = [ClaimRow(f"The {rng.choice(WORDS)} {n} opened in {1800 + rng.randrange(200)} near the "
                         f"{rng.choice(WORDS)}.", "supported" if calm else rng.choice(VERDICTS), rng.random(),
                         [rng.choice(["History", "Design"])], cited_url=f"http://s.bench/{a}/{n}",
                         suggestion_url=f"http://g.bench/{a}/{n}" if n % 3 == 0 else "", better=n % 6 == 0)
                for n in range(per_article)]
        made = add_claims(article, revision, rows, first=a * per_article)
        cache.keep_json(f"side:api:targets:{revision.pk}", {
            str(c.pk): {"text": c.text, "after": f"cite_ref-{n}", "urls": [r.cited_url], "whole": True}
            for n, (c, r) in enumerate(zip(made, rows))}, seconds=3600)
        (quiet if calm else busy).append((article.page_id, revision.rev_id))
    return busy, quiet


def computed_ms(pages: list[tuple[int, int]]) -> list[float]:
    """Milliseconds to build each page's answer in this process (queries, targets from
    Redis, JSON-ready dicts; no HTTP): what a request costs when the answer is not kept."""
    from sideapp.api import selectors
    from sideapp.api.findings import page_findings
    from sideapp.api.targets import article_targets

    times = []
    for page_id, _ in pages:
        started = time.perf_counter()
        article = selectors.page_article(wiki_id="benchwiki", page_id=page_id)
        page_findings(article=article, claims=selectors.finding_claims(article), targets=article_targets(article) or {},
                      claim_url=lambda pk: f"/claims/{pk}/")
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)


def paths(pages: list[tuple[int, int]]) -> list[str]:
    return [f"/api/v1/findings?wiki_id=benchwiki&page_id={p}&revision={r}" for p, r in pages]


def main() -> None:
    args = load_arguments(__doc__)
    print(load_line("before the run"))
    redis_forget(REDIS_DB)
    env = fresh_database(DB_NAME, REDIS_URL=REDIS_DB)
    django_with(env)
    started = time.perf_counter()
    busy, quiet = fill(args.claims)
    print(f"filled {args.claims} claims in {time.perf_counter() - started:.0f} s")
    subprocess.run(["psql", env["DATABASE_URL"], "-qc", "VACUUM ANALYZE"], check=True)
    with gunicorn(env) as base:
        print(f"command: .venv/bin/python bench/bench_findings_api.py --claims {args.claims} "
              f"--clients {args.clients} --seconds {args.seconds:g}")
        import requests

        sessions = [requests.Session() for _ in range(args.clients)]
        cookies = [f"bench=client{n}" for n in range(args.clients)]  # the API ignores them
        computed = computed_ms(busy)
        print(f"a page's answer built in one process (not kept yet), {len(busy)} pages: "
              f"p50 {computed[len(computed) // 2]:.0f} ms, p95 {computed[int(len(computed) * 0.95)]:.0f} ms")
        for path in paths(busy) + paths(quiet):  # each page asked once: its answer is kept from then on
            sessions[0].get(base + path)
        sample = sessions[0].get(base + paths(busy[:1])[0]).json()
        print(f"a page's answer: {len(sample['claims'])} findings of 100 claims, "
              f"{len(sessions[0].get(base + paths(busy[:1])[0]).content) // 1024} KB")
        kinds = {"baseline: findings of a page with nothing to list (same lookups)": paths(quiet),
                 "findings of a page (its findings, citations, suggestions, actions)": paths(busy)}
        for clients in sorted({1, args.clients}):
            print_load_table(base, kinds, sessions[:clients], cookies[:clients], args.seconds,
                             f"request ({clients} concurrent client{'s' if clients > 1 else ''}, {args.claims:,} claims)")
            print()
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
