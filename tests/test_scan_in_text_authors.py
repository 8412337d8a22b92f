"""An in-text author-date template ("{{harvtxt|Smith|2010}} has noted that ...") scanned on the
real test MediaWiki: its words belong to the sentence, the ref at the sentence's end backs the
whole sentence, and a tag proposed for the claim lands after that ref, not mid-sentence."""
from __future__ import annotations

from django.test import TestCase

from sideapp.models import Claim
from tests.api_support import WikiConfigured, forget_api_cache, fresh_title, judge, scanned_page

# Stand-ins printing what Wikipedia's templates print in the running text (no footnote).
IN_TEXT_TEMPLATES = {"Template:Harvtxt": "{{{1}}} ({{{2}}})", "Template:Harvnb": "{{{1}}} {{{2}}}"}

PAGE = """{{harvtxt|Smith|2010}} has noted that the bridge's span is 120 metres.<ref>{{cite web |url=http://127.0.0.1:9/span |title=Span}}</ref> The bridge opened in 1931, as {{harvnb|Roe|2001}} says.

== Bibliography ==
* {{cite book |last=Smith |first=Ann |year=2010 |title=Bridges |url=http://127.0.0.1:9/bridges}}
* {{cite book |last=Roe |first=Jo |year=2001 |title=Openings}}

== References ==
<references />
"""


class InTextAuthorDateOnTheWikiTests(WikiConfigured, TestCase):
    def setUp(self):
        forget_api_cache()
        self.server.load_pages(IN_TEXT_TEMPLATES, summary="Side test: in-text templates")
        self.title = fresh_title("Side harvtxt test")
        self.article = scanned_page(self.server, self.title, PAGE)

    def test_the_sentence_is_the_claim_and_its_ref_its_only_citation(self):
        claims = list(Claim.objects.filter(article=self.article).prefetch_related("citations"))
        self.assertEqual([c.text for c in claims], ["Smith (2010) has noted that the bridge's span is 120 metres."])
        self.assertEqual([cit.url for cit in claims[0].citations.all()], ["http://127.0.0.1:9/span"])
        rendered = self.server.admin_site.api("parse", page=self.title, prop="text", formatversion=2)["parse"]["text"]
        self.assertIn("Smith (2010) has noted that the bridge", rendered)  # what the reader sees

    def test_a_tag_for_the_claim_lands_after_its_ref_at_the_end_of_the_sentence(self):
        claim = judge(Claim.objects.get(article=self.article))
        data = self.client.get(f"/api/v1/claims/{claim.pk}/proposal", {"action": "tag"}).json()
        self.assertIn("text", data, data)
        self.assertIn("{{harvtxt|Smith|2010}} has noted that the bridge's span is 120 metres.<ref>{{cite web "
                      "|url=http://127.0.0.1:9/span |title=Span}}</ref>{{failed verification", data["text"])
        self.assertEqual(data["text"].count("{{failed verification"), 1)
        self.assertIn("{{harvnb|Roe|2001}} says.", data["text"])
