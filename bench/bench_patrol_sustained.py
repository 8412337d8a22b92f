"""Patrol at a sustained rate: a steady stream of edits for minutes, followed live.

    .venv/bin/python bench/bench_patrol_sustained.py [--rate 2] [--minutes 15] [--baseline-rate 0.5]

A fresh local MediaWiki holds `--articles` articles of `--claims` cited claims each; patrol is
switched on; then a generator edits the wiki at a steady `--rate` edits per second for
`--minutes`, as a wiki's recent changes look: of every 12 edits, 7 add a cited sentence (every
third of them citing a page that does not say it), 2 put another page in place of a citation,
2 are a bot's (a citation's title rewritten, flagged bot) and 1 undoes the latest people's
edit of an article (MediaWiki's `undo`, tagged `mw-undo`). One worker of each kind runs, as in
the demo, and patrol reads the wiki every 5 s.

Measured, per minute of the stream and in all: the edits made (the rate the generator kept),
the people's edits that got a verdict by the end, the lag from each edit's save to its claim's
verdict (p50 / p95, by the minute the edit was made: a lag that grows minute after minute is a
queue that grows without bound), the work waiting on the scan, fetch and verify queues at the
end of each minute, and the edits dropped: people's edits with no patrol record at all, or
with a citation but no verdict `--drain` seconds after the stream ended (an edit undone before
its verdict is counted apart: patrol closes its rows instead).

Beside it, in the same run and on the same machine, the baseline: the same stream at
`--baseline-rate` (default a quarter of the rate), in a fresh database on fresh articles, so
that the lag at the target rate is read against the lag at a rate this machine keeps up with.
Uses its own database (sideeditor_bench_patrol), dropped and re-created for each stream.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import mwclient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_NAME = "sideeditor_bench_patrol"
SOURCES_HOST = "127.0.0.2"
PATTERN = ("add", "add", "replace", "add", "bot", "add", "add", "replace", "add", "bot", "add", "undo")

from bench.bench_patrol import _bot, _bot_edit, _quantile, cite, ready, stop, workers  # noqa: E402
from bench.bench_pipeline import make_sources  # noqa: E402
from bench.benchdb import django_with, fresh_database, own_redis, redis_forget  # noqa: E402
from bench.machine import load_line  # noqa: E402


class Stream:
    """The generator's wiki accounts, its next unused source page and what it has done."""

    def __init__(self, wiki, base: str, pages, titles: list[str], first_page: int):
        wiki.create_account("Bench Editor", "bench-password")
        self.site = wiki.site("Bench Editor", "bench-password")
        self.token = self.site.get_token("csrf")
        self.bot = _bot(wiki)
        self.base, self.pages, self.titles, self.next_page = base, pages, titles, first_page
        self.people: dict[int, tuple[float, str, str]] = {}  # revid -> (saved at, title, kind)
        self.last_of: dict[str, int] = {}  # title -> the latest people's revision of it
        self.undone: set[int] = set()
        self.bot_edits = self.undo_failed = 0

    def edit(self, n: int) -> None:
        kind, title = PATTERN[n % len(PATTERN)], self.titles[n % len(self.titles)]
        if kind == "bot":
            _bot_edit(self.bot, title, n)
            self.bot_edits += 1
            return
        if kind == "undo":
            return self._undo(title)
        page = self.next_page
        self.next_page += 1
        if kind == "add":
            result = self._post(title, appendtext="\n\n" + cite(self.base, self.pages, page, wrong=n % 3 == 0))
        else:  # another page in place of the article's first citation
            text = self.site.pages[title].text(cache=False)
            old = text[text.index("|url="):].split("|", 2)[1]
            result = self._post(title, text=text.replace(old, f"url={self.base}/pages/{self.pages[page][0]}", 1),
                                summary="better source")
        revid = int(result["edit"].get("newrevid", 0))
        if revid:
            self.people[revid] = (time.time(), title, kind)
            self.last_of[title] = revid

    def _undo(self, title: str) -> None:
        revid = self.last_of.pop(title, None)
        if revid is None:
            return
        try:
            self._post(title, undo=revid, summary="undo")
        except mwclient.errors.APIError:  # the wiki could not undo it (a later edit in the way)
            self.undo_failed += 1
            return
        self.undone.add(revid)

    def _post(self, title: str, **fields):
        return self.site.post("edit", token=self.token, title=title, **fields)


