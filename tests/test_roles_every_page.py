"""Every page and action of the app, for every role: anonymous visitors go to the login
page, a role that may not use it gets 403, one that may gets past the role check. The
table below must name every route, so a new page cannot ship without a role decision."""
from __future__ import annotations

from django.test import TestCase
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.users import CastMixin

ADMIN, EDITOR, ANNOTATOR = "admin", "editor", "annotator"
# route name -> the roles that may use it (admins may use everything)
ALLOWED = {
    "home": {ADMIN, EDITOR, ANNOTATOR, "nobody"},
    "scan_list": {ADMIN}, "scan_detail": {ADMIN}, "scan_cancel": {ADMIN}, "scan_rerun": {ADMIN},
    "corpus": {ADMIN}, "corpus_import": {ADMIN}, "corpus_update": {ADMIN}, "people": {ADMIN},
    "wiki_list": {ADMIN}, "wiki_patrol": {ADMIN},
    "patrol": {ADMIN, EDITOR}, "patrol_mark": {ADMIN, EDITOR},
    "claim_list": {ADMIN, EDITOR}, "claim_detail": {ADMIN, EDITOR}, "claim_dismiss": {ADMIN, EDITOR},
    "claim_verified": {ADMIN, EDITOR}, "claim_review_undo": {ADMIN, EDITOR},
    "suggestion_apply": {ADMIN, EDITOR}, "claim_tag": {ADMIN, EDITOR}, "claim_archive": {ADMIN, EDITOR},
    "claim_correct": {ADMIN, EDITOR},
    "article_report": {ADMIN, EDITOR},
    "annotation:annotate": {ADMIN, ANNOTATOR}, "annotation:undo": {ADMIN, ANNOTATOR},
    "annotation:recent": {ADMIN, ANNOTATOR}, "annotation:guidelines": {ADMIN, ANNOTATOR},
    "annotation:full_text": {ADMIN, ANNOTATOR},
    "annotation:results": {ADMIN}, "annotation:export_csv": {ADMIN}, "annotation:export_jsonl": {ADMIN},
    "annotation:items": {ADMIN}, "annotation:item_gold": {ADMIN},
}
# Served by Django or django-rq with their own staff checks, or the login itself.
OUTSIDE = {"login", "logout"}
# Public by design, for scripts on wiki pages: read-only JSON (sideapp.api) or the gadget's
# code and install lines (sideapp.gadget); no session, no role. A scan request is rate-limited.
# The patrol's Atom feed needs no session either: a per-user token in its address.
PUBLIC = {"api_findings", "api_edit_check", "api_proposal", "api_scan", "api_scan_status", "api_patrol",
          "gadget_install", "gadget_script", "gadget_style", "patrol_feed"}


def app_routes(skip: frozenset[str] = frozenset(OUTSIDE | PUBLIC)) -> dict[str, URLPattern]:
    routes: dict[str, URLPattern] = {}

    def walk(patterns, namespace: str = "") -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if entry.app_name in ("admin", "django_rq"):
                    continue
                walk(entry.url_patterns, f"{entry.namespace}:" if entry.namespace else namespace)
            elif entry.name and entry.name not in skip:
                routes[namespace + entry.name] = entry

    walk(get_resolver().url_patterns)
    return routes


def sample_url(name: str, pattern: URLPattern) -> str:
    kwargs = {key: ("A" if key == "letter" else 999_999) for key in pattern.pattern.converters}
    return reverse(name, kwargs=kwargs)


class EveryPageChecksItsRoleTests(CastMixin, TestCase):
    def test_the_table_names_every_route(self):
        self.assertEqual(sorted(set(app_routes()) - set(ALLOWED)), [])

    def test_public_routes_answer_without_a_session_and_set_no_cookie(self):
        public = {name: pattern for name, pattern in app_routes(frozenset(OUTSIDE)).items() if name in PUBLIC}
        self.assertEqual(set(public), PUBLIC)
        for name, pattern in public.items():
            response = self.client_for(EDITOR).get(sample_url(name, pattern))
            self.assertNotEqual(response.status_code, 302, name)
            self.assertFalse(response.cookies, name)

    def test_anonymous_visitors_are_sent_to_log_in(self):
        for name, pattern in app_routes().items():
            url = sample_url(name, pattern)
            for method in ("get", "post"):
                response = getattr(self.client, method)(url)
                self.assertEqual(response.status_code, 302, f"{method} {url}")
                self.assertIn(reverse("login"), response["Location"], url)

    def test_each_role_is_refused_where_it_has_no_business(self):
        for name, pattern in app_routes().items():
            url = sample_url(name, pattern)
            for role in (EDITOR, ANNOTATOR, "nobody", ADMIN):
                client = self.client_for(role)
                for method in ("get", "post"):
                    status = getattr(client, method)(url).status_code
                    if role in ALLOWED[name] or role == ADMIN:
                        # past the role check: the page, a 404 for the sample id, 405, or a redirect
                        self.assertNotEqual(status, 403, f"{role} {method} {url}")
                    else:
                        self.assertEqual(status, 403, f"{role} {method} {url}")
