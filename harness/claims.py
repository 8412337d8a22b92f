"""Verified claims written straight into the database, for tests and benchmarks of the
editors' pages (no wiki, no workers: the rows a finished scan would leave)."""
from __future__ import annotations

from dataclasses import dataclass, field

SOURCE = "Intro. The tower was first lit in 1862 by the Trust. It is 31 m tall."


def evidence(sentence: str, source: str = SOURCE) -> dict:
    """A verifier evidence dict whose supporting sentence is `sentence` of `source`."""
    start = source.index("The tower") if "The tower" in source else 0
    s = source.index(sentence)
    return {"passage": source[start:], "sentences": [sentence], "start": start, "end": len(source),
            "sentence_spans": [[s, s + len(sentence)]]}


@dataclass
class ClaimRow:
    text: str
    verdict: str = "not_supported"
    score: float | None = 0.2
    section: list[str] = field(default_factory=list)
    needs_citation: bool = False
    cited_url: str = ""
    suggestion_url: str = ""
    better: bool = False


def article_with_claims(title: str, rows: list[ClaimRow], api_url: str = "http://wiki.test/api.php"):
    """An article whose current revision holds `rows`, each verified as given; returns
    (article, [claims])."""
    from sideapp.models import Article, Revision, Wiki

    wiki, _ = Wiki.objects.get_or_create(api_url=api_url)
    article = Article.objects.create(wiki=wiki, title=title)
    revision = Revision.objects.create(article=article, rev_id=1, wikitext="")
    article.current_revision = revision
    article.save(update_fields=["current_revision"])
    return article, add_claims(article, revision, rows)


def add_claims(article, revision, rows: list[ClaimRow], first: int = 0) -> list:
    from sideapp.models import Citation, Claim, ClaimCitation, RevisionClaim, Suggestion

    claims = Claim.objects.bulk_create([
        Claim(article=article, fingerprint=f"{first + n}", text=row.text, first_revision=revision,
              last_revision=revision, verdict=row.verdict, score=row.score, section=row.section,
              needs_citation=row.needs_citation, confidence="high", current=True,
              flagged=Claim.needs_editor(verdict=row.verdict, needs_citation=row.needs_citation),
              needs_look=Claim.flag_rule(verdict=row.verdict, confidence="high",
                                         needs_citation=row.needs_citation)[1],
              verify_state=Claim.State.DONE, evidence=evidence("It is 31 m tall."))
        for n, row in enumerate(rows)])
    RevisionClaim.objects.bulk_create([RevisionClaim(revision=revision, claim=c, position=first + n)
                                       for n, c in enumerate(claims)])
    cited = [(c, r) for c, r in zip(claims, rows) if r.cited_url]
    citations = Citation.objects.bulk_create([
        Citation(article=article, fingerprint=f"c{c.fingerprint}", kind="ref", raw="<ref/>", url=r.cited_url)
        for c, r in cited])
    ClaimCitation.objects.bulk_create([
        ClaimCitation(claim=c, citation=cit, verdict=r.verdict, score=r.score, evidence=c.evidence)
        for (c, r), cit in zip(cited, citations)])
    Suggestion.objects.bulk_create([
        Suggestion(claim=c, rank=1, url=r.suggestion_url, title="A suggested page", score=0.9,
                   verdict="supported", beats_current=r.better, evidence=c.evidence)
        for c, r in zip(claims, rows) if r.suggestion_url])
    return claims
