"""A wiki's refusal of an edit in words: what happened, that nothing was saved, what to do.
Protection and blocks are also checked against the real wiki (test_edits_wiki); the abuse
filter, the spam blacklist and CAPTCHAs are extensions the test wiki does not load, so
their answers, as MediaWiki documents them (API:Edit), are read here."""
from __future__ import annotations

from django.test import SimpleTestCase

from sideapp.scans.refusals import failure_code, refusal_sentence


class RefusalWordsTests(SimpleTestCase):
    def test_every_refusal_says_nothing_was_saved_and_keeps_the_wikis_words(self):
        for code in ("protectedpage", "cascadeprotected", "blocked", "autoblocked", "permissiondenied",
                     "abusefilter-disallowed", "spamblacklist", "readonly", "ratelimited", "captcha",
                     "titleblacklist-forbidden", "something-new"):
            sentence = refusal_sentence(code, "The wiki's own <words>", "Kell Bridge")
            self.assertIn("Nothing was saved.", sentence, code)
            if code not in ("ratelimited", "captcha"):
                self.assertIn("“The wiki's own <words>”", sentence, code)

    def test_an_abuse_filter_answer_names_the_filter(self):
        result = {"result": "Failure", "abusefilter": {"id": 3, "description": "Links to blogs",
                                                        "actions": ["disallow"]}}
        code, info = failure_code(result)
        self.assertEqual((code, info), ("abusefilter-disallowed", "Links to blogs"))
        self.assertTrue(refusal_sentence(code, info, "Kell Bridge").startswith(
            "the wiki's abuse filter stopped this edit (the wiki says: “Links to blogs”)"))

    def test_a_captcha_and_the_spam_blacklist_say_what_to_do(self):
        captcha = refusal_sentence(*failure_code({"result": "Failure", "captcha": {"type": "image"}}), "X")
        self.assertIn("skipcaptcha", captcha)
        spam = refusal_sentence(*failure_code({"result": "Failure", "spamblacklist": "blog.example"}), "X")
        self.assertIn("Choose another source", spam)
        self.assertIn("blog.example", spam)
