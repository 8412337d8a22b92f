"""normalise_url: the Source uniqueness key."""

from __future__ import annotations

import unittest

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier_core.fetch import normalise_url


class NormaliseUrlTests(unittest.TestCase):
    def test_it_lower_cases_scheme_and_host_but_keeps_the_path(self):
        self.assertEqual(
            normalise_url("HTTPS://Example.ORG/Wiki/Page_Name"),
            "https://example.org/Wiki/Page_Name",
        )

    def test_it_drops_default_ports_and_keeps_others(self):
        self.assertEqual(normalise_url("http://example.org:80/a"), "http://example.org/a")
        self.assertEqual(normalise_url("https://example.org:443/a"), "https://example.org/a")
        self.assertEqual(normalise_url("https://example.org:8443/a"), "https://example.org:8443/a")

    def test_it_drops_the_fragment_and_tracking_parameters_and_sorts_the_query(self):
        url = "https://example.org/story?utm_source=tw&b=2&fbclid=xyz&a=1&UTM_Medium=x&gclid=1#section-2"
        self.assertEqual(normalise_url(url), "https://example.org/story?a=1&b=2")

    def test_it_keeps_query_values_byte_for_byte(self):
        self.assertEqual(
            normalise_url("http://e.org/s?q=caf%C3%A9&x=a+b"), "http://e.org/s?q=caf%C3%A9&x=a+b"
        )
        self.assertNotEqual(
            normalise_url("http://e.org/?q=%E9"), normalise_url("http://e.org/?q=%E8")
        )

    def test_it_gives_an_empty_path_a_slash_and_a_scheme_to_protocol_relative_urls(self):
        self.assertEqual(normalise_url("//Example.org"), "https://example.org/")

    def test_it_merges_unicode_and_punycode_host_spellings(self):
        self.assertEqual(
            normalise_url("http://Bücher.example/x"),
            normalise_url("http://xn--bcher-kva.example/x"),
        )

    def test_it_handles_ipv6_hosts(self):
        self.assertEqual(normalise_url("http://[2001:DB8::1]:80/x"), "http://[2001:db8::1]/x")

    def test_it_returns_unparsable_or_non_web_input_stripped(self):
        for url in (" mailto:a@b.org ", "http://[::1", "not a url", ""):
            self.assertEqual(normalise_url(url), url.strip())

    @settings(max_examples=300, deadline=None)
    @given(st.text())
    def test_it_never_raises_and_is_idempotent_on_any_text(self, text):
        once = normalise_url(text)
        self.assertEqual(normalise_url(once), once)

    @settings(max_examples=300, deadline=None)
    @given(
        st.sampled_from(["http", "HTTP", "https"]),
        st.from_regex(r"[A-Za-z0-9-]{1,12}(\.[A-Za-z]{2,6}){1,2}", fullmatch=True),
        st.lists(
            st.tuples(
                st.from_regex(r"[a-z_]{1,6}", fullmatch=True),
                st.from_regex(r"[a-z0-9%]{0,6}", fullmatch=True),
            )
        ),
    )
    def test_the_order_of_query_parameters_does_not_matter(self, scheme, host, pairs):
        def url(items):
            return f"{scheme}://{host}/p?" + "&".join(f"{k}={v}" for k, v in items)

        self.assertEqual(normalise_url(url(pairs)), normalise_url(url(list(reversed(pairs)))))
