"""Helpers for tests that scan through the real test MediaWiki."""
from __future__ import annotations

from pathlib import Path

from harness.demo import load_demo_pages
from harness.mediawiki import MediaWikiServer, shared_test_wiki
from sideapp.models import ScanItem, ScanJob, Wiki
from sideapp.scans.services import scan_request

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SHARED_WIKITEXT = SHARED / "data" / "wikitext"
SHARED_WICE = SHARED / "data" / "wice"
# Demo articles cite this placeholder server unless a test serves the sources itself.
NOWHERE = "http://127.0.0.1:9/"

_loaded: dict[str, str] = {}


BOT = ("Side editor bot", "bot-account-password")  # the bot password every edit test saves with


class OnSharedWikiWithBot:
    """A TestCase mixin: the shared test wiki (`cls.server`) and a bot password on it."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = shared_test_wiki()
        cls.bot_user, cls.bot_password = cls.server.bot_password(*BOT)


def demo_wiki(sources_base_url: str = NOWHERE) -> MediaWikiServer:
    """The shared test wiki with the demo articles citing `sources_base_url`."""
    server = shared_test_wiki()
    if _loaded.get(server.api_url) != sources_base_url:
        load_demo_pages(server, sources_base_url)
        _loaded[server.api_url] = sources_base_url
    return server


def scan_titles(server: MediaWikiServer, *titles: str) -> ScanJob:
    """Scan `titles` in this process, through the same job function a worker runs (so the
    fetches and verifications it hands on to are queued for real workers)."""
    from sideapp.pipeline.stages import scan_job

    wiki, _ = Wiki.objects.get_or_create(api_url=server.api_url)
    job = scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=list(titles), enqueue=False)
    for item in job.items.all():
        scan_job(item.pk)
    job.refresh_from_db()
    return job


def item(job: ScanJob, title: str) -> ScanItem:
    return job.items.select_related("article", "revision").get(title=title)


def page_for_edits(test, prefix: str, *, protect: bool = False, text: str | None = None,
                   bot: tuple[str, str] | None = None, **wiki_settings) -> tuple[MediaWikiServer, str]:
    """A new page (`text`, else test_edits_wiki.PAGE) on the shared test wiki, protected if
    asked, then scanned; the bot account (`bot`, else a new one) is the configured one, with
    `wiki_settings` (SIDE_WIKI_RETRIES=...), until `test` ends."""
    import uuid

    from django.test import override_settings

    from tests.test_edits_wiki import PAGE

    server = shared_test_wiki()
    bot_user, bot_password = bot or server.bot_password("Side browser bot", "bot-account-password")
    title = f"{prefix} {uuid.uuid4().hex[:8]}"
    server.edit(title, text or PAGE)
    if protect:
        server.protect(title)  # which writes a revision of its own: scanned below
    settings = override_settings(SIDE_WIKI_API_URL=server.api_url, SIDE_WIKI_USERNAME=bot_user,
                                 SIDE_WIKI_PASSWORD=bot_password, **wiki_settings)
    settings.enable()
    test.addCleanup(settings.disable)
    scan_titles(server, title)
    return server, title
