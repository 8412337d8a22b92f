"""The annotator's answer form (screen terms: A = left, B = right) and the admins' forms."""
from __future__ import annotations

from django import forms

from sideapp.annotation.models import Evidence, Preference, SkipReason
from sideapp.annotation.services import ScreenAnswer
from sideapp.claims.selectors import SHOWS as FILTERS

SCREEN_PREFERENCES = [("a", "A supports the claim better"), ("b", "B supports the claim better"),
                      ("equal", "Both equally"), ("neither", "Neither supports it")]
CONTRADICTION = "contradiction"


class AnswerForm(forms.Form):
    item = forms.IntegerField(widget=forms.HiddenInput)
    vote = forms.IntegerField(required=False, widget=forms.HiddenInput)  # set when revising
    preference = forms.ChoiceField(choices=SCREEN_PREFERENCES, required=False)
    evidence_a = forms.ChoiceField(choices=Evidence.choices, required=False)
    evidence_b = forms.ChoiceField(choices=Evidence.choices, required=False)
    skip = forms.BooleanField(required=False)
    skip_reason = forms.ChoiceField(choices=SkipReason.choices, required=False)
    note = forms.CharField(required=False, max_length=4000)
    confirm = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if data.get("skip"):
            if not data.get("skip_reason"):
                self.add_error("skip_reason", "Say why you skip this item.")
            return data
        for name in ("preference", "evidence_a", "evidence_b"):
            if not data.get(name):
                self.add_error(name, "This answer is needed (or skip the item).")
        if not self.errors and self.answer().contradictory() and not data.get("confirm"):
            raise forms.ValidationError(
                "You prefer the side you marked as having no evidence, over a side with enough. "
                "Submit again to save it anyway, or change your answer.", code=CONTRADICTION)
        return data

    @property
    def is_contradiction(self) -> bool:
        return any(e.code == CONTRADICTION for e in self.non_field_errors().as_data())

    def answer(self) -> ScreenAnswer:
        data = self.cleaned_data
        if data.get("skip"):
            return ScreenAnswer("skip", skip_reason=data["skip_reason"], note=data.get("note", ""))
        return ScreenAnswer(data["preference"], data["evidence_a"], data["evidence_b"], note=data.get("note", ""))


class ItemsFromClaimForm(forms.Form):
    claim = forms.IntegerField(min_value=1, label="Claim id")
    better_only = forms.BooleanField(required=False, initial=True,
                                     label="only if the top suggestion outscores the citation")


class ItemsFromFilterForm(forms.Form):
    show = forms.ChoiceField(choices=list(FILTERS.items()), initial="flagged", label="Claims")
    article = forms.CharField(required=False, max_length=200, label="Article title contains")
    better_only = forms.BooleanField(required=False, initial=True,
                                     label="only if the top suggestion outscores the citation")
    limit = forms.IntegerField(min_value=1, max_value=5000, initial=200)


class GoldForm(forms.Form):
    preference = forms.ChoiceField(choices=[(p.value, p.label) for p in Preference if p != Preference.SKIP])
