"""create_annotation_items: make blind A/B items from verified claims' suggestions."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from sideapp.annotation.items import items_create
from sideapp.claims.models import Claim


class Command(BaseCommand):
    help = ("Make annotation items (claim, wiki's source, top suggestion). By default only claims whose "
            "top suggestion outscores the current citation (SIDE's study); --from-suggestions takes every "
            "claim with a suggestion. Items are never made twice.")

    def add_arguments(self, parser):
        parser.add_argument("--from-suggestions", action="store_true",
                            help="every claim with a suggestion, even one that does not outscore the citation")
        parser.add_argument("--limit", type=int, default=None, help="at most N items")

    def handle(self, *args, **opts):
        claims = (Claim.objects.filter(suggestions__isnull=False).distinct()
                  .select_related("article").order_by("score", "pk"))
        made = items_create(claims=claims.iterator(chunk_size=500), better_only=not opts["from_suggestions"],
                            created_by="command", limit=opts["limit"])
        self.stdout.write(f"{len(made)} annotation items ready (made now or already there; never twice)")
