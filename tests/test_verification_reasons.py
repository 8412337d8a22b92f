"""Reasons that hold against the page: "no passage mentions ..." names only what carries the
claim and is true of every form of it, and each figure reason compares the same quantity of
the same thing in well-formed English. One test per wording, and every template rendered
with awkward inputs."""
from __future__ import annotations

import re

from django.test import SimpleTestCase

from tests.verification_support import fixture_page
from verifier_core.verification.evidence.engine import prepare_source
from verifier_core.verification.judgement.reasons import listed, verdict_reason
from verifier_core.verification.language.figures import quantities
from verifier_core.verification.language.mentions import unmentioned
from verifier_core.verification.language.quantities import FIGURE_REASON, Mismatch, mismatches
from verifier_core.verification.types import Verdict


def missing(claim: str, text: str, meta: dict | None = None) -> list[str]:
    """What the reason would say no passage mentions, with the page read as the app reads it."""
    a = prepare_source(claim, text, top_k=4, meta=meta).analysis
    return unmentioned(claim, a.page_terms, a.quantities, a.page_numbers, a.page_lower)


def reasons(claim: str, text: str) -> list[str]:
    return [m.reason for m in mismatches(claim, text)]


class MentionTests(SimpleTestCase):
    def test_a_figure_in_other_units_and_the_word_for_what_it_measures_are_mentioned(self):
        page = fixture_page("klt-history.html")  # "The tower rises 31 metres (102 feet) from its base."
        self.assertEqual(missing("Kellhaven Lighthouse, Height: 31 m (102 ft)", page.text), [])

    def test_a_number_word_is_its_number(self):
        text = "Character: the light shows two white flashes every 15 seconds, and eleven keepers served there."
        self.assertEqual(missing("The light shows two white flashes every fifteen seconds.", text), [])
        self.assertEqual(missing("The station had 11 keepers.", text), ["station"])

    def test_a_date_in_any_common_form_is_mentioned_and_a_year_alone_gives_only_the_year(self):
        claim = "The line opened on 12 June 1869."
        for text in ("The line opened on June 12, 1869.", "Opened: 1869-06-12. The line ran to the harbour.",
                     "The line opened on the 12th June 1869."):
            self.assertEqual(missing(claim, text), [], text)
        self.assertEqual(missing(claim, "The line opened in 1869."), ["12 June 1869"])

    def test_the_page_s_date_and_title_count_as_its_text(self):
        page = fixture_page("avg-ellery-plaque.html")
        claim = "A plaque was unveiled on the lighthouse in 2016."
        self.assertEqual(missing(claim, page.text), ["2016"])
        self.assertEqual(missing(claim, page.text, meta=page.meta), [])

    def test_a_figure_is_named_whole_with_its_unit(self):
        page = fixture_page("avg-boathouse-reopens.html")
        found = missing("The boathouse reopened after a rebuild costing £1.2 million.", page.text, meta=page.meta)
        self.assertEqual(found, ["£1.2 million"])

    def test_general_words_are_never_named_and_near_forms_count(self):
        page = fixture_page("klt-visit.html")
        found = missing("Since 2004 the tower has been open to visitors as a museum run by the Kellhaven Lighthouse "
                        "Trust, with a café in the former keepers' cottages.", page.text, meta=page.meta)
        self.assertIn("café", found)
        self.assertNotIn("run", found)
        self.assertNotIn("visitors", found)  # the page says "visit"


    def test_an_irregular_form_of_a_word_the_page_uses_is_mentioned(self):
        text = "Dues for fishing boats will rise by 4 per cent in 2018. Two women and their children sold the boat."
        self.assertEqual(missing("Dues had risen by 4 per cent in 2018.", text), [])
        self.assertEqual(missing("A woman and a child sell the boat; dues rose by 4 per cent in 2018.", text), [])
        self.assertEqual(missing("The mice had risen by 4 per cent in 2018.", text), ["mice"])


class FigureWordingTests(SimpleTestCase):
    def test_an_area_names_what_it_is_the_area_of(self):
        page = fixture_page("acp-river-arle.html")
        self.assertEqual(reasons("Its catchment covers about 410 square kilometres, most of it upland grazing.",
                                 page.text),
                         ["the source gives the catchment's area as 310 square kilometres, not 410 square kilometres"])

    def test_a_height_is_called_a_height(self):
        page = fixture_page("jeh-ellery-1934.html")
        self.assertEqual(reasons("Her measurements showed the bore reaching two metres in height on the equinoctial "
                                 "spring tides.", page.text),
                         ["the source gives the bore's height as 1.2 metres, not two metres"])

    def test_a_year_whose_subject_is_too_long_is_named_in_the_passive(self):
        page = fixture_page("avrs-history.html")
        self.assertEqual(reasons("Volunteers of the Arle Valley Railway Society reopened the six-kilometre section "
                                 "between Lowick and Kellhaven in 1994.", page.text),
                         ["the source gives the year the six-kilometre section was reopened as 1996, not 1994"])

    def test_a_date_names_its_event(self):
        self.assertEqual(reasons("Smith died in Millbrook on 12 May 2016.", "Smith died on 12 October 1961."),
                         ["the source gives the date Smith died as 12 October 1961, not 12 May 2016"])

    def test_a_count_names_what_it_counts(self):
        page = fixture_page("avg-boathouse-reopens.html")
        self.assertEqual(reasons("The fire destroyed twelve boats and most of the club's trophies.", page.text),
                         ["the source gives the number of boats as eleven, not twelve"])

    def test_a_share_names_whose_share_it_is(self):
        self.assertEqual(reasons("A survey found that 12% of islanders had good health.",
                                 "The survey found that 88% of islanders had good health."),
                         ["the source gives the share of islanders as 88%, not 12%"])

    def test_an_amount_says_which_amount_with_its_currency(self):
        self.assertEqual(reasons("The boathouse reopened after a rebuild costing £1.5 million.",
                                 "The boathouse reopened after a rebuild costing £1.2 million."),
                         ["the source gives the rebuild's cost as £1.2 million, not £1.5 million"])

    def test_a_figure_of_another_thing_is_no_rival(self):
        page = fixture_page("krc-history.html")  # the boathouse "was built in 1894"
        self.assertEqual(reasons("The club owns a racing eight built in 1999.", page.text), [])

    def test_a_sentence_differing_in_every_figure_tells_of_another_occasion(self):
        page = fixture_page("kh-harbour-authority-annual.html")  # "In 2023 the harbour welcomed 150 ..."
        self.assertEqual(reasons("In 2019 the harbour handled 212 commercial vessel visits, the most since 1990.",
                                 page.text), [])
        self.assertEqual(reasons("In 2023 the harbour handled 212 commercial vessel visits.", page.text),
                         ["the source gives the number of commercial vessel visits as 150, not 212"])


