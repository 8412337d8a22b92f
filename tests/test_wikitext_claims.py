"""Claims, sections, paragraphs and maintenance tags from verifier_core.wikitext."""
from __future__ import annotations

from pathlib import Path

from django.test import SimpleTestCase

from verifier_core.wikitext import extract

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wikitext"
GARBAGE = ("{{", "}}", "[[", "]]", "|", "<ref", "==", "{|", "|}")


def texts(extraction) -> list[str]:
    return [c.text for c in extraction.claims]


class SentenceClaimTests(SimpleTestCase):
    def test_it_takes_the_sentence_before_a_citation_as_the_claim(self):
        e = extract("Intro sentence. The sky is '''blue'''.<ref>R</ref> Trailing words.", "T")
        self.assertEqual(texts(e), ["The sky is blue."])
        self.assertEqual(e.claims[0].context, "Intro sentence.")
        self.assertEqual(e.claims[0].sentence_index, 1)

    def test_it_takes_only_the_clause_since_the_previous_citation(self):
        e = extract("Rome was founded early,<ref>A</ref> and Paris grew later.<ref>B</ref>", "T")
        self.assertEqual(texts(e), ["Rome was founded early", "and Paris grew later."])
        self.assertEqual(e.claims[1].context, "Rome was founded early,")

    def test_it_gives_a_mid_sentence_citation_the_clause_before_it(self):
        e = extract("The bridge, built in 1901,<ref>A</ref> is made of stone.", "T")
        self.assertEqual(texts(e), ["The bridge, built in 1901"])

    def test_it_attaches_consecutive_refs_to_one_claim(self):
        e = extract("Water boils at 100 C.<ref>A</ref><ref>B</ref> <ref>C</ref>", "T")
        self.assertEqual(len(e.claims), 1)
        self.assertEqual(e.claims[0].citation_indices, [0, 1, 2])

    def test_it_keeps_refs_separated_by_a_dead_link_tag_on_one_claim(self):
        e = extract("Ice melts.<ref>A</ref>{{dead link|date=May 2020}}<ref>B</ref>", "T")
        self.assertEqual(len(e.claims), 1)
        self.assertEqual(e.claims[0].citation_indices, [0, 1])
        self.assertEqual(e.citations[0].flags, ["dead link"])
        self.assertEqual(e.citations[1].flags, [])

    def test_it_splits_sentences_glued_to_a_ref(self):
        e = extract("First fact.<ref>A</ref>Second fact.<ref>B</ref>", "T")
        self.assertEqual(texts(e), ["First fact.", "Second fact."])

    def test_it_records_the_section_path_and_paragraph(self):
        e = extract(
            "Lead.<ref>L</ref>\n== History ==\n=== Early ===\nOld.<ref>O</ref>\n\nNew para.<ref>N</ref>\n"
            "== Later ==\nLate.<ref>X</ref>",
            "T",
        )
        self.assertEqual(
            [c.section for c in e.claims], [[], ["History", "Early"], ["History", "Early"], ["Later"]]
        )
        self.assertEqual([c.paragraph_index for c in e.claims], [0, 1, 2, 3])
        self.assertEqual([s.path for s in e.sections], [[], ["History"], ["History", "Early"], ["Later"]])

    def test_it_finds_every_claim_verbatim_in_the_plain_text(self):
        e = extract("A ''b'' [[c|d]] {{convert|5|km}}.<ref>R</ref>\n* item<ref>I</ref>", "T")
        for claim in e.claims:
            self.assertIn(claim.text, e.plain_text)
        self.assertIn("A b d 5 km.", e.plain_text)

    def test_it_does_not_split_sentences_at_ordinal_dates(self):
        e = extract("Er kam am 6. November 1918 an.<ref>R</ref> Im 18. Jahrhundert nicht.<ref>S</ref>", "T")
        self.assertEqual(texts(e), ["Er kam am 6. November 1918 an.", "Im 18. Jahrhundert nicht."])

    def test_it_caps_the_context_of_a_claim_in_a_huge_paragraph_at_a_sentence_start(self):
        e = extract("Filler sentence number one. " * 300 + "The claim.<ref>R</ref>", "T")
        context = e.claims[0].context
        self.assertLessEqual(len(context), 2000)
        self.assertTrue(context.startswith("Filler sentence"))

    def test_it_makes_no_claim_for_a_ref_with_no_text_before_it(self):
        e = extract("<ref>Orphan</ref>\n\nText without refs.", "T")
        self.assertEqual(e.claims, [])
        self.assertEqual(len(e.citations), 1)


