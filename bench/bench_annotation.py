"""Annotation benchmark: results page render time and next-item latency.

    .venv/bin/python bench/bench_annotation.py [--items 10000] [--annotators 200] [--clients 10] [--requests 40] [--seconds 10]

Fills its own database (side_annotate_bench, dropped and re-created each run) with
`--items` pair items and the votes of `--annotators` annotators: 80% of the items have a
full set of 5 votes, the rest 2 (so every annotator still has work). Each item has a
"true" answer that 70% of its annotators give, so agreement is neither 0 nor 1.
Then measures, through the real views (Django's test client, each thread with its own
PostgreSQL connection):
  - GET /annotate/results/ as an admin (the statistics over every vote);
  - POST /annotate/ (a vote, answered with the next item's page) from `--clients`
    annotators at once, `--requests` each; p50 / p95 / max; then the same vote loop from
    wrk (a C load generator, bench/wrk.py) for `--seconds`, when wrk is installed.
Baseline, side by side in the same run: the next item chosen the naive way (COUNT of
votes per item, ORDER BY it, without the `taken` counter and conditional update), on
the same data, the same clients; and for the results page, the bare read of every vote
row (the floor any statistics page pays).
Targets (issue 12): results < 1 s; next item p95 < 100 ms.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import wrk  # noqa: E402
from bench.machine import load_line  # noqa: E402

DB_NAME = "side_annotate_bench"
CAP = 5
ITEM = re.compile(r'name="item" value="(\d+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def setup_django() -> None:
    admin = "postgres://postgres@127.0.0.1:5432/postgres"
    subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {DB_NAME}"], check=True)
    subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {DB_NAME}"], check=True)
    os.environ.update(DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DB_NAME}", DJANGO_SETTINGS_MODULE="sideapp.settings",
                      SIDE_ANNOTATION_VOTES_PER_ITEM=str(CAP), SIDE_ANNOTATION_GOLD_RATE="0", DEBUG="false", DB_CONN_MAX_AGE="60",
                      ALLOWED_HOSTS="testserver,127.0.0.1")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fill(items: int, annotators: int, seed: int = 1) -> list:
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from sideapp.annotation.models import Assignment, Item, Vote
    from tests.annotation_support import bulk_items

    rng = random.Random(seed)
    group = Group.objects.get_or_create(name="annotator")[0]
    people = User.objects.bulk_create([User(username=f"bench{n:03d}", password="!") for n in range(annotators)])
    group.user_set.add(*people)
    made = bulk_items(items, scores=[0.05, 0.25, 0.45, 0.65, 0.85], title="Bench")
    now, assignments, votes = timezone.now(), [], []
    for n, item in enumerate(made):
        count = CAP if n % 5 else 2
        truth = rng.choice(["wiki", "suggested", "suggested", "equal", "neither"])
        for person in rng.sample(people, count):
            wiki_left = rng.random() < 0.5
            pref = truth if rng.random() < 0.7 else rng.choice(["wiki", "suggested", "equal", "neither"])
            assignments.append(Assignment(item=item, annotator=person, wiki_left=wiki_left,
                                          state="answered", expires_at=now))
            votes.append(Vote(item=item, annotator=person, wiki_left=wiki_left, preference=pref,
                              evidence_wiki=rng.choice(["enough", "partial", "none"]),
                              evidence_suggested=rng.choice(["enough", "partial", "none"]),
                              guidelines_version="bench", seconds=rng.uniform(5, 60)))
        item.taken = count
    Item.objects.bulk_update(made, ["taken"], batch_size=5000)
    Assignment.objects.bulk_create(assignments, batch_size=5000)
    for vote, assignment in zip(votes, assignments):
        vote.assignment = assignment
    Vote.objects.bulk_create(votes, batch_size=5000)
    return people


def naive_next(annotator):
    """Baseline: fewest votes by COUNT, no counter, no conditional update (unsafe)."""
    from django.db.models import Count, Q

    from sideapp.annotation.models import Item

    return (Item.objects.exclude(assignments__annotator=annotator)
            .annotate(n=Count("votes", filter=~Q(votes__preference="skip")))
            .filter(n__lt=CAP).order_by("n", "pk").first())


def serve(port: int, workers: int | None) -> subprocess.Popen:
    """The app under gunicorn (as deployed: gunicorn.conf.py's workers unless told), on the bench database."""
    count = ["-w", str(workers)] if workers else []
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "sideapp.wsgi:application", *count,
                               "-b", f"127.0.0.1:{port}", "--log-level", "warning"], cwd=ROOT, env=dict(os.environ))
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start")


