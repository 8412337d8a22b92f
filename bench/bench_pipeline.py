"""End-to-end pipeline benchmark: one article with 50 citations, sources served locally.

    .venv/bin/python bench/bench_pipeline.py [--citations 50]

Builds an article whose 50 claims each cite their own page on a loopback server (pages
made from the project's own demo sources), loads it into a fresh local MediaWiki, and
processes it end to end with ONE RQ worker process (`rqworker scan fetch verify default
--burst`, jobs in-process so the models load once). Prints the time of each stage,
the total, claims per minute and the worker's peak memory; then, side by side, the
same article through `scan_article --sync` in one process (no queue) as the baseline.
Uses its own database (sideeditor_bench), dropped and re-created each run.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_NAME = "sideeditor_bench"
SOURCES_HOST = "127.0.0.2"

from bench.benchdb import fresh_database, manage  # noqa: E402 - after the path is set


def make_sources(folder: Path, count: int) -> list[tuple[str, str]]:
    """`count` HTML pages built from the demo pages' paragraphs; (page name, claim) each."""
    demo = sorted((ROOT / "fixtures" / "sources" / "pages").glob("*.html"))
    paragraphs = []
    for page in demo:
        paragraphs += [re.sub(r"<[^>]+>", "", p).strip()
                       for p in re.findall(r"<p>(.*?)</p>", page.read_text(encoding="utf-8"), re.S)]
    paragraphs = [p for p in paragraphs if len(p.split()) > 12]
    (folder / "pages").mkdir(parents=True)
    made = []
    for n in range(count):
        body = [paragraphs[(n * 7 + k) % len(paragraphs)] for k in range(8)]
        name = f"bench-{n:03d}.html"
        html = "".join(f"<p>{p}</p>\n" for p in body)
        (folder / "pages" / name).write_text(
            f"<!doctype html><html><head><title>Bench page {n}</title></head><body><nav>Home | News</nav>"
            f"<article><h1>Bench page {n}</h1>{html}</article><footer>© Bench</footer></body></html>",
            encoding="utf-8")
        made.append((name, re.split(r"(?<=[.!?])\s", body[n % 8])[0]))
    return made


def article_text(base: str, sources: list[tuple[str, str]]) -> str:
    """Each claim cites its own page, except every third, which cites another page (a
    miscitation for the verifier to flag and the suggestion stage to repair)."""
    lines = ["'''Bench article''' collects facts about Kellhaven."]
    for n, (_, claim) in enumerate(sources):
        cited = n if n % 3 else (n + 17) % len(sources)
        cite = f"{{{{cite web|url={base}/pages/{sources[cited][0]}|title=Bench page {cited}}}}}"
        lines.append(f"{claim}<ref>{cite}</ref>")
    return "\n\n".join(lines) + "\n\n== References ==\n{{reflist}}\n"


def peak_rss(process: subprocess.Popen) -> tuple[threading.Thread, list[int]]:
    import psutil

    peak = [0]

    def watch():
        proc = psutil.Process(process.pid)
        while process.poll() is None:
            try:
                rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
                peak[0] = max(peak[0], rss)
            except psutil.Error:
                pass
            time.sleep(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread, peak


def run_worker_pipeline(env: dict, api_url: str) -> dict:
    manage(env, "scan_article", "Bench article", "--wiki", api_url, stdout=subprocess.DEVNULL)
    started = time.perf_counter()
    worker = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "rqworker", "scan", "fetch", "verify", "default",
         "--burst", "--worker-class", "sideapp.pipeline.worker.SideModelWorker"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    watcher, peak = peak_rss(worker)
    worker.wait()
    watcher.join()
    total = time.perf_counter() - started
    return {"total": total, "peak_mb": peak[0] / 2**20, **stage_times(env)}


def stage_times(env: dict) -> dict:
    """Seconds from the scan job's creation to the end of each stage, from the rows."""
    script = (
        "from django.db.models import Max;from sideapp.models import *;"
        "j=ScanJob.objects.latest('pk');t0=j.created_at;"
        "ends={'scan':j.items.aggregate(m=Max('updated_at'))['m'],"
        "'fetch':Source.objects.aggregate(m=Max('fetched_at'))['m'],"
        "'verify':Claim.objects.aggregate(m=Max('verified_at'))['m'],"
        "'suggest':Suggestion.objects.aggregate(m=Max('created_at'))['m']};"
        "print(';'.join(f'{k}={(v-t0).total_seconds() if v else 0}' for k,v in ends.items()));"
        "print('claims=%d flagged=%d repaired=%d status=%s' % (Claim.objects.count(),"
        " Claim.objects.filter(flagged=True).count(),"
        " Claim.objects.filter(flagged=True, suggestions__rank=1, suggestions__beats_current=True).count(), j.status))"
    )
    out = [line for line in manage(env, "shell", "-c", script, capture_output=True, text=True).stdout.splitlines() if "=" in line]
    times = dict(item.split("=") for item in out[0].split(";"))
    extra = dict(item.split("=") for item in out[1].split())
    return {**{k: float(v) for k, v in times.items()}, **extra}


def run_sync_baseline(env: dict, api_url: str) -> float:
    env.update(fresh_database(DB_NAME))
    started = time.perf_counter()
    manage(env, "scan_article", "Bench article", "--wiki", api_url, "--sync", stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--citations", type=int, default=50)
    args = parser.parse_args()
    from harness.mediawiki import MediaWikiServer
    from harness.webserver import SourceServer

    with tempfile.TemporaryDirectory(prefix="side-bench-") as tmp:
        tmp = Path(tmp)
        pages = make_sources(tmp / "sources", args.citations)
        with SourceServer(tmp / "sources", host=SOURCES_HOST) as server, MediaWikiServer(tmp / "wiki") as wiki:
            wiki.load_pages({"Bench article": article_text(server.base_url, pages)})
            subprocess.run(["redis-cli", "-n", "14", "flushdb"], check=True, stdout=subprocess.DEVNULL)
            env = fresh_database(DB_NAME, REDIS_URL="redis://127.0.0.1:6379/14", SIDE_FETCH_ALLOWLIST=SOURCES_HOST,
                                 SIDE_FETCH_HOST_DELAY="0", SIDE_INDEX_DIR=str(tmp / "index"))
            result = run_worker_pipeline(env, wiki.api_url)
            env["SIDE_INDEX_DIR"] = str(tmp / "index-sync")
            baseline = run_sync_baseline(env, wiki.api_url)
    report(args, result, baseline)


def report(args, result: dict, baseline: float) -> None:
    claims = int(result["claims"])
    print(f"command: .venv/bin/python bench/bench_pipeline.py --citations {args.citations}")
    print(f"article: {args.citations} citations, {claims} claims, every third citing the wrong page; "
          f"{result['flagged']} flagged, {result['repaired']} with a better suggestion ranked first; "
          f"job status {result['status']}\n")
    print("| stage (one worker) | ends at (s after the scan was queued) |")
    print("|---|---|")
    for stage in ("scan", "fetch", "verify", "suggest"):
        print(f"| {stage} | {result[stage]:.1f} |")
    print(f"\n| run | total (s) | claims/min | peak worker memory |")
    print("|---|---|---|---|")
    print(f"| queued, one RQ worker | {result['total']:.1f} | {60 * claims / result['total']:.0f} "
          f"| {result['peak_mb']:.0f} MB |")
    print(f"| baseline: scan_article --sync, one process, no queue | {baseline:.1f} "
          f"| {60 * claims / baseline:.0f} | - |")


if __name__ == "__main__":
    main()
