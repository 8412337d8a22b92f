""""Check this revision" from the article page: a 50-citation article checked on demand.

    .venv/bin/python bench/bench_check_on_demand.py [--citations 50] [--before COMMIT] [--logs DIR]

A fresh local MediaWiki holds an article whose claims each cite their own page on a
loopback server (bench_pipeline's article: every third citation cites the wrong page).
Side editor runs as the demo runs it: gunicorn, one `scan fetch default` worker and one
model worker (`verify`), on this machine's cores, its own database (sideeditor_bench_check).
The workers are warmed first by the check of a small article (the model loads once per
worker). Then, as the gadget does, the bench POSTs /api/v1/scan for the article and polls
the job URL and the findings every 0.5 s; it reports when the first verdicts are shown
(findings of the new revision carry a verdict), when all verdicts are in (verify stage
done) and when all suggestions are (the check has ended).

Side by side in the same run: the same check with the code of `--before` (default: main
before issue 22's speed-up, from git through bench/baseline.py, on its own fresh database),
and whether the suggestions the gadget shows came out the same; and the same article through
`scan_article --sync` in one process (no queue, no API, no polling; its time includes loading
the model). `--logs DIR` keeps the workers' logs of this tree's check (each job's duration).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_pipeline import SOURCES_HOST, article_text, make_sources  # noqa: E402
from bench.baseline import ISSUE_22_BASE, baseline_tree  # noqa: E402
from bench.benchdb import free_port, fresh_database, manage, own_redis, redis_forget  # noqa: E402
from bench.machine import load_line  # noqa: E402

REDIS_DB = own_redis()
DB_NAME = "sideeditor_bench_check"
TITLE, WARM = "Bench article", "Warm-up article"
ENDED = "all suggestions in (check ended)"


def start(env: dict, port: int, root: Path = ROOT, logs: Path | None = None) -> list[subprocess.Popen]:
    """gunicorn and the two workers of the code in `root`; with `logs`, each one's output
    goes to a file there (RQ logs every job's start and end: the timeline of a check)."""
    def spawn(*args: str) -> subprocess.Popen:
        out = open(logs / f"{args[1] if args[0] == 'manage.py' else 'gunicorn'}-{args[2]}.log", "w") \
            if logs else subprocess.DEVNULL
        return subprocess.Popen([sys.executable, *args], env=env, cwd=root, stdout=out, stderr=subprocess.STDOUT)

    return [spawn("-m", "gunicorn", "sideapp.wsgi", "-b", f"127.0.0.1:{port}", "--log-level", "warning"),
            spawn("manage.py", "rqworker", "scan", "fetch", "default", "--with-scheduler"),
            spawn("manage.py", "rqworker", "verify", "--with-scheduler",
                  "--worker-class", "sideapp.pipeline.worker.SideModelWorker")]


def check(base: str, title: str, timeout: float = 600) -> dict:
    """Ask for a check as the gadget does; seconds until each thing is shown (what was not
    shown within `timeout` is missing, and the job's state then is under "status")."""
    started = time.perf_counter()
    job = requests.post(f"{base}/api/v1/scan", json={"wiki_id": "sidewiki", "title": title}, timeout=30)
    job.raise_for_status()
    url, seen = job.json()["url"], {}
    while time.perf_counter() - started < timeout:
        now = time.perf_counter() - started
        status = requests.get(url, timeout=30).json()
        verify = status["stages"]["verify"]
        findings = requests.get(f"{base}/api/v1/findings", {"wiki_id": "sidewiki", "title": title}, timeout=30)
        if findings.ok and any(c["verdict"] for c in findings.json()["claims"]):
            seen.setdefault("first verdicts shown", now)
        if verify["total"] and verify["done"] == verify["total"]:
            seen.setdefault("all verdicts in", now)
        if status["finished"]:
            seen["all suggestions in (check ended)"] = now
            seen["status"] = f"{status['status']} {status['reason']}".strip()
            seen["claims"] = verify["total"]
            seen["findings"] = len(findings.json()["claims"]) if findings.ok else 0
            seen["suggestions"] = suggestions_of(findings.json()["claims"]) if findings.ok else {}
            return seen
        time.sleep(0.5)
    stages = ", ".join(f"{k} {v['done']}/{v['total']}" for k, v in status["stages"].items())
    return {**seen, "status": f"not ended after {timeout:.0f} s ({stages})", "claims": verify["total"],
            "findings": len(findings.json()["claims"]) if findings.ok else 0}


def sync_baseline(env: dict, tmp: Path, api_url: str) -> float:
    """Seconds of the same article through `scan_article --sync` in one process."""
    redis_forget(REDIS_DB)
    env.update(fresh_database(DB_NAME), SIDE_INDEX_DIR=str(tmp / "index-sync"))
    began = time.perf_counter()
    manage(env, "scan_article", TITLE, "--wiki", api_url, "--sync", stdout=subprocess.DEVNULL,
           stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def suggestions_of(claims: list[dict]) -> dict[str, list]:
    """What the gadget shows of each claim's suggestions, best first."""
    return {c["text"]: [(s["url"], s["quote"], s["better"], s["verdict"]) for s in c["suggestions"]]
            for c in claims}


def check_with(root: Path, tmp: Path, wiki, timeout: float, logs: Path | None) -> tuple[dict, dict]:
    """The warm-up check, then the article's, with the code in `root` on a fresh database."""
    redis_forget(REDIS_DB)
    shutil.rmtree(tmp / "index", ignore_errors=True)
    env = fresh_database(DB_NAME, REDIS_URL=REDIS_DB, SIDE_FETCH_ALLOWLIST=SOURCES_HOST,
                         SIDE_FETCH_HOST_DELAY="0", SIDE_INDEX_DIR=str(tmp / "index"),
                         SIDE_WIKI_API_URL=wiki.api_url)
    manage(env, "shell", "-c", f"from sideapp.scans.wikis import wiki_for; wiki_for(api_url={wiki.api_url!r})")
    port = free_port()
    children = start(env, port, root, logs)
    try:
        time.sleep(5)
        base = f"http://127.0.0.1:{port}"
        return check(base, WARM, timeout), check(base, TITLE, timeout)
    finally:
        for child in children:
            child.terminate()
        for child in children:
            child.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--citations", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for a check to end")
    parser.add_argument("--no-baseline", action="store_true", help="skip the --sync baseline (profiling runs)")
    parser.add_argument("--before", default=ISSUE_22_BASE,
                        help="commit whose code runs the same check first, side by side ('' for none)")
    parser.add_argument("--logs", type=Path, help="folder for the workers' logs (the jobs' timeline)")
    args = parser.parse_args()
    print(load_line("before the run"))
    from harness.demo import demo_templates
    from harness.mediawiki import MediaWikiServer
    from harness.webserver import SourceServer

    runs = {}
    with tempfile.TemporaryDirectory(prefix="side-bench-check-") as tmp:
        tmp = Path(tmp)
        pages = make_sources(tmp / "sources", args.citations)
        with SourceServer(tmp / "sources", host=SOURCES_HOST) as server, MediaWikiServer(tmp / "wiki") as wiki:
            wiki.load_pages(demo_templates())
            wiki.load_pages({TITLE: article_text(server.base_url, pages),
                             WARM: article_text(server.base_url, pages[:3])})
            if args.before:
                with baseline_tree(args.before, paths=()) as folder:
                    shutil.copy(ROOT / ".env", Path(folder) / ".env")  # settings read it; untracked
                    runs["before"] = check_with(Path(folder), tmp, wiki, args.timeout, None)
            runs["after"] = check_with(ROOT, tmp, wiki, args.timeout, args.logs)
            baseline = float("nan") if args.no_baseline else sync_baseline(
                dict(os.environ, REDIS_URL=REDIS_DB, SIDE_FETCH_ALLOWLIST=SOURCES_HOST, SIDE_FETCH_HOST_DELAY="0",
                     SIDE_WIKI_API_URL=wiki.api_url), tmp, wiki.api_url)
    report(args, runs, baseline)


def report(args, runs: dict, baseline: float) -> None:
    print(f"command: .venv/bin/python bench/bench_check_on_demand.py --citations {args.citations}"
          + (f" --before {args.before[:7]}" if args.before else ""))
    names = {"before": f"before ({args.before[:7]})" if args.before else "", "after": "after (this tree)"}
    for key, (warm, result) in runs.items():
        print(f"{names[key]}: {result['claims']} claims, {result['findings']} findings; check {result['status']}; "
              f"warm-up check of a 3-citation article took {warm.get(ENDED, float('nan')):.1f} s")
    print("\n| on-demand check, 2 workers (seconds after the request) | " + " | ".join(names[k] for k in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for name in ("first verdicts shown", "all verdicts in", ENDED):
        print(f"| {name} | " + " | ".join(f"{result.get(name, float('nan')):.1f}" for _, result in runs.values()) + " |")
    print(f"| baseline: scan_article --sync (this tree), one process, model loaded in it | {baseline:.1f} |")
    if "before" in runs:
        before, after = runs["before"][1].get("suggestions"), runs["after"][1].get("suggestions")
        same = before == after and before is not None
        print(f"\nsuggestions shown (url, quote, better, verdict, in order) the same before and after: "
              f"{'yes' if same else 'NO'} ({sum(map(len, (before or {}).values()))} suggestions, "
              f"{len(before or {})} claims)")
        for text in sorted(set(before or {}) | set(after or {})):
            if (before or {}).get(text) != (after or {}).get(text):
                print(f"  differs: {text[:80]}")
    print(load_line("after the run"))


if __name__ == "__main__":
    main()
