"""Editors' pages under load: 50,000 claims in PostgreSQL, 10 concurrent clients.

    .venv/bin/python bench/bench_editor_pages.py [--claims 50000] [--clients 10] [--seconds 20]

Fills its own database (sideeditor_bench_pages) with claims spread over 500 articles
(verdicts, sections, suggestions and editors' dismissals as a finished scan leaves them),
serves the app with gunicorn as configured in gunicorn.conf.py (workers: 2 x cores + 1) on loopback, and drives
each page kind with N clients, each logged in with its own session: first from wrk (a C
load generator, bench/wrk.py), then from N Python client threads. Prints p50 / p95
latency and requests per second per page kind and load generator. Baseline in the same run: the login
form, a page with no query of its own, at the same load (the floor that the web stack,
the sessions and the load generator on the same cores set for every page).

Before and after in the same run: first the code before issue 31 (its substring search on
trigram indexes, served from a `git archive` of that commit on the same database, its
indexes put back for it) answers every page kind, then today's code.
"""
from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.baseline import baseline_tree  # noqa: E402
from bench.benchdb import django_with, fresh_database, gunicorn, load_arguments  # noqa: E402
from bench import wrk  # noqa: E402
from bench.machine import load_line  # noqa: E402

DB_NAME = os.environ.get("SIDE_BENCH_DB", "sideeditor_bench_pages")  # another name beside someone else's run
WORDS = "viaduct railway lighthouse harbour mill bridge river tower church school station market".split()
VERDICTS = ["not_supported", "partially_supported", "supported", "source_unavailable"]
# main before issue 31 (search as a substring of the claim's text, on trigram indexes).
ISSUE_31_BASE = "af4e36c8ef3ba99d2b9056193aa709af317f1414"
# The indexes that search read (migration 0009), which 0018 drops: put back for its run.
SUBSTRING_INDEXES = {"claim_text_trgm": "UPPER(text) gin_trgm_ops", "claim_rest_trgm": "UPPER(sentence_rest) gin_trgm_ops"}


