"""Citations found by verifier_core.wikitext: refs, named and list-defined refs,
cite-template fields, bare URLs and short footnotes."""
from __future__ import annotations

from pathlib import Path

from django.test import SimpleTestCase

from verifier_core.wikitext import extract

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wikitext"


def fixture(name: str):
    return extract((FIXTURES / name).read_text(encoding="utf-8"), name)


def claim_for(extraction, text: str):
    matches = [c for c in extraction.claims if c.text == text]
    assert matches, f"no claim {text!r} in {[c.text for c in extraction.claims]}"
    return matches[0]


class RefTagTests(SimpleTestCase):
    def test_it_keeps_the_raw_body_of_a_ref(self):
        e = extract("Sky is blue.<ref>Smith, ''Skies'', 1990.</ref>", "T")
        self.assertEqual(len(e.citations), 1)
        self.assertEqual(e.citations[0].raw, "Smith, ''Skies'', 1990.")
        self.assertEqual(e.citations[0].kind, "ref")

    def test_it_attaches_reused_named_ref_to_each_claim(self):
        e = extract(
            'A is one.<ref name="src">{{cite web|url=http://a.example|title=A}}</ref> '
            "B is two.<ref name=src/> C is three.<ref name = 'src' />",
            "T",
        )
        self.assertEqual(len(e.citations), 1)
        self.assertEqual(e.citations[0].ref_name, "src")
        self.assertEqual([c.citation_indices for c in e.claims], [[0], [0], [0]])
        self.assertEqual(e.citation_occurrences, 3)

    def test_it_resolves_a_reuse_that_comes_before_its_definition(self):
        e = extract('First.<ref name="later"/> Second.<ref name="later">Book X</ref>', "T")
        self.assertEqual(len(e.citations), 1)
        self.assertEqual(e.citations[0].raw, "Book X")
        self.assertEqual([c.citation_indices for c in e.claims], [[0], [0]])

    def test_it_accepts_names_with_spaces_and_quotes(self):
        e = extract('One.<ref name="Smith 2001, p. 4">S</ref> Two.<ref name="Smith 2001, p. 4" />', "T")
        self.assertEqual(e.citations[0].ref_name, "Smith 2001, p. 4")
        self.assertEqual(len(e.citations), 1)

    def test_it_warns_about_an_unresolved_ref_name_and_makes_no_citation(self):
        e = extract("Claim.<ref name=ghost/>", "T")
        self.assertEqual(e.citations, [])
        self.assertEqual(e.citation_occurrences, 1)
        self.assertIn("unresolved ref name 'ghost'", e.warnings)

    def test_it_treats_an_empty_name_as_an_unnamed_ref(self):
        e = extract("Claim.<ref name=>Body</ref>", "T")
        self.assertEqual(e.citations[0].ref_name, None)
        self.assertEqual(e.citations[0].raw, "Body")

    def test_it_reuses_named_refs_through_the_r_template(self):
        e = extract("One.<ref name=a>A</ref> Two.{{r|a}}", "T")
        self.assertEqual([c.citation_indices for c in e.claims], [[0], [0]])


class ListDefinedRefTests(SimpleTestCase):
    def setUp(self):
        self.e = fixture("list_defined_refs.wiki")

    def test_it_takes_definitions_from_reflist_refs(self):
        claim = claim_for(self.e, "The Orrin Lighthouse stands on Gull Point.")
        survey = self.e.citations[claim.citation_indices[0]]
        self.assertEqual(survey.ref_name, "survey")
        self.assertEqual(survey.url, "https://example.org/survey")
        self.assertEqual(survey.work, "Harbour Board")

    def test_it_takes_definitions_from_a_references_tag(self):
        paint = self.e.citations[claim_for(self.e, "The light was painted red in 1925.").citation_indices[0]]
        self.assertEqual(paint.ref_name, "paint")
        self.assertEqual(paint.url, "https://example.net/paint")

    def test_it_does_not_count_list_definitions_as_occurrences(self):
        # Six <ref .../> uses in the body; the six definitions live in the lists.
        self.assertEqual(self.e.citation_occurrences, 6)

    def test_it_warns_about_a_list_defined_ref_that_is_never_used(self):
        self.assertIn("list-defined ref 'unused' is never used", self.e.warnings)
        self.assertNotIn("Never cited", [c.title for c in self.e.citations])

    def test_refs_in_a_grouped_list_inherit_the_group(self):
        e = extract(
            'Note one.<ref group="note" name="n"/>\n<references group="note">'
            '<ref name="n">Explained.</ref></references>',
            "T",
        )
        self.assertEqual(e.citations[0].raw, "Explained.")
        self.assertEqual(e.warnings, [])

    def test_it_gives_consecutive_list_defined_refs_to_one_claim(self):
        claim = claim_for(self.e, "and was automated in 1968.")
        names = [self.e.citations[i].ref_name for i in claim.citation_indices]
        self.assertEqual(names, ["auto", "survey"])


