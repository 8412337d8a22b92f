"""verifier_core.wikitext on bad, adversarial and very large input: it always returns
an Extraction, never raises, and never lets markup into a claim."""
from __future__ import annotations

import time
from unittest import mock

from django.test import SimpleTestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier_core.wikitext import (
    FAILURE_WARNING,
    Extraction,
    extract,
    extract_links,
    redirect_target,
)

GARBAGE = ("{{", "}}", "[[", "]]", "|", "<ref", "==")

_WORDS = st.sampled_from(
    ["Rome", "was", "founded", "in", "753", "BC", "the", "river", "Zürich", "数据", "e.g.", "Dr.", "(", ")"]
)
_SENTENCE = st.lists(_WORDS, min_size=1, max_size=8).map(lambda ws: " ".join(ws) + ". ")
_JUNK = st.sampled_from(
    [
        "{{", "}}", "[[", "]]", "|", "||", "<ref>", "</ref>", "<ref name=>", "<ref name=a/>",
        '<ref name="b c" />', "<ref name=a>", "{|", "|-", "|}", "!", "<!--", "-->", "'''", "''",
        "==", "\n== Heading ==\n", "\n", "\n\n", "* ", "\n# ", ":", ";", "<references>",
        "</references>", "{{reflist|refs=", "<math>", "</math>", "<nowiki>", "&nbsp;",
        "&#99999999;", "[http://example.org t]", "http://example.org/x", "{{{1}}}", "#REDIRECT ",
        "{{cn}}", "{{dead link}}", "{{sfn|Roe|2001|p=3}}", "{{r|a}}", "<br/>", "__NOTOC__",
        "<gallery>", "{{#tag:ref|", "{{efn|", "[[File:x.jpg|thumb|", "{{convert|1|km}}",
    ]
)


def _nest(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        children.map(lambda c: f"<ref>{c}</ref>"),
        children.map(lambda c: f'<ref name="n{len(c) % 3}">{c}</ref>'),
        children.map(lambda c: "{{cite web|url=http://example.org/|title=" + c + "}}"),
        children.map(lambda c: "{{Infobox thing|name=" + c + "|population=5<ref>p</ref>}}"),
        children.map(lambda c: "[[Target|" + c + "]]"),
        children.map(lambda c: "[[File:x.jpg|thumb|" + c + "]]"),
        children.map(lambda c: "{{efn|" + c + "}}"),
        children.map(lambda c: "{{reflist|refs=<ref name=n1>" + c + "</ref>}}"),
        children.map(lambda c: "\n{| class=wikitable\n|-\n| " + c + " || cell\n|}\n"),
        children.map(lambda c: "\n* " + c + "\n"),
        children.map(lambda c: "\n== " + c + " ==\n"),
        children.map(lambda c: "<div>" + c + "</div>"),
        st.lists(children, max_size=4).map("".join),
    )


# Small nested structures inside a long flat run of pieces: cheap to generate, and the
# flat run supplies the unbalanced markup between the structures.
_STRUCTURE = st.recursive(st.one_of(_SENTENCE, _JUNK), _nest, max_leaves=6)
_DOCUMENT = st.lists(st.one_of(_SENTENCE, _JUNK, _STRUCTURE), max_size=40).map("".join)


def assert_sane(test: SimpleTestCase, e: Extraction) -> None:
    test.assertIsInstance(e, Extraction)
    test.assertEqual([w for w in e.warnings if w.startswith(FAILURE_WARNING)], [])
    for claim in e.claims:
        test.assertIn(claim.text, e.plain_text)
        for junk in GARBAGE:
            test.assertNotIn(junk, claim.text)
        for index in claim.citation_indices:
            test.assertLess(index, len(e.citations))
    test.assertEqual([c.index for c in e.citations], list(range(len(e.citations))))


class PropertyTests(SimpleTestCase):
    @settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_DOCUMENT)
    def test_it_never_raises_and_claims_stay_clean_on_random_wikitext(self, text):
        assert_sane(self, extract(text, "Fuzz"))
        for link in extract_links(text):
            self.assertTrue(link.target and link.anchor)
        redirect_target(text)

    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.text(max_size=400))
    def test_it_survives_arbitrary_unicode(self, text):
        assert_sane(self, extract(text, "Fuzz"))


