"""MediaWiki Edit Check's contract, checked against the article as the wiki renders it
(`action=parse`, read here independently of the app): every target is in the page's text,
right before footnote markers whose notes carry exactly the answer's `url` list."""
from __future__ import annotations

import json

from django.test import TestCase

from harness.demo import demo_pages
from sideapp.api.selectors import cited_claims
from sideapp.api.targets import article_targets
from sideapp.models import Article, Claim
from tests.api_support import (
    PAGE, RenderedRefs, WikiConfigured, forget_api_cache, fresh_title,
    judge, known_wiki, scanned_page)
from tests.wiki_support import demo_wiki, scan_titles

PREDICT = "/v1/models/editing-suggestions:predict"


def rendered(server, article: Article) -> RenderedRefs:
    html = server.admin_site.api("parse", oldid=article.current_revision.rev_id, prop="text",
                                 formatversion=2)["parse"]["text"]
    return RenderedRefs(html)


class EditCheckTests(WikiConfigured, TestCase):
    @classmethod
    def wiki(cls):
        return demo_wiki()

    def setUp(self):
        forget_api_cache()

    def predict(self, body) -> list | dict:
        response = self.client.post(PREDICT, body if isinstance(body, str) else json.dumps(body),
                                    content_type="application/json")
        self.assertIn(response.status_code, (200, 400))
        return response.json()

    def test_each_card_is_a_failing_citation_whose_target_precedes_exactly_its_refs(self):
        article = scanned_page(self.server, fresh_title("Side edit check"))
        span = judge(Claim.objects.get(article=article, text__startswith="Its span"))
        stone = judge(Claim.objects.get(article=article, text__startswith="It is made"))
        judge(Claim.objects.get(article=article, text__startswith="The bridge was closed"), "supported")
        cards = self.predict({"wiki_id": "sidewiki", "page_id": article.page_id})
        self.assertEqual([c["target"] for c in cards],
                         ["It is made of red stone.", "Its span is 120 metres.", "Its span is 120 metres."])
        self.assertEqual(len({c["suggestion_id"] for c in cards}), 3)
        page = rendered(self.server, article)
        for card in cards:
            self.assertIn(card["url"], page.followed_by(card["target"]), card)
            self.assertEqual(card["comments"], "the source gives 1932, not 1931")
            self.assertEqual(card["quote"], "The bridge opened in 1932.")
        self.assertEqual(cards[1]["url"], ["http://127.0.0.1:9/span", "http://127.0.0.1:9/span-2"])
        self.assertEqual({c["title"] for c in cards}, {"Stone", "Span", "Span two"})
        again = self.predict({"wiki_id": "sidewiki", "page_id": article.page_id})
        self.assertEqual([c["suggestion_id"] for c in again], [c["suggestion_id"] for c in cards])
        self.assertTrue(span.pk and stone.pk)

    def test_every_located_claim_of_the_demo_articles_reads_as_rendered(self):
        """Not only the failing ones: every claim the API places in a demo article."""
        known_wiki(self.server)
        titles = list(demo_pages())
        scan_titles(self.server, *titles)
        located = total = 0
        for article in Article.objects.filter(title__in=titles).select_related("wiki", "current_revision"):
            targets = article_targets(article)
            page = rendered(self.server, article)
            for pk, text, urls in cited_claims(article):
                total += 1
                if pk not in targets:
                    continue
                located += 1
                target = targets[pk]
                self.assertIn(target["urls"], page.followed_by(target["text"]), (article.title, text))
                self.assertTrue(text.endswith(target["text"]), (text, target["text"]))
        self.assertGreater(total, 30)
        self.assertGreaterEqual(located / total, 0.9, f"{located} of {total} claims located")

    def test_unknown_wikis_and_pages_answer_an_empty_list(self):
        article = scanned_page(self.server, fresh_title("Side edit check"))
        judge(Claim.objects.get(article=article, text__startswith="It is made"))
        for body in ({"wiki_id": "nowiki", "page_id": article.page_id}, {"wiki_id": "sidewiki", "page_id": 99_999_999},
                     {"wiki_id": "sidewiki"}, {"wiki_id": "sidewiki", "page_id": "12"}, {}):
            self.assertEqual(self.predict(body), [], body)

    def test_a_page_never_scanned_and_a_deleted_one_answer_an_empty_list(self):
        title = fresh_title("Side edit check")
        self.server.edit(title, PAGE)
        page_id = self.server.admin_site.api("query", titles=title, formatversion=2)["query"]["pages"][0]["pageid"]
        self.assertEqual(self.predict({"wiki_id": "sidewiki", "page_id": page_id}), [])
        article = scanned_page(self.server, fresh_title("Side edit check"))
        judge(Claim.objects.get(article=article, text__startswith="It is made"))
        self.server.delete(article.title)
        self.assertEqual(self.predict({"wiki_id": "sidewiki", "page_id": article.page_id}), [])

    def test_malformed_json_is_a_sentence(self):
        answer = self.predict("{not json")
        self.assertEqual(answer["code"], "bad_json")
        self.assertIn("not valid JSON", answer["error"])
        self.assertEqual(self.predict("[1, 2]")["code"], "bad_json")
