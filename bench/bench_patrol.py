"""Patrol benchmark: a burst of edits, each adding one citation, followed live.

    .venv/bin/python bench/bench_patrol.py [--edits 300] [--articles 30] [--claims 20] [--bot-every K]

A fresh local MediaWiki holds `--articles` articles of `--claims` cited claims each (loaded
before patrolling starts); patrolling is switched on; then a wiki user makes `--edits` edits
as fast as the wiki takes them, each appending one cited sentence to an article (round
robin; every third cites a page that does not say it). One worker of each kind runs, as in
the demo (`rqworker scan fetch default` and the model worker on `verify`), and queues the
patrol's reads every 5 s. Measured: lag from each edit (its save returned) to its claim's
verdict, p50 / p95; edits per minute sustained (edits / time from the first edit to the
last verdict); claims verified per added citation. Beside it, in the same run, the
baseline: a fresh database where each edit's revision is scanned whole, one scan per edit
(what checking each edit costs without patrol's comparison with the revision before it),
queued at the pace the burst's edits were made, by the same two workers running for good,
and timed the same way: from the first edit to the last verdict, workers stopped then
(neither side waits for the suggestion searches and corpus jobs that follow the verdicts).
Uses its own database (sideeditor_bench_patrol), dropped and re-created each run.

`--bot-every K`: what bots' edits cost the people's. After every K edits a bot account (in
the wiki's bot group, its edits flagged bot) rewrites one citation's title in an article, as
a citation bot does. Patrol reads each such edit only to close what it changed (a close-only
scan: nothing verified), so that a citation the bot rewrote is not "removed by" the next
person. The baseline is then patrol on the same burst without the bot's edits, in a fresh
database and on the same articles (they hold the first run's added sentences: the run with
bots comes second, on the longer articles), instead of the whole-revision scans.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_NAME = "sideeditor_bench_patrol"
SOURCES_HOST = "127.0.0.2"
MODEL_WORKER = "sideapp.pipeline.worker.SideModelWorker"

from bench.bench_pipeline import make_sources  # noqa: E402 - after the path is set
from bench.benchdb import django_with, fresh_database, own_redis, redis_forget  # noqa: E402
from bench.machine import load_line  # noqa: E402


def cite(base: str, pages: list[tuple[str, str]], n: int, wrong: bool = False) -> str:
    cited = (n + 17) % len(pages) if wrong else n
    return (f"{pages[n][1]}<ref>{{{{cite web|url={base}/pages/{pages[cited][0]}"
            f"|title=Bench page {cited}}}}}</ref>")


def articles(base: str, pages, count: int, claims: int) -> dict[str, str]:
    """Articles whose claims cite the first count * claims pages."""
    return {f"Patrol bench {a}": "\n\n".join(cite(base, pages, a * claims + c) for c in range(claims)) + "\n"
            for a in range(count)}


def workers(env: dict) -> list[subprocess.Popen]:
    command = [sys.executable, str(ROOT / "manage.py"), "rqworker"]
    return [subprocess.Popen(command + queues, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for queues in (["scan", "fetch", "default"], ["verify", "--worker-class", MODEL_WORKER])]


def ready(count: int, timeout: float = 300) -> None:
    """Wait until `count` workers have registered with Redis (ready to take jobs)."""
    import django_rq
    from rq import Worker

    connection = django_rq.get_connection()
    deadline = time.time() + timeout
    while Worker.count(connection=connection) < count and time.time() < deadline:
        time.sleep(0.5)


def stop(running: list[subprocess.Popen]) -> None:
    """Warm shutdown (each worker ends its current job, a suggestion search perhaps), then
    a kill for one that is still busy a minute later: the figures are taken by then."""
    for worker in running:
        worker.terminate()
    for worker in running:
        try:
            worker.wait(timeout=60)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def burst(wiki, base: str, pages, args, bot_every: int = 0) -> dict[int, tuple[float, str]]:
    """The people's edits: {revision: (when its save returned, its title)}; with `bot_every`,
    a bot's edit after every that many of them (not in the answer: only people's edits wait
    for a verdict)."""
    wiki.create_account("Bench Editor", "bench-password")
    site = wiki.site("Bench Editor", "bench-password")
    token = site.get_token("csrf")
    bot = _bot(wiki) if bot_every else None
    saved = {}
    first = args.articles * args.claims
    for n in range(args.edits):
        text = "\n\n" + cite(base, pages, first + n, wrong=n % 3 == 0)
        title = f"Patrol bench {n % args.articles}"
        result = site.post("edit", token=token, title=title, appendtext=text)
        saved[int(result["edit"]["newrevid"])] = (time.time(), title)
        if bot is not None and (n + 1) % bot_every == 0:
            _bot_edit(bot, f"Patrol bench {(n + args.articles // 2) % args.articles}", n)
    return saved


def _bot(wiki):
    wiki.create_account("Bench Citation Bot", "bench-password", groups=["bot"])
    return wiki.site("Bench Citation Bot", "bench-password")


def _bot_edit(site, title: str, n: int) -> None:
    """One citation's title rewritten, as a citation bot does, flagged bot."""
    text = site.pages[title].text(cache=False)
    old = text[text.index("|title=Bench page"):].split("}}", 1)[0]
    site.post("edit", token=site.get_token("csrf"), title=title, bot=1, summary="citation bot: title",
              text=text.replace(old, f"{old} (bot {n})", 1))


