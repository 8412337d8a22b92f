"""Editors' pages under load: 50,000 or 1,000,000 claims in PostgreSQL, 10 concurrent clients.

    .venv/bin/python bench/bench_editor_pages.py [--claims 50000] [--clients 10] [--seconds 20]
        [--baseline COMMIT | issue31 | none] [--keep] [--reuse]

Fills its own database (sideeditor_bench_pages, or $SIDE_BENCH_DB) with claims spread over 500 articles
(verdicts, sections, suggestions and editors' dismissals as a finished scan leaves them),
generated in PostgreSQL (bench/bulkfill.py: a million claims in about 6 minutes on 2 busy
cores), serves the app with gunicorn as configured in gunicorn.conf.py (workers: 2 x cores + 1) on loopback, and drives
each page kind with N clients, each logged in with its own session: first from wrk (a C
load generator, bench/wrk.py), then from N Python client threads. Prints p50 / p95
latency and requests per second per page kind and load generator. Baseline in the same run: the login
form, a page with no query of its own, at the same load (the floor that the web stack,
the sessions and the load generator on the same cores set for every page).

Before and after in the same run, on the same database: `--baseline COMMIT` serves every page
kind first from that commit's code (a `git archive` of its tree), with the database migrated
back to that commit's newest migration (today's later indexes dropped), then migrates it
forward and serves today's code. `--baseline issue31` (the default) serves first the code
before issue 31 (its substring search on trigram indexes, put back for it). The database is
dropped at the end (a million claims take about 2 GB) unless `--keep`; `--reuse` runs on the
database a `--keep` run left, without filling it again.
"""
from __future__ import annotations

