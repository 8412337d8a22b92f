"""A citation's own archive-url, read when the live page cannot be: the demo's Arle Valley
Railway and a probe page, scanned, fetched and judged by real RQ workers against a real
HTTP server on loopback (a dead live URL, a live archive URL) and the real test MediaWiki.
The verdict is the archived copy's and says so, on the claim page, the findings API and
Edit Check's cards; an archive-url on a private address is refused like any other URL."""
from __future__ import annotations

from django.test import Client
from django.urls import reverse

from sideapp.api.findings import archive_state
from sideapp.models import Claim, ClaimCitation, Source
from tests.pipeline_support import SharedPipelineTestCase
from tests.users import PASSWORD, make_user

PROBE = "Own archive probe"
CLOSURE = "Passenger services were withdrawn on 5 September 1964"


class CitationsOwnArchiveTests(SharedPipelineTestCase):
    @classmethod
    def setUpPipeline(cls) -> None:
        host = cls.base.rstrip("/")
        private = f"http://127.0.0.1:{cls.wiki.port}/index.php"  # a real service, not allow-listed
        cls.wiki.edit(PROBE, (
            "The last passenger train ran on the Arle Valley line on 5 September 1964."
            f"<ref>[{host}/slow/avg-line-closure-1964.html Fifty years since the last passenger train] "
            f"{{{{webarchive |url={host}/archive/avg-line-closure-1964.html |date=11 February 2015}}}}</ref>\n\n"
            "The Arle Valley line closed to freight in 1967."
            f"<ref>{{{{cite news |url={host}/missing/avg-freight-1967.html |archiveurl={private} "
            "|archivedate=2015-02-11 |title=The line closes to freight |work=Arle Valley Gazette}}</ref>\n"))
        cls.job = cls.scan(["Arle Valley Railway", PROBE])
        cls.run_workers()
        make_user("eve_editor", "editor")

    def link(self, url_end: str, article: str) -> ClaimCitation:
        return ClaimCitation.objects.select_related("claim", "citation__source").get(
            citation__url__endswith=url_end, claim__article__title=article)

    def test_a_dead_live_page_is_judged_on_the_citations_own_archived_copy(self):
        link = self.link("/missing/avg-line-closure-1964.html", "Arle Valley Railway")
        self.assertTrue(link.citation.source.used_archive)
        self.assertEqual(link.claim.text[:len(CLOSURE)], CLOSURE)
        self.assertEqual((link.verdict, link.claim.verdict), ("supported", "supported"))
        self.assertEqual(link.copy["read"], "citation_archive")
        self.assertEqual(link.copy["words"], "the citation's archived copy of 11 February 2015")
        self.assertTrue(link.copy["url"].endswith("/archive/avg-line-closure-1964.html"))
        self.assertEqual(link.page_state, "gone")
        self.assertIn("read from the citation's archived copy of 11 February 2015", link.reason)
        self.assertIn("read from the citation's archived copy of 11 February 2015", link.claim.verify_reason)
        self.assertIn("5 September 1964", link.evidence["passage"])

    def test_the_claim_page_says_which_copy_was_read(self):
        link = self.link("/missing/avg-line-closure-1964.html", "Arle Valley Railway")
        client = Client()
        self.assertTrue(client.login(username="eve_editor", password=PASSWORD))
        html = client.get(reverse("claim_detail", args=[link.claim_id])).content.decode()
        self.assertIn('data-side-read="citation_archive"', html)
        self.assertIn("the citation&#x27;s archived copy of 11 February 2015</a>; the live page is gone (HTTP 404)",
                      html)
        self.assertNotIn("source unavailable", html.lower())

    def test_the_findings_api_and_the_cards_name_the_archived_copy(self):
        link = self.link("/missing/avg-line-closure-1964.html", "Arle Valley Railway")
        state = archive_state(link)
        self.assertEqual(state["page_state"], "gone")
        self.assertEqual(state["read"], "the citation's archived copy of 11 February 2015")
        self.assertEqual(state["archive"], {"url": link.copy["url"], "timestamp": "20150211",
                                            "words": "the citation's archived copy of 11 February 2015"})

    def test_a_live_page_that_times_out_falls_back_to_a_webarchive_link(self):
        link = self.link("/slow/avg-line-closure-1964.html", PROBE)
        self.assertEqual(link.citation.source.status, Source.Status.OK)
        self.assertTrue(link.citation.source.used_archive)
        self.assertEqual(link.verdict, "supported")
        self.assertEqual(link.copy["read"], "citation_archive")
        self.assertEqual(link.page_state, "unreadable")
        self.assertIn("read from the citation's archived copy of 11 February 2015; the live page could not be read",
                      link.reason)

    def test_an_archive_url_on_a_private_address_is_refused_and_the_claim_stays_unavailable(self):
        link = self.link("/missing/avg-freight-1967.html", PROBE)
        source = link.citation.source
        self.assertFalse(source.used_archive)
        self.assertEqual(source.status, Source.Status.HTTP_ERROR)
        self.assertIn("archive copy also failed (blocked", source.reason)
        self.assertEqual(link.verdict, "source_unavailable")
        self.assertIsNone(link.copy)
        self.assertEqual(Claim.objects.get(pk=link.claim_id).verdict, "source_unavailable")