class CiteTemplateFieldTests(SimpleTestCase):
    def test_it_reads_every_contract_field_of_a_cite_web(self):
        e = extract(
            "Claim.<ref>{{Cite Web |url=http://a.example/x |archive-url=http://archive.example/x "
            "|title=The [[Foo|Bar]] of ''Baz'' |website=[[Example Site]] |publisher=Pub Co "
            "|date=2 March 2010 |access-date=3 April 2011 |quote=It is so.}}</ref>",
            "T",
        )
        c = e.citations[0]
        self.assertEqual(c.template, "cite web")
        self.assertEqual(c.url, "http://a.example/x")
        self.assertEqual(c.archive_url, "http://archive.example/x")
        self.assertEqual(c.title, "The Bar of Baz")
        self.assertEqual(c.work, "Example Site")
        self.assertEqual(c.publisher, "Pub Co")
        self.assertEqual(c.date, "2 March 2010")
        self.assertEqual(c.access_date, "3 April 2011")
        self.assertEqual(c.quote, "It is so.")
        self.assertEqual(c.fields["website"], "Example Site")
        self.assertEqual(c.fields["url"], "http://a.example/x")

    def test_it_accepts_old_parameter_spellings_and_underscored_names(self):
        e = extract(
            "Claim.<ref>{{cite_news|url=http://n.example|archiveurl=http://arch.example"
            "|newspaper=The Times|accessdate=1 May 2001|year=1999}}</ref>",
            "T",
        )
        c = e.citations[0]
        self.assertEqual(c.template, "cite news")
        self.assertEqual((c.archive_url, c.work, c.access_date, c.date),
                         ("http://arch.example", "The Times", "1 May 2001", "1999"))

    def test_it_reads_journal_doi_and_book_isbn(self):
        e = extract(
            "A.<ref>{{cite journal|title=J|journal=Cell|doi=10.1016/j.cell.2007.07.032}}</ref> "
            "B.<ref>{{cite book|title=B|isbn=978-0-8018-8792-5}}</ref> "
            "C.<ref>{{Citation|title=C|magazine=Wired}}</ref>",
            "T",
        )
        journal, book, citation = e.citations
        self.assertEqual((journal.work, journal.doi), ("Cell", "10.1016/j.cell.2007.07.032"))
        self.assertEqual(book.isbn, "978-0-8018-8792-5")
        self.assertEqual((citation.template, citation.work), ("citation", "Wired"))

    def test_it_takes_the_archive_url_from_a_webarchive_template(self):
        e = extract(
            "A.<ref>{{cite web|url=http://a|title=A}} {{webarchive|url=http://web.archive.org/a}}</ref>", "T"
        )
        self.assertEqual(e.citations[0].archive_url, "http://web.archive.org/a")


class BareUrlTests(SimpleTestCase):
    def test_it_marks_a_plain_url_body_as_bare_url(self):
        e = extract("Claim.<ref>http://example.org/page</ref>", "T")
        self.assertEqual((e.citations[0].kind, e.citations[0].url), ("bare_url", "http://example.org/page"))

    def test_it_takes_the_title_of_a_bracketed_url(self):
        e = extract("Claim.<ref>[http://example.org/p Page title]</ref>", "T")
        self.assertEqual((e.citations[0].kind, e.citations[0].title), ("bare_url", "Page title"))

    def test_it_prefers_the_cite_template_over_a_url_in_the_same_ref(self):
        e = extract(
            "Claim.<ref>{{cite web|url=http://a.example|title=A}} see also http://b.example</ref>", "T"
        )
        self.assertEqual((e.citations[0].kind, e.citations[0].url), ("ref", "http://a.example"))


