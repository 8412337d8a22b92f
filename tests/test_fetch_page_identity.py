"""What a reader calls one page (page_key / same_page), the site's own name read from a
page, and fetch failures in words."""
from __future__ import annotations

import unittest

from verifier_core.fetch import failure_sentence, normalise_url, page_key, same_page, unwrap_archive
from verifier_core.fetch.extract import html_extract, site_name

CITED = "https://www.example.org/news/bridge-opens"


class SamePageTests(unittest.TestCase):
    def test_it_takes_every_spelling_of_one_page_as_the_same_page(self):
        for other in (
            "http://example.org/news/bridge-opens",  # scheme
            "https://example.org/news/bridge-opens/",  # www., trailing slash
            "https://m.example.org/news/bridge-opens",  # mobile host
            "https://mobile.example.org/news/bridge-opens",
            "https://WWW.Example.ORG/news/bridge-opens#comments",  # case of the host, fragment
            "https://www.example.org/news/bridge-opens?utm_source=tw&utm_medium=social&fbclid=x",
            "https://www.example.org/news/bridge-opens?gclid=1&mc_cid=2",
            "https://web.archive.org/web/20200101000000/https://www.example.org/news/bridge-opens",
            "http://web.archive.org/web/2019id_/http:/example.org/news/bridge-opens",
            "https://archive.ph/2021.05.01-101010/https://example.org/news/bridge-opens",
            "https://archive.today/newest/https://www.example.org/news/bridge-opens",
            "https://www.webcitation.org/query?url=https%3A%2F%2Fexample.org%2Fnews%2Fbridge-opens&date=2010",
            "https://web.archive.org/web/2019/example.org/news/bridge-opens",  # no scheme inside
        ):
            self.assertTrue(same_page(CITED, other), other)

    def test_it_takes_a_wikipedia_mobile_page_and_an_index_page_as_their_desktop_and_folder_pages(self):
        self.assertTrue(same_page("https://en.m.wikipedia.org/wiki/Kellhaven", "https://en.wikipedia.org/wiki/Kellhaven"))
        self.assertTrue(same_page("https://example.org/guide/index.html", "https://example.org/guide/"))

    def test_it_keeps_other_pages_apart(self):
        for other in (
            "https://www.example.org/news/bridge-closes",
            "https://www.example.org/news/bridge-opens?page=2",
            "https://example.com/news/bridge-opens",
            "https://www.example.org/News/Bridge-Opens",  # paths are case-sensitive
            "https://archive.ph/AbCdE",  # a short archive id names no original
        ):
            self.assertFalse(same_page(CITED, other), other)

    def test_it_keeps_ip_hosts_and_ports_and_does_not_take_a_two_label_host_for_mobile(self):
        self.assertFalse(same_page("http://127.0.0.2:8148/pages/a.html", "http://127.0.0.2:8149/pages/a.html"))
        self.assertEqual(page_key("https://m.com/x"), "m.com/x")

    def test_nothing_is_the_same_page_as_nothing(self):
        self.assertFalse(same_page("", ""))
        self.assertFalse(same_page("not a url", ""))

    def test_unwrapping_leaves_non_archive_urls_alone_and_the_source_key_unchanged(self):
        self.assertEqual(unwrap_archive(CITED), CITED)
        # normalise_url is the stored uniqueness key: page_key must not change it.
        self.assertEqual(normalise_url("https://web.archive.org/web/2020/https://a.example/x"),
                         "https://web.archive.org/web/2020/https://a.example/x")


class SiteNameTests(unittest.TestCase):
    def page(self, head: str) -> str:
        return f"<html><head>{head}</head><body><article><p>{'Words of the story. ' * 40}</p></article></body></html>"

    def test_it_takes_the_sites_own_name_from_og_site_name(self):
        html = self.page('<title>Story | Somewhere</title><meta property="og:site_name" content="Arle Valley Gazette">')
        self.assertEqual(html_extract(html, "http://127.0.0.2:8148/pages/story.html").site_name, "Arle Valley Gazette")

    def test_without_og_site_name_it_takes_the_last_part_of_the_title(self):
        for title, name in (("Otters on the Arle | Arle Wildlife Trust", "Arle Wildlife Trust"),
                            ("Otters on the Arle - Arle Wildlife Trust", "Arle Wildlife Trust"),
                            ("Otters on the Arle \u2014 Arle Wildlife Trust", "Arle Wildlife Trust")):
            html = self.page(f"<title>{title}</title>")
            self.assertEqual(html_extract(html, "https://www.awt.example/otters").site_name, name, title)

    def test_it_never_gives_a_host_name_as_the_sites_name(self):
        html = self.page("<title>Just a page</title>")
        self.assertEqual(html_extract(html, "http://127.0.0.2:8148/pages/x.html").site_name, "")
        self.assertEqual(site_name("www.example.org", "", "https://www.example.org/a"), "")
        self.assertEqual(site_name("", "Story | example.org", "https://example.org/a"), "")


class FailureSentenceTests(unittest.TestCase):
    def test_each_fetch_failure_is_a_sentence_a_reader_understands(self):
        cases = {
            ("dns_error", "cannot resolve host 'x.example': [Errno -2] Name or service not known", None):
                "the site's address could not be found",
            ("too_large", "body exceeds the cap of 10485760 bytes", None): "the page is larger than 10 MB",
            ("http_error", "HTTP 403 Forbidden", 403): "the site refused the request (HTTP 403)",
            ("http_error", "HTTP 404 Not Found", 404): "the page is no longer on the site (HTTP 404)",
            ("http_error", "HTTP 502 Bad Gateway", 502): "the site had an error (HTTP 502)",
            ("http_error", "more than 5 redirects", 302): "the page sends readers round in a loop of redirects",
            ("timeout", "x.example sent nothing for 15s", None): "the site did not answer in time",
            ("unsupported_type", "content type 'image/png' is not HTML, PDF or text", 200):
                "the page is not a web page, PDF or text file (it is image/png)",
        }
        for (status, reason, code), sentence in cases.items():
            self.assertEqual(failure_sentence(status, reason, code), sentence)

    def test_it_says_when_the_archived_copy_failed_too_without_the_technical_words(self):
        reason = ("cannot resolve host 'gone.example': [Errno -2] Name or service not known; archive copy "
                  "also failed (http_error: HTTP 404 Not Found)")
        sentence = failure_sentence("dns_error", reason)
        self.assertEqual(sentence, "the site's address could not be found; its archived copy could not be read either")
        self.assertNotIn("Errno", sentence)
