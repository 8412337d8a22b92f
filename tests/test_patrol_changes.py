"""What an edit changed, from the wikitext before and after it (no database, no wiki)."""
from __future__ import annotations

from django.test import SimpleTestCase

from sideapp.patrol.changes import edit_changes

A = "The bridge was built in 1820.<ref>{{cite web |url=https://example.org/bridge |title=Bridge}}</ref>"
B = "It has three arches.<ref>{{cite web |url=https://example.org/arches |title=Arches}}</ref>"


class EditChangesTests(SimpleTestCase):
    def test_a_new_cited_sentence_is_the_one_added_claim(self):
        changes = edit_changes(f"{A}\n", f"{A} {B}\n", "Bridge")
        self.assertEqual(len(changes.added_claims), 1)
        self.assertEqual(len(changes.new_citations), 1)
        self.assertFalse(changes.removed_citations)

    def test_a_citation_changed_under_the_same_words_is_a_new_claim(self):
        moved = A.replace("example.org/bridge", "example.org/other-bridge")
        changes = edit_changes(f"{A}\n", f"{moved}\n", "Bridge")
        self.assertEqual(len(changes.added_claims), 1)
        self.assertEqual(len(changes.removed_citations), 1)

    def test_removing_a_citation_adds_nothing_to_check(self):
        changes = edit_changes(f"{A} {B}\n", f"{A}\n", "Bridge")
        self.assertFalse(changes.checked)
        self.assertEqual(len(changes.removed_citations), 1)

    def test_every_claim_of_a_new_page_is_added(self):
        self.assertEqual(len(edit_changes("", f"{A} {B}\n", "Bridge").added_claims), 2)

    def test_an_unchanged_page_adds_nothing(self):
        changes = edit_changes(f"{A} {B}\n", f"{A} {B}\n\nSee also the river.\n", "Bridge")
        self.assertFalse(changes.checked)

    def test_a_sentence_that_gained_citation_needed_is_checked(self):
        before = f"{A} It was painted red in 1990.\n"
        after = f"{A} It was painted red in 1990.{{{{citation needed|date=January 2024}}}}\n"
        changes = edit_changes(before, after, "Bridge")
        self.assertEqual(len(changes.checked), 1)
        self.assertFalse(changes.new_citations)