def session_cookie(person) -> str:
    from django.test import Client

    client = Client()
    client.force_login(person)
    return client.cookies["sessionid"].value


def http_clients(people, base: str, clients: int, requests: int, static: bool = False) -> list[float]:
    """`clients` annotators at once, each answering `requests` items over HTTP: time of
    each POST /annotate/ (the vote, answered with the next item's page); with `static`,
    of GET /annotate/guidelines/ instead (login, session and a template, nothing else)."""
    import http.cookiejar

    timings: list[float] = []
    lock, barrier = threading.Lock(), threading.Barrier(clients)

    def client_loop(sid: str):
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        jar.set_cookie(http.cookiejar.Cookie(0, "sessionid", sid, None, False, "127.0.0.1", False, False, "/",
                                             True, False, None, True, None, None, {}))
        page = opener.open(base + "/annotate/").read().decode()
        barrier.wait()
        mine = []
        for _ in range(requests):
            found, token = ITEM.search(page), CSRF.search(page)
            if not found:
                break
            body = urllib.parse.urlencode({"item": found[1], "preference": "a", "evidence_a": "enough",
                                           "evidence_b": "partial", "csrfmiddlewaretoken": token[1]}).encode()
            start = time.perf_counter()
            if static:  # the baseline: a page with no work of its own
                opener.open(base + "/annotate/guidelines/").read()
            else:
                page = opener.open(base + "/annotate/", data=body).read().decode()
            mine.append(time.perf_counter() - start)
        with lock:
            timings.extend(mine)

    sids = [session_cookie(p) for p in people[:clients]]
    threads = [threading.Thread(target=client_loop, args=(sid,)) for sid in sids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return timings


def wrk_clients(people, base: str, seconds: float) -> list[str]:
    """The vote loop and the baseline page driven by wrk (a C load generator, one
    connection per annotator): the server's latency without Python clients on the cores."""
    if not wrk.available():
        return [f"  {wrk.MISSING}"]
    cookies = [f"sessionid={session_cookie(p)}; csrftoken={wrk.csrf_cookie()}" for p in people]
    votes = wrk.run(base, cookies, seconds=seconds, vote=True)
    floor = wrk.run(base, cookies, seconds=seconds, paths=["/annotate/guidelines/"])
    return [f"  the same from wrk, {len(people)} connections, {seconds:g} s: {wrk_line(votes)} (target p95 < 100 ms)",
            f"  baseline from wrk, GET /annotate/guidelines/: {wrk_line(floor)}"]


def wrk_line(r: dict) -> str:
    return (f"p50 {r['p50']:.1f} ms, p95 {r['p95']:.1f} ms, p99 {r['p99']:.1f} ms "
            f"({r['requests']} requests, {r['rps']:.0f}/s, {r['failed']} failed)")


def service_clients(people, clients: int, requests: int, naive: bool) -> list[float]:
    """The selection alone, `clients` threads each with its own connection: ours
    (assignment_next, then the vote, untimed) or the naive COUNT query."""
    from django.db import connection

    from sideapp.annotation import services

    timings: list[float] = []
    lock, barrier = threading.Lock(), threading.Barrier(clients)
    answer = services.ScreenAnswer("b", "partial", "enough")

    def loop(person):
        try:
            barrier.wait()
            mine = []
            for _ in range(requests):
                start = time.perf_counter()
                got = naive_next(person) if naive else services.assignment_next(annotator=person)
                mine.append(time.perf_counter() - start)
                if got is None:
                    break
                if not naive:
                    services.vote_cast(annotator=person, item_id=got.item_id, answer=answer)
            with lock:
                timings.extend(mine)
        finally:
            connection.close()

    threads = [threading.Thread(target=loop, args=(p,)) for p in people[:clients]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return timings


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[max(0, int(round(0.95 * len(ordered))) - 1)]
    return (f"p50 {statistics.median(ordered) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
            f"max {ordered[-1] * 1000:.1f} ms ({len(ordered)} requests)")


def time_results(repeat: int) -> tuple[list[float], list[float]]:
    from django.contrib.auth.models import User
    from django.test import Client

    from sideapp.annotation.models import Vote

    admin = User.objects.create_superuser("bench-admin", password="!")
    client = Client()
    client.force_login(admin)
    page, floor = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get("/annotate/results/")
        assert response.status_code == 200, response.status_code
        page.append(time.perf_counter() - start)
        start = time.perf_counter()
        list(Vote.objects.values_list("item_id", "annotator_id", "wiki_left", "preference", "evidence_wiki",
                                      "evidence_suggested", "seconds").iterator(chunk_size=5000))
        floor.append(time.perf_counter() - start)
    return page, floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--annotators", type=int, default=200)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5, help="results page renders")
    parser.add_argument("--seconds", type=float, default=10, help="length of each wrk run")
    parser.add_argument("--port", type=int, default=8097)
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: gunicorn.conf.py's)")
    args = parser.parse_args()
    print("command: .venv/bin/python bench/bench_annotation.py " + " ".join(sys.argv[1:]))
    print(load_line("before the run"))
    setup_django()
    start = time.perf_counter()
    people = fill(args.items, args.annotators)
    from sideapp.annotation.models import Vote

    print(f"filled {args.items} items, {Vote.objects.count()} votes by {args.annotators} annotators "
          f"in {time.perf_counter() - start:.1f} s")
    # What autovacuum does to tables that have settled (statistics, the visibility map),
    # done now so that no run is measured before it and another after it.
    subprocess.run(["psql", os.environ["DATABASE_URL"], "-qc", "VACUUM ANALYZE"], check=True)
    page, floor = time_results(args.repeat)
    warm = page[1:] or page
    print(f"results page: first {page[0] * 1000:.0f} ms (templates, first queries), then mean {statistics.mean(warm) * 1000:.0f} ms, "
          f"max {max(warm) * 1000:.0f} ms (target < 1000 ms)")
    print(f"  baseline, reading the vote rows only: mean {statistics.mean(floor) * 1000:.0f} ms")
    shuffled = people[:]
    random.Random(2).shuffle(shuffled)
    server = serve(args.port, args.workers)
    try:
        base = f"http://127.0.0.1:{args.port}"
        alone = http_clients(shuffled[-1:], base, 1, args.requests)
        web = http_clients(shuffled, base, args.clients, args.requests)
        floor = http_clients(shuffled[args.clients:], base, args.clients, args.requests, static=True)
        by_wrk = wrk_clients(shuffled[3 * args.clients:4 * args.clients], base, args.seconds)
    finally:
        server.terminate()
        server.wait()
    print(f"vote + next item page (POST /annotate/ over HTTP, gunicorn -w {args.workers or 'as configured'}), {args.clients} clients: "
          f"{percentiles(web)} (target p95 < 100 ms)")
    print(f"  the same, one client alone (service time without queueing): {percentiles(alone)}")
    for line in by_wrk:
        print(line)
    print(f"  baseline, GET /annotate/guidelines/ (a page with no work of its own), {args.clients} clients: "
          f"{percentiles(floor)}")
    ours = service_clients(shuffled[args.clients:], args.clients, args.requests, naive=False)
    print(f"next-item selection alone (assignment_next), {args.clients} threads: {percentiles(ours)}")
    naive = service_clients(shuffled[2 * args.clients:], args.clients, args.requests, naive=True)
    print(f"  baseline, naive COUNT(votes) query, {args.clients} threads: {percentiles(naive)}")
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