def run_stream(env: dict, wiki, base: str, pages, titles: list[str], first_page: int, rate: float, args) -> dict:
    """The stream at `rate` for args.minutes, then up to args.drain s for the last verdicts."""
    django_with(env)
    from sideapp.patrol.services import wiki_patrol_set
    from sideapp.scans.wikis import wiki_for

    wiki_patrol_set(wiki=wiki_for(api_url=wiki.api_url), on=True)
    stream = Stream(wiki, base, pages, titles, first_page=first_page)
    running = workers(env)
    minutes = []
    try:
        ready(len(running))
        started = time.time()
        total = int(rate * args.minutes * 60)
        for n in range(total):
            time.sleep(max(0.0, started + n / rate - time.time()))
            stream.edit(n)
            if time.time() - started >= 60 * (len(minutes) + 1):
                minutes.append(queue_depths())
        minutes.append(queue_depths())
        ended = time.time()
        done = verdicts(stream.people, ended + args.drain)
        drained = max(done.values(), default=ended) - ended
    finally:
        stop(running)
    from django.db import connections

    result = summary(stream, done, started, ended, minutes, drained)
    connections.close_all()  # the next stream drops and re-creates the database
    return result


def queue_depths() -> dict[str, int]:
    import django_rq

    return {name: django_rq.get_queue(name).count for name in ("scan", "fetch", "verify")}


def verdicts(people: dict[int, tuple], deadline: float) -> dict[int, float]:
    """{revision: when its claim got its verdict}, waiting until patrol has taken every
    people's edit and read it, and every citation row still in its article has its verdict,
    or until `deadline`."""
    from sideapp.models import PatrolEdit, PatrolRow

    unread = (PatrolEdit.Status.QUEUED,)  # "checking" is where an edit that added citations stays
    while True:
        edits = PatrolEdit.objects.filter(revid__in=people)
        rows = PatrolRow.objects.filter(edit__revid__in=people)
        done = dict(rows.exclude(claim__verified_at=None).values_list("edit__revid", "claim__verified_at"))
        settled = (edits.count() >= len(people) and not edits.filter(status__in=unread).exists()
                   and not rows.filter(status=PatrolRow.Status.ADDED, claim__verified_at=None).exists())
        if settled or time.time() >= deadline:
            return {revid: at.timestamp() for revid, at in done.items()}
        time.sleep(3)


