"""The Django admin (/admin/, for staff): the app's rows, browsable and searchable.
Rows the pipeline writes are read-only here; change them through the app."""
from __future__ import annotations

from django.contrib import admin

from sideapp.claims.models import Claim, ClaimReview
from sideapp.scans.models import Article, ScanJob, Wiki
from sideapp.sources.models import Source

from sideapp.edits import admin as _edits_admin  # noqa: F401,E402  (registers AuditEntry)


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


admin.site.register(Wiki, admin.ModelAdmin)


@admin.register(Article)
class ArticleAdmin(ReadOnly):
    list_display = ("title", "wiki", "last_scanned_at")
    search_fields = ("title",)


@admin.register(ScanJob)
class ScanJobAdmin(ReadOnly):
    list_display = ("pk", "kind", "wiki", "status", "created_by", "created_at")
    list_filter = ("status", "kind")


@admin.register(Source)
class SourceAdmin(ReadOnly):
    list_display = ("url", "status", "http_status", "fetched_at")
    list_filter = ("status",)
    search_fields = ("url",)


@admin.register(Claim)
class ClaimAdmin(ReadOnly):
    list_display = ("text", "article", "verdict", "score", "flagged")
    list_filter = ("verdict", "flagged", "needs_citation")
    search_fields = ("text", "article__title")


@admin.register(ClaimReview)
class ClaimReviewAdmin(ReadOnly):
    list_display = ("claim", "user", "kind", "reason", "created_at")
    list_filter = ("kind", "reason")
