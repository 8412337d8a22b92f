"""What a page says about itself, what became of a cited page, and which capture is the
copy as cited: pure functions, no network."""
from __future__ import annotations

import json
import unittest
from datetime import date

from verifier_core.fetch.archives import Capture, nearest_first, parse_archives, parse_cdx
from verifier_core.fetch.citedates import cited_day, timestamp_day
from verifier_core.fetch.metadata import PageMeta, page_metadata
from verifier_core.fetch.pagestate import CitedWork, PageView, page_state

ARTICLE = """<html><head><title>Harbour dues to rise | Arle Valley Gazette</title>
<meta property="og:site_name" content="Arle Valley Gazette">
<meta name="citation_author" content="Penrose, Holly">
<meta property="article:published_time" content="2018-11-20T09:00:00Z">
<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [{"@type": "NewsArticle",
 "headline": "Harbour dues to rise", "dateModified": "2022-05-04", "publisher": {"name": "AVG"}}]}</script>
</head><body><h1>Harbour dues to rise</h1><p class="byline">By Holly Penrose</p>
<p>Harbour dues for fishing boats will rise by 4 per cent in 2018, the authority said.</p></body></html>"""


def view(html: str, url: str = "http://site.example/news/dues.html", final: str = "", status: str = "ok",
         code: int | None = 200, text: str = "") -> PageView:
    meta = page_metadata(html, url)
    return PageView(status, url, final or url, code, meta, text or " ".join(html.split())[:3000])


CITED = CitedWork(url="http://site.example/news/dues.html", title="Harbour dues to rise",
                  site="Arle Valley Gazette", authors=("Penrose",), access_date="21 November 2018")


class PageMetadataTests(unittest.TestCase):
    def test_it_reads_title_site_date_authors_from_the_publishers_tags(self):
        meta = page_metadata(ARTICLE, "http://site.example/a")
        self.assertEqual((meta.title, meta.site_name, meta.date), ("Harbour dues to rise", "Arle Valley Gazette",
                                                                    "2018-11-20"))
        self.assertEqual(meta.authors, ["Penrose, Holly"])
        self.assertEqual(meta.modified, "2022-05-04")  # from JSON-LD inside an @graph
        self.assertEqual(meta.raw_title, "Harbour dues to rise | Arle Valley Gazette")

    def test_json_ld_and_the_byline_fill_in_where_meta_tags_are_missing(self):
        html = ('<html><head><script type="application/ld+json">{"@type": "Article", "headline": "A quay", '
                '"datePublished": "12 March 2019", "author": [{"name": "Ann Lee"}]}</script></head>'
                '<body><span class="byline">By Colin Dray</span></body></html>')
        meta = page_metadata(html)
        self.assertEqual((meta.title, meta.date, meta.authors), ("A quay", "2019-03-12", ["Ann Lee"]))
        self.assertEqual(page_metadata('<p class="byline">By Colin Dray</p>').authors, ["Colin Dray"])

    def test_the_stored_form_round_trips_and_nonsense_gives_an_empty_record(self):
        meta = page_metadata(ARTICLE)
        self.assertEqual(PageMeta.from_json(json.loads(json.dumps(meta.to_json()))), meta)
        self.assertEqual(page_metadata("\x00<<<>>>").title, "")
        self.assertEqual(PageMeta.from_json(None), PageMeta())


