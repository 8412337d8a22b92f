"""The door of Django's admin (/admin/, and django-rq's pages, which send people there).

Django admin answers anyone who is not staff with its own login form, which asks a
logged-in annotator to log in again as someone else. Here its login address answers as
the app does: the app's login page for someone not logged in, the app's 403 page for a
logged-in person who is not staff, and the admin's own view for staff.
"""
from __future__ import annotations

from django.contrib import admin
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from sideapp.web.errors import Problem, login_url, problem_response


def admin_login(request):
    user = request.user
    if user.is_active and user.is_staff:
        return admin.site.login(request)
    wanted = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        wanted = reverse("admin:index")
    if not user.is_authenticated:
        return redirect(login_url(wanted))
    sentence = (f"The database pages ({wanted}) are for staff accounts, and {user.get_username()} is not one. "
                "Everything your role needs is on the app's own pages.")
    return problem_response(request, Problem("Not allowed", sentence, reverse("home"), "Back to the start page"),
                            status=403)
