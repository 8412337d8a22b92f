"""People and their roles, managed by admins from the app."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from sideapp.web.roles import ADMIN, ROLES, role_required


class PersonForm(forms.Form):
    username = forms.CharField(max_length=150)
    password = forms.CharField(required=False, min_length=8, widget=forms.PasswordInput,
                               help_text="for a new person; leave empty to keep an existing password")
    roles = forms.MultipleChoiceField(choices=[(r, r) for r in ROLES], required=False,
                                      widget=forms.CheckboxSelectMultiple)


@transaction.atomic
def person_save(*, username: str, roles: list[str], password: str = "") -> tuple[User, bool]:
    """Create or update a person with exactly `roles`; a new person needs a password."""
    user = User.objects.filter(username=username).first()
    created = user is None
    if created and not password:
        raise ValueError("a new person needs a password")
    user = user or User(username=username)
    if password:
        user.set_password(password)
    user.save()
    user.groups.set([Group.objects.get_or_create(name=role)[0] for role in roles])
    return user, created


@role_required(ADMIN)
@require_http_methods(["GET", "POST"])
def people(request):
    form = PersonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user, created = person_save(username=data["username"], roles=data["roles"], password=data["password"])
        except ValueError as exc:
            form.add_error("password", str(exc))
        else:
            roles = ", ".join(data["roles"]) or "no role"
            messages.success(request, f"{'Added' if created else 'Updated'} {user.username}: {roles}.")
            return redirect("people")
    users = User.objects.prefetch_related("groups").order_by("username")
    return render(request, "people.html", {"form": form, "users": users})
