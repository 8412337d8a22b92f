"""An htmx request whose session has ended is sent to the login page as a whole page.

login_required and role_required answer an anonymous request with a redirect to the
login page; for an htmx request the browser would follow it inside the XMLHttpRequest
and htmx would put the login page, header and all, into the card that asked. Here that
redirect becomes HX-Redirect, and `next` is the page the user was on, not the fragment.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.shortcuts import resolve_url

from sideapp.web.errors import login_redirect_for_htmx
from sideapp.web.shortcuts import is_htmx


def htmx_login_redirect(get_response):
    def middleware(request):
        response = get_response(request)
        if (is_htmx(request) and response.status_code in (301, 302)
                and urlsplit(response.get("Location", "")).path == resolve_url(settings.LOGIN_URL)):
            return login_redirect_for_htmx(request)
        return response

    return middleware