def fill(claims: int) -> list[int]:
    """Write the claims; returns their primary keys."""
    from django.contrib.auth.models import User

    from harness.claims import ClaimRow, add_claims
    from sideapp.claims.models import ClaimReview
    from sideapp.models import Article, Revision, Wiki
    from tests.users import make_user

    rng = random.Random(7)
    wiki = Wiki.objects.create(api_url="http://wiki.bench/api.php")
    per_article, pks = claims // 500, []
    for a in range(500):
        article = Article.objects.create(wiki=wiki, title=f"Bench {rng.choice(WORDS).title()} {a}")
        revision = Revision.objects.create(article=article, rev_id=a + 1, wikitext="")
        article.current_revision = revision
        article.save(update_fields=["current_revision"])
        rows = [ClaimRow(f"The {rng.choice(WORDS)} {n} opened in {1800 + rng.randrange(200)} near the "
                         f"{rng.choice(WORDS)}.", rng.choice(VERDICTS), rng.random(), [rng.choice(["History", "Design"])],
                         needs_citation=n % 17 == 0, cited_url="" if n % 17 == 0 else f"http://s.bench/{a}/{n}",
                         suggestion_url=f"http://g.bench/{a}/{n}" if n % 3 == 0 else "", better=n % 6 == 0)
                for n in range(per_article)]
        pks += [c.pk for c in add_claims(article, revision, rows, first=a * per_article)]
    editors = [make_user(f"bench_editor_{n}", "editor") for n in range(10)]
    ClaimReview.objects.bulk_create([ClaimReview(claim_id=pk, user=rng.choice(editors), kind="dismissed",
                                                 reason="claim_fine") for pk in rng.sample(pks, len(pks) // 20)])
    User.objects.filter(username__startswith="bench_editor_").update(is_active=True)
    return pks


def session(base: str, n: int):
    import requests

    from tests.users import PASSWORD

    s = requests.Session()
    page = s.get(f"{base}/login/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    answer = s.post(f"{base}/login/", data={"username": f"bench_editor_{n}", "password": PASSWORD,
                                            "csrfmiddlewaretoken": token}, headers={"Referer": f"{base}/login/"})
    if "sessionid" not in s.cookies:
        raise SystemExit(f"bench_editor_{n} could not log in ({answer.status_code})")
    return s


def drive(base: str, paths: list[str], sessions: list, seconds: float) -> dict:
    times: list[float] = []
    errors = [0]
    stop = time.monotonic() + seconds

    def client(s) -> None:
        rng = random.Random(id(s))
        while time.monotonic() < stop:
            started = time.perf_counter()
            response = s.get(base + rng.choice(paths), allow_redirects=False)  # a redirect is a failed login
            times.append(time.perf_counter() - started)
            errors[0] += response.status_code != 200

    threads = [threading.Thread(target=client, args=(s,)) for s in sessions]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    ordered = sorted(times)
    return {"requests": len(times), "errors": errors[0], "rps": len(times) / elapsed,
            "p50": statistics.median(ordered) * 1000, "p95": ordered[int(len(ordered) * 0.95)] * 1000}


def print_load_table(base: str, kinds: dict[str, list[str]], sessions: list, cookies: list[str],
                     seconds: float, first_column: str) -> None:
    """One markdown row per kind of request: wrk's figures beside the Python threads'."""
    if not wrk.available():
        print(wrk.MISSING)
    print(f"| {first_column} | wrk: p50 ms | p95 ms | req/s | Python client threads: p50 ms | p95 ms | req/s | errors |")
    print("|---|---|---|---|---|---|---|---|")
    for name, paths in kinds.items():
        w = (wrk.run(base, cookies, seconds=seconds, paths=paths) if wrk.available()
             else {"p50": float("nan"), "p95": float("nan"), "rps": float("nan"), "failed": 0})
        r = drive(base, paths, sessions, seconds)
        print(f"| {name} | {w['p50']:.0f} | {w['p95']:.0f} | {w['rps']:.1f} "
              f"| {r['p50']:.0f} | {r['p95']:.0f} | {r['rps']:.1f} | {r['errors'] + w['failed']} |", flush=True)


def page_kinds(pks: list[int]) -> dict[str, list[str]]:
    rng = random.Random(3)
    return {
        "baseline: the login form (no query of its own: the stack's floor at this load)": ["/login/"],
        "flagged list (the default list)": ["/claims/"],
        "filtered list (verdict, section, sort, page)": [
            "/claims/?verdict=not_supported&section=history&sort=article",
            "/claims/?better=on&page=3", "/claims/?show=all&sort=newest&page=40", "/claims/?needs_source=on",
            "/claims/?show=unavailable"],
        **search_kinds(),
        "claim page": [f"/claims/{pk}/" for pk in rng.sample(pks, 200)],
    }


def search_kinds() -> dict[str, list[str]]:
    """Searches as editors type them: one word; two words in any order, a phrase, a word
    left out, and a 300-character search (cut to 200)."""
    rng = random.Random(5)
    pairs = [rng.sample(WORDS, 2) for _ in range(12)]
    several = ([f"/claims/?q={a}+{b}" for a, b in pairs[:4]] + [f"/claims/?q=%22near+the+{b}%22" for _, b in pairs[4:8]]
               + [f"/claims/?q={a}+-{b}" for a, b in pairs[8:]] + ["/claims/?q=" + "+".join(rng.choices(WORDS, k=40))])
    return {"search: one word (each in about 1 claim in 6)": [f"/claims/?q={w}" for w in WORDS],
            "search: two words, a phrase, a -word, 300 characters": several}


def baseline_search(env: dict, clients: int, seconds: float, pks: list[int]) -> None:
    """Every page kind served by the code before issue 31, on this database: its searches,
    and its lists and claim page on the rows issue 31 widened (the stored search words)."""
    from dotenv import dotenv_values

    def sql(statement: str) -> None:
        subprocess.run(["psql", env["DATABASE_URL"], "-qc", statement], check=True)

    for name, expression in SUBSTRING_INDEXES.items():
        sql(f"CREATE INDEX {name} ON sideapp_claim USING gin ({expression})")
    sql("ANALYZE sideapp_claim")
    folder = baseline_tree(ISSUE_31_BASE, paths=())
    try:
        before_env = {**dotenv_values(ROOT / ".env"), **env}  # its tree has no .env of its own
        with gunicorn(before_env, root=Path(folder.name)) as base:
            sessions = [session(base, n) for n in range(clients)]
            cookies = [f"sessionid={s.cookies['sessionid']}" for s in sessions]
            kinds = {("baseline: the login form" if paths == ["/login/"] else f"before issue 31, {name}"): paths
                     for name, paths in page_kinds(pks).items()}
            print_load_table(base, kinds, sessions, cookies, seconds,
                             f"before issue 31 ({clients} concurrent clients, commit {ISSUE_31_BASE[:7]})")
            for s in sessions:
                s.close()
    finally:
        folder.cleanup()
        for name in SUBSTRING_INDEXES:
            sql(f"DROP INDEX {name}")
        sql("ANALYZE sideapp_claim")


def main() -> None:
    args = load_arguments(__doc__)
    print(load_line("before the run"))
    env = fresh_database(DB_NAME)
    django_with(env)
    started = time.perf_counter()
    pks = fill(args.claims)
    print(f"filled {len(pks)} claims in {time.perf_counter() - started:.0f} s")
    # What autovacuum does to a table that has settled: statistics, and the visibility map
    # that lets the list's count read its index alone.
    subprocess.run(["psql", env["DATABASE_URL"], "-qc", "VACUUM ANALYZE"], check=True)
    baseline_search(env, args.clients, args.seconds, pks)
    with gunicorn(env) as base:
        print(f"command: .venv/bin/python bench/bench_editor_pages.py --claims {args.claims} "
              f"--clients {args.clients} --seconds {args.seconds:g}")
        sessions = [session(base, n) for n in range(args.clients)]
        cookies = [f"sessionid={s.cookies['sessionid']}" for s in sessions]
        print_load_table(base, page_kinds(pks), sessions, cookies, args.seconds,
                         f"page ({args.clients} concurrent clients, {len(pks):,} claims)")
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
