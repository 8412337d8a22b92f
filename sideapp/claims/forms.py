"""The claims list's filter form (every filter state is a plain, shareable URL) and the
editor's dismiss form."""
from __future__ import annotations

from django import forms

from sideapp.claims import search
from sideapp.claims.models import ClaimReview
from sideapp.claims.selectors import SHOWS, SORTS, ClaimFilters
from sideapp.sources.lists import BUCKETS
from verifier_core.verification import Verdict


class ClaimFilterForm(forms.Form):
    show = forms.ChoiceField(choices=list(SHOWS.items()), required=False)
    # No max_length: a longer search or filter is cut (and the page says so), never refused,
    # since a refused field would send the whole list back to its defaults.
    q = forms.CharField(required=False, label="Search claims")
    article = forms.CharField(required=False)
    section = forms.CharField(required=False)
    verdict = forms.ChoiceField(choices=[("", "any verdict")] + [(v.value, v.label) for v in Verdict],
                                required=False)
    needs_source = forms.BooleanField(required=False, label="needs a source")
    better = forms.BooleanField(required=False, label="has a better suggestion")
    sort = forms.ChoiceField(choices=list(SORTS.items()), required=False)
    dead = forms.ChoiceField(choices=[("", "all")] + list(BUCKETS.items()), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cut_fields: dict[str, int] = {}  # fields cut to search.LIMIT characters: the length they had

    def filters(self) -> ClaimFilters:
        """The filters asked for; a malformed value falls back to its own default, the
        others stay. A search is ranked best match first unless a sort is asked for."""
        self.is_valid()  # keeps the valid fields in cleaned_data, whatever the others hold
        data = getattr(self, "cleaned_data", {})
        text = {name: self.cut_text(name) for name in ("q", "article", "section")}
        return ClaimFilters(show=data.get("show") or "flagged", verdict=data.get("verdict") or "",
                            needs_source=bool(data.get("needs_source")), better=bool(data.get("better")),
                            sort=data.get("sort") or ("relevance" if text["q"] else "score"),
                            dead=data.get("dead") or "", **text)

    def cut_text(self, name: str) -> str:
        given = getattr(self, "cleaned_data", {}).get(name) or ""
        text, was_cut = search.cut(given)
        if was_cut:
            self.cut_fields[name] = len(" ".join(given.split()))
        return text

    @property
    def cut_note(self) -> str:
        """What the page says of a search or filter that was cut ("" when none was)."""
        names = {"q": "search", "article": "article filter", "section": "section filter"}
        return " ".join(f"Your {names[name]} was {length} characters long; only its first {search.LIMIT} "
                        f"(to the end of a word) were used." for name, length in self.cut_fields.items())


class DismissForm(forms.Form):
    reason = forms.ChoiceField(choices=ClaimReview.Reason.choices)
    note = forms.CharField(required=False, max_length=1000, widget=forms.Textarea(attrs={"rows": 2}))
    suggestion = forms.IntegerField(required=False, widget=forms.HiddenInput)