class PageStateTests(unittest.TestCase):
    def test_the_cited_work_still_there_is_live(self):
        self.assertEqual(page_state(CITED, view(ARTICLE.replace("2022-05-04", "2018-11-20"))).kind, "live")

    def test_an_update_after_the_access_date_is_a_change_not_a_death(self):
        state = page_state(CITED, view(ARTICLE))
        self.assertEqual(state.kind, "changed")
        self.assertTrue(state.is_cited_work)
        self.assertIn("updated on 4 May 2022", state.detail)

    def test_a_404_and_a_lapsed_domain_are_gone(self):
        gone = page_state(CITED, PageView("http_error", CITED.url, CITED.url, 404))
        self.assertEqual((gone.kind, gone.words, gone.url_status), ("gone", "the page is gone (HTTP 404)", "dead"))
        self.assertEqual(page_state(CITED, PageView("dns_error", CITED.url)).kind, "gone")
        self.assertEqual(page_state(CITED, PageView("timeout", CITED.url)).kind, "unreadable")

    def test_a_redirect_to_the_home_page_names_the_missing_title(self):
        home = "<html><head><title>Welcome | Arle Valley Gazette</title></head><body><h1>Welcome</h1></body></html>"
        state = page_state(CITED, view(home, final="http://site.example/"))
        self.assertEqual(state.kind, "home")
        self.assertEqual(state.sentence, "the address now leads to the site's home page; the cited title "
                                         "'Harbour dues to rise' does not appear")

    def test_a_not_found_page_answering_200_is_a_soft_404(self):
        html = "<html><head><title>Page not found</title></head><body><p>Sorry.</p></body></html>"
        self.assertEqual(page_state(CITED, view(html)).kind, "soft404")

    def test_a_parked_domain_and_someone_elses_site_are_usurped(self):
        parked = "<html><head><title>site.example is for sale</title></head><body>Buy this domain</body></html>"
        self.assertEqual(page_state(CITED, view(parked)).url_status, "usurped")
        other = ('<html><head><meta property="og:site_name" content="Best Casino Bonus"><title>Slots</title>'
                 '</head><body><h1>Slots</h1></body></html>')
        state = page_state(CITED, view(other))
        self.assertEqual(state.kind, "usurped")
        self.assertIn("'Best Casino Bonus', the citation names 'Arle Valley Gazette'", state.detail)

    def test_the_cited_work_whose_text_says_for_sale_or_not_found_is_still_live(self):
        cited = CitedWork(url=CITED.url, title="Domain for sale: the 404 Not Found club", site="Arle Valley Gazette")
        html = ("<html><head><title>Domain for sale: the 404 Not Found club | Arle Valley Gazette</title>"
                '<meta property="og:site_name" content="Arle Valley Gazette"></head><body>'
                "<h1>Domain for sale: the 404 Not Found club</h1><p>This domain is for sale, says the sign the club "
                "hung over its door; buy this domain and the page not found error is yours.</p></body></html>")
        self.assertEqual(page_state(cited, view(html)).kind, "live")

    def test_a_redirect_to_the_same_work_elsewhere_is_not_a_move(self):
        page = view(ARTICLE.replace("2022-05-04", "2018-11-20"), final="http://site.example/2018/11/dues")
        self.assertEqual(page_state(CITED, page).kind, "live")

    def test_without_a_cited_title_another_page_is_not_called_dead(self):
        untitled = CitedWork(url=CITED.url)
        other = "<html><head><title>Another story</title></head><body><p>Words.</p></body></html>"
        self.assertEqual(page_state(untitled, view(other)).kind, "live")


class CaptureChoiceTests(unittest.TestCase):
    CAPTURES = [Capture("20170101000000", "http://a.example/x", "200"),
                Capture("20181120120000", "http://a.example/x", "200"),
                Capture("20230105000000", "http://a.example/x", "200")]

    def test_the_nearest_capture_not_after_the_day_comes_first(self):
        order = nearest_first(self.CAPTURES, date(2018, 11, 21))
        self.assertEqual([c.timestamp[:4] for c in order], ["2018", "2017", "2023"])
        self.assertEqual(nearest_first(self.CAPTURES, date(2018, 11, 20))[0].timestamp, "20181120120000")

    def test_before_every_capture_the_first_after_is_taken_and_undated_takes_the_newest(self):
        self.assertEqual(nearest_first(self.CAPTURES, date(2010, 1, 1))[0].timestamp, "20170101000000")
        self.assertEqual(nearest_first(self.CAPTURES, None)[0].timestamp, "20230105000000")

    def test_both_cdx_json_forms_are_read_and_fuzzy_or_failed_captures_dropped(self):
        ia = json.dumps([["urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length"],
                         ["x", "20190101000000", "http://a.example/x", "text/html", "200", "d", "1"],
                         ["x", "20200101000000", "http://a.example/x", "text/html", "404", "d", "1"]])
        self.assertEqual([c.timestamp for c in parse_cdx(ia, "https://www.a.example/x")], ["20190101000000"])
        pywb = "\n".join(json.dumps(row) for row in [
            {"timestamp": "20190101000000", "url": "http://a.example/x", "status": "200"},
            {"timestamp": "20190102000000", "url": "http://a.example/y", "status": "200", "is_fuzzy": "1"}])
        self.assertEqual([c.timestamp for c in parse_cdx(pywb, "http://a.example/x")], ["20190101000000"])
        self.assertEqual(parse_cdx(b"", "http://a.example/x"), [])

    def test_citation_dates_and_timestamps_are_days(self):
        self.assertEqual(cited_day("March 2019"), date(2019, 3, 31))
        self.assertEqual(cited_day("2 April 2024"), cited_day("2024-04-02"))
        self.assertEqual(cited_day("April 2, 2024"), date(2024, 4, 2))
        self.assertIsNone(cited_day("n.d."))
        self.assertEqual(timestamp_day("20190312093000"), date(2019, 3, 12))

    def test_the_setting_is_pairs_of_urls_and_none_switches_archives_off(self):
        archives = parse_archives("https://web.archive.org/cdx/search/cdx https://web.archive.org/web/, "
                                  "http://127.0.0.1:8403/demo/cdx http://127.0.0.1:8403/demo")
        self.assertEqual([a.name for a in archives], ["the Internet Archive", "the web archive at 127.0.0.1:8403"])
        self.assertEqual(archives[1].raw_url("20190101000000", "http://a/x"),
                         "http://127.0.0.1:8403/demo/20190101000000id_/http://a/x")
        self.assertEqual(archives[0].link_url("2019", "http://a/x"), "https://web.archive.org/web/2019/http://a/x")
        self.assertEqual(parse_archives("none"), [])
        with self.assertRaisesRegex(ValueError, "not 'CDX_URL REPLAY_PREFIX'"):
            parse_archives("https://web.archive.org/cdx/search/cdx")
