"""The patrol feed's filters: every state is a plain, shareable URL."""
from __future__ import annotations

from datetime import datetime, time

from django import forms
from django.utils import timezone

from sideapp.patrol.selectors import PatrolFilters
from sideapp.scans.models import Wiki
from verifier_core.verification import Verdict

SHOWS = {"flagged": "Flagged", "all": "All new citations", "patrolled": "Marked patrolled by me"}


class PatrolFilterForm(forms.Form):
    show = forms.ChoiceField(choices=list(SHOWS.items()), required=False)
    verdict = forms.ChoiceField(required=False, choices=[("", "any verdict"), ("pending", "not checked yet")]
                                + [(v.value, v.label) for v in Verdict])
    wiki = forms.ModelChoiceField(queryset=Wiki.objects.filter(patrol=True), required=False, empty_label="any wiki")
    author = forms.CharField(required=False, max_length=255, label="Author")
    since = forms.DateField(required=False, label="Since", widget=forms.DateInput(attrs={"type": "date"}))
    bots = forms.BooleanField(required=False, label="bots' edits too")

    def filters(self) -> PatrolFilters:
        """The filters asked for; a malformed value falls back to its default."""
        data = self.cleaned_data if self.is_valid() else {}
        since = data.get("since")
        return PatrolFilters(
            show=data.get("show") or "flagged", verdict=data.get("verdict") or "",
            wiki=data["wiki"].pk if data.get("wiki") else None, author=(data.get("author") or "").strip(),
            since=timezone.make_aware(datetime.combine(since, time.min)) if since else None,
            bots=bool(data.get("bots")))