class ShortFootnoteTests(SimpleTestCase):
    def setUp(self):
        self.e = fixture("short_footnotes.wiki")

    def cited(self, claim_text: str):
        return [self.e.citations[i] for i in claim_for(self.e, claim_text).citation_indices]

    def test_it_resolves_sfn_to_its_bibliography_entry_with_the_page(self):
        (c,) = self.cited("The Velmora is a river in the fictional Oskar Valley.")
        self.assertEqual((c.kind, c.template), ("sfn", "sfn"))
        self.assertEqual(c.title, "Rivers of the Oskar Valley")
        self.assertEqual(c.url, "https://example.org/rivers")
        self.assertEqual(c.location, "p. 12")
        self.assertIn("Halvorsen", c.resolved_from)

    def test_it_resolves_sfnp_with_a_page_range(self):
        (c,) = self.cited("It rises on the Kaldfjell plateau.")
        self.assertEqual((c.template, c.location), ("sfnp", "pp. 40–42"))
        self.assertEqual(c.isbn, "978-0-00-000000-2")

    def test_it_resolves_through_an_sfnref_id(self):
        (c,) = self.cited("The river flows north for 212 km")
        self.assertEqual((c.template, c.title, c.location), ("sfn", "The Northern Deltas", "ch. 3"))

    def test_it_resolves_a_short_footnote_inside_a_ref(self):
        (c,) = self.cited("and reaches the sea at Brevik.")
        self.assertEqual((c.kind, c.template, c.location), ("ref", "harvnb", "p. 77"))
        self.assertEqual(c.title, "The Northern Deltas")

    def test_it_resolves_a_ref_harv_entry_by_surname_and_year(self):
        (c,) = self.cited("Its delta was drained in 1911.")
        self.assertEqual((c.template, c.work, c.doi), ("sfnp", "Hydrology Review", "10.1000/xyz123"))

    def test_it_keeps_an_unresolved_short_footnote_and_warns(self):
        (c,) = self.cited("Salmon return every autumn.")
        self.assertIsNone(c.resolved_from)
        self.assertIn("unresolved short footnote 'Nobody 1900'", self.e.warnings)

    def test_it_treats_efn_as_a_note_whose_refs_back_the_note_text(self):
        (c,) = self.cited("The plateau is sometimes called the Kalde Fjell.")
        self.assertEqual(c.title, "Names of the plateau")
        sentence = claim_for(self.e, "It rises on the Kaldfjell plateau.")
        titles = [self.e.citations[i].title for i in sentence.citation_indices]
        self.assertNotIn("Names of the plateau", titles)

    def test_it_counts_short_footnotes_and_refs_as_occurrences(self):
        # sfn, sfnp, ref in the efn, Sfn, ref (a harvnb inside it points it at its entry), sfnp, sfn.
        self.assertEqual(self.e.citation_occurrences, 7)

    def test_it_merges_identical_short_footnotes_into_one_citation(self):
        e = extract("A.{{sfn|Roe|2001|p=1}} B.{{sfn|Roe|2001|p=1}} C.{{sfn|Roe|2001|p=2}}", "T")
        self.assertEqual([c.citation_indices for c in e.claims], [[0], [0], [1]])
        self.assertEqual(e.citation_occurrences, 3)

    def test_it_prints_the_author_and_year_of_harvtxt_in_the_sentence(self):
        e = extract("As {{harvtxt|Roe|2001}} argued, rivers bend.", "T")
        self.assertIn("As Roe (2001) argued", e.plain_text)


