"""A later demo run serves the cited pages where the wiki's articles already cite them, and
keeps the wiki's history: it loads only what the wiki lacks, never over an edit made there."""
import tempfile
import uuid
from pathlib import Path
from unittest import mock

from django.test import SimpleTestCase

from harness import demo
from harness.mediawiki import shared_test_wiki
from sideapp.management.commands.demo import DEFAULT_SOURCES_PORT, _sources_port


class DemoSourcesPortTests(SimpleTestCase):
    def setUp(self):
        self.workdir = Path(tempfile.mkdtemp()) / "demo-wiki"

    def test_first_run_uses_the_default_port(self):
        self.assertEqual(_sources_port(self.workdir, None), (DEFAULT_SOURCES_PORT, None))

    def test_a_later_run_keeps_the_port_of_the_run_before(self):
        _sources_port(self.workdir, 9123)
        self.assertEqual(_sources_port(self.workdir, None), (9123, 9123))

    def test_a_port_given_explicitly_wins_and_is_remembered(self):
        _sources_port(self.workdir, None)
        self.assertEqual(_sources_port(self.workdir, 9200), (9200, DEFAULT_SOURCES_PORT))
        self.assertEqual(_sources_port(self.workdir, None), (9200, 9200))


class DemoPagesKeptTests(SimpleTestCase):
    """On the real test wiki, with one demo article of the project's own under a fresh title."""

    def setUp(self):
        self.wiki = shared_test_wiki()
        self.title = f"Demo sync test {uuid.uuid4().hex[:8]}"
        text = "A fact.<ref>{{cite web |url=http://SOURCES_HOST/pages/a.html |title=A}}</ref>\n"
        patches = [mock.patch.object(demo, "demo_pages", lambda base: {
                       self.title: text.replace(demo.SOURCES_PLACEHOLDER, demo.normalise_base_url(base))}),
                   mock.patch.object(demo, "demo_templates", lambda: {})]
        for patch in patches:
            patch.start()
            self.addCleanup(patch.stop)

    def text(self) -> str:
        return self.wiki.admin_site.pages[self.title].text(cache=False)

    def test_a_later_run_loads_nothing_over_an_edit_made_on_the_wiki(self):
        self.assertEqual(list(demo.sync_demo_pages(self.wiki, "http://127.0.0.2:8090")), [self.title])
        edited = self.text() + "\nA wiki user's sentence.\n"
        revision = self.wiki.edit(self.title, edited, summary="a user's edit")
        self.assertEqual(demo.sync_demo_pages(self.wiki, "http://127.0.0.2:8090",
                                              previous_base_url="http://127.0.0.2:8090"), {})
        self.assertEqual((self.wiki.current_revid(self.title), self.text()), (revision, edited.strip()))

    def test_restoring_writes_the_article_as_shipped_as_a_new_revision_and_only_when_it_changed(self):
        shipped = self.text() if demo.sync_demo_pages(self.wiki, "http://127.0.0.2:8090") else ""
        edited = self.wiki.edit(self.title, shipped.replace("A fact.", "A corrected fact."), summary="a user's edit")
        restored = demo.sync_demo_pages(self.wiki, "http://127.0.0.2:8090", restore=True)
        self.assertGreater(restored[self.title], edited)
        self.assertEqual(self.text(), shipped)
        self.assertEqual(demo.sync_demo_pages(self.wiki, "http://127.0.0.2:8090", restore=True), {})

    def test_cited_pages_on_a_new_port_rewrite_only_their_addresses(self):
        demo.sync_demo_pages(self.wiki, "http://127.0.0.2:8090")
        self.wiki.edit(self.title, self.text() + "\nA wiki user's sentence.\n", summary="a user's edit")
        demo.sync_demo_pages(self.wiki, "http://127.0.0.2:8091", previous_base_url="http://127.0.0.2:8090")
        self.assertIn("http://127.0.0.2:8091/pages/a.html", self.text())
        self.assertNotIn(":8090/", self.text())
        self.assertIn("A wiki user's sentence.", self.text())
        # Upkeep, marked a bot's edit in recent changes: patrol leaves it out of its rows.
        changes = self.wiki.admin_site.api("query", list="recentchanges", rctitle=self.title, rcprop="flags|comment",
                                           rclimit=1)["query"]["recentchanges"]
        self.assertIn("cited pages moved", changes[0]["comment"])
        self.assertIn("bot", changes[0])