def verdicts(saved: dict[int, float], timeout: float) -> dict[int, float]:
    """{revision: when its claim got its verdict}, waiting until every edit has one."""
    from sideapp.models import PatrolRow

    deadline = time.time() + timeout
    done: dict[int, float] = {}
    while len(done) < len(saved) and time.time() < deadline:
        time.sleep(2)
        rows = PatrolRow.objects.filter(edit__revid__in=saved).exclude(claim__verified_at=None)
        done = {revid: at.timestamp() for revid, at in rows.values_list("edit__revid", "claim__verified_at")}
    return done


STEPS = ("read by the watcher", "revision scanned", "cited page fetched", "verdict")


def lag_steps(saved: dict[int, float]) -> dict[str, list[float]]:
    """Where each edit's lag went: seconds from its save to the watcher taking it, from
    there to its revision stored, to its cited page fetched, to its verdict."""
    from sideapp.models import PatrolRow

    rows = PatrolRow.objects.filter(edit__revid__in=saved).exclude(claim__verified_at=None).values_list(
        "edit__revid", "edit__created_at", "edit__scan_job__items__revision__scanned_at", "citation__source__fetched_at",
        "claim__verified_at")
    steps: dict[str, list[float]] = {step: [] for step in STEPS}
    for revid, *stamps in rows:
        times = [saved[revid], *(stamp.timestamp() for stamp in stamps if stamp)]
        if len(times) == len(STEPS) + 1:
            for step, start, end in zip(STEPS, times, times[1:]):
                steps[step].append(max(0.0, end - start))
    return steps


def patrol_run(env: dict, wiki, base: str, pages, args, bot_every: int = 0) -> dict:
    django_with(env)
    from sideapp.models import Claim, PatrolEdit
    from sideapp.patrol.services import wiki_patrol_set
    from sideapp.scans.wikis import wiki_for

    wiki_patrol_set(wiki=wiki_for(api_url=wiki.api_url), on=True)
    running = workers(env)
    try:
        ready(len(running))  # the model worker loads its models before it registers
        edits = burst(wiki, base, pages, args, bot_every)
        saved = {revid: at for revid, (at, _) in edits.items()}
        done = verdicts(saved, timeout=args.timeout)
    finally:
        stop(running)
    from django.db import connections

    steps = lag_steps(saved)
    lags = sorted(done[r] - saved[r] for r in done)
    span = max(done.values()) - min(saved.values()) if done else float("nan")
    result = {"lags": lags, "done": len(done), "span": span, "edit_seconds": max(saved.values()) - min(saved.values()),
              "verified": Claim.objects.exclude(verified_at=None).count(),
              "checked": sum(PatrolEdit.objects.values_list("claims_checked", flat=True)), "steps": steps,
              "edits": edits, "bot_edits": PatrolEdit.objects.filter(bot=True).count(),
              "bot_checked": sum(PatrolEdit.objects.filter(bot=True).values_list("claims_checked", flat=True))}
    connections.close_all()  # the baseline drops and re-creates the database
    return result


