"""Pages on the real test MediaWiki, scanned for real, with verdicts written as a finished
verification would leave them (the verifier itself is tested elsewhere); and an independent
reading of the wiki's rendered HTML to check what the API says about it."""
from __future__ import annotations

import itertools
import re
import uuid
from html.parser import HTMLParser

from django.test import override_settings

from harness.demo import demo_templates
from harness.mediawiki import MediaWikiServer, shared_test_wiki
from sideapp.api import cache
from sideapp.models import Article, Claim, ScanJob, Source, Wiki
from sideapp.scans.wikis import wiki_for
from tests.wiki_support import scan_titles

PAGE = """The Side test bridge opened in 1931.<ref name="opening">{{cite web |url=http://127.0.0.1:9/opening |title=Opening}}</ref> It is made of red stone.<ref>{{cite web |url=http://127.0.0.1:9/stone |title=Stone}}</ref>

== Later ==
The bridge was closed to traffic in 1990.<ref name="opening" /> Its span is 120 metres.<ref>{{cite web |url=http://127.0.0.1:9/span |title=Span}}</ref><ref>{{cite web |url=http://127.0.0.1:9/span-2 |title=Span two}}</ref>

== References ==
<references />
"""
_numbers = itertools.count()


def fresh_title(prefix: str = "Side api test") -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]} {next(_numbers)}"


def known_wiki(server: MediaWikiServer) -> Wiki:
    """The test wiki as Side editor knows it: by its identity, so its origin is allowed."""
    return wiki_for(api_url=server.api_url)


_templates: set[str] = set()


class WikiConfigured:
    """A test class on the shared test wiki (`cls.server`), with Side editor configured for
    it (so no test waits on the address in .env). `wiki()` may give another server."""

    @classmethod
    def wiki(cls) -> MediaWikiServer:
        return shared_test_wiki()

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = cls.wiki()
        cls.configured = override_settings(SIDE_WIKI_API_URL=cls.server.api_url)
        cls.configured.enable()

    @classmethod
    def tearDownClass(cls):
        cls.configured.disable()
        super().tearDownClass()


def scanned_page(server: MediaWikiServer, title: str, text: str = PAGE) -> Article:
    """`text` saved as `title` (the demo's stand-in cite templates there, so refs render with
    their links), scanned, and its scan job ended as the pipeline would end it."""
    if server.api_url not in _templates:
        server.load_pages(demo_templates(), summary="Side test: templates")
        _templates.add(server.api_url)
    server.edit(title, text)
    known_wiki(server)
    job = scan_titles(server, title)
    ScanJob.objects.filter(pk=job.pk).update(status=ScanJob.Status.DONE)
    return Article.objects.select_related("wiki", "current_revision").get(title=title)


def judge(claim: Claim, verdict: str = "not_supported", *, confidence: str = "high",
          reason: str = "the source gives 1932, not 1931", quote: str = "The bridge opened in 1932.",
          reasons: list[dict] | None = None) -> Claim:
    """The claim and each of its citations judged `verdict`, their sources read; `reasons`:
    the reasons as data, as the verifier keeps them (the words `reason` alone otherwise)."""
    evidence = {"passage": quote, "sentences": [quote], "start": 0, "end": len(quote),
                "sentence_spans": [[0, len(quote)]]}
    flagged, needs_look = Claim.flag_rule(verdict=verdict, confidence=confidence, needs_citation=claim.needs_citation)
    Claim.objects.filter(pk=claim.pk).update(
        verdict=verdict, confidence=confidence, verify_reason=reason, score=0.1, evidence=evidence,
        verify_state=Claim.State.DONE, flagged=flagged, needs_look=needs_look, reasons=reasons or [])
    claim.claim_citations.update(verdict=verdict, confidence=confidence, reason=reason, score=0.1, evidence=evidence,
                                 reasons=reasons or [])
    Source.objects.filter(citations__claims=claim).update(status=Source.Status.OK)
    claim.refresh_from_db()
    return claim


def forget_api_cache() -> None:
    """The API's Redis keys (targets, latest revisions, rate-limit windows, the fast path's
    kept answers) of earlier tests."""
    redis = cache.connection()
    for pattern in ("side:api:*", "side:fast:*"):
        for key in redis.scan_iter(pattern):
            redis.delete(key)


class RenderedRefs(HTMLParser):
    """The rendered page read independently of sideapp.api: its text with each footnote
    marker as a token ``\\x00note-id\\x00``, and each note's first external link."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.note_urls: dict[str, str] = {}
        self._note_cites: dict[str, str] = {}  # a short footnote's note -> the #CITEREF it links to
        self._cite_urls: dict[str, str] = {}  # CITEREF id -> the full citation's first external link
        self._cite = ""
        self._stack: list[tuple[str, str]] = []  # (tag, role): role "marker", "note", "skip" or ""
        self.feed(html)

    def _role(self) -> str:
        return next((role for _, role in reversed(self._stack) if role), "")

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        role = ""
        if tag == "sup" and "reference" in classes:
            role = "marker"
        elif tag == "li" and (attrs.get("id") or "").startswith("cite_note"):
            role, self._note = "note", attrs["id"]
        elif tag in ("style", "script") or "references" in classes or "mw-editsection" in classes:
            role = "skip"
        if self._role() == "marker" and tag == "a":
            self.parts.append("\x00" + (attrs.get("href") or "").lstrip("#") + "\x00")
        if self._role() == "note" and tag == "a" and "external" in classes:
            self.note_urls.setdefault(self._note, attrs.get("href") or "")
        if self._role() == "note" and tag == "a" and (attrs.get("href") or "").startswith("#CITEREF"):
            self._note_cites.setdefault(self._note, attrs["href"][1:])
        if tag == "cite" and (attrs.get("id") or "").startswith("CITEREF"):
            self._cite = attrs["id"]
        if self._cite and tag == "a" and "external" in classes:
            self._cite_urls.setdefault(self._cite, attrs.get("href") or "")
        if tag in ("p", "li", "div", "td", "th", "h2", "h3", "dd", "br"):
            self.parts.append("\x01")  # a block boundary: no target crosses it
        if tag not in ("br", "img", "meta", "link", "wbr", "hr", "input"):
            self._stack.append((tag, role))

    def handle_endtag(self, tag):
        if tag == "cite":
            self._cite = ""
        while self._stack:
            if self._stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self._role() == "":
            self.parts.append(data)

    def followed_by(self, target: str) -> list[list[str]]:
        """For each place `target` stands in the page text right before footnote markers:
        the source URLs of those markers' notes, in order."""
        text = re.sub(r"\s+", " ", "".join(self.parts))
        found = []
        pattern = re.escape(target) + r" ?((?:\x00[^\x00]*\x00 ?)+)"
        for match in re.finditer(pattern, text):
            notes = re.findall(r"\x00([^\x00]*)\x00", match.group(1))
            found.append([self.note_urls.get(n) or self._cite_urls.get(self._note_cites.get(n, ""), "")
                          for n in notes])
        return found
