"""The audit log in Django's admin, read only: it is a record, not a to-do list."""
from __future__ import annotations

from django.contrib import admin

from sideapp.edits.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "username", "action", "status", "article", "claim", "revision_id", "outcome")
    list_filter = ("action", "status")
    search_fields = ("username", "article__title", "detail", "outcome", "token")
    date_hierarchy = "created_at"
    list_select_related = ("user", "article", "claim")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
