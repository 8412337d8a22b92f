"""The MediaWiki harness against a real MediaWiki (Debian's package, SQLite, `php -S`),
and the demo fixtures it loads.

Needs the packages bin/install-mediawiki installs; without them the wiki tests fail
with MediaWikiUnavailable, whose message names the apt-get command.
"""
import calendar
import importlib.util
import io
import re
import shutil
import socket
import tempfile
import time
import unittest
import uuid
from pathlib import Path

import mwclient
import mwparserfromhell
import pypdf

from harness.demo import (
    DEMO_CATEGORY,
    SOURCES_DIR,
    SOURCES_PLACEHOLDER,
    WIKI_DIR,
    demo_pages,
    load_demo_pages,
    load_manifest,
)
from harness.mediawiki import (
    MediaWikiError,
    MediaWikiServer,
    MediaWikiUnavailable,
    check_mediawiki,
    shared_test_wiki,
)
from harness.mw_support import free_port, port_is_free

DEMO_TITLES = {"Kellhaven Lighthouse", "River Arle", "Kellhaven Rowing Club",
               "Arle Valley Railway", "Margaret Ellery", "Kellhaven Harbour",
               "Kellhaven Fish Market", "South Quay, Kellhaven"}


def unique(label: str) -> str:
    """A title or user name no other test (or earlier run on a kept wiki) uses."""
    return f"{label} {uuid.uuid4().hex[:8]}"


class SharedWikiTests(unittest.TestCase):
    wiki: MediaWikiServer

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.wiki = shared_test_wiki()


class MediaWikiServerTests(SharedWikiTests):
    def test_it_serves_a_fresh_mediawiki_api_on_loopback(self):
        self.assertRegex(self.wiki.api_url, r"^http://127\.0\.0\.1:\d+/api\.php$")
        site = self.wiki.site()
        self.assertEqual(site.site["sitename"], "Side Demo Wiki")
        self.assertGreaterEqual(site.version[:2], (1, 38))
        self.assertEqual(site.site["server"], self.wiki.base_url)

    def test_it_creates_an_account_that_can_log_in(self):
        name = unique("Editor")
        self.wiki.create_account(name, "first-password")
        site = self.wiki.site(name, "first-password")
        self.assertEqual(site.username, name)
        self.assertTrue(site.logged_in)

    def test_creating_an_existing_account_resets_its_password(self):
        name = unique("Editor")
        self.wiki.create_account(name, "old-password")
        self.wiki.create_account(name, "new-password")
        self.assertEqual(self.wiki.site(name, "new-password").username, name)
        with self.assertRaises(mwclient.errors.LoginError):
            self.wiki.site(name, "old-password")

    def test_it_adds_an_account_to_groups(self):
        name = unique("Bot")
        self.wiki.create_account(name, "bot-password", groups=("bot",))
        self.assertIn("bot", self.wiki.site(name, "bot-password").groups)

    def test_loaded_pages_read_back_with_text_revision_and_timestamp(self):
        first, second = unique("Harness page"), unique("Harness page")
        before = time.time() - 5
        revids = self.wiki.load_pages({first: "First text.", second: "Second text."})
        self.assertEqual(set(revids), {first, second})
        page = self.wiki.site().pages[first]
        self.assertEqual(page.text(), "First text.")
        self.assertEqual(page.revision, revids[first])
        latest = next(page.revisions(max_items=1, prop="ids|timestamp"))
        self.assertEqual(latest["revid"], revids[first])
        self.assertGreaterEqual(calendar.timegm(latest["timestamp"]), before)

    def test_an_unchanged_save_returns_the_current_revision(self):
        title = unique("Harness page")
        revid = self.wiki.edit(title, "Same text.")
        self.assertEqual(self.wiki.edit(title, "Same text."), revid)
        self.assertGreater(self.wiki.edit(title, "Other text."), revid)

    def test_a_redirect_page_resolves_to_its_target(self):
        target, redirect = unique("Harness target"), unique("Harness redirect")
        self.wiki.load_pages({target: "Target text.", redirect: f"#REDIRECT [[{target}]]"})
        page = self.wiki.site().pages[redirect]
        self.assertTrue(page.redirect)
        self.assertEqual(page.resolve_redirect().name, target)
        self.assertEqual(page.resolve_redirect().text(), "Target text.")

    def test_category_members_are_listed_right_after_a_save(self):
        category, title = unique("Harness category"), unique("Harness member")
        self.wiki.edit(title, f"Member text. [[Category:{category}]]")
        members = [page.name for page in self.wiki.site().categories[category]]
        self.assertEqual(members, [title])

    def test_recent_changes_list_the_new_revisions(self):
        title = unique("Harness recent")
        revid = self.wiki.edit(title, "Recent text.")
        changes = self.wiki.site().recentchanges(prop="title|ids|timestamp", max_items=50)
        self.assertIn((title, revid), {(c["title"], c["revid"]) for c in changes})

    def test_protect_stops_other_users_but_not_the_admin(self):
        title, name = unique("Harness protected"), unique("Editor")
        self.wiki.edit(title, "Protected text.")
        self.wiki.protect(title)
        self.wiki.create_account(name, "editor-password")
        editor = self.wiki.site(name, "editor-password")
        with self.assertRaises(mwclient.errors.APIError) as raised:
            self.wiki.edit(title, "Vandalism.", site=editor)
        self.assertEqual(raised.exception.code, "protectedpage")
        self.assertIn("edit", editor.pages[title].protection)
        self.assertIsInstance(self.wiki.edit(title, "Admin text."), int)

    def test_admin_edits_log_in_again_after_a_lost_session(self):
        title = unique("Harness session")
        self.wiki.edit(title, "Before.")
        self.wiki.admin_site.connection.cookies.clear()  # as when the session expires
        revid = self.wiki.edit(title, "After.")
        latest = next(self.wiki.site().pages[title].revisions(max_items=1, prop="ids|user"))
        self.assertEqual((latest["revid"], latest["user"]), (revid, self.wiki.admin_user))

    def test_delete_removes_the_page(self):
        title = unique("Harness deleted")
        self.wiki.edit(title, "Soon gone.")
        self.wiki.delete(title)
        self.assertIsNone(self.wiki.current_revid(title))
        self.assertFalse(self.wiki.site().pages[title].exists)


