"""Pages for what went wrong: a sentence saying what happened and what to do, and a way back.

Django's handlers for 403, 404 and 500 and a failed CSRF check answer with these (see
sideapp/urls.py and CSRF_FAILURE_VIEW). An htmx request gets the same sentence as a
fragment, marked so that static/js/side.js shows it where the user acted although its
status is an error (htmx leaves error answers unshown by default).
"""
from __future__ import annotations

import sys

from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render, resolve_url
from django.template import loader
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme

from sideapp.web.shortcuts import is_htmx

FRAGMENT_HEADER = "X-Side-Fragment"  # read by static/js/side.js


@dataclass(frozen=True)
class Problem:
    title: str
    sentence: str  # what happened and what to do
    back_url: str
    back_label: str


def mark_fragment(response: HttpResponse) -> HttpResponse:
    """Let an error answer to htmx be shown like any other fragment."""
    response[FRAGMENT_HEADER] = "1"
    return response


def problem_response(request, problem: Problem, *, status: int) -> HttpResponse:
    """The whole page, or for htmx the fragment, saying `problem`."""
    template = "partials/error.html" if is_htmx(request) else "error.html"
    response = render(request, template, {"problem": problem}, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return mark_fragment(response)


def page_of(request) -> str:
    """Where the user is: for htmx the page in the address bar (HX-Current-URL), not the
    fragment's URL; for a form the page it was sent from. Only this site's paths."""
    for candidate in (request.headers.get("HX-Current-URL"), request.headers.get("Referer")):
        if candidate and url_has_allowed_host_and_scheme(
                candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
            parts = urlsplit(candidate)
            return parts.path + (f"?{parts.query}" if parts.query else "")
    return ""


def login_url(next_path: str) -> str:
    login = resolve_url(settings.LOGIN_URL)
    return f"{login}?{urlencode({'next': next_path})}" if next_path else login


def forbidden(request, exception=None):
    role = str(exception or "") or "your account does not have the role this page needs"
    sentence = f"{role[0].upper()}{role[1:]}. An admin can give you a role on the People page."
    return problem_response(request, Problem("Not allowed", sentence, reverse("home"), "Back to the start page"),
                            status=403)


def not_found(request, exception=None):
    sentence = ("There is nothing at this address: the link may be old, or what it showed was removed "
                "(a claim that left the article, a scan that was deleted).")
    back = page_of(request) or reverse("home")
    label = "Back to the start page" if back == reverse("home") else "Back to the page you came from"
    return problem_response(request, Problem("Not found", sentence, back, label), status=404)


def server_error(request):
    """Rendered without the request's context: the database may be what failed, and the
    header's user and role would each need it. A database or Redis that does not answer (the
    session, the login, a queue) is said as such, 503: nothing was done, try again shortly."""
    down = _down_service(sys.exc_info()[1])
    if down:
        problem = Problem("Not available just now",
                          f"Side editor's {down} does not answer just now, so nothing was done and nothing was "
                          "saved. Try again in a minute; the admins see it in the server's log.", "/",
                          "Back to the start page")
    else:
        problem = Problem("Something went wrong",
                          "Side editor hit an error it did not expect, and nothing more was done. The error is "
                          "in the server's log for the admins. Try again in a moment; if it happens again, tell "
                          "an admin what you were doing.", "/", "Back to the start page")
    template = "partials/error.html" if is_htmx(request) else "error.html"
    response = HttpResponse(loader.get_template(template).render({"problem": problem}), status=503 if down else 500)
    if down:
        response["Retry-After"] = "60"
    return mark_fragment(response)


def _down_service(exc: BaseException | None) -> str:
    """Which service an uncaught error says is unreachable ("" for any other error)."""
    import redis
    from django.db import InterfaceError, OperationalError

    if isinstance(exc, (OperationalError, InterfaceError)):
        return "database"
    if isinstance(exc, (redis.ConnectionError, redis.TimeoutError)):
        return "queue (Redis)"
    return ""


def csrf_failure(request, reason: str = ""):
    """A form sent from a page that is out of date (Django names the cause in `reason`,
    which is for the log, not for the user)."""
    user = getattr(request, "user", None)
    back = page_of(request)
    if user is None or not user.is_authenticated:
        if is_htmx(request):
            return login_redirect_for_htmx(request)
        sentence = ("Your session had ended, so the form could not be sent and nothing was saved. "
                    "Log in again, then send it once more.")
        return problem_response(request, Problem("Please log in again", sentence, login_url(back), "Log in"),
                                status=403)
    sentence = ("This form came from a page that is out of date (you logged in or out since it was "
                "opened, or the browser did not send this site's cookie), so nothing was saved. "
                "Reload the page and try again.")
    return problem_response(request, Problem("The page was out of date", sentence, back or reverse("home"),
                                             "Reload the page" if back else "Back to the start page"),
                            status=403)


def login_redirect_for_htmx(request) -> HttpResponse:
    """Send the whole browser to the login page, and back to the page it shows after
    login: htmx follows HX-Redirect instead of putting the login page into a card."""
    response = HttpResponse("Your session has ended: log in again.", content_type="text/plain", status=200)
    response["HX-Redirect"] = login_url(page_of(request) or reverse("home"))
    return response
