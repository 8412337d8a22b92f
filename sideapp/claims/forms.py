"""The claims list's filter form (every filter state is a plain, shareable URL) and the
editor's dismiss form."""
from __future__ import annotations

from django import forms

from sideapp.claims.models import ClaimReview
from sideapp.claims.selectors import SHOWS, SORTS, ClaimFilters
from verifier_core.verification import Verdict


class ClaimFilterForm(forms.Form):
    show = forms.ChoiceField(choices=list(SHOWS.items()), required=False)
    q = forms.CharField(required=False, max_length=200, label="Search claims")
    article = forms.CharField(required=False, max_length=200)
    section = forms.CharField(required=False, max_length=200)
    verdict = forms.ChoiceField(choices=[("", "any verdict")] + [(v.value, v.label) for v in Verdict],
                                required=False)
    needs_source = forms.BooleanField(required=False, label="needs a source")
    better = forms.BooleanField(required=False, label="has a better suggestion")
    sort = forms.ChoiceField(choices=list(SORTS.items()), required=False)

    def filters(self) -> ClaimFilters:
        """The filters asked for; a malformed value falls back to its default."""
        data = self.cleaned_data if self.is_valid() else {}
        text = {name: (data.get(name) or "").strip() for name in ("q", "article", "section")}
        return ClaimFilters(show=data.get("show") or "flagged", verdict=data.get("verdict") or "",
                            needs_source=bool(data.get("needs_source")), better=bool(data.get("better")),
                            sort=data.get("sort") or "score", **text)


class DismissForm(forms.Form):
    reason = forms.ChoiceField(choices=ClaimReview.Reason.choices)
    note = forms.CharField(required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))
    suggestion = forms.IntegerField(required=False, widget=forms.HiddenInput)