class MaintenanceTagTests(SimpleTestCase):
    def test_it_makes_a_claim_that_needs_a_citation(self):
        e = extract("Cats can fly.{{citation needed|date=May 2020}} Dogs bark.", "T")
        (claim,) = e.claims
        self.assertEqual(
            (claim.text, claim.needs_citation, claim.tags), ("Cats can fly.", True, ["citation needed"])
        )
        self.assertEqual(claim.citation_indices, [])

    def test_it_recognises_redirect_aliases_of_citation_needed(self):
        for alias in ("cn", "Fact", "Citation Needed", "citation_needed", "CN"):
            e = extract(f"Claim text.{{{{{alias}}}}}", "T")
            self.assertEqual(e.claims[0].tags, ["citation needed"], alias)

    def test_it_flags_the_citation_a_tag_follows_and_tags_the_claim(self):
        e = extract(
            "Claim.<ref>{{cite web|url=http://a|title=A}}</ref>{{failed verification|date=2020}}", "T"
        )
        self.assertEqual(e.citations[0].flags, ["failed verification"])
        self.assertEqual(e.claims[0].tags, ["failed verification"])
        self.assertFalse(e.claims[0].needs_citation)

    def test_it_normalises_tag_names(self):
        cases = {
            "Better source needed": "better source needed",
            "better source": "better source needed",
            "Verification needed": "verification needed",
            "unreliable source?": "unreliable source?",
            "Page needed": "page needed",
            "full citation needed": "full citation needed",
            "Dead Link": "dead link",
        }
        for name, tag in cases.items():
            e = extract(f"Claim.<ref>A</ref>{{{{{name}|date=2020}}}}", "T")
            self.assertEqual(e.citations[0].flags, [tag], name)

    def test_it_flags_a_citation_with_a_dead_link_inside_its_body(self):
        e = extract("Claim.<ref>{{cite web|url=http://gone|title=G}} {{dead link|date=2019}}</ref>", "T")
        self.assertEqual(e.citations[0].flags, ["dead link"])

    def test_it_keeps_the_text_of_citation_needed_span(self):
        e = extract("Before. {{citation needed span|The moon is cheese.|date=2020}} After.", "T")
        self.assertEqual(texts(e), ["The moon is cheese."])
        self.assertTrue(e.claims[0].needs_citation)


class StructureTests(SimpleTestCase):
    def setUp(self):
        self.e = extract((FIXTURES / "infobox_table_list.wiki").read_text(encoding="utf-8"), "Port Ellery")

    def test_it_gives_an_infobox_ref_the_parameter_value_as_claim(self):
        self.assertIn("Population total: 12,480", texts(self.e))

    def test_it_renders_no_infobox_parameter_without_a_citation(self):
        self.assertNotIn("Port Ellery harbour.jpg", self.e.plain_text)
        self.assertNotIn("image skyline", self.e.plain_text.lower())

    def test_it_flags_an_infobox_value_that_needs_a_citation(self):
        claim = next(c for c in self.e.claims if c.text == "Leader name: Ada Quill")
        self.assertTrue(claim.needs_citation)

    def test_it_takes_claims_from_list_items(self):
        self.assertIn("Fishing, with 400 boats", texts(self.e))
        self.assertIn("Boat building", texts(self.e))
        self.assertNotIn("Tourism", texts(self.e))

    def test_it_takes_a_table_row_up_to_the_cited_cell(self):
        self.assertIn("1990–1998; Tom Reed", texts(self.e))
        self.assertIn("1998–2010; Ada Quill", self.e.plain_text)
        self.assertNotIn("text-align", self.e.plain_text)

    def test_it_takes_a_cited_image_caption_as_a_claim(self):
        self.assertIn("The harbour at dawn.", texts(self.e))

    def test_it_counts_refs_inside_templates_tables_and_captions(self):
        self.assertEqual(self.e.citation_occurrences, 6)
        self.assertEqual(len(self.e.citations), 5)

    def test_it_leaves_no_markup_in_claims_or_plain_text(self):
        for claim in self.e.claims:
            for junk in GARBAGE:
                self.assertNotIn(junk, claim.text)
        for junk in ("{{", "[[", "Category", "navbox", "<!--"):
            self.assertNotIn(junk, self.e.plain_text)

    def test_it_drops_comments_files_math_and_reference_lists(self):
        e = extract(
            "Text<!-- hidden <ref>x</ref> --> here.<ref>R</ref> <math>x^2</math>\n"
            "[[File:A.png|thumb|Plain caption]]\n<gallery>\nFile:B.png|Cap\n</gallery>\n"
            "== References ==\n{{reflist}}\n[[Category:Things]]",
            "T",
        )
        self.assertEqual(texts(e), ["Text here."])
        self.assertEqual(e.citation_occurrences, 1)
        for junk in ("hidden", "x^2", "Plain caption", "Cap", "Things"):
            self.assertNotIn(junk, e.plain_text)

    def test_it_drops_navboxes_and_hatnotes(self):
        e = extract(
            "{{About|the town}}\n{{Main|Other page}}\nReal text.<ref>R</ref>\n"
            "{{Navbox|list1=[[A]] · [[B]]}}",
            "T",
        )
        self.assertEqual(e.plain_text, "Real text.")
