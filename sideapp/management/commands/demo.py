"""demo: the whole app on a local demo wiki, for a new user's first look.

Starts the demo MediaWiki (the project's own articles), the server of their cited
pages, the web app and the RQ workers; creates the demo users; queues a first scan
of the demo articles; prints where to go. Ctrl-C stops everything it started.
"""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from harness.archive import ArchiveUnavailable, LocalArchive, demo_archive_start
from harness.demo import DEMO_CATEGORY, SOURCES_DIR, sync_demo_pages
from harness.mediawiki import MediaWikiServer
from harness.mw_support import die_with_parent
from harness.webserver import SourceServer
from sideapp.gadget.install import gadget_pages
from sideapp.patrol.services import wiki_patrol_set
from sideapp.scans.wikis import wiki_for
from verifier_core.fetch.archives import parse_archives

# The cited pages live on their own loopback address so that the SSRF guard can let
# exactly that address through and nothing else on this machine.
SOURCES_HOST = "127.0.0.2"
DEFAULT_SOURCES_PORT = 8090
DEFAULT_ARCHIVE_PORT = 8097


class Command(BaseCommand):
    help = "Run the app on a local demo wiki: wiki, cited pages, web server and workers."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000, help="web app port (default 8000)")
        parser.add_argument("--wiki-port", type=int, default=8089)
        parser.add_argument("--sources-port", type=int, default=None,
                            help="port of the cited pages (default: the previous run's, else 8090); "
                                 "a new one rewrites every citation on the demo wiki")
        parser.add_argument("--archive-port", type=int, default=DEFAULT_ARCHIVE_PORT,
                            help="port of the demo's own web archive (pywb; default 8097)")
        parser.add_argument("--restore-articles", action="store_true",
                            help="write the demo articles back as the demo ships them (the planted mismatches "
                                 "again), over the edits made on the demo wiki since; its history keeps them")
        parser.add_argument("--no-scan", action="store_true", help="do not queue the first scan")
        parser.add_argument("--check", action="store_true",
                            help="start, wait for the first scan to finish, edit a demo article as a "
                                 "new wiki user and wait for it on /patrol/, report and stop")

    def handle(self, *args, **opts):
        self.children: list[subprocess.Popen] = []
        # SIGTERM/SIGHUP end the demo through `finally`, which stops every child.
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, lambda *_: sys.exit(0))
        workdir = Path(settings.SIDE_DATA_DIR) / "demo-wiki"
        wiki = MediaWikiServer(workdir, port=opts["wiki_port"], die_with_parent=True)
        port, self.previous_sources_port = _sources_port(workdir, opts["sources_port"])
        sources = SourceServer(SOURCES_DIR, port=port,
                               host=SOURCES_HOST)
        # The demo's web archive: its cited pages as they were, some of them gone since.
        self.archive = LocalArchive(Path(settings.SIDE_DATA_DIR) / "demo-archive", port=opts["archive_port"],
                                    record=settings.SIDE_ARCHIVE_CAPTURE)
        try:
            self._start(wiki, sources, opts)
            if opts["check"]:
                self._check()
                return self._check_patrol(wiki)
            self._wait()
        finally:
            self._stop_children()
            self.archive.stop()
            sources.stop()
            wiki.stop()

    def _start(self, wiki: MediaWikiServer, sources: SourceServer, opts) -> None:
        call_command("migrate", verbosity=0)
        call_command("create_demo_users", stdout=self.stdout)
        sources_url = self.sources_url = sources.start()
        try:
            demo_archive_start(self.archive, sources_url)
        except ArchiveUnavailable as exc:  # the demo still runs, only without earlier copies
            self.stdout.write(self.style.WARNING(f"no local web archive: {exc}"))
        api_url = wiki.start()
        # The demo's wiki is one row across runs and ports: known by its siteinfo, the row
        # of an earlier run takes this run's address (and its claims are not listed twice).
        row = wiki_for(api_url=api_url)
        # A later run keeps the wiki's history: only what the wiki lacks is loaded.
        previous = self.previous_sources_port
        sync_demo_pages(wiki, sources_url, previous_base_url=sources_url.replace(
            f":{sources.port}", f":{previous}") if previous and previous != sources.port else None,
            restore=opts["restore_articles"])
        # The demo patrols its wiki: edits from now on (not the pages just loaded) are checked.
        # The wiki stamps changes to the second, so patrolling starts at the next one: the
        # pages just loaded all fall before it and never appear on /patrol/ as added citations.
        time.sleep(1.05 - time.time() % 1)
        wiki_patrol_set(wiki=row, on=True)
        # Side editor on the wiki's article pages: a site gadget on for everyone, logged in or not.
        wiki.edit_interface(gadget_pages(f"http://127.0.0.1:{opts['port']}", way="site"),
                            summary="Side demo: install the Side editor gadget")
        self.stdout.write(f"demo wiki: {wiki.index_url}  (cited pages: {sources_url}"
                          + (f"; web archive: {self.archive.replay_prefix})" if self.archive.running else ")"))
        env = self._child_env(api_url) | self._bot_account(wiki)
        # Queued before the workers start, so that their start-up recovery finds it on the
        # queue rather than racing its enqueue.
        if not opts["no_scan"]:
            self._first_scan(api_url, env)
        self._spawn(["rqworker", "scan", "fetch", "default", "--with-scheduler"], env)
        self._spawn(["rqworker", "verify", "--with-scheduler",
                     "--worker-class", "sideapp.pipeline.worker.SideModelWorker"], env)
        self._spawn(["runserver", f"127.0.0.1:{opts['port']}", "--noreload"], env)
        self.stdout.write(self.style.SUCCESS(
            f"\nSide editor is running at http://127.0.0.1:{opts['port']}/\n"
            "Log in as admin, editor or annotator with the password demo-password.\n"
            "Once the first scan ends, annotator finds blind A/B items at /annotate/ and admin\n"
            "reads the results at /annotate/results/.\n"
            f"On the demo wiki ({wiki.index_url}) every article shows Side editor's markers; create a\n"
            f"wiki account there (Special:CreateAccount) to fix a citation from a card as your own edit.\n"
            "The demo wiki is patrolled: add a citation to an article there and it appears, checked,\n"
            f"on http://127.0.0.1:{opts['port']}/patrol/ within a minute.\n"
            "Press Ctrl-C to stop."))

    def _child_env(self, api_url: str) -> dict[str, str]:
        allow = ",".join(dict.fromkeys([*settings.SIDE_FETCH_ALLOWLIST, SOURCES_HOST]))
        # The demo's few claims all become annotation items when the scan ends (not only
        # those whose suggestion outscores the citation), so the annotator has work at once.
        archives = ([self.archive.setting] if self.archive.running else []) + (
            [settings.SIDE_ARCHIVES] if parse_archives(settings.SIDE_ARCHIVES) else [])
        return dict(os.environ, SIDE_WIKI_API_URL=api_url, SIDE_FETCH_ALLOWLIST=allow, SIDE_ARCHIVES=", ".join(archives) or "none",
                    SIDE_FETCH_HOST_DELAY=os.environ.get("SIDE_FETCH_HOST_DELAY", "0.05"),
                    SIDE_ANNOTATION_AUTO_ITEMS=os.environ.get("SIDE_ANNOTATION_AUTO_ITEMS", "all"),
                    DEBUG=os.environ.get("DEBUG", "false"))

    def _bot_account(self, wiki: MediaWikiServer) -> dict[str, str]:
        """The account editors' changes are saved as: a fresh bot password of the demo's
        bot user, unless the settings name an account."""
        if settings.SIDE_WIKI_USERNAME:
            return {}
        user, password = wiki.bot_password("Side editor bot", secrets.token_hex(12), app_id="demo")
        self.stdout.write(f"edits are saved on the demo wiki as {user}")
        return {"SIDE_WIKI_USERNAME": user, "SIDE_WIKI_PASSWORD": password}

    def _spawn(self, args: list[str], env: dict[str, str]) -> None:
        command = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *args]
        # Own process group (so a stop reaches a worker's work-horse too), and killed
        # with us even if we die without running `finally`.
        self.children.append(subprocess.Popen(command, env=env, start_new_session=True,
                                              preexec_fn=die_with_parent))

    def _first_scan(self, api_url: str, env: dict[str, str]) -> None:
        subprocess.run([sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "scan_article",
                        "--category", DEMO_CATEGORY, "--wiki", api_url], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        self.stdout.write(f"first scan queued: every article in Category:{DEMO_CATEGORY}")

    def _check(self) -> None:
        from sideapp.annotation.models import Item
        from sideapp.models import ScanJob

        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            job = ScanJob.objects.order_by("-pk").first()
            if job and job.status not in (ScanJob.Status.QUEUED, ScanJob.Status.RUNNING):
                self.stdout.write(f"first scan: {job.status} {job.reason}")
                self.stdout.write(f"annotation items ready: {Item.objects.count()}")
                return
            time.sleep(2)
        raise SystemExit("the first demo scan did not finish within 10 minutes")

    def _check_patrol(self, wiki: MediaWikiServer) -> None:
        """A new wiki user adds a cited sentence to a demo article; its row must appear on
        the patrol feed, with a verdict, within two minutes."""
        from sideapp.models import PatrolRow

        wiki.create_account("Demo patroller", "demo-patroller-password")
        site = wiki.site("Demo patroller", "demo-patroller-password")
        text = ("\n\nThe river rises on Brannock Moor.<ref>{{cite web |url=" + self.sources_url
                + "/pages/acp-river-arle.html |title=The River Arle and its catchment}}</ref>")
        saved = time.monotonic()
        revid = site.post("edit", token=site.get_token("csrf"), title="River Arle", appendtext=text)["edit"]["newrevid"]
        while time.monotonic() < saved + 120:
            row = PatrolRow.objects.filter(edit__revid=revid).exclude(claim__verdict="").select_related("claim").first()
            if row is not None:
                self.stdout.write(f"patrol: revision {revid} on /patrol/ as {row.claim.verdict} "
                                  f"{time.monotonic() - saved:.0f} s after the edit")
                return
            time.sleep(2)
        raise SystemExit(f"patrol: revision {revid} had no verdict on /patrol/ within two minutes")

    def _wait(self) -> None:
        try:
            while all(child.poll() is None for child in self.children):
                time.sleep(1)
            self.stderr.write("a demo process stopped; shutting down")
        except KeyboardInterrupt:
            self.stdout.write("\nstopping")

    def _stop_children(self) -> None:
        for child in self.children:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGTERM)
        for child in self.children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)


def _sources_port(workdir: Path, asked: int | None) -> tuple[int, int | None]:
    """(the port the cited pages are served on, the previous run's). The demo articles cite
    them by URL, so a new port rewrites every citation: new revisions, new claims, editors'
    judgements left on the old ones. A run therefore keeps the previous run's port unless
    told otherwise."""
    remembered = workdir / "sources-port"
    previous = int(remembered.read_text()) if remembered.is_file() else None
    port = asked or previous or DEFAULT_SOURCES_PORT
    workdir.mkdir(parents=True, exist_ok=True)
    remembered.write_text(str(port))
    return port, previous