class MediaWikiLifecycleTests(unittest.TestCase):
    """Instances of their own, for what the shared wiki must not go through."""

    def setUp(self):
        self.workdir = Path(tempfile.mkdtemp(prefix="side-harness-test-"))
        self.addCleanup(shutil.rmtree, self.workdir, ignore_errors=True)

    def test_a_second_start_reuses_the_install_and_keeps_pages(self):
        wiki = MediaWikiServer(self.workdir)
        with wiki:
            revid = wiki.edit("Kept page", "Kept text.")
            first_port = wiki.port
        self.assertFalse(wiki.running)
        self.assertTrue(port_is_free(first_port))
        self.assertFalse(wiki.install())
        with wiki:
            self.assertEqual(wiki.current_revid("Kept page"), revid)

    def test_a_kept_wiki_of_an_older_version_gets_this_versions_settings(self):
        wiki = MediaWikiServer(self.workdir)
        wiki.install()
        older = wiki.settings_path.read_text().replace("wfLoadExtension( 'Gadgets' );", "")
        wiki.settings_path.write_text(older)
        self.assertFalse(wiki.install())  # kept, not installed again
        self.assertIn("wfLoadExtension( 'Gadgets' );", wiki.settings_path.read_text())

    def test_a_broken_configuration_fails_fast_with_the_log_tail(self):
        wiki = MediaWikiServer(self.workdir, startup_timeout=60)
        wiki.install()
        with open(wiki.settings_path, "a") as settings:
            settings.write("\nthrow new Exception('harness-test-breakage');\n")
        started = time.monotonic()
        with self.assertRaisesRegex(MediaWikiError, "harness-test-breakage"):
            wiki.start()
        self.assertLess(time.monotonic() - started, 30)
        self.assertFalse(wiki.running)

    def test_it_refuses_a_port_that_is_in_use(self):
        with socket.socket() as busy:
            busy.bind(("127.0.0.1", 0))
            busy.listen()
            wiki = MediaWikiServer(self.workdir, port=busy.getsockname()[1])
            with self.assertRaisesRegex(MediaWikiError, "already in use"):
                wiki.start()

    def test_it_serves_on_a_requested_port(self):
        port = free_port()
        with MediaWikiServer(self.workdir, port=port) as wiki:
            self.assertEqual(wiki.api_url, f"http://127.0.0.1:{port}/api.php")

    def test_missing_php_is_reported_with_the_install_command(self):
        with self.assertRaisesRegex(MediaWikiUnavailable, "apt-get install .*php-cli"):
            check_mediawiki.__wrapped__("php-that-does-not-exist")


