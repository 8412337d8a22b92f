"""The public findings API as the gadget's traffic on a large wiki: many readers, many pages,
50,000 claims; with and without If-None-Match, beside the previous commit in the same run.

    .venv/bin/python bench/bench_findings_api.py [--claims 50000] [--clients 10] [--seconds 20]
                                                 [--baseline COMMIT] [--direct]

Fills its own database (sideeditor_bench_api) with claims spread over 500 articles of one
wiki known by its identity (100 claims a page, verdicts as a finished scan leaves them, a
third with suggestions) and puts each revision's rendered targets in Redis as the first
request for a page would. Then, for the baseline commit (default: the commit before issue 32,
which had no ETag; its tree is written to a temporary folder with `git archive`) and for this
checkout, one after the other on the same data: gunicorn as configured in gunicorn.conf.py,
every page asked once (its answer is kept in Redis from then on, as in production), then wrk
(bench/wrk/findings.lua) with --clients connections, each a reader asking for random pages as
the gadget does (`?wiki_id=&page_id=&revision=`): first plainly (a reader with nothing kept),
then revalidating with the ETag its last answer of that page carried (If-None-Match: a reader
whose kept answer is older than its max-age, or the gadget after a check it asked for). The
baseline answers those with the whole page again (it has no ETag); this checkout with 304.

The readers reach gunicorn through a real nginx in front of it (harness/nginx.py, as
docs/operations.md deploys it), for both sides; `--direct` asks gunicorn itself. wrk runs at
most 4 threads for the connections (one per connection would take the cores it measures).
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import wrk  # noqa: E402 - after the path is set
from bench.baseline import baseline_tree  # noqa: E402
from bench.benchdb import django_with, free_port, fresh_database, own_redis, redis_forget  # noqa: E402
from bench.machine import load_line  # noqa: E402
from harness.nginx import Nginx  # noqa: E402

REDIS_DB = own_redis()
DB_NAME = "sideeditor_bench_api"
WORDS = "viaduct railway lighthouse harbour mill bridge river tower church school station market".split()
VERDICTS = ["not_supported", "partially_supported", "supported", "source_unavailable"]
ISSUE_32_BASE = "af4e36c8ef3ba99d2b9056193aa709af317f1414"  # main before issue 32 (no ETag)
SCRIPT = Path(__file__).resolve().parent / "wrk" / "findings.lua"


def fill(claims: int) -> list[tuple[int, int]]:
    """Write the claims; returns (page id, revision id) of every page."""
    from harness.claims import ClaimRow, add_claims
    from sideapp.api import cache
    from sideapp.models import Article, Revision, Wiki

    rng = random.Random(7)
    wiki = Wiki.objects.create(api_url="http://wiki.bench/api.php", wikiid="benchwiki", name="Bench wiki",
                               server="http://wiki.bench")
    per_article, pages = claims // 500, []
    for a in range(500):
        article = Article.objects.create(wiki=wiki, title=f"Bench {rng.choice(WORDS).title()} {a}", page_id=1000 + a)
        revision = Revision.objects.create(article=article, rev_id=5000 + a, wikitext="")
        article.current_revision = revision
        article.save(update_fields=["current_revision"])
        rows = [ClaimRow(f"The {rng.choice(WORDS)} {n} opened in {1800 + rng.randrange(200)} near the "
                         f"{rng.choice(WORDS)}.", "supported" if a < 20 else rng.choice(VERDICTS), rng.random(),
                         [rng.choice(["History", "Design"])], cited_url=f"http://s.bench/{a}/{n}",
                         suggestion_url=f"http://g.bench/{a}/{n}" if n % 3 == 0 else "", better=n % 6 == 0)
                for n in range(per_article)]
        made = add_claims(article, revision, rows, first=a * per_article)
        targets = {str(c.pk): {"text": c.text, "after": f"cite_ref-{n}", "urls": [r.cited_url], "whole": True}
                   for n, (c, r) in enumerate(zip(made, rows))}
        for key in (f"side:api:targets:{revision.pk}", f"side:api:targets:v2:{revision.pk}"):  # the two commits' keys
            cache.keep_json(key, targets, seconds=3600)
        pages.append((article.page_id, revision.rev_id))
    return pages


def serve(env: dict, cwd: Path):
    """gunicorn for the code in `cwd` (gunicorn.conf.py there), on a free port."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "sideapp.wsgi", "-b", f"127.0.0.1:{port}",
                               "--log-level", "warning"], env=env, cwd=cwd)
    base = f"http://127.0.0.1:{port}"
    import requests

    for _ in range(120):
        try:
            requests.get(base + "/api/v1/scans/1", timeout=10)
            return server, base
        except requests.RequestException:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit(f"gunicorn in {cwd} did not answer")