import contextlib
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
from bench.benchdb import django_with, drop_database, fresh_database, gunicorn, load_arguments  # noqa: E402
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
    """Write the claims (generated in PostgreSQL: a million in minutes); returns their
    primary keys. Each article holds claims // 500 of them; claim n of an article has two
    of WORDS, a verdict, a score and a section drawn from a hash of its number, needs a
    source if n % 17 == 0 (else it cites a page), has a suggestion if n % 3 == 0 (better
    than its citation if n % 6 == 0); one claim in 20 is dismissed by one of 10 editors."""
    import json

    from django.contrib.auth.models import User
    from django.db import connection

    from bench.bulkfill import indexes_set_aside, insert_select
    from harness.claims import evidence
    from sideapp.claims.models import ClaimReview
    from sideapp.models import Article, Citation, Claim, ClaimCitation, Revision, RevisionClaim, Suggestion, Wiki
    from tests.users import make_user

    rng = random.Random(7)
    wiki = Wiki.objects.create(api_url="http://wiki.bench/api.php")
    per_article, articles, revisions = claims // 500, [], []
    for a in range(500):
        article = Article.objects.create(wiki=wiki, title=f"Bench {rng.choice(WORDS).title()} {a}")
        revision = Revision.objects.create(article=article, rev_id=a + 1, wikitext="")
        article.current_revision = revision
        article.save(update_fields=["current_revision"])
        articles.append(article.pk)
        revisions.append(revision.pk)
    # What flag_rule makes of each verdict, with and without {{citation needed}}.
    rules = ", ".join(f"('{v}', {n}, {f}, {look})" for v in VERDICTS for n in ("true", "false")
                      for f, look in [Claim.flag_rule(verdict=v, confidence="high", needs_citation=n == "true")])
    words = "ARRAY[" + ", ".join(f"'{w}'" for w in WORDS) + "]"
    verdicts = "ARRAY[" + ", ".join(f"'{v}'" for v in VERDICTS) + "]"
    sections = "ARRAY['History', 'Design']"

    def pick(values: str, k: str, salt: int, size: int) -> str:  # hashint8 gives an int4: abs() as bigint
        return f"({values})[1 + mod(abs(hashint8({k} * 7 + {salt})::bigint), {size})]"

    numbered = (f"SELECT art.article_id, art.revision_id, n, (art.i - 1) * {per_article} + n AS k "
                "FROM unnest(%s::bigint[], %s::bigint[]) WITH ORDINALITY AS art(article_id, revision_id, i) "
                f"CROSS JOIN generate_series(0, {per_article - 1}) AS n")
    drawn = (f"SELECT g.*, {pick(words, 'k', 1, 12)} AS w1, {pick(words, 'k', 2, 12)} AS w2, "
             f"1800 + mod(abs(hashint8(k * 7 + 3)::bigint), 200) AS year, {pick(verdicts, 'k', 4, 4)} AS verdict, "
             "abs(hashint8(k * 7 + 5)::bigint)::float8 / 2147483648 AS score, "
             f"{pick(sections, 'k', 6, 2)} AS section, "
             f"mod(n, 17) = 0 AS needs_citation, %s::jsonb AS evidence FROM ({numbered}) AS g")
    tables = [m._meta.db_table for m in (Claim, RevisionClaim, Citation, ClaimCitation, Suggestion)]
    with contextlib.ExitStack() as stack:
        for table in tables:
            stack.enter_context(indexes_set_aside(table))
        insert_select(Claim, {
            "article_id": "r.article_id", "fingerprint": "r.k::text",
            "text": "'The ' || r.w1 || ' ' || r.n || ' opened in ' || r.year || ' near the ' || r.w2 || '.'",
            "section": "jsonb_build_array(r.section)", "needs_citation": "r.needs_citation",
            "first_revision_id": "r.revision_id", "last_revision_id": "r.revision_id", "verdict": "r.verdict",
            "score": "r.score", "confidence": "'high'", "current": "true", "flagged": "rule.flagged",
            "needs_look": "rule.needs_look", "verify_state": f"'{Claim.State.DONE}'", "evidence": "r.evidence",
        }, f"FROM ({drawn}) AS r JOIN (VALUES {rules}) AS rule(verdict, needs_citation, flagged, needs_look) "
           "USING (verdict, needs_citation) ORDER BY r.k",
           [json.dumps(evidence("It is 31 m tall.")), articles, revisions])  # in the order they stand
        # Claim n of article a is claim number a * per_article + n (its fingerprint).
        a_n = f"(c.fingerprint::int / {per_article}) || '/' || mod(c.fingerprint::int, {per_article})"
        insert_select(RevisionClaim, {"revision_id": "c.last_revision_id", "claim_id": "c.id",
                                      "position": "c.fingerprint::int"}, "FROM sideapp_claim c")
        insert_select(Citation, {"article_id": "c.article_id", "fingerprint": "'c' || c.fingerprint", "kind": "'ref'",
                                 "raw": "'<ref/>'", "url": f"'http://s.bench/' || {a_n}"},
                      "FROM sideapp_claim c WHERE NOT c.needs_citation")
        insert_select(ClaimCitation, {"claim_id": "c.id", "citation_id": "cit.id", "verdict": "c.verdict",
                                      "score": "c.score", "evidence": "c.evidence"},
                      "FROM sideapp_claim c JOIN sideapp_citation cit ON cit.article_id = c.article_id "
                      "AND cit.fingerprint = 'c' || c.fingerprint")
        insert_select(Suggestion, {"claim_id": "c.id", "rank": "1", "url": f"'http://g.bench/' || {a_n}",
                                   "title": "'A suggested page'", "score": "0.9", "verdict": "'supported'",
                                   "beats_current": f"mod(mod(c.fingerprint::int, {per_article}), 6) = 0",
                                   "evidence": "c.evidence"},
                      f"FROM sideapp_claim c WHERE mod(mod(c.fingerprint::int, {per_article}), 3) = 0")
    editors = [make_user(f"bench_editor_{n}", "editor").pk for n in range(10)]
    users = "ARRAY[" + ", ".join(map(str, editors)) + "]"
    insert_select(ClaimReview, {"claim_id": "c.id", "user_id": pick(users, "c.id", 8, 10),
                                "kind": "'dismissed'", "reason": "'claim_fine'"},
                  "FROM sideapp_claim c WHERE mod(abs(hashint8(c.id * 7 + 9)::bigint), 20) = 0")
    User.objects.filter(username__startswith="bench_editor_").update(is_active=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM sideapp_claim ORDER BY id")
        return [pk for (pk,) in cursor.fetchall()]


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


def last_migration(commit: str) -> str:
    """The newest migration of sideapp at `commit` (the schema that commit's code reads)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", commit, "sideapp/migrations/"],
                            check=True, capture_output=True, text=True).stdout.split()
    return max(Path(name).stem for name in listed if re.match(r"\d{4}_", Path(name).name))


def baseline_commit(env: dict, commit: str, clients: int, seconds: float, pks: list[int]) -> None:
    """Every page kind served by `commit`'s code (a `git archive` of its tree) on this
    database, migrated back to that commit's schema (today's migrations since then undone:
    its indexes, not this code's), then forward again for today's code."""
    from dotenv import dotenv_values

    from bench.benchdb import manage

    older = last_migration(commit)
    started = time.perf_counter()
    manage(env, "migrate", "sideapp", older, "-v0")
    subprocess.run(["psql", env["DATABASE_URL"], "-qc", "ANALYZE"], check=True)
    print(f"migrated back to {older} (the schema of {commit[:9]}) in {time.perf_counter() - started:.0f} s")
    folder = baseline_tree(commit, paths=())
    try:
        before_env = {**dotenv_values(ROOT / ".env"), **env}  # its tree has no .env of its own
        with gunicorn(before_env, root=Path(folder.name)) as base:
            sessions = [session(base, n) for n in range(clients)]
            cookies = [f"sessionid={s.cookies['sessionid']}" for s in sessions]
            print_load_table(base, page_kinds(pks), sessions, cookies, seconds,
                             f"commit {commit[:9]} ({clients} concurrent clients, {len(pks):,} claims)")
            for s in sessions:
                s.close()
    finally:
        folder.cleanup()
        started = time.perf_counter()
        manage(env, "migrate", "-v0")
        subprocess.run(["psql", env["DATABASE_URL"], "-qc", "VACUUM ANALYZE"], check=True)
        print(f"migrated forward again in {time.perf_counter() - started:.0f} s")


def options(parser) -> None:
    parser.add_argument("--baseline", default="issue31", help="a commit whose code answers every page first, "
                        "on the same database at its schema; 'issue31' (the default): the code before issue 31 "
                        "with its trigram indexes; 'none': today's code only")
    parser.add_argument("--keep", action="store_true", help="keep the filled database after the run")
    parser.add_argument("--reuse", action="store_true", help="the database a --keep run left, as it is (no fill)")


def prepared(args) -> tuple[dict, list[int]]:
    """The benchmark's database, filled (or as a --keep run left it), and its claims' keys."""
    from bench.benchdb import manage

    if args.reuse:
        env = dict(os.environ, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DB_NAME}")
        manage(env, "migrate", "-v0")
        django_with(env)
        from sideapp.models import Claim

        return env, list(Claim.objects.order_by("pk").values_list("pk", flat=True))
    env = fresh_database(DB_NAME)
    django_with(env)
    started = time.perf_counter()
    pks = fill(args.claims)
    print(f"filled {len(pks):,} claims in {time.perf_counter() - started:.0f} s")
    # What autovacuum does to a table that has settled: statistics, and the visibility map
    # that lets the list's count read its index alone.
    subprocess.run(["psql", env["DATABASE_URL"], "-qc", "VACUUM ANALYZE"], check=True)
    return env, pks


def main() -> None:
    args = load_arguments(__doc__, more=options)
    print(load_line("before the run"))
    env, pks = prepared(args)
    command = (f"command: .venv/bin/python bench/bench_editor_pages.py --claims {args.claims} --clients {args.clients} "
               f"--seconds {args.seconds:g} --baseline {args.baseline}")
    print(command, flush=True)
    if args.baseline == "issue31":
        baseline_search(env, args.clients, args.seconds, pks)
    elif args.baseline != "none":
        baseline_commit(env, args.baseline, args.clients, args.seconds, pks)
    with gunicorn(env) as base:
        sessions = [session(base, n) for n in range(args.clients)]
        cookies = [f"sessionid={s.cookies['sessionid']}" for s in sessions]
        print_load_table(base, page_kinds(pks), sessions, cookies, args.seconds,
                         f"page ({args.clients} concurrent clients, {len(pks):,} claims)")
    print(load_line("after the run"))
    if not args.keep:
        from django.db import connections

        connections.close_all()
        drop_database(DB_NAME)  # a million claims take gigabytes


if __name__ == "__main__":
    main()
