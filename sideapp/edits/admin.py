"""The audit log in Django's admin, read only: it is a record, not a to-do list."""
from __future__ import annotations

from django.contrib import admin

from sideapp.edits.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "action", "article", "claim", "revision_id")
    list_filter = ("action",)
    search_fields = ("user__username", "article__title", "detail")
    date_hierarchy = "created_at"
    list_select_related = ("user", "article", "claim")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
