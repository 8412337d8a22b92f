"""propose_edit (--claim ID [ID ...] | --article TITLE [--wiki API_URL]) --action tag|add|replace|correct|archive
[--url URL] --json

The proposal Side editor would make for each claim, as GET /api/v1/claims/<id>/proposal
builds it, offered or not (`"offered"`, `"why"`), one JSON object per line; a claim it
cannot act on gets {"claim_id", "error"} with the reason in words. No side effect: nothing
is saved on the wiki or in the database. See docs/contracts.md.
"""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Exists, OuterRef, Prefetch

from sideapp.claims.models import Claim, ClaimCitation
from sideapp.claims.places import current_places_prefetch
from sideapp.claims.selectors import suggestions_with_sources, with_sources
from sideapp.edits.proposing import ACTIONS, claims_proposed
from sideapp.management.database import require_migrated_database
from sideapp.scans.models import Article
from sideapp.scans.wikis import wiki_for


class Command(BaseCommand):
    help = ("Print the edit Side editor would propose for claims (tag, add, replace, correct a figure, "
            "archive), offered or not.")

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--claim", type=int, nargs="+", metavar="ID", help="claim ids")
        which.add_argument("--article", metavar="TITLE", help="every cited claim of this article's latest scan")
        parser.add_argument("--wiki", metavar="API_URL", help="the wiki's api.php URL (with --article)")
        parser.add_argument("--action", required=True, choices=ACTIONS)
        parser.add_argument("--url", default="", help="the source to add or put in place (default: the "
                                                      "claim's best suggestion)")
        parser.add_argument("--json", action="store_true", help="one JSON object per claim (the only output)")

    def handle(self, *args, **opts):
        require_migrated_database()
        claims, missing = self._claims(opts)
        for pk in missing:
            self.stdout.write(json.dumps({"claim_id": pk, "error": "Side editor has no claim with this id."}))
        for answer in claims_proposed(claims, action=opts["action"], url=opts["url"].strip()):
            self.stdout.write(json.dumps(answer, ensure_ascii=False))

    def _claims(self, opts) -> tuple[list[Claim], list[int]]:
        rows = Claim.objects.select_related("article__wiki", "article__current_revision").prefetch_related(
            Prefetch("claim_citations", queryset=with_sources(ClaimCitation.objects.order_by("position"))),
            Prefetch("suggestions", queryset=suggestions_with_sources()),
            current_places_prefetch())  # each claim's own refs, read with it (offers ask twice)
        if opts["claim"]:
            found = {c.pk: c for c in rows.filter(pk__in=opts["claim"])}
            return [found[pk] for pk in opts["claim"] if pk in found], [pk for pk in opts["claim"] if pk not in found]
        wiki = wiki_for(api_url=opts["wiki"]) if opts["wiki"] else wiki_for()
        article = Article.objects.filter(wiki=wiki, title=opts["article"]).first()
        if article is None or article.current_revision is None:
            raise CommandError(f"Side editor has not scanned “{opts['article']}” on {wiki.api_url}; "
                               f"run scan_article first")
        cited = rows.filter(revision_claims__revision=article.current_revision).filter(
            Exists(ClaimCitation.objects.filter(claim=OuterRef("pk"))))
        return list(cited.order_by("revision_claims__position")), []
