"""verifier_core.wikitext over the real Wikipedia articles in ../shared/data/wikitext.

The articles are read at run time and never copied into the repository; every
expectation here is derived from the files themselves with simple regular
expressions that share no code with the extractor.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from django.test import SimpleTestCase

from verifier_core.wikitext import FAILURE_WARNING, extract
from verifier_core.wikitext.statements import MIN_CONTENT_WORDS, content_words

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wikitext"
GARBAGE = ("{{", "}}", "[[", "|", "<ref", "==")
# Footnotes only: the in-text author-date kind ({{harvtxt}}, {{harvnb}}...) prints words in
# the sentence and is no occurrence of its own (inside a ref, the ref is).
SHORT_FOOTNOTE = re.compile(r"\{\{\s*(?:sfn|sfnp|sfnm|sfnmp)\s*[|}]", re.I)
IN_TEXT_AUTHOR_DATE = re.compile(
    r"\{\{\s*(?:harvnb|harvp|harv|harvtxt|harvcol|harvcolnb|harvcoltxt|harvard citation|"
    r"harvard citation no brackets|harvard citation text)\s*\|([^|}]+)", re.I)
# A claim that is nothing but an author and a year: "Smith (2010)", "(Smith & Roe 2010)".
AUTHOR_DATE_ONLY = re.compile(r"^(?:[A-Z]\S*(?: & [A-Z]\S*)* \(\d{4}[a-z]?\)|\([A-Z]\S*(?: & [A-Z]\S*)* \d{4}[a-z]?\))$")
REF_OPEN = re.compile(r"<ref(?=[\s>/])", re.I)
NAME_ATTRIBUTE = re.compile(r"""<ref\b[^>]*?\bname\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>/]+))""", re.I)


def articles() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(SHARED.glob("*.wiki"))}


def without_reference_lists(text: str) -> str:
    """The body: no comments, no <references>...</references>, no {{reflist|refs=...}}."""
    text = re.sub(r"<!--.*?(?:-->|\Z)", "", text, flags=re.S)
    text = re.sub(r"<references\b[^>]*?/>", "", text, flags=re.I)
    text = re.sub(r"<references\b[^>]*>.*?</references\s*>", "", text, flags=re.I | re.S)
    while match := re.search(r"\{\{\s*(?:reflist|references)\s*\|[^{}]*?refs\s*=", text, re.I):
        text = text[: match.start()] + text[_template_end(text, match.start()) :]
    return text


def _template_end(text: str, start: int) -> int:
    depth, i = 0, start
    while i < len(text):
        if text.startswith("{{", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("}}", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    return len(text)


def expected_occurrences(text: str) -> int:
    body = without_reference_lists(text)
    return len(REF_OPEN.findall(body)) + len(SHORT_FOOTNOTE.findall(body))


def simple_sentences_before_refs(text: str) -> list[str]:
    """For prose paragraphs that open a paragraph and carry no templates or tags before
    their first ref: the last sentence before that ref, markup stripped by hand."""
    found = []
    lines = text.split("\n")
    for previous, line in zip([""] + lines[:-1], lines, strict=True):
        if previous.strip() and not previous.startswith("="):
            continue  # the line continues a paragraph
        head, ref, _ = line.partition("<ref")
        if not ref or not head or head[0] in "*#:;{|!=[ <" or re.search(r"\{\{|<|\[http|\[\[[^\]]*:", head):
            continue
        plain = re.sub(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]", r"\1", head)
        plain = " ".join(html.unescape(plain).replace("'''", "").replace("''", "").split())
        *before, sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", plain)
        # Keep sentences any splitter agrees on: no inner dots, and no initial or
        # abbreviation ("E.C.", "Y.", "Dr.") right before them.
        if before and re.search(r"(?:^|\s)\S{0,3}\.$", before[-1]):
            continue
        if len(sentence) >= 30 and sentence[-1] in ".!?" and "." not in sentence[:-1]:
            found.append(sentence)
    return found


class SharedArticleTests(SimpleTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if not SHARED.is_dir():
            return
        cls.texts = articles()
        cls.results = {name: extract(text, name.replace("-", " ")) for name, text in cls.texts.items()}

    def setUp(self):
        if not SHARED.is_dir():
            self.skipTest(f"../shared/data/wikitext not present: looked in {SHARED}")

    def test_every_article_extracts_without_failure(self):
        self.assertGreaterEqual(len(self.results), 24)
        for name, e in self.results.items():
            with self.subTest(article=name):
                self.assertEqual([w for w in e.warnings if w.startswith(FAILURE_WARNING)], [])

    def test_citation_occurrences_match_an_independent_count(self):
        for name, text in self.texts.items():
            with self.subTest(article=name):
                self.assertEqual(self.results[name].citation_occurrences, expected_occurrences(text))

    def test_every_claim_is_found_in_the_plain_text(self):
        for name, e in self.results.items():
            for claim in e.claims:
                with self.subTest(article=name, claim=claim.text[:60]):
                    self.assertIn(claim.text, e.plain_text)

    def test_no_claim_is_an_author_and_year_alone_and_author_date_templates_cite_only_in_a_ref(self):
        found = 0
        for name, e in self.results.items():
            for claim in e.claims:
                with self.subTest(article=name, claim=claim.text[:60]):
                    self.assertIsNone(AUTHOR_DATE_ONLY.match(claim.text.strip()))
            found += len(IN_TEXT_AUTHOR_DATE.findall(without_reference_lists(self.texts[name])))
            with self.subTest(article=name):
                self.assertEqual([c.template for c in e.citations if c.kind == "sfn" and c.template.startswith("harv")],
                                 [])
        self.assertGreaterEqual(found, 1, "the shared articles hold no author-date template: nothing checked")

    def test_no_claim_contains_markup(self):
        for name, e in self.results.items():
            for claim in e.claims:
                for junk in GARBAGE:
                    with self.subTest(article=name, claim=claim.text[:60], junk=junk):
                        self.assertNotIn(junk, claim.text)

    def test_no_checked_statement_contains_markup(self):
        for name, e in self.results.items():
            for claim in e.claims:
                for junk in GARBAGE + ("{|", "!!", "align=", "rowspan=", "class="):
                    with self.subTest(article=name, claim=claim.statement[:60], junk=junk):
                        self.assertNotIn(junk, claim.statement)

    def test_every_claim_is_a_statement_or_marked_not_checkable(self):
        for name, e in self.results.items():
            for claim in e.claims:
                with self.subTest(article=name, claim=claim.text[:60]):
                    self.assertTrue(not claim.checkable or content_words(claim.statement) >= MIN_CONTENT_WORDS)

    def test_articles_with_refs_give_claims_with_valid_citations(self):
        for name, e in self.results.items():
            with self.subTest(article=name):
                if e.citation_occurrences:
                    self.assertTrue(e.claims)
                for claim in e.claims:
                    self.assertTrue(all(0 <= i < len(e.citations) for i in claim.citation_indices))

    def test_known_sentences_before_refs_are_claims(self):
        for name in ("Chemical-biology", "toronto", "anarchism", "Mozilla-Firefox"):
            expected = simple_sentences_before_refs(self.texts[name])
            claims = {c.text for c in self.results[name].claims}
            with self.subTest(article=name):
                self.assertGreaterEqual(len(expected), 3)
                self.assertEqual([s for s in expected if s not in claims], [])

    def test_list_defined_refs_resolve_to_their_definitions(self):
        for name in ("Bazooka", "Mozilla-Firefox"):
            lists = re.findall(r"<references>(.*?)</references>", self.texts[name], re.S)
            definitions = dict(re.findall(r'<ref name="([^"]+)">(.*?)</ref>', "".join(lists), re.S))
            cited = {c.ref_name: c for c in self.results[name].citations if c.ref_name}
            with self.subTest(article=name):
                self.assertTrue(definitions)
                for ref_name, body in definitions.items():
                    self.assertIn(ref_name, cited)
                    self.assertEqual(cited[ref_name].raw, body.strip())

    def test_reused_named_refs_are_one_citation_each(self):
        for name, text in self.texts.items():
            body = without_reference_lists(text)
            names = {" ".join("".join(parts).split()) for parts in NAME_ATTRIBUTE.findall(body)}
            cited = [c.ref_name for c in self.results[name].citations if c.ref_name]
            with self.subTest(article=name):
                self.assertEqual(len(cited), len(set(cited)))
                self.assertLessEqual(set(cited), names)

    def test_the_redirect_page_gives_its_target_and_no_claims(self):
        target = re.search(r"\[\[([^\]|#]+)", self.texts["redirect"]).group(1)
        e = self.results["redirect"]
        self.assertEqual(e.redirect_target, target)
        self.assertEqual(e.claims, [])

    def test_the_list_page_renders_table_cells_without_table_syntax(self):
        e = self.results["list"]
        row = re.search(r"\]\]''\s*\|\|\s*([A-Z][a-z]+ [A-Z][a-z]+)\s*\|\|", self.texts["list"])
        first_director = row.group(1)
        self.assertIn(first_director, e.plain_text)
        for junk in ("{|", "|-", "||", "wikitable", "sortable"):
            self.assertNotIn(junk, e.plain_text)

    def test_infobox_parameters_without_refs_leave_no_trace(self):
        e = self.results["toronto"]
        image = re.search(r"\|\s*image_skyline\s*=\s*([^<\n]+?)\s*(?:<|\n)", self.texts["toronto"]).group(1)
        self.assertNotIn(image, e.plain_text)