def summary(stream: Stream, done: dict[int, float], started: float, ended: float, minutes: list, drained: float) -> dict:
    from sideapp.models import PatrolEdit, PatrolRow

    recorded = set(PatrolEdit.objects.filter(revid__in=stream.people).values_list("revid", flat=True))
    with_rows = set(PatrolRow.objects.filter(edit__revid__in=stream.people).values_list("edit__revid", flat=True))
    closed = set(PatrolRow.objects.filter(edit__revid__in=stream.people).exclude(
        status=PatrolRow.Status.ADDED).values_list("edit__revid", flat=True))
    people = set(stream.people)
    unrecorded = people - recorded
    no_verdict = (with_rows - set(done)) - closed
    by_minute: dict[int, list[float]] = {}
    for revid, at in done.items():
        by_minute.setdefault(int((stream.people[revid][0] - started) // 60), []).append(at - stream.people[revid][0])
    return {"edits": len(people) + stream.bot_edits + len(stream.undone), "people": len(people),
            "bot": stream.bot_edits, "undone": len(stream.undone), "undo_failed": stream.undo_failed, "seconds": ended - started,
            "verdicts": len(done), "unrecorded": len(unrecorded), "no_verdict": len(no_verdict),
            "closed_first": len(closed - set(done)), "lags": sorted(at - stream.people[r][0] for r, at in done.items()),
            "by_minute": by_minute, "queues": minutes, "drained": drained}


def lag(values: list[float]) -> str:
    values = sorted(values)
    return f"{_quantile(values, .5):.0f} / {_quantile(values, .95):.0f} s" if values else "-"


def report(args, runs: dict[float, dict]) -> None:
    print(f"command: .venv/bin/python bench/bench_patrol_sustained.py --rate {args.rate} --minutes {args.minutes} "
          f"--baseline-rate {args.baseline_rate} --articles {args.articles} --claims {args.claims}\n")
    rates = list(runs)
    print("| | " + " | ".join(f"{rate:g} edits/s{' (baseline)' if rate != args.rate else ''}" for rate in rates) + " |")
    print("|---|" + "---|" * len(rates))
    rows = [
        ("edits made (people's / bot / undo)", lambda r: f"{r['edits']} ({r['people']} / {r['bot']} / {r['undone']})"),
        ("undos the wiki refused (a later edit in the way)", lambda r: str(r["undo_failed"])),
        ("rate kept", lambda r: f"{r['edits'] / r['seconds']:.2f} edits/s"),
        ("lag save -> verdict, p50 / p95", lambda r: lag(r["lags"])),
        ("people's edits with a verdict", lambda r: f"{r['verdicts']} of {r['people']}"),
        ("dropped: no patrol record", lambda r: str(r["unrecorded"])),
        ("dropped: a citation row, no verdict by the end", lambda r: str(r["no_verdict"])),
        ("undone before their verdict (rows closed)", lambda r: str(r["closed_first"])),
        ("waiting at the stream's end (scan / fetch / verify)", lambda r: "{scan} / {fetch} / {verify}".format(**r["queues"][-1])),
        ("seconds after the stream to the last verdict", lambda r: f"{r['drained']:.0f} s"),
    ]
    for name, cell in rows:
        print(f"| {name} | " + " | ".join(cell(runs[rate]) for rate in rates) + " |")
    print("\nLag by the minute the edit was made (p50 / p95), and the queues at that minute's end:\n")
    print("| minute | " + " | ".join(f"{rate:g}/s lag | {rate:g}/s scan / fetch / verify" for rate in rates) + " |")
    print("|---|" + "---|---|" * len(rates))
    for minute in range(int(args.minutes)):
        cells = []
        for rate in rates:
            run = runs[rate]
            queues = run["queues"][minute] if minute < len(run["queues"]) else None
            cells += [lag(run["by_minute"].get(minute, [])),
                      "{scan} / {fetch} / {verify}".format(**queues) if queues else "-"]
        print(f"| {minute + 1} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=2.0, help="edits per second")
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--baseline-rate", type=float, help="the same stream at this rate (default: rate / 4; 0: none)")
    parser.add_argument("--articles", type=int, default=30)
    parser.add_argument("--claims", type=int, default=10)
    parser.add_argument("--drain", type=float, default=600, help="seconds after the stream to wait for verdicts")
    args = parser.parse_args()
    args.baseline_rate = args.rate / 4 if args.baseline_rate is None else args.baseline_rate
    from harness.mediawiki import MediaWikiServer
    from harness.webserver import SourceServer

    print(load_line("before"))
    runs = {}
    with tempfile.TemporaryDirectory(prefix="side-bench-patrol-") as tmp:
        tmp = Path(tmp)
        per_stream = int(args.rate * args.minutes * 60) + 10
        pages = make_sources(tmp / "sources", 2 * (args.articles * args.claims + per_stream + 7))
        with SourceServer(tmp / "sources", host=SOURCES_HOST) as server, MediaWikiServer(tmp / "wiki") as wiki:
            redis = own_redis()
            for n, rate in enumerate(r for r in (args.rate, args.baseline_rate) if r > 0):
                offset = n * (args.articles * args.claims + per_stream + 7)
                titles = [f"Sustained bench {n} {a}" for a in range(args.articles)]
                wiki.load_pages({title: "\n\n".join(cite(server.base_url, pages, offset + a * args.claims + c)
                                                    for c in range(args.claims)) + "\n"
                                 for a, title in enumerate(titles)})
                redis_forget(redis)
                env = fresh_database(DB_NAME, REDIS_URL=redis, SIDE_FETCH_ALLOWLIST=SOURCES_HOST,
                                     SIDE_FETCH_HOST_DELAY="0", SIDE_INDEX_DIR=str(tmp / f"index-{n}"),
                                     SIDE_WIKI_API_URL=wiki.api_url, SIDE_PATROL_INTERVAL="5")
                runs[rate] = run_stream(env, wiki, server.base_url, pages, titles, offset + args.articles * args.claims,
                                        rate, args)
            redis_forget(redis)
    print(load_line("after"))
    report(args, runs)


if __name__ == "__main__":
    main()
