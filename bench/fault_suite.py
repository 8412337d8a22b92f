"""Fault suite: the real services made to fail while Side editor works, and what is left after.

    .venv/bin/python bench/fault_suite.py [--outage 60] [--pg-port 8310] [--redis-port 8311]

Its own PostgreSQL cluster and Redis (bench/fault_services.py: restarting them touches no one
else's), a fresh local MediaWiki behind a proxy that can hold, refuse (503) or lag (maxlag)
its requests (harness/faulty_proxy.py), the cited-pages server, and one worker of each kind
kept running as a service manager keeps them. The demo articles are scanned once, then editors'
judgements and audit entries are written; then each fault gets a round of fresh work (two new
articles, or patrolled edits) and is injected in the middle of it:

    kill -9 of the scan worker while the wiki answers its read, of the cheap worker while it
    fetches a cited page, of the model worker while it verifies, of the worker holding the
    patrol's read of recent changes; Redis stopped and started again empty; PostgreSQL
    restarted; the wiki answering 503, then maxlag, for --outage seconds; a cited page that
    stalls after its headers and one that streams without end.

After each round: every scan has ended (done, partial, or failed with a reason in words), no
claim, citation, revision, patrol edit or patrol row is there twice, every judgement and audit
entry written before is still there, and the time from the end of the fault (the worker
started again, the service back, the wiki healed) to the round's last scan ending is the
recovery time. Prints a Markdown table (docs/reliability.md holds the latest).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import sys

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.benchdb import django_with, manage  # noqa: E402 - after the path is set
from bench.fault_services import OwnPostgres, OwnRedis, Workers  # noqa: E402
from bench.machine import load_line  # noqa: E402

SOURCES_HOST = "127.0.0.2"
ROUND_TIMEOUT = 900


@dataclass
class Row:
    fault: str
    ran: str
    outcome: str = ""
    recovery: float = float("nan")
    ok: bool = False


class Suite:
    def __init__(self, env: dict, wiki, proxy, sources, workers: Workers, pg: OwnPostgres, redis: OwnRedis, args):
        self.env, self.wiki, self.proxy, self.sources = env, wiki, proxy, sources
        self.workers, self.pg, self.redis, self.args = workers, pg, redis, args
        self.round = 0
        self.rows: list[Row] = []
        from sideapp.scans.wikis import wiki_for

        self.row = wiki_for(api_url=proxy.api_url)

    # -- work -------------------------------------------------------------------------
    def articles(self, count: int = 2, cite: str = "pages/acp-river-arle.html") -> list[str]:
        """Fresh short articles on the wiki (new titles: every claim new, four to verify), the
        last sentence citing `cite`."""
        self.round += 1
        base = f"{self.sources.base_url}/pages/acp-river-arle.html"
        made = {}
        for n in range(count):
            ref = f"<ref>{{{{cite web |url={base}?round={self.round}-{n} |title=The River Arle}}}}</ref>"
            last = f"{self.sources.base_url}/{cite}{'&' if '?' in cite else '?'}round={self.round}-{n}"
            made[f"Fault {self.round}-{n} River"] = (
                f"The Arle rises on Brannock Moor.{ref} It flows for about 64 kilometres to the sea at Kellhaven.{ref}"
                f" A colony of pink flamingos nests on its salt marshes.{ref}\n\n"
                f"The river was surveyed in round {self.round}.<ref>{{{{cite web |url={last} |title=Survey}}}}</ref>\n")
        self.wiki.load_pages(made, summary="fault suite")
        return list(made)

    def scan(self, titles: list[str]):
        from sideapp.models import ScanJob
        from sideapp.scans.services import scan_request

        return scan_request(wiki=self.row, kind=ScanJob.Kind.TITLES, titles=titles)

    def wait_until(self, done, timeout: float = ROUND_TIMEOUT, what: str = "") -> bool:
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.workers.keep()
            try:
                if done():
                    return True
            except Exception:  # noqa: BLE001 - the database may be restarting: ask again
                from django.db import connections

                connections.close_all()
            time.sleep(0.5)
        print(f"  gave up waiting: {what}")
        return False

    def ended(self, jobs) -> bool:
        from sideapp.models import ScanJob

        return not ScanJob.objects.filter(pk__in=[j.pk for j in jobs], status__in=ScanJob.OPEN).exists()

    # -- checks -------------------------------------------------------------------------
    def judgements(self) -> tuple[int, int]:
        from sideapp.claims.models import ClaimReview
        from sideapp.models import AuditEntry

        return ClaimReview.objects.count(), AuditEntry.objects.count()

    def duplicates(self) -> list[str]:
        from django.db import connection

        checks = {"claims": "sideapp_claim GROUP BY article_id, fingerprint",
                  "citations": "sideapp_citation GROUP BY article_id, fingerprint",
                  "revisions": "sideapp_revision GROUP BY article_id, rev_id",
                  "articles": "sideapp_article WHERE page_id IS NOT NULL GROUP BY wiki_id, page_id",
                  "patrol edits": "sideapp_patroledit GROUP BY wiki_id, rcid",
                  "patrol rows": "sideapp_patrolrow GROUP BY edit_id, claim_id, citation_id",
                  "claims of a revision": "sideapp_revisionclaim GROUP BY revision_id, claim_id"}
        found = []
        with connection.cursor() as cursor:
            for name, query in checks.items():
                cursor.execute(f"SELECT count(*) FROM (SELECT 1 FROM {query} HAVING count(*) > 1) twice")
                if cursor.fetchone()[0]:
                    found.append(name)
        return found

    def finish(self, row: Row, jobs, healed: float, kept: tuple[int, int]) -> None:
        from sideapp.models import ScanJob

        ended = self.wait_until(lambda: self.ended(jobs), what=row.fault)
        row.recovery = time.time() - healed
        jobs = list(ScanJob.objects.filter(pk__in=[j.pk for j in jobs]))
        states = sorted({j.status for j in jobs})
        silent = [j.pk for j in jobs if j.status in ("failed", "partial") and not j.reason]
        twice, now = self.duplicates(), self.judgements()
        lost = [n for n, a, b in zip(("judgements", "audit entries"), kept, now) if b < a]
        reasons = "; ".join(sorted({j.reason for j in jobs if j.reason}))[:160]
        row.outcome = (f"{len(jobs)} scans {'/'.join(states)}" + (f" ({reasons})" if reasons else "")
                       + ("" if not twice else f"; TWICE: {', '.join(twice)}")
                       + ("" if not lost else f"; LOST: {', '.join(lost)}")
                       + ("" if not silent else f"; {len(silent)} without a reason"))
        row.ok = ended and not twice and not lost and not silent
        self.rows.append(row)
        print(f"  {row.fault}: {row.outcome}; recovered in {row.recovery:.0f} s", flush=True)

    # -- the faults ---------------------------------------------------------------------
    def kill_scan(self) -> None:
        kept, titles = self.judgements(), self.articles()
        self.proxy.hold("prop=revisions")
        jobs = [self.scan(titles)]
        self.proxy.wait_held(1, timeout=120)
        self.workers.kill("cheap")
        self.proxy.release()
        self.workers.keep()
        self.finish(Row("kill -9 of the scan worker while the wiki answers its read", "scan of 2 new articles"),
                    jobs, time.time(), kept)

    def kill_fetch(self) -> None:
        kept = self.judgements()
        titles = self.articles(cite="slow/acp-river-arle.html?delay=6")
        jobs = [self.scan(titles)]
        self.wait_until(lambda: any(r.path.startswith("/slow/") for r in self.sources.requests()), 300, "a fetch")
        self.workers.kill("cheap")
        self.workers.keep()
        self.finish(Row("kill -9 of the fetch worker in the middle of a fetch (a page taking 6 s)",
                        "scan of 2 new articles"), jobs, time.time(), kept)

    def kill_verify(self) -> None:
        import django_rq
        from rq.registry import StartedJobRegistry

        kept, titles = self.judgements(), self.articles()
        jobs = [self.scan(titles)]
        started = StartedJobRegistry("verify", connection=django_rq.get_connection())
        self.wait_until(lambda: self.verifying(jobs) and started.count > 0, 300, "a verification")
        self.workers.kill("model")
        self.workers.keep()
        self.finish(Row("kill -9 of the model worker in the middle of a verification", "scan of 2 new articles"),
                    jobs, time.time(), kept)

    def kill_patrol(self) -> None:
        from sideapp.models import PatrolEdit, ScanJob
        from sideapp.patrol.services import wiki_patrol_set

        kept = self.judgements()
        wiki_patrol_set(wiki=self.row, on=True)
        revids = self.patrol_edits(3)
        self.proxy.hold("list=recentchanges")
        self.proxy.wait_held(1, timeout=120)  # the cheap worker's read, queued by its maintenance
        self.workers.kill("cheap")
        self.proxy.release()
        self.workers.keep()
        healed = time.time()
        self.wait_until(lambda: PatrolEdit.objects.filter(revid__in=revids).exclude(scan_job=None).count() == 3,
                        300, "the patrolled edits")
        jobs = list(ScanJob.objects.filter(pk__in=PatrolEdit.objects.filter(revid__in=revids).values("scan_job")))
        self.finish(Row("kill -9 of the worker holding the patrol's read of recent changes",
                        "3 patrolled edits"), jobs, healed, kept)
        wiki_patrol_set(wiki=self.row, on=False)

    def patrol_edits(self, count: int) -> list[int]:
        site = self.wiki.site(self.wiki.admin_user, self.wiki.admin_password)
        title = self.articles(count=1)[0]
        revids = []
        for n in range(count):
            text = (f"\n\nIts bridge number {n} was mentioned.<ref>{{{{cite web |url={self.sources.base_url}/pages/"
                    f"acp-river-arle.html?edit={self.round}-{n} |title=Bridge}}}}</ref>")
            result = site.post("edit", token=site.get_token("csrf"), title=title, appendtext=text)
            revids.append(int(result["edit"]["newrevid"]))
        return revids

    def restart_redis(self) -> None:
        kept, titles = self.judgements(), self.articles()
        jobs = [self.scan(titles)]
        self.wait_until(lambda: self.verifying(jobs), 300, "verifications under way")
        self.redis.stop()
        time.sleep(5)
        self.redis.start()
        self.finish(Row("Redis stopped for 5 s and started again empty (every queue lost)",
                        "scan of 2 new articles, verifications under way"), jobs, time.time(), kept)

    def restart_postgres(self) -> None:
        kept, titles = self.judgements(), self.articles()
        jobs = [self.scan(titles)]
        self.wait_until(lambda: self.verifying(jobs), 300, "verifications under way")
        from django.db import connections

        self.pg.restart()
        connections.close_all()
        self.finish(Row("PostgreSQL restarted (fast shutdown: open transactions cut)",
                        "scan of 2 new articles, verifications under way"), jobs, time.time(), kept)

    def verifying(self, jobs) -> bool:
        from sideapp.models import Claim
        from sideapp.scans.selectors import job_claims

        return any(job_claims(j).filter(verify_state=Claim.State.DONE).exists() for j in jobs)

    def wiki_down(self, how) -> None:
        from sideapp.models import PatrolEdit, ScanJob
        from sideapp.patrol.services import wiki_patrol_set

        kept = self.judgements()
        wiki_patrol_set(wiki=self.row, on=True)
        titles = self.articles()
        self.proxy.fail(how)
        jobs = [self.scan(titles)]
        revids = self.patrol_edits(2)  # made on the wiki itself, read by patrol once it is back
        time.sleep(self.args.outage)
        self.proxy.heal()
        healed = time.time()
        self.wait_until(lambda: PatrolEdit.objects.filter(revid__in=revids).exclude(scan_job=None).count() == 2,
                        600, "the edits made during the outage")
        jobs += list(ScanJob.objects.filter(pk__in=PatrolEdit.objects.filter(revid__in=revids).values("scan_job")))
        words = "answering 503" if how == 503 else "answering maxlag (replication lag, Retry-After 5)"
        self.finish(Row(f"the wiki {words} for {self.args.outage:g} s",
                        "scan of 2 new articles asked during it, 2 patrolled edits made during it"), jobs, healed, kept)
        wiki_patrol_set(wiki=self.row, on=False)

    def bad_page(self, route: str, words: str) -> None:
        from sideapp.models import Source

        kept, started = self.judgements(), time.time()
        titles = self.articles(count=1, cite=f"{route}/acp-river-arle.html")
        jobs = [self.scan(titles)]
        self.finish(Row(words, "scan of 1 new article citing it"), jobs, started, kept)
        source = Source.objects.filter(url__contains=f"/{route}/").order_by("-pk").first()
        self.rows[-1].outcome += f"; the page: {source.status} ({source.reason})" if source else ""


# -- the run -------------------------------------------------------------------------------

def warm_up(suite: Suite) -> None:
    """The demo articles scanned once (models loaded, sources fetched), then judgements and
    audit entries that every round must leave in place."""
    from harness.demo import demo_pages
    from sideapp.claims.models import ClaimReview
    from sideapp.edits.audit import audit_record
    from sideapp.models import AuditEntry, Claim
    from tests.users import make_user

    job = suite.scan(list(demo_pages())[-1:])
    suite.wait_until(lambda: suite.ended([job]), what="the warm-up scan")
    editor = make_user("fault_editor", "editor")
    for claim in Claim.objects.filter(current=True).order_by("pk")[:10]:
        ClaimReview.objects.create(claim=claim, user=editor, kind="dismissed", reason="claim_fine")
        audit_record(user=editor, action=AuditEntry.Action.DISMISS, claim=claim, detail="fault suite judgement")
    print(f"warm-up scan {job.status}; judgements and audit entries: {suite.judgements()}", flush=True)


def report(suite: Suite, args, seconds: float) -> None:
    print(f"\ncommand: .venv/bin/python bench/fault_suite.py --outage {args.outage:g}")
    print(f"{sum(r.ok for r in suite.rows)} of {len(suite.rows)} faults survived with nothing lost; "
          f"worker restarts by the service manager: {suite.workers.restarts}; {seconds / 60:.0f} minutes in all\n")
    print("| fault | what ran | outcome | recovery |")
    print("|---|---|---|---|")
    for row in suite.rows:
        mark = "" if row.ok else " **NOT SURVIVED**"
        print(f"| {row.fault} | {row.ran} | {row.outcome}{mark} | {row.recovery:.0f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--outage", type=float, default=60, help="seconds the wiki answers 503, then maxlag")
    parser.add_argument("--pg-port", type=int, default=8310)
    parser.add_argument("--redis-port", type=int, default=8311)
    args = parser.parse_args()
    from harness.demo import SOURCES_DIR, load_demo_pages
    from harness.faulty_proxy import FaultyProxy
    from harness.mediawiki import MediaWikiServer
    from harness.webserver import SourceServer

    print(load_line("before"), flush=True)
    started = time.time()
    pg, redis = OwnPostgres(args.pg_port), OwnRedis(args.redis_port)
    pg.start()
    redis.start()
    with tempfile.TemporaryDirectory(prefix="side-faults-") as tmp, \
            SourceServer(SOURCES_DIR, host=SOURCES_HOST) as sources, MediaWikiServer(Path(tmp) / "wiki") as wiki, \
            FaultyProxy(wiki.base_url) as proxy:
        try:
            load_demo_pages(wiki, sources.base_url)
            env = environment(pg, redis, proxy, sources, Path(tmp))
            manage(env, "migrate", "-v0")
            django_with(env)
            workers = Workers(env, Path(tmp))
            workers.start_all()
            suite = Suite(env, wiki, proxy, sources, workers, pg, redis, args)
            run(suite)
        finally:
            if "workers" in locals():
                workers.stop()
            redis.stop()
            pg.stop()
    print(load_line("after"))
    report(suite, args, time.time() - started)


def environment(pg, redis, proxy, sources, tmp: Path) -> dict:
    import os

    return dict(os.environ, DATABASE_URL=pg.url, REDIS_URL=redis.url, SIDE_WIKI_API_URL=proxy.api_url,
                SIDE_FETCH_ALLOWLIST=SOURCES_HOST, SIDE_FETCH_HOST_DELAY="0", SIDE_FETCH_READ_TIMEOUT="3",
                SIDE_FETCH_MAX_BYTES=str(2 * 1024 * 1024), SIDE_FETCH_RETRIES="1", SIDE_INDEX_DIR=str(tmp / "index"),
                SIDE_RECOVERY_INTERVAL="10", SIDE_RECOVERY_GRACE="10", SIDE_PATROL_INTERVAL="5",
                SIDE_WIKI_RETRIES="3", SIDE_WIKI_BACKOFF="1", SIDE_SUGGEST_CANDIDATES="5",
                SIDE_ANNOTATION_AUTO_ITEMS="off", DJANGO_SETTINGS_MODULE="sideapp.settings")


def run(suite: Suite) -> None:
    warm_up(suite)
    for fault in (suite.kill_scan, suite.kill_fetch, suite.kill_verify, suite.kill_patrol, suite.restart_redis,
                  suite.restart_postgres, lambda: suite.wiki_down(503), lambda: suite.wiki_down("maxlag"),
                  lambda: suite.bad_page("stall", "a cited page that stalls after its headers"),
                  lambda: suite.bad_page("endless", "a cited page that streams without end")):
        fault()


if __name__ == "__main__":
    main()
