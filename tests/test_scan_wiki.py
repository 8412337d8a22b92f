"""Scanning articles through the real MediaWiki API into PostgreSQL."""
from __future__ import annotations

import io
import json

from django.core.management import call_command
from django.test import TestCase, TransactionTestCase, override_settings

from sideapp.models import Citation, Claim, Revision, ScanItem, ScanJob, Source, Wiki
from sideapp.pipeline.stages import scan_job
from sideapp.scans.services import article_store, scan_expand, scan_request
from sideapp.pipeline.stages import scan_progress
from sideapp.scans.wikis import client_for
from tests.wiki_support import demo_wiki, item, scan_titles

LIGHTHOUSE = "Kellhaven Lighthouse"


class DemoArticleScanTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = demo_wiki()

    def test_it_stores_claims_and_citations_of_a_demo_article(self):
        job = scan_titles(self.server, LIGHTHOUSE)
        scanned = item(job, LIGHTHOUSE)
        self.assertEqual(scanned.status, ScanItem.Status.DONE, scanned.reason)
        self.assertEqual(scan_progress(job=job)["scan"], {"done": 1, "total": 1, "failed": 0})
        self.assertEqual(job.status, ScanJob.Status.RUNNING)  # fetch and verify come next
        revision = scanned.revision
        self.assertEqual(revision.rev_id, self.server.current_revid(LIGHTHOUSE))
        self.assertGreaterEqual(revision.claim_count, 8)
        self.assertGreater(Source.objects.count(), 3)

    def test_it_links_a_reused_named_ref_to_each_claim_it_backs(self):
        scan_titles(self.server, LIGHTHOUSE)
        history = Citation.objects.get(article__title=LIGHTHOUSE, ref_name="klt-history")
        self.assertGreaterEqual(history.claims.count(), 2)
        self.assertEqual(history.template, "cite web")
        self.assertTrue(history.url.endswith("/pages/klt-history.html"))

    def test_it_flags_maintenance_tags_on_claims(self):
        scan_titles(self.server, LIGHTHOUSE)
        claims = Claim.objects.filter(article__title=LIGHTHOUSE)
        needs = claims.filter(needs_citation=True)
        self.assertEqual(needs.count(), 1)
        self.assertIn("Grade II*", needs.get().text)
        failed = [c for c in claims if "failed verification" in c.tags]
        self.assertEqual(len(failed), 1)
        self.assertIn("electric lamp", failed[0].text)

    def test_it_resolves_a_short_footnote_to_its_bibliography_entry(self):
        scan_titles(self.server, LIGHTHOUSE)
        sfn = Citation.objects.get(article__title=LIGHTHOUSE, kind="sfn")
        self.assertIn("hp-trewin-lights-excerpt", sfn.url)
        self.assertEqual(sfn.location, "p. 47")

    def test_rescanning_an_unchanged_page_writes_nothing_new(self):
        scan_titles(self.server, LIGHTHOUSE)
        counts = [Revision.objects.count(), Claim.objects.count(), Citation.objects.count()]
        again = item(scan_titles(self.server, LIGHTHOUSE), LIGHTHOUSE)
        self.assertEqual(again.status, ScanItem.Status.UNCHANGED)
        self.assertIn("already scanned", again.reason)
        self.assertEqual(counts, [Revision.objects.count(), Claim.objects.count(), Citation.objects.count()])


class ScanInputTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = demo_wiki()
        cls.server.edit("Kellhaven light", "#REDIRECT [[Kellhaven Lighthouse]]")
        cls.server.edit("Scan input protected", "A protected page.<ref>{{cite web|url=https://example.org/p|title=P}}</ref>")
        cls.server.protect("Scan input protected")

    def wiki(self) -> Wiki:
        return Wiki.objects.get_or_create(api_url=self.server.api_url)[0]

    def test_it_follows_a_redirect_and_says_so(self):
        scanned = item(scan_titles(self.server, "Kellhaven light"), "Kellhaven light")
        self.assertEqual(scanned.status, ScanItem.Status.DONE)
        self.assertEqual(scanned.article.title, LIGHTHOUSE)
        self.assertIn("followed redirect", scanned.reason)

    def test_a_missing_page_ends_failed_with_the_reason(self):
        job = scan_titles(self.server, "No such page anywhere")
        scanned = item(job, "No such page anywhere")
        self.assertEqual(scanned.status, ScanItem.Status.FAILED)
        self.assertIn("does not exist", scanned.reason)
        self.assertEqual(job.status, ScanJob.Status.FAILED)
        self.assertFalse(Revision.objects.exists())

    def test_one_failed_article_leaves_the_others_done(self):
        job = scan_titles(self.server, LIGHTHOUSE, "No such page anywhere")
        self.assertEqual(item(job, LIGHTHOUSE).status, ScanItem.Status.DONE)
        self.assertEqual(scan_progress(job=job)["scan"], {"done": 2, "total": 2, "failed": 1})

    def test_a_protected_page_is_scanned_and_noted(self):
        scanned = item(scan_titles(self.server, "Scan input protected"), "Scan input protected")
        self.assertEqual(scanned.status, ScanItem.Status.DONE)
        self.assertIn("protected", scanned.reason)

    @override_settings(SIDE_MAX_ARTICLE_BYTES=1000)
    def test_an_article_above_the_size_limit_is_refused_with_the_reason(self):
        scanned = item(scan_titles(self.server, LIGHTHOUSE), LIGHTHOUSE)
        self.assertEqual(scanned.status, ScanItem.Status.FAILED)
        self.assertIn("above the limit", scanned.reason)

    def test_a_category_scan_covers_every_member(self):
        job = scan_request(wiki=self.wiki(), kind=ScanJob.Kind.CATEGORY, category="Demo articles", enqueue=False)
        items = scan_expand(job=job)
        self.assertEqual(sorted(i.title for i in items), sorted([
            "Arle Valley Railway", "Kellhaven Fish Market", "Kellhaven Harbour", LIGHTHOUSE,
            "Kellhaven Rowing Club", "Margaret Ellery", "River Arle", "South Quay, Kellhaven"]))

    def test_a_category_that_does_not_exist_fails_the_scan_saying_so(self):
        job = scan_request(wiki=self.wiki(), kind=ScanJob.Kind.CATEGORY, category="No such category here",
                           enqueue=False)
        self.assertEqual(scan_expand(job=job), [])
        job.refresh_from_db()
        self.assertEqual(job.status, ScanJob.Status.FAILED)
        self.assertEqual(job.reason, "Category:No such category here does not exist on the wiki: "
                                     "check the category's name")

    def test_an_empty_category_is_done_with_nothing_to_scan(self):
        self.server.edit("Category:Scan input empty", "A category that no article is in.")
        job = scan_request(wiki=self.wiki(), kind=ScanJob.Kind.CATEGORY, category="Scan input empty",
                           enqueue=False)
        self.assertEqual(scan_expand(job=job), [])
        job.refresh_from_db()
        self.assertEqual((job.status, job.reason),
                         (ScanJob.Status.DONE, "nothing to scan: Category:Scan input empty has no articles"))

    def test_a_recent_changes_scan_starts_with_the_latest_edit(self):
        self.server.edit("Scan input recent", "Fresh page.<ref>{{cite web|url=https://example.org/r}}</ref>")
        job = scan_request(wiki=self.wiki(), kind=ScanJob.Kind.RECENT, limit=5, enqueue=False)
        items = scan_expand(job=job)
        self.assertEqual(items[0].title, "Scan input recent")
        self.assertLessEqual(len(items), 5)

    def test_background_reads_share_one_wiki_session_and_an_editors_save_gets_its_own(self):
        first, again = client_for(self.wiki()), client_for(self.wiki())
        self.assertIs(first, again)  # one session: siteinfo (and a bot's login) read once a process
        self.assertEqual(first.page("Kellhaven Lighthouse").title, again.page("Kellhaven Lighthouse").title)
        self.assertIs(first.site, again.site)
        self.assertIsNot(client_for(self.wiki(), interactive=True), client_for(self.wiki(), interactive=True))

    def test_a_page_edited_during_a_scan_is_stored_as_the_revision_that_was_read(self):
        title = "Scan input changing"
        self.server.edit(title, "First version.<ref>{{cite web|url=https://example.org/1}}</ref>")
        page = client_for(self.wiki()).page(title)
        new_rev = self.server.edit(title, "Second version.<ref>{{cite web|url=https://example.org/2}}</ref>")
        article, revision, written = article_store(wiki=self.wiki(), page=page)
        self.assertTrue(written)
        self.assertEqual(revision.rev_id, page.rev_id)
        self.assertEqual([c.text for c in Claim.objects.filter(article=article)], ["First version."])
        rescanned = item(scan_titles(self.server, title), title)
        self.assertEqual(rescanned.revision.rev_id, new_rev)
        article.refresh_from_db()
        self.assertEqual(article.current_revision.rev_id, new_rev)