class InTextAuthorDateTests(SimpleTestCase):
    """`{{harvtxt}}`, `{{harvnb}}`, `{{harvp}}`, `{{harv}}`... print "Smith (2010)" in the running
    text and make no footnote: words of the sentence, not a citation of it. (`{{sfn}}` and
    `{{sfnp}}` make a footnote: they are citations.)"""

    BIBLIOGRAPHY = ("\n\n== Bibliography ==\n* {{cite book |last=Smith |first=Ann |year=2010 |title=Rivers"
                    " |url=https://example.org/rivers}}\n* {{cite book |last1=Roe |last2=Doe |year=2001"
                    " |title=Bends}}\n")

    def extract(self, body: str):
        return extract(body + self.BIBLIOGRAPHY, "T")

    def test_an_author_date_subject_is_words_of_its_sentence_and_the_ref_after_it_backs_it(self):
        e = self.extract("{{harvtxt|Smith|2010}} has noted that the river bends north."
                         "<ref>{{cite web |url=https://example.org/bend |title=Bend}}</ref>")
        (claim,) = e.claims
        self.assertEqual(claim.text, "Smith (2010) has noted that the river bends north.")
        self.assertEqual([e.citations[i].url for i in claim.citation_indices], ["https://example.org/bend"])
        self.assertEqual([o.kind for o in claim.occurrences], ["ref"])
        self.assertEqual(e.citation_occurrences, 1)
        self.assertNotIn("harvtxt", [c.template for c in e.citations])

    def test_an_author_date_subject_without_a_ref_makes_no_claim_and_no_citation(self):
        e = self.extract("{{harvtxt|Smith|2010}} has noted that the river bends north. It floods.")
        self.assertEqual(e.claims, [])
        self.assertEqual(e.citations, [])
        self.assertEqual(e.citation_occurrences, 0)
        self.assertIn("Smith (2010) has noted that the river bends north.", e.plain_text)

    def test_each_in_text_template_prints_what_the_wiki_prints_and_cites_nothing(self):
        printed = {
            "{{harvtxt|Smith|2010}}": "Smith (2010)",
            "{{Harvtxt|Smith|2010|p=25}}": "Smith (2010, p. 25)",
            "{{harvard citation text|Smith|2010}}": "Smith (2010)",
            "{{harvp|Smith|2010}}": "Smith (2010)",
            "{{harvp|Smith|2010|pp=4–6}}": "Smith (2010), pp. 4–6",
            "{{harvnb|Smith|2010}}": "Smith 2010",
            "{{harvard citation no brackets|Smith|2010|p=3}}": "Smith 2010, p. 3",
            "{{harv|Smith|2010}}": "(Smith 2010)",
            "{{harvard citation|Roe|Doe|2001}}": "(Roe & Doe 2001)",
            "{{harvcoltxt|Smith|2010|p=25}}": "Smith (2010:25)",
            "{{harvcol|Smith|2010|p=25}}": "(Smith 2010:25)",
            "{{harvcolnb|Smith|2010|p=25}}": "Smith 2010:25",
            "{{harvtxt|Roe|Doe|Poe|2001}}": "Roe, Doe & Poe (2001)",
            "{{harvtxt|Roe|Doe|Poe|Moe|2001}}": "Roe et al. (2001)",
        }
        for template, words in printed.items():
            with self.subTest(template=template):
                e = self.extract(f"As {template} has noted, the river bends north.<ref>Atlas, 1990.</ref>")
                (claim,) = e.claims
                self.assertEqual(claim.text, f"As {words} has noted, the river bends north.")
                self.assertEqual([e.citations[i].raw for i in claim.citation_indices], ["Atlas, 1990."])
                self.assertEqual(e.citation_occurrences, 1)

    def test_sfn_and_sfnp_are_footnotes_and_cite_their_sentence(self):
        for template in ("{{sfn|Smith|2010|p=4}}", "{{sfnp|Smith|2010|p=4}}"):
            with self.subTest(template=template):
                e = self.extract(f"The river bends north.{template}")
                (claim,) = e.claims
                self.assertEqual(claim.text, "The river bends north.")
                (citation,) = [e.citations[i] for i in claim.citation_indices]
                self.assertEqual((citation.kind, citation.title, citation.location), ("sfn", "Rivers", "p. 4"))
                self.assertEqual([o.kind for o in claim.occurrences], ["sfn"])

    def test_a_harvnb_inside_a_ref_still_resolves_the_refs_citation(self):
        e = self.extract("The river bends north.<ref>{{harvnb|Smith|2010|p=9}}</ref>")
        (claim,) = e.claims
        (citation,) = [e.citations[i] for i in claim.citation_indices]
        self.assertEqual((citation.kind, citation.template, citation.title), ("ref", "harvnb", "Rivers"))
        self.assertEqual(e.citation_occurrences, 1)
        self.assertEqual([o.kind for o in claim.occurrences], ["ref"])