AWKWARD = ["", "  ", "1931", "£1.2 million", "“quoted”", "a, b", "Height:", "x" * 300, "line\nbreak", "'s"]
CLAIMS = ["", "The Harbour Tower opened in 1994.", "Its catchment covers about 410 km².", "Height: 31 m (102 ft)",
          "It, in 1999, was.", "the year the year in 1994 1995 1996", "“Quoted” claim of 12% and $3 million."]


class TemplateTests(SimpleTestCase):
    """Every reason template, rendered with awkward inputs, reads as one clean sentence."""

    def assertClean(self, sentence: str):
        self.assertEqual(sentence, sentence.strip(), repr(sentence))
        for bad in ("  ", " ,", ",,", ";;", "; ;", " ;", "None", "()", "“”", "as ,", "\n", ", or", " or or ", " of as ",
                    " the as "):
            self.assertNotIn(bad, sentence, repr(sentence))
        self.assertFalse(sentence.endswith((",", ";", ":", " or", " as", " of", " the")), repr(sentence))

    def test_every_verdict_template_is_clean_with_awkward_inputs(self):
        for verdict in (Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.NOT_SUPPORTED):
            for n in range(5):
                for awkward in AWKWARD:
                    absent = [awkward, "paraffin", "1931", "Gull Point"][:n]
                    for part, quote in ((None, None), (awkward, awkward), ("and opened in 1994", "It opened in 1994.")):
                        reason = verdict_reason(verdict=verdict, absent=absent, figures=[],
                                                weakest_part=part, evidence_sentence=quote)
                        self.assertClean(reason)
                        self.assertTrue(reason[:1].islower(), reason)

    def test_a_partial_verdict_with_nothing_to_point_at_says_what_is_uncertain_and_quotes_the_closest_line(self):
        reason = verdict_reason(verdict=Verdict.PARTIALLY_SUPPORTED, absent=[], figures=[],
                                weakest_part=None, evidence_sentence="The tower rises 31 metres (102 feet) from its base.")
        self.assertEqual(reason, "the verifier is not sure the source says all of it; closest: "
                                 "“The tower rises 31 metres (102 feet) from its base.”")

    def test_what_no_passage_mentions_is_listed_as_english(self):
        self.assertEqual(listed(["1931"]), "1931")
        self.assertEqual(listed(["1931", "paraffin"]), "1931 or paraffin")
        self.assertEqual(listed(["1931", "paraffin", "Gull Point"]), "1931, paraffin or Gull Point")
        self.assertEqual(listed(["", " ", "a\nb"]), "a b")
        self.assertEqual(listed(["June 3, 2011", "Kellfest"]), "“June 3, 2011” or Kellfest")

    def test_every_figure_reason_keeps_the_contract_form_and_reads_cleanly(self):
        form = re.compile(rf"^{FIGURE_REASON}(?:\S.* as )?\S.*, not \S.*$")
        for claim in CLAIMS:
            for q in quantities(claim) or quantities("in 1994"):
                for thing in ("", "the year the tower opened", "the catchment's area", "the number of boats"):
                    for source in ("1996", "310 km²", "two"):
                        reason = Mismatch(q, source, source, thing).reason
                        self.assertRegex(reason, form)
                        self.assertClean(reason)

    def test_figure_reasons_from_real_naming_read_cleanly(self):
        sources = {"The Harbour Tower opened in 1996.": "The Harbour Tower opened in 1994.",
                   "Its catchment covers about 310 km², most of it moor.": "Its catchment covers about 410 km².",
                   "The report found that 88% of people agreed.": "“Quoted” claim of 12% and $3 million.",
                   "Focal height: 38 metres. Nominal range: 22 nautical miles.":
                       "The light has a nominal range of 28 nautical miles."}
        said = []
        for source, claim in sources.items():
            for reason in reasons(claim, source):
                said.append(reason)
                self.assertClean(reason)
                self.assertRegex(reason, rf"^{FIGURE_REASON}")
        self.assertIn("the source gives the nominal range as 22 nautical miles, not 28 nautical miles", said)