class BadInputScanTests(TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = demo_wiki()

    def test_a_300_kb_article_with_hundreds_of_refs_is_scanned_whole(self):
        paragraph = ("Section {n} says the quay was rebuilt in {year}.<ref>{{{{cite web|url=https://example.org/q{n}"
                     "|title=Quay {n}}}}}</ref> It reopened later.<ref name=shared{m}/>\n\n")
        body = "".join(paragraph.format(n=n, year=1800 + n % 200, m=n % 7) for n in range(2400))
        refs = "".join(f"<ref name=shared{m}>{{{{cite news|url=https://example.org/s{m}}}}}</ref>" for m in range(7))
        text = f"Big article.{refs}\n\n{body}== References ==\n{{{{reflist}}}}"
        self.assertGreater(len(text.encode()), 300_000)
        self.server.edit("Scan big article", text)
        scanned = item(scan_titles(self.server, "Scan big article"), "Scan big article")
        self.assertEqual(scanned.status, ScanItem.Status.DONE, scanned.reason)
        self.assertEqual(scanned.revision.citation_occurrences, 2 * 2400 + 7)
        self.assertEqual(scanned.revision.citation_count, 2400 + 7)

    def test_malformed_wikitext_is_scanned_without_garbage(self):
        text = ("{{Infobox thing | name = Broken\n The hull was steel.<ref>{{cite web|url=https://example.org/h</ref>"
                " [[Link|unclosed <ref name=>x</ref> }}}} ]] '''bold\n== Head ==\nLast fact.<ref>plain</ref>")
        self.server.edit("Scan malformed", text)
        scanned = item(scan_titles(self.server, "Scan malformed"), "Scan malformed")
        self.assertEqual(scanned.status, ScanItem.Status.DONE, scanned.reason)
        claims = Claim.objects.filter(article__title="Scan malformed")
        self.assertTrue(claims.exists())
        for claim in claims:
            self.assertNotIn("{{", claim.text)

    @override_settings(SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.01)
    def test_an_unreachable_wiki_ends_the_scan_failed_with_the_reason(self):
        wiki = Wiki.objects.create(api_url="http://127.0.0.1:9/api.php")
        job = scan_request(wiki=wiki, kind=ScanJob.Kind.TITLES, titles=["Anything"], enqueue=False)
        scan_job(job.items.get().pk)
        scanned = job.items.get()
        self.assertEqual(scanned.status, ScanItem.Status.FAILED)
        self.assertIn("did not answer after 2 tries", scanned.reason)
        job.refresh_from_db()
        self.assertEqual(job.status, ScanJob.Status.FAILED)
        # One sentence, the article's own reason: no exception names or urllib3 internals.
        self.assertTrue(job.reason.startswith("the article could not be scanned: the wiki at "
                                              "http://127.0.0.1:9/api.php did not answer"), job.reason)
        for internal in ("ConnectionError", "HTTPConnectionPool", "Max retries"):
            self.assertNotIn(internal, job.reason)


class NewRevisionTests(TestCase):
    def test_a_new_revision_keeps_unchanged_claims_and_adds_the_new_one(self):
        server = demo_wiki()
        title = "Scan identity page"
        base = ("The bridge opened in 1901.<ref>{{cite web|url=https://example.org/bridge|title=B}}</ref> "
                "It is 80 m long.<ref name=len>{{cite web|url=https://example.org/len}}</ref>")
        server.edit(title, base)
        scan_titles(server, title)
        before = {c.text: c.pk for c in Claim.objects.filter(article__title=title)}
        server.edit(title, base + " It was repainted in 1990.<ref name=len/>")
        rescanned = item(scan_titles(server, title), title)
        after = {c.text: c.pk for c in Claim.objects.filter(article__title=title)}
        self.assertEqual(rescanned.status, ScanItem.Status.DONE)
        for text, pk in before.items():
            self.assertEqual(after[text], pk)
        self.assertIn("It was repainted in 1990.", after)
        self.assertEqual(rescanned.revision.claim_count, 3)


class ScanArticleCommandTests(TransactionTestCase):
    """Commits for real: --sync runs each stage once the previous one has committed."""

    def test_sync_json_prints_the_contract_for_each_article(self):
        server = demo_wiki()
        out = io.StringIO()
        call_command("scan_article", LIGHTHOUSE, "No such page anywhere", wiki=server.api_url,
                     sync=True, json=True, stdout=out)
        lines = [json.loads(line) for line in out.getvalue().splitlines()]
        self.assertEqual([d["title"] for d in lines], [LIGHTHOUSE, "No such page anywhere"])
        found, missing = lines
        self.assertEqual(found["revision"], server.current_revid(LIGHTHOUSE))
        claim = found["claims"][0]
        self.assertEqual(set(claim) >= {"id", "text", "context", "section", "needs_citation", "citations",
                                        "verdict", "score", "evidence", "suggestions"}, True)
        citation = claim["citations"][0]
        self.assertLessEqual({"ref_name", "url", "title", "template", "flags"}, set(citation))
        self.assertEqual(missing["status"], "failed")
        self.assertEqual(missing["claims"], [])
