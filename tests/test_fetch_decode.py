"""Charset sniffing of fetched bodies (w3lib, as browsers do)."""
from __future__ import annotations

import unittest

from verifier_core.fetch.extract import decode


class DecodeTests(unittest.TestCase):
    def test_a_byte_order_mark_wins_over_the_header(self):
        self.assertEqual(decode(b"\xef\xbb\xbfcaf\xc3\xa9", "iso-8859-1", html=False), "café")

    def test_latin1_in_a_header_means_windows_1252_as_in_browsers(self):
        self.assertEqual(decode(b"\x93quoted\x94", "iso-8859-1", html=False), "\u201cquoted\u201d")

    def test_it_reads_the_encoding_of_an_xml_declaration_in_html(self):
        body = b'<?xml version="1.0" encoding="iso-8859-2"?><p>\xb1</p>'
        self.assertIn("<p>\u0105</p>", decode(body, None, html=True))

    def test_an_unknown_label_falls_back_to_utf8_or_a_guess(self):
        self.assertEqual(decode("café".encode(), "no-such-charset", html=True), "café")
        text = "Привет мир, это проверка кодировки страницы"
        self.assertEqual(decode(text.encode("cp1251"), None, html=False), text)