class DemoPagesLoadTests(SharedWikiTests):
    def test_demo_articles_load_with_the_real_sources_base_url(self):
        revids = load_demo_pages(self.wiki, "http://127.0.0.1:8123")
        self.assertEqual(set(revids), DEMO_TITLES)
        site = self.wiki.site()
        text = site.pages["River Arle"].text()
        self.assertIn("http://127.0.0.1:8123/redirect/avg-arle-wave.html", text)
        self.assertNotIn("SOURCES_HOST", text)
        self.assertFalse(text.startswith("<!--"))
        members = {page.name for page in site.categories[DEMO_CATEGORY]}
        self.assertLessEqual(DEMO_TITLES, members)
        self.assertTrue(site.pages["Template:Cite web"].exists)
        rendered = site.parse(page="Kellhaven Lighthouse")["text"]["*"]
        self.assertIn("Lights of the Western Approaches", rendered)


def plain_text(wikitext: str) -> str:
    """Article text without refs and templates, links as their anchor text."""
    wikitext = re.sub(r"<ref[^>]*/>|<ref[^>]*>.*?</ref>", "", wikitext, flags=re.S)
    return " ".join(mwparserfromhell.parse(wikitext).strip_code().split())


def cited_urls(wikitext: str) -> list[tuple[str, str]]:
    """(parameter, path) for every url= / archive-url= on the sources placeholder."""
    pattern = r"\|\s*(url|archive-url)\s*=\s*" + re.escape(SOURCES_PLACEHOLDER) + r"([^\s|}]+)"
    return re.findall(pattern, wikitext)


class DemoFixturesTests(unittest.TestCase):
    """The fixtures agree with each other; no wiki needed."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pages = demo_pages()
        cls.manifest = load_manifest()

    def test_every_article_names_its_title_and_joins_the_demo_category(self):
        for path in WIKI_DIR.glob("*.wiki"):
            self.assertTrue(path.read_text().startswith("<!-- title: "), path)
        self.assertEqual(set(self.pages), DEMO_TITLES)
        for title, text in self.pages.items():
            self.assertIn(f"[[Category:{DEMO_CATEGORY}]]", text, title)

    def test_every_cited_url_leads_to_a_fixture_or_an_expected_404(self):
        for title, text in self.pages.items():
            for parameter, path in cited_urls(text):
                prefix, name = path.split("/", 1)
                with self.subTest(title=title, path=path):
                    if prefix in ("missing", "moved-home", "soft404", "parked"):  # no page of its own now
                        self.assertTrue(f"pages/{name}" in self.manifest or path in self.manifest)
                    else:
                        self.assertIn(prefix, {"pages", "redirect", "slow", "huge", "archive"})
                        self.assertTrue((SOURCES_DIR / "pages" / name).is_file())

    def test_the_special_behaviours_are_all_cited(self):
        paths = [path for text in self.pages.values() for _, path in cited_urls(text)]
        for prefix in ("redirect/", "slow/", "huge/", "missing/", "archive/"):
            self.assertTrue(any(path.startswith(prefix) for path in paths), prefix)
        self.assertTrue(any(path.endswith(".pdf") for path in paths))
        self.assertTrue(any(path.endswith(".txt") for path in paths))

    def test_the_manifest_covers_every_source_file(self):
        files = {str(path.relative_to(SOURCES_DIR)) for path in (SOURCES_DIR / "pages").iterdir()}
        self.assertLessEqual(files, set(self.manifest))
        for key, entry in self.manifest.items():
            if entry["content_type"] is not None:
                self.assertTrue((SOURCES_DIR / key).is_file(), key)

    def test_manifest_claims_are_verbatim_in_their_articles(self):
        plain = {title: plain_text(text) for title, text in self.pages.items()}
        expectations = {"supported", "partially_supported", "not_supported", "source_unavailable"}
        for key, entry in self.manifest.items():
            for claim in entry["claims"] + entry["better_source_for"]:
                with self.subTest(source=key, claim=claim["claim"]):
                    self.assertIn(claim["claim"], plain[claim["article"]])
                    self.assertIn(claim.get("expect", "supported"), expectations)

    def test_the_pdf_is_readable_and_matches_its_generator(self):
        spec = importlib.util.spec_from_file_location("make_pdf", SOURCES_DIR / "make_pdf.py")
        make_pdf = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(make_pdf)
        committed = pdf_text(make_pdf.OUTPUT.read_bytes())
        self.assertIn("Nominal range: 22 nautical miles.", committed)
        self.assertIn("two white flashes every 15 seconds", committed)
        # Compared as text: another zlib may compress the same PDF to other bytes.
        self.assertEqual(committed, pdf_text(make_pdf.build_pdf()))


def pdf_text(data: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(data), strict=True)
    return "\n".join(page.extract_text() for page in reader.pages)
