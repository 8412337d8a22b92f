"""Suggestions an editor cannot use, before (the rule until issue 24) and after, in one run.

    .venv/bin/python bench/bench_suggestions_usable.py

Runs the demo articles (fixtures/wiki) through the whole pipeline in this process
(`scan_article --sync`), their cited pages served by the fixture server
(harness/webserver.py over fixtures/sources), in its own database
(sideeditor_bench_suggestions) and index. Then, for every claim that had a suggestion
search, searches again twice over the same corpus with the same verifier:

- before: the candidates minus the claim's cited URLs as `normalise_url` spells them, of
  sources whose last fetch was ok, the verifier's best five (the rule until issue 24);
- after: `sideapp.claims.suggestions.suggestions_rank` (cited pages by `page_key` or by
  text left out, pages read only through an archive left out, pages read too long ago
  read again first and dead ones passed over).

It counts the suggestions that are a page the claim cites (the same page after URL
normalisation, `page_key`, or the same text) and those that are dead (the page does not
answer a fetch at the end of the run), in three situations, each measured after the one
before it:

1. the demo as scanned;
2. plus an earlier crawl of the same pages under other URLs of the same page, imported
   as a corpus file: `NAME/` (a trailing slash), `NAME?ref=rss`, `/redirect/NAME`, by
   turns over the pages sorted by name;
3. forty days later (every stored copy aged past SIDE_SUGGESTION_MAX_AGE_DAYS), with
   every third page by name taken off its site (it answers 404).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.benchdb import fresh_database  # noqa: E402
from bench.machine import load_line  # noqa: E402

DB_NAME = "sideeditor_bench_suggestions"
SOURCES_HOST = "127.0.0.2"
KEEP = 5
VARIANTS = ("{base}/pages/{name}/", "{base}/pages/{name}?ref=rss", "{base}/redirect/{name}")


def before_rule(claim) -> list[str]:
    """The URLs the rule before issue 24 suggested: its candidate filter, verbatim in
    substance (sideapp/claims/suggestions.py at the start of issue 24), then the best KEEP."""
    from django.conf import settings

    from sideapp.claims.suggestions import claim_input, corpus_engine, verifier
    from sideapp.sources.models import Source, SourceDocument
    from verifier_core.fetch import normalise_url
    from verifier_core.retrieval import EmptyQueryError

    cited = set()
    for citation in claim.citations.select_related("source"):
        cited |= {u for u in (citation.url, citation.archive_url) if u}
        if citation.source:
            cited |= {citation.source.url, citation.source.final_url}
    cited -= {""}
    cited_norm = {normalise_url(u) for u in cited}
    try:
        hits = corpus_engine().search(claim.text, title=claim.article.title, section=" ".join(claim.section),
                                      k=settings.SIDE_SUGGEST_CANDIDATES, exclude_urls=cited)
    except EmptyQueryError:
        return []
    wanted = [h.url for h in hits if normalise_url(h.url) not in cited_norm]
    docs = {d.source.url: d for d in SourceDocument.objects.select_related("source")
            .filter(source__url__in=wanted, source__status=Source.Status.OK)}
    found = [docs[u] for u in wanted if u in docs]
    ranked = verifier().rerank(claim_input(claim), [doc.text for doc in found])[:KEEP]
    return [found[index].source.url for index, _ in ranked]


def after_rule(claim) -> list[str]:
    from sideapp.claims.suggestions import suggestions_rank

    return [source.url for source, _, _ in suggestions_rank(claim)]


def cites_page(claim, url: str) -> bool:
    """Whether `url` is a page `claim` already cites: the same page or the same text."""
    from sideapp.sources.models import Source
    from verifier_core.fetch import normalise_url, same_page

    own = {c.source.document.sha256 for c in claim.citations.select_related("source__document")
           if c.source and hasattr(c.source, "document")}
    cited = [u for c in claim.citations.select_related("source") for u in
             (c.url, c.archive_url, *((c.source.url, c.source.final_url) if c.source else ())) if u]
    page = Source.objects.filter(normalized_url=normalise_url(url)).select_related("document").first()
    text = page.document.sha256 if page is not None and hasattr(page, "document") else None
    return any(same_page(url, u) for u in cited) or text in own


def answers(url: str, cache: dict) -> bool:
    """Whether the page answers now: a live fetch that reads it (not an archived copy)."""
    from sideapp.sources.services import fetch_policy
    from verifier_core.fetch import fetch_source

    if url not in cache:
        result = fetch_source(url, policy=fetch_policy())
        cache[url] = result.ok and not result.used_archive
    return cache[url]


def measure(claims: list) -> dict:
    counts = {}
    for name, rule in (("before", before_rule), ("after", after_rule)):
        suggested = [(claim, url) for claim in claims for url in rule(claim)]
        cache: dict[str, bool] = {}
        cited = [u for c, u in suggested if cites_page(c, u)]
        dead = [u for _, u in suggested if not answers(u, cache)]
        counts[name] = {"suggestions": len(suggested), "claims": len({c.pk for c, _ in suggested}),
                        "cited": len(cited), "dead": len(dead),
                        "examples": sorted({_path(u) for u in cited + dead})[:4]}
    return counts


def _path(url: str) -> str:
    """A URL without the server's address, so that examples read the same every run."""
    return "/" + url.split("/", 3)[-1]


