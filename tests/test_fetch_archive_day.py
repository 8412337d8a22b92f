"""The day of a citation's own archived copy: the capture timestamp in its archive-url
where the archive writes one, else the citation's archive-date (or {{webarchive|date=}})."""
from __future__ import annotations

from datetime import date

from django.test import SimpleTestCase

from verifier_core.fetch.citedates import archive_url_day
from verifier_core.wikitext import extract


class ArchiveUrlDayTests(SimpleTestCase):
    def test_a_wayback_timestamp_in_the_archive_url_gives_the_day_of_the_capture(self):
        self.assertEqual(archive_url_day("https://web.archive.org/web/20150211093000/http://x.example/a", ""),
                         date(2015, 2, 11))

    def test_a_raw_replay_timestamp_is_read_as_well(self):
        self.assertEqual(archive_url_day("https://web.archive.org/web/20150211093000id_/http://x.example/a", ""),
                         date(2015, 2, 11))

    def test_the_capture_timestamp_wins_over_an_archive_date_that_says_otherwise(self):
        self.assertEqual(archive_url_day("https://web.archive.org/web/20150211093000/http://x.example/a",
                                         "12 March 2016"), date(2015, 2, 11))

    def test_without_a_timestamp_the_archive_date_as_an_editor_writes_it_is_read(self):
        for written in ("2015-02-11", "11 February 2015", "February 11, 2015"):
            with self.subTest(written):
                self.assertEqual(archive_url_day("https://archive.ph/AbCdE", written), date(2015, 2, 11))

    def test_a_month_or_a_year_alone_names_no_day(self):
        self.assertIsNone(archive_url_day("https://archive.ph/AbCdE", "February 2015"))
        self.assertIsNone(archive_url_day("https://archive.ph/AbCdE", "2015"))

    def test_digits_of_a_path_that_are_no_timestamp_are_not_a_day(self):
        self.assertIsNone(archive_url_day("https://news.example/2015/02/story-20159999.html", ""))
        self.assertIsNone(archive_url_day("https://web.archive.org/web/2019/https://x.example/", ""))
        self.assertIsNone(archive_url_day("", ""))


class WebarchiveDateTests(SimpleTestCase):
    def test_the_date_of_a_webarchive_template_is_the_citations_archive_date(self):
        e = extract("A.<ref>[http://a.example/x A page] {{webarchive |url=http://archive.example/x "
                    "|date=11 February 2015}}</ref>", "T")
        citation = e.citations[0]
        self.assertEqual(citation.archive_url, "http://archive.example/x")
        self.assertEqual(citation.fields.get("archive-date"), "11 February 2015")

    def test_a_cite_templates_own_archive_date_is_kept_over_the_webarchive_one(self):
        e = extract("A.<ref>{{cite web|url=http://a|title=A|archivedate=2014-01-01}} "
                    "{{webarchive|url=http://web.archive.org/a|date=2015-02-11}}</ref>", "T")
        self.assertEqual(e.citations[0].fields.get("archivedate"), "2014-01-01")
        self.assertNotIn("archive-date", e.citations[0].fields)
