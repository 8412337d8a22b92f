"""Claims with a cited and a suggested source, and annotation items, built straight in
the database (tests, the annotation bench and the demo's ready items share them)."""
from __future__ import annotations

from django.utils import timezone

from sideapp.annotation.models import Item, Kind
from sideapp.models import (Article, Citation, Claim, ClaimCitation, Revision, RevisionClaim, Source,
                            SourceDocument, Suggestion, Wiki)

WIKI_TEXT = ("The harbour was dredged in 1851. The lighthouse was first lit in 1862 by the Trust. "
             "It stands 31 m tall on the northern pier. Visitors may climb it in summer. ") * 3
SUGGESTED_TEXT = ("Records of the Trust show that the light was first exhibited on 1 October 1862. "
                  "The keeper's cottage was added later. The tower was painted white in 1901. ") * 3


def evidence(text: str, sentence: str) -> dict:
    """A verifier-style evidence dict: the passage around `sentence`, which is highlighted."""
    at = text.index(sentence)
    # The sentence before and after it, cut at sentence ends as the verifier's passages are.
    before = text.rfind(". ", 0, max(0, at - 2))
    start = before + 2 if before >= 0 else 0
    after = text.find(". ", at + len(sentence))
    end = after + 1 if after >= 0 else len(text)
    return {"passage": text[start:end], "sentences": [sentence], "start": start, "end": end,
            "sentence_spans": [[at, at + len(sentence)]]}


def _source(url: str, text: str, title: str) -> Source:
    source = Source.objects.create(normalized_url=url, url=url, status=Source.Status.OK, title=title,
                                   fetched_at=timezone.now())
    SourceDocument.objects.create(source=source, title=title, text=text, sha256="x", fetched_at=timezone.now())
    return source


def sources(tag: str = "") -> tuple[Source, Source]:
    return (_source(f"https://www.harbour-history.example/lighthouse{tag}?ref=wiki", WIKI_TEXT, "Harbour history"),
            _source(f"https://trust-records.example/light/1862{tag}", SUGGESTED_TEXT, "The Trust's records"))


def article(title: str = "Lighthouse") -> tuple[Article, Revision]:
    wiki, _ = Wiki.objects.get_or_create(api_url="http://wiki.test/api.php")
    art = Article.objects.create(wiki=wiki, title=title)
    revision = Revision.objects.create(article=art, rev_id=1, wikitext="")
    art.current_revision = revision
    art.save()
    return art, revision


def claim_with_suggestion(*, n: int = 0, wiki_score: float = 0.2, suggested_score: float = 0.8,
                          art=None, pair=None, flagged: bool = True) -> Claim:
    """A verified claim citing the harbour page, with the Trust's records as top suggestion."""
    art, revision = art or article(f"Lighthouse {n}")
    wiki_source, suggested = pair or sources(f"-{n}")
    claim = Claim.objects.create(article=art, fingerprint=f"c{n}", text=f"The lighthouse was first lit in 1862 ({n}).",
                                 first_revision=revision, last_revision=revision, verdict="partially_supported",
                                 score=wiki_score, flagged=flagged, verify_state="done", current=True)
    RevisionClaim.objects.create(revision=revision, claim=claim, position=n)
    citation = Citation.objects.create(article=art, fingerprint=f"cit{n}", kind="ref", raw="<ref/>",
                                       url=wiki_source.url, source=wiki_source)
    ClaimCitation.objects.create(claim=claim, citation=citation, score=wiki_score, verdict="partially_supported",
                                 evidence=evidence(WIKI_TEXT, "The lighthouse was first lit in 1862 by the Trust."))
    Suggestion.objects.create(claim=claim, rank=1, url=suggested.url, title="The Trust's records", source=suggested,
                              score=suggested_score, verdict="supported", beats_current=suggested_score > wiki_score,
                              evidence=evidence(SUGGESTED_TEXT, "the light was first exhibited on 1 October 1862."))
    return claim


def bulk_items(count: int, *, kind: str = Kind.PAIR, scores=None, title: str = "Bulk") -> list[Item]:
    """`count` items on `count` claims of one article, all comparing the same two sources."""
    art, revision = article(title)
    wiki_source, suggested = sources(f"-{title}")
    claims = Claim.objects.bulk_create([
        Claim(article=art, fingerprint=f"b{n}", text=f"The lighthouse was first lit in 1862 (claim {n}).",
              first_revision=revision, last_revision=revision, verdict="partially_supported", verify_state="done")
        for n in range(count)])
    wiki_ev = evidence(WIKI_TEXT, "The lighthouse was first lit in 1862 by the Trust.")
    sugg_ev = evidence(SUGGESTED_TEXT, "the light was first exhibited on 1 October 1862.")
    return Item.objects.bulk_create([
        Item(kind=kind, claim=claim, wiki_source=wiki_source, suggested_source=suggested, wiki_evidence=wiki_ev,
             suggested_evidence=sugg_ev, wiki_score=scores[n % len(scores)] if scores else 0.3,
             wiki_verdict="not_supported" if n % 2 else "partially_supported", suggested_score=0.8,
             suggested_verdict="supported", gold_preference="suggested" if kind == Kind.GOLD else "",
             created_by="test")
        for n, claim in enumerate(claims)])