def import_variants(base: str) -> int:
    """An earlier crawl: each page's text (as the fetcher reads it) under another URL."""
    from django.core.files.base import ContentFile

    from sideapp.corpus.imports import import_run
    from sideapp.corpus.models import CorpusImport
    from sideapp.sources.services import fetch_policy
    from verifier_core.fetch import fetch_source

    lines = []
    names = sorted(p.name for p in (ROOT / "fixtures" / "sources" / "pages").iterdir())
    for n, name in enumerate(names):
        page = fetch_source(f"{base}/pages/{name}", policy=fetch_policy())
        if page.ok:
            url = VARIANTS[n % len(VARIANTS)].format(base=base, name=name)
            lines.append(json.dumps({"url": url, "title": page.title, "text": page.text}))
    record = CorpusImport.objects.create(name="earlier-crawl.jsonl", upload=ContentFile(
        "\n".join(lines).encode(), name="earlier-crawl.jsonl"))
    return import_run(record=record).report.get("stored", 0)


def forty_days_later(server) -> list[str]:
    """Every stored copy aged 40 days; every third page by name taken off its site."""
    from datetime import timedelta

    from django.db.models import F

    from sideapp.sources.models import Source

    Source.objects.update(fetched_at=F("fetched_at") - timedelta(days=40))
    gone = sorted(p.name for p in (ROOT / "fixtures" / "sources" / "pages").iterdir())[::3]
    for name in gone:
        server.take_down(name)
    return gone


def report(situations: list[tuple[str, dict]]) -> None:
    print("| situation | rule | suggestions | claims with one | a page the claim cites | dead | e.g. |")
    print("|---|---|---|---|---|---|---|")
    for name, counts in situations:
        for rule in ("before", "after"):
            c = counts[rule]
            examples = ", ".join(f"`{e}`" for e in c["examples"])
            print(f"| {name} | {rule} | {c['suggestions']} | {c['claims']} | {c['cited']} | {c['dead']} "
                  f"| {examples} |", flush=True)


def main() -> None:
    print(load_line("before the run"))
    from harness.demo import SOURCES_DIR, load_demo_pages
    from harness.mediawiki import MediaWikiServer
    from harness.webserver import SourceServer

    with tempfile.TemporaryDirectory(prefix="side-bench-suggest-") as tmp:
        with SourceServer(SOURCES_DIR, host=SOURCES_HOST) as server, MediaWikiServer(Path(tmp) / "wiki") as wiki:
            load_demo_pages(wiki, server.base_url)
            os.environ.update(fresh_database(DB_NAME, SIDE_FETCH_ALLOWLIST=SOURCES_HOST, SIDE_FETCH_HOST_DELAY="0",
                                             SIDE_FETCH_RETRIES="0", SIDE_FETCH_READ_TIMEOUT="1",
                                             SIDE_INDEX_DIR=str(Path(tmp) / "index")))
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sideapp.settings")
            import django

            django.setup()
            situations = run(server, wiki.api_url)
    print("command: .venv/bin/python bench/bench_suggestions_usable.py")
    report(situations)
    print(load_line("after the run"))


def run(server, api_url: str) -> list[tuple[str, dict]]:
    from harness.demo import demo_pages
    from sideapp.claims.models import Claim
    from sideapp.models import ScanJob, Wiki
    from sideapp.pipeline import dispatch
    from sideapp.scans.services import scan_request

    started = time.perf_counter()
    with dispatch.run_inline():
        job = scan_request(wiki=Wiki.objects.create(api_url=api_url), kind=ScanJob.Kind.TITLES,
                           titles=list(demo_pages()))
    job.refresh_from_db()
    claims = list(Claim.objects.filter(suggest_state=Claim.State.DONE).select_related("article").order_by("pk"))
    print(f"pipeline: {job.status} in {time.perf_counter() - started:.0f} s; {Claim.objects.count()} claims, "
          f"{len(claims)} with a suggestion search")
    situations = [("1. the demo as scanned", measure(claims))]
    print(f"imported {import_variants(server.base_url)} pages of an earlier crawl under other URLs")
    situations.append(("2. + the same pages under other URLs", measure(claims)))
    print(f"40 days later; taken off their site: {', '.join(forty_days_later(server))}")
    situations.append(("3. + 40 days later, a third of the pages gone", measure(claims)))
    return situations


if __name__ == "__main__":
    main()