class AdversarialInputTests(SimpleTestCase):
    def check_fast(self, text: str, limit: float = 10.0) -> Extraction:
        start = time.perf_counter()
        e = extract(text, "Adversarial")
        self.assertLess(time.perf_counter() - start, limit)
        assert_sane(self, e)
        return e

    def test_it_survives_deeply_nested_templates(self):
        self.check_fast("{{a|" * 400 + "x" + "}}" * 400)
        self.check_fast("{{a|" * 400 + "x")

    def test_it_survives_unbalanced_brackets_and_tags(self):
        self.check_fast("[[" * 3000 + "text. " + "]]" * 10)
        self.check_fast("<ref>" * 2000 + "text.")
        self.check_fast("|" * 50000)
        self.check_fast("{|\n" * 500 + "| cell<ref>x</ref>\n")

    def test_it_counts_an_unclosed_ref_and_warns(self):
        e = self.check_fast("Claim.<ref name=a>never closed\n\nMore text.")
        self.assertEqual(e.citation_occurrences, 1)
        self.assertTrue(any("malformed ref" in w for w in e.warnings))
        self.assertNotIn("<ref", e.plain_text)

    def test_it_treats_an_unclosed_comment_as_running_to_the_end(self):
        e = self.check_fast("Visible.<ref>r</ref> <!-- hidden <ref>x</ref> forever")
        self.assertEqual(e.plain_text, "Visible.")
        self.assertEqual(e.citation_occurrences, 1)

    def test_it_accepts_empty_and_non_string_input(self):
        self.assertEqual(self.check_fast("").claims, [])
        self.assertEqual(extract(None, "T").claims, [])  # type: ignore[arg-type]

    def test_it_reports_an_internal_failure_as_a_warning(self):
        with mock.patch("verifier_core.wikitext.document.prepass", side_effect=RuntimeError("boom")):
            with self.assertLogs("verifier_core.wikitext", level="ERROR"):
                e = extract("Text.<ref>r</ref>", "T")
        self.assertEqual(e.claims, [])
        self.assertTrue(e.warnings[0].startswith(FAILURE_WARNING))


class LargeArticleTests(SimpleTestCase):
    def build(self) -> tuple[str, int]:
        """~310 KB: 800 paragraphs, named reuses, sfns, tables and list-defined refs."""
        parts, refs = [], 0
        for i in range(800):
            if i % 50 == 0:
                parts.append(f"== Section {i} ==\n")
            parts.append(
                f"Paragraph {i} opens with a plain sentence about topic {i}. "
                f"The measured value was {i * 3} units in {1900 + i % 100}.<ref name=\"n{i}\">"
                f"{{{{cite web |url=https://example.org/{i} |title=Source {i} |website=Site}}}}</ref> "
                f"It was measured again later,<ref name=\"n{max(0, i - 1)}\"/> and confirmed."
                f"{{{{sfn|Roe|{1950 + i % 20}|p={i}}}}}{{{{dead link|date=May 2020}}}}"
                f" Filler words follow here to give the paragraph a realistic length and rhythm.\n\n"
            )
            refs += 3
            if i % 100 == 0:
                parts.append(f'{{| class="wikitable"\n|-\n| Row {i} || value<ref>T{i}</ref>\n|}}\n')
                refs += 1
        parts.append("== References ==\n{{reflist|refs=\n<ref name=\"unused\">U</ref>\n}}\n")
        return "".join(parts), refs

    def test_it_extracts_a_300_kb_article_with_hundreds_of_refs(self):
        text, occurrences = self.build()
        self.assertGreater(len(text), 300_000)
        start = time.perf_counter()
        e = extract(text, "Large")
        elapsed = time.perf_counter() - start
        assert_sane(self, e)
        self.assertEqual(e.citation_occurrences, occurrences)
        self.assertEqual(len([c for c in e.citations if c.kind == "ref" and c.ref_name]), 800)
        self.assertGreaterEqual(len(e.claims), 2400)
        self.assertLess(elapsed, 20.0)  # ~1.5 s on one core; generous for busy CI machines
