"""Issue 41, against the real test MediaWiki: a figure after a sentence that ends in
`.{{sfn|...}}` is corrected in its own sentence (here in its `{{convert}}` parameter), and
the sentence before, which gives the same figure, is untouched, as the wiki saved it."""
from __future__ import annotations

import io
import json

from django.core.management import call_command
from django.test import TestCase
from django.urls import reverse

from sideapp.edits.models import AuditEntry
from sideapp.models import Claim, ClaimCitation
from tests.edits_support import judged_not_supported
from tests.users import PASSWORD, cast
from tests.wiki_support import OnSharedWikiWithBot, page_for_edits

OLD_PIER = "The old Side test pier was 41 m long.{{sfn|Hale|2009|p=12}}"
NEW_PIER = " The new pier is {{convert|41|m}} long.<ref>{{cite web |url=http://127.0.0.1:9/pier |title=Pier}}</ref>"
CAFE = " Its café opened in 1931.<ref>{{cite web |url=http://127.0.0.1:9/cafe |title=Café}}</ref>"
PAGE = (OLD_PIER + NEW_PIER + CAFE +
        "\n\n== Bibliography ==\n* {{cite book |last=Hale |year=2009 |title=Piers of the coast}}\n\n"
        "== References ==\n<references />\n")
COPY = "http://127.0.0.1:9/web/20190312000000/http://127.0.0.1:9/cafe"
FIGURE = {"kind": "figure", "claimed": "41 m", "given": "45 m", "thing": "the length of the new pier"}


class CorrectionInItsOwnSentenceOnTheWikiTests(OnSharedWikiWithBot, TestCase):
    def setUp(self):
        self.users = cast()
        self.client.login(username=self.users["editor"].username, password=PASSWORD)
        _, self.title = page_for_edits(self, "Side pier test", text=PAGE, bot=(self.bot_user, self.bot_password),
                                       SIDE_WIKI_RETRIES=2, SIDE_WIKI_BACKOFF=0.1)

    def wiki_text(self) -> str:
        return self.server.admin_site.pages[self.title].text(cache=False)

    def test_a_figure_after_an_sfn_sentence_is_corrected_in_its_own_sentence_and_the_one_before_is_untouched(self):
        claim = judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith="The new pier"))
        self.assertEqual(claim.text, "The new pier is 41 m long.")
        ClaimCitation.objects.filter(claim=claim).update(
            reasons=[FIGURE], reason="the source gives the length of the new pier as 45 m, not 41 m",
            evidence={"sentences": ["The new pier is 45 metres long."]})
        url = reverse("claim_correct", args=[claim.pk])
        preview = self.client.get(url)
        self.assertEqual(preview.status_code, 200, preview.content[-2000:])
        self.assertContains(preview, "{{convert|45|m}}")
        saved = self.client.post(url, {"confirm": "1", "token": preview.context["proposal"].token})
        self.assertEqual(saved.status_code, 200, saved.content[-2000:])
        text = self.wiki_text()
        self.assertEqual(text.strip(), PAGE.replace("{{convert|41|m}}", "{{convert|45|m}}").strip())
        self.assertTrue(text.startswith(OLD_PIER + " The new pier is {{convert|45|m}} long."))
        entry = AuditEntry.objects.get()
        self.assertEqual((entry.action, entry.status), ("correct", "saved"))

    def propose(self, *args: str) -> list[dict]:
        out = io.StringIO()
        call_command("propose_edit", *args, "--json", stdout=out)
        return [json.loads(line) for line in out.getvalue().splitlines()]

    def test_propose_edit_correct_prints_the_proposal_apis_change_in_the_claims_own_sentence(self):
        claim = judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith="The new pier"))
        ClaimCitation.objects.filter(claim=claim).update(reasons=[FIGURE])
        (answer,) = self.propose("--claim", str(claim.pk), "--action", "correct")
        self.assertTrue(answer["offered"], answer)
        self.assertEqual(answer["text"], answer["old_text"].replace("{{convert|41|m}}", "{{convert|45|m}}"))
        self.assertTrue(answer["text"].startswith(OLD_PIER))
        ref = answer["target_ref"]
        self.assertEqual(answer["old_text"][ref["start"]:ref["end"]], ref["wikitext"])
        self.assertIn("http://127.0.0.1:9/pier", ref["wikitext"])
        api = self.client.get(f"/api/v1/claims/{claim.pk}/proposal", {"action": "correct"})
        self.assertEqual(api.status_code, 200, api.content)
        shared = ("claim_id", "title", "section", "base_revision", "old_text", "text", "summary", "diff", "target_ref")
        self.assertEqual({k: answer[k] for k in shared}, {k: api.json()[k] for k in shared})
        self.assertFalse(AuditEntry.objects.exists())

    def test_propose_edit_correct_says_in_words_when_no_source_gives_another_figure(self):
        claim = judged_not_supported(Claim.objects.get(article__title=self.title, text__startswith="Its café"))
        (answer,) = self.propose("--claim", str(claim.pk), "--action", "correct")
        self.assertEqual(set(answer), {"claim_id", "error"})
        self.assertEqual(answer["error"], "No source of the claim gives another figure for it with confidence.")

    def test_propose_edit_archive_writes_the_copy_into_the_claims_citation_only(self):
        claim = Claim.objects.get(article__title=self.title, text__startswith="Its café")
        ClaimCitation.objects.filter(claim=claim).update(
            verdict="supported", confidence="high", page_state="gone",
            copy={"read": "copy", "archive": "127.0.0.1:9", "timestamp": "20190312000000", "url": COPY})
        (answer,) = self.propose("--claim", str(claim.pk), "--action", "archive")
        self.assertNotIn("error", answer)
        ref = answer["target_ref"]
        before, after = answer["old_text"][:ref["start"]], answer["old_text"][ref["end"]:]
        self.assertTrue(answer["text"].startswith(before) and answer["text"].endswith(after), answer["text"])
        self.assertIn(f"|archive-url={COPY}", answer["text"])
        self.assertEqual(answer["text"].count("archive-url"), 1)
