"""The editors' search on /claims/: full-text search as a search box is read (words in any
order, "a phrase", -word), over the claim, its section and its article's title, ranked, on
indexes; a search over the limit is cut and the page says so."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import connection
from django.test import Client, TestCase
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims import search
from sideapp.claims.models import Claim
from sideapp.claims.selectors import ClaimFilters, claim_list
from tests.users import PASSWORD, cast
from verifier_core.wikitext import extract

FIXTURES = Path(settings.BASE_DIR) / "fixtures" / "wiki"


def listed(response) -> list[str]:
    return [claim.text for claim in response.context["page"]]


class ClaimSearchTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        article_with_claims("Margaret Ellery", [
            ClaimRow("In 1947 she became the first woman elected to the council of the Society.", score=0.1,
                     section=["Later life"]),
            ClaimRow("She wrote a study of the tidal bore of the River Arle.", score=0.2, section=["Work"]),
            ClaimRow("The bore of the gun was tidal in its moods.", score=0.3, section=["Work"]),
            ClaimRow("She rowed in the first women's crew of the rowing club.", score=0.4, section=["Early life"]),
        ])
        article_with_claims("Kellhaven Lighthouse", [
            ClaimRow("The lamp burned paraffin until 1950.", score=0.5, section=["History"]),
            ClaimRow("The keeper's council met in the tower.", score=0.6, section=["History"]),
        ])
        rest = Claim.objects.get(text__startswith="The lamp burned")
        Claim.objects.filter(pk=rest.pk).update(sentence_rest="and then electric light from the harbour")

    def setUp(self):
        self.client = Client()
        self.client.login(username=cast()["editor"].username, password=PASSWORD)

    def found(self, q: str, **params) -> list[str]:
        return listed(self.client.get(reverse("claim_list"), {"q": q, **params}))

    def test_words_in_any_order_find_the_claim_that_holds_them_all(self):
        self.assertEqual(self.found("first woman council"),
                         ["In 1947 she became the first woman elected to the council of the Society."])
        self.assertEqual(self.found("council first elected woman"), self.found("first woman council"))

    def test_words_match_by_their_stem(self):
        self.assertEqual(self.found("councils electing"),
                         ["In 1947 she became the first woman elected to the council of the Society."])

    def test_a_quoted_phrase_finds_the_words_together_only(self):
        self.assertEqual(self.found('"tidal bore"'), ["She wrote a study of the tidal bore of the River Arle."])
        self.assertEqual(len(self.found("tidal bore")), 2)

    def test_a_word_after_a_minus_leaves_its_claims_out(self):
        self.assertEqual(self.found("bore -gun"), ["She wrote a study of the tidal bore of the River Arle."])
        self.assertEqual(self.found('ellery bore -"tidal bore"'), ["The bore of the gun was tidal in its moods."])

    def test_or_between_words_finds_either(self):
        self.assertEqual(len(self.found("paraffin or gun")), 2)
        self.assertEqual(len(self.found("ellery or paraffin")), 5)  # every claim of Margaret Ellery, and the lamp

    def test_a_title_word_stands_in_for_that_word_only(self):
        # "Kellhaven" is in the title: its claims need "council" themselves, and a word said
        # twice is one word.
        self.assertEqual(self.found("kellhaven council council"), ["The keeper's council met in the tower."])
        self.assertEqual(self.found('"lighthouse council"'), [])  # a phrase does not run from title into claim

    def test_the_article_title_section_and_rest_of_the_sentence_count_as_the_claims_words(self):
        self.assertEqual(self.found("Ellery council"),
                         ["In 1947 she became the first woman elected to the council of the Society."])
        self.assertEqual(self.found("kellhaven paraffin"), ["The lamp burned paraffin until 1950."])
        self.assertEqual(self.found("later life society"),
                         ["In 1947 she became the first woman elected to the council of the Society."])
        self.assertEqual(self.found("paraffin electric harbour"), ["The lamp burned paraffin until 1950."])

    def test_a_title_word_left_out_leaves_out_that_articles_claims(self):
        self.assertEqual(self.found("council -lighthouse"),
                         ["In 1947 she became the first woman elected to the council of the Society."])
        self.assertEqual(self.found("council -ellery"), ["The keeper's council met in the tower."])

    def test_a_search_is_ranked_best_match_first_unless_another_order_is_asked_for(self):
        # "council" is a word of both claims; "tower" of one of them only, and its claim's
        # words outweigh a section's: that claim comes first, though its support is stronger.
        self.assertEqual(self.found("council or tower"), ["The keeper's council met in the tower.",
                                                          "In 1947 she became the first woman elected to the "
                                                          "council of the Society."])
        self.assertEqual(self.found("council or tower", sort="score")[0],
                         "In 1947 she became the first woman elected to the council of the Society.")

    def test_the_page_selects_best_match_while_searching_and_weakest_first_otherwise(self):
        searching = self.client.get(reverse("claim_list"), {"q": "council"})
        self.assertContains(searching, '<option value="relevance" selected>')
        self.assertContains(self.client.get(reverse("claim_list")), '<option value="score" selected>')

    def test_a_search_over_the_limit_is_cut_at_a_word_and_the_page_says_so(self):
        q = "council " + " ".join(["word"] * 80)  # 328 characters
        response = self.client.get(reverse("claim_list"), {"q": q, "show": "all", "section": "later"})
        self.assertContains(response, f"Your search was {len(q)} characters long; only its first "
                                      f"{search.LIMIT} (to the end of a word) were used.")
        kept = response.context["filters"].q
        self.assertLessEqual(len(kept), search.LIMIT)
        self.assertTrue(q.startswith(kept) and kept.endswith("word"))
        # The other filters stay as asked: the list does not fall back to "Flagged".
        self.assertEqual(response.context["filters"].show, "all")
        self.assertEqual(response.context["filters"].section, "later")

    def test_a_search_under_the_limit_says_nothing_of_a_cut(self):
        self.assertNotContains(self.client.get(reverse("claim_list"), {"q": "council"}), "characters long")

    def test_a_search_of_only_common_words_says_so(self):
        response = self.client.get(reverse("claim_list"), {"q": "the of"})
        self.assertEqual(listed(response), [])
        self.assertContains(response, "holds only words too common to search for")

    def test_what_people_type_never_breaks_the_search(self):
        for q in ['"unclosed', "-", "a & b | !c", "(council)", "council:*", "'", "<->", "\\", "or or"]:
            response = self.client.get(reverse("claim_list"), {"q": q, "show": "all"})
            self.assertEqual(response.status_code, 200, q)


class SearchIndexTests(TestCase):
    """Both halves of a search can be read from their indexes (the planner is told not to
    scan tables, as it would on a table this small): the claims' words and the titles'."""

    @classmethod
    def setUpTestData(cls):
        article_with_claims("Margaret Ellery", [ClaimRow("She sat on the council.")])
        # Enough other current claims that one word's index beats reading all of them.
        article_with_claims("Kellhaven Lighthouse", [ClaimRow(f"The lamp was lit in {1800 + n}.") for n in range(400)])
        cls.editor = cast()["editor"]

    def plan(self, queryset) -> str:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE sideapp_claim")
            cursor.execute("SET LOCAL enable_seqscan = off")
            sql, params = queryset.query.sql_with_params()
            cursor.execute(f"EXPLAIN {sql}", params)
            return "\n".join(row[0] for row in cursor.fetchall())

    def test_the_claims_words_are_read_from_their_gin_index(self):
        condition, aliases, _ = search.matching("council")
        self.assertIn("claim_search_current",
                      self.plan(Claim.objects.filter(current=True).alias(**aliases).filter(condition)))
        found = claim_list(filters=ClaimFilters(show="all", q="council"), user=self.editor)
        self.assertEqual([c.text for c in found], ["She sat on the council."])

    def test_the_titles_words_are_read_from_their_gin_index(self):
        from sideapp.scans.models import Article

        titles = Article.objects.filter(title_search=search.words_query("ellery"))
        self.assertIn("article_title_search", self.plan(titles))
        self.assertEqual(titles.count(), 1)


class DemoArticleSearchTests(TestCase):
    """The demo's own articles (fixtures/wiki), as a scan extracts their claims."""

    @classmethod
    def setUpTestData(cls):
        for name in ("Margaret_Ellery", "River_Arle"):
            title = name.replace("_", " ")
            claims = extract((FIXTURES / f"{name}.wiki").read_text(), title).claims
            article_with_claims(title, [ClaimRow(c.text, section=c.section) for c in claims])

    def setUp(self):
        self.client = Client()
        self.client.login(username=cast()["editor"].username, password=PASSWORD)

    def test_first_woman_council_and_the_tidal_bore_phrase_find_the_demos_claims(self):
        def found(q: str) -> list[str]:
            page = self.client.get(reverse("claim_list"), {"q": q, "show": "all"}).context["page"]
            return [f"{claim.text} ({claim.section_path})".lower() for claim in page]

        council = found("first woman council")
        self.assertTrue(council)
        self.assertTrue(all("first woman" in c and "council" in c for c in council), council)
        bore = found('"tidal bore"')
        self.assertGreater(len(bore), 1)
        self.assertTrue(all("tidal bore" in c for c in bore), bore)