def baseline_run(env: dict, wiki, edits: dict[int, tuple[float, str]], args) -> dict:
    """Each edit's revision scanned whole in a fresh database (same name: this process's
    connection follows it), queued at the pace the edits were made, by the same two workers
    running for good, until every claim of those revisions has its verdict."""
    env = {**env, **fresh_database(DB_NAME)}
    from sideapp.models import Claim, ScanJob
    from sideapp.scans.services import scan_request
    from sideapp.scans.wikis import wiki_for

    row = wiki_for(api_url=wiki.api_url)
    running = workers(env)
    try:
        ready(len(running))
        started, first = time.time(), min(at for at, _ in edits.values())
        for revid, (at, title) in sorted(edits.items(), key=lambda e: e[1][0]):
            time.sleep(max(0.0, (at - first) - (time.time() - started)))
            scan_request(wiki=row, kind=ScanJob.Kind.TITLES, titles=[title], rev_id=revid)
        claims = Claim.objects.filter(revision_claims__revision__rev_id__in=list(edits)).distinct()
        deadline = started + args.timeout
        while claims.filter(verified_at=None).exclude(verify_state=Claim.State.FAILED).exists() and time.time() < deadline:
            time.sleep(2)
        last = claims.exclude(verified_at=None).order_by("-verified_at").values_list("verified_at", flat=True).first()
    finally:
        stop(running)
    verified = Claim.objects.exclude(verified_at=None).count()
    return {"seconds": (last.timestamp() - started) if last else float("nan"), "verified": verified}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=300)
    parser.add_argument("--articles", type=int, default=30)
    parser.add_argument("--claims", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--bot-every", type=int, default=0, metavar="K",
                        help="a bot's edit after every K edits; the baseline is then the burst without them")
    parser.add_argument("--no-baseline", action="store_true",
                        help="patrol only, for a quick look (figures to report keep the baseline beside them)")
    args = parser.parse_args()
    from harness.mediawiki import MediaWikiServer
    from harness.webserver import SourceServer

    print(load_line("before"))
    with tempfile.TemporaryDirectory(prefix="side-bench-patrol-") as tmp:
        tmp = Path(tmp)
        pages = make_sources(tmp / "sources", args.articles * args.claims + args.edits)
        with SourceServer(tmp / "sources", host=SOURCES_HOST) as server, MediaWikiServer(tmp / "wiki") as wiki:
            wiki.load_pages(articles(server.base_url, pages, args.articles, args.claims))
            redis = own_redis()
            redis_forget(redis)
            env = fresh_database(DB_NAME, REDIS_URL=redis, SIDE_FETCH_ALLOWLIST=SOURCES_HOST,
                                 SIDE_FETCH_HOST_DELAY="0", SIDE_INDEX_DIR=str(tmp / "index"),
                                 SIDE_WIKI_API_URL=wiki.api_url, SIDE_PATROL_INTERVAL="5")
            if args.bot_every:
                people = patrol_run(env, wiki, server.base_url, pages, args)
                redis_forget(redis)
                env = {**env, **fresh_database(DB_NAME), "SIDE_INDEX_DIR": str(tmp / "index-bots")}
                with_bots = patrol_run(env, wiki, server.base_url, pages, args, args.bot_every)
                redis_forget(redis)
                print(load_line("after"))
                return bots_report(args, people, with_bots)
            result = patrol_run(env, wiki, server.base_url, pages, args)
            redis_forget(redis)
            env["SIDE_INDEX_DIR"] = str(tmp / "index-baseline")
            baseline = ({"seconds": float("nan"), "verified": 0} if args.no_baseline
                        else baseline_run(env, wiki, result["edits"], args))
            redis_forget(redis)
    print(load_line("after"))
    report(args, result, baseline)


def _quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q * 100) - 1] if len(values) > 1 else (values or [float("nan")])[0]


def report(args, result: dict, baseline: dict) -> None:
    lags, n = result["lags"], args.edits
    print(f"command: .venv/bin/python bench/bench_patrol.py --edits {n} --articles {args.articles} "
          f"--claims {args.claims}")
    print(f"{n} edits in {result['edit_seconds']:.0f} s, each adding one citation to one of {args.articles} "
          f"articles of {args.claims}+ cited claims; {result['done']} of {n} had a verdict by the end\n")
    print("| | patrol (one worker of each kind) | baseline: each edit's revision scanned whole, same workers |")
    print("|---|---|---|")
    print(f"| lag edit -> verdict, p50 / p95 | {_quantile(lags, .5):.0f} s / {_quantile(lags, .95):.0f} s | - |")
    print(f"| edits per minute, sustained | {60 * result['done'] / result['span']:.0f} | - |")
    print(f"| claims verified | {result['verified']} | {baseline['verified']} |")
    print(f"| claims verified per added citation | {result['verified'] / n:.2f} | {baseline['verified'] / n:.2f} |")
    print(f"| wall time, first edit to last verdict | {result['span']:.0f} s | {baseline['seconds']:.0f} s |")
    print("\nWhere the lag went (seconds from the step before, p50 / p95; a page fetched before the "
          "edit's revision was stored, for an earlier edit citing it too, counts 0 s):\n")
    print("| step | p50 | p95 |\n|---|---|---|")
    for step, values in result["steps"].items():
        values = sorted(values)
        print(f"| {step} | {_quantile(values, .5):.0f} s | {_quantile(values, .95):.0f} s |")


def bots_report(args, people: dict, with_bots: dict) -> None:
    print(f"command: .venv/bin/python bench/bench_patrol.py --edits {args.edits} --articles {args.articles} "
          f"--claims {args.claims} --bot-every {args.bot_every}")
    print(f"{args.edits} people's edits, each adding one citation; then the same burst with a bot's citation "
          f"rewrite after every {args.bot_every} of them\n")
    print("| | people's edits only (baseline) | with the bot's edits |\n|---|---|---|")
    for run in (people, with_bots):
        run["lag"] = f"{_quantile(run['lags'], .5):.0f} s / {_quantile(run['lags'], .95):.0f} s"
    print(f"| people's edits with a verdict | {people['done']} of {args.edits} | {with_bots['done']} of {args.edits} |")
    print(f"| lag edit -> verdict, p50 / p95 | {people['lag']} | {with_bots['lag']} |")
    print(f"| bot edits read / claims they sent to the verifier | - | {with_bots['bot_edits']} / {with_bots['bot_checked']} |")
    print(f"| claims verified | {people['verified']} | {with_bots['verified']} |")
    print(f"| the burst's edits, first to last | {people['edit_seconds']:.0f} s | {with_bots['edit_seconds']:.0f} s |")
    print(f"| wall time, first edit to last verdict | {people['span']:.0f} s | {with_bots['span']:.0f} s |")


if __name__ == "__main__":
    main()
