from __future__ import annotations

from django import forms

from sideapp.scans.models import ScanJob


class ScanRequestForm(forms.Form):
    kind = forms.ChoiceField(choices=[(ScanJob.Kind.TITLES, "These titles"), (ScanJob.Kind.CATEGORY, "A category"),
                                      (ScanJob.Kind.RECENT, "The latest edits (recent changes)")],
                             initial=ScanJob.Kind.TITLES, widget=forms.RadioSelect, label="Scan")
    titles = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}),
                             help_text="One title per line.")
    category = forms.CharField(required=False, max_length=255)
    limit = forms.IntegerField(required=False, min_value=1, max_value=5000, initial=50,
                               help_text="At most this many articles (category or recent changes).")
    wiki = forms.URLField(required=False, max_length=500, assume_scheme="https",
                          help_text="The wiki's api.php URL; empty for the configured wiki.")

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        data["title_list"] = [t.strip() for t in (data.get("titles") or "").splitlines() if t.strip()]
        if kind == ScanJob.Kind.TITLES and not data["title_list"]:
            self.add_error("titles", "Give at least one title.")
        if kind == ScanJob.Kind.CATEGORY and not (data.get("category") or "").strip():
            self.add_error("category", "Give a category name.")
        if len(data["title_list"]) > 5000:
            self.add_error("titles", "At most 5000 titles per scan.")
        return data


class WikiAddForm(forms.Form):
    api_url = forms.URLField(max_length=500, assume_scheme="https", label="The wiki's api.php address",
                             help_text="For example https://en.wikipedia.org/w/api.php")