def warm(base: str, paths: list[str]) -> dict[str, str]:
    """Every page asked once (its answer kept from then on); {path: its ETag, "" when none}."""
    import requests

    session, etags = requests.Session(), {}
    for path in paths:
        answer = session.get(base + path)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
        etags[path] = answer.headers.get("ETag", "")
    return etags


def run_wrk(base: str, etags: dict[str, str], *, clients: int, seconds: float, revalidate: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp, "paths")
        listing.write_text("".join(f"{path}\t{etag}\n" for path, etag in etags.items()))
        env = dict(os.environ, SIDE_WRK_PATHS=str(listing), SIDE_WRK_REVALIDATE="1" if revalidate else "0")
        threads = min(clients, 4)
        out = subprocess.run(["wrk", f"-t{threads}", f"-c{clients}", f"-d{seconds:g}s", "-s", str(SCRIPT), base],
                             env=env, capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("WRK "))
    p50, p95, requests, rps, not_modified, failed = line.split()[1:]
    return {"p50": float(p50), "p95": float(p95), "requests": int(requests), "rps": float(rps),
            "304": int(not_modified), "failed": int(failed)}


def measure(name: str, env: dict, cwd: Path, paths: list[str], args) -> list[tuple]:
    redis_forget(REDIS_DB, patterns=("side:api:findings:*", "side:api:latest:*"))
    server, base = serve(env, cwd)
    proxy = None if args.direct else Nginx(upstream=base.removeprefix("http://"))
    try:
        if proxy is not None:
            proxy.start()
            base = proxy.base_url
        etags = warm(base, paths)
        rows = []
        for revalidate in (False, True):
            figures = run_wrk(base, etags, clients=args.clients, seconds=args.seconds, revalidate=revalidate)
            rows.append((name, "If-None-Match (the ETag of its last answer)" if revalidate else "plain GET", figures))
            print(f"  {name}, {'revalidating' if revalidate else 'plain'}: {figures}", flush=True)
        return rows
    finally:
        if proxy is not None:
            proxy.stop()
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a worker stuck on the loaded machine
            server.kill()
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--claims", type=int, default=50_000)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--baseline", default=ISSUE_32_BASE)
    parser.add_argument("--direct", action="store_true", help="readers ask gunicorn itself, no nginx in front")
    args = parser.parse_args()
    if not wrk.available():
        raise SystemExit(wrk.MISSING)
    print(load_line("before the run"), flush=True)
    redis_forget(REDIS_DB)
    env = fresh_database(DB_NAME, REDIS_URL=REDIS_DB)
    django_with(env)
    started = time.perf_counter()
    pages = fill(args.claims)
    print(f"filled {args.claims} claims on {len(pages)} pages in {time.perf_counter() - started:.0f} s", flush=True)
    subprocess.run(["psql", env["DATABASE_URL"], "-qc", "VACUUM ANALYZE"], check=True)
    paths = [f"/api/v1/findings?wiki_id=benchwiki&page_id={p}&revision={r}" for p, r in pages]
    env = {**os.environ, **env}  # with what .env gave this process (the baseline tree has no .env)
    rows = []
    with baseline_tree(args.baseline, paths=()) as old:
        rows += measure(f"baseline {args.baseline[:7]}", env, Path(old), paths, args)
    rows += measure("this checkout", env, ROOT, paths, args)
    print(load_line("after the run"))
    print(f"\ncommand: .venv/bin/python bench/bench_findings_api.py --claims {args.claims} --clients {args.clients} "
          f"--seconds {args.seconds:g} --baseline {args.baseline[:7]}{' --direct' if args.direct else ''}\n")
    print("readers -> gunicorn directly" if args.direct else "readers -> nginx -> gunicorn (harness/nginx.py)")
    print(f"| code | {args.clients} readers, {len(pages)} pages, {args.claims:,} claims | p50 ms | p95 ms | req/s "
          f"| answered 304 | errors |")
    print("|---|---|---|---|---|---|---|")
    for name, kind, f in rows:
        print(f"| {name} | {kind} | {f['p50']:.1f} | {f['p95']:.1f} | {f['rps']:.0f} | {f['304']} of {f['requests']} "
              f"| {f['failed']} |")


if __name__ == "__main__":
    main()
