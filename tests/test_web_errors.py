"""What went wrong, as pages of the app: 403, 404, 500 and a failed CSRF check read as a
sentence with a way back, inside the site's header; htmx gets the same sentence as a
fragment; an htmx request after the session ended sends the browser to log in and back
to the page it was on (tests/test_browser_errors.py does each in a browser)."""
from __future__ import annotations

from django.test import Client, TestCase, override_settings
from django.urls import reverse

from harness.claims import ClaimRow, article_with_claims
from sideapp.claims.models import ClaimReview
from tests.users import PASSWORD, CastMixin

HTMX = {"HTTP_HX_REQUEST": "true"}


class ErrorPageTests(CastMixin, TestCase):
    @classmethod
    def setUpTestData(cls):
        _, (cls.claim,) = article_with_claims("Kell Bridge", [ClaimRow("The viaduct opened in 1931.")])

    def assert_page(self, response, status: int, *words: str) -> str:
        self.assertEqual(response.status_code, status)
        html = response.content.decode()
        self.assertIn('<header class="top">', html)  # a page of the app, not Django's bare one
        for said in words:
            self.assertIn(said, html)
        return html

    def assert_fragment(self, response, status: int, *words: str) -> None:
        self.assertEqual(response.status_code, status)
        self.assertEqual(response["X-Side-Fragment"], "1")
        html = response.content.decode()
        self.assertNotIn("<html", html)
        self.assertIn('role="alert"', html)
        for said in words:
            self.assertIn(said, html)

    def test_a_role_that_may_not_see_a_page_reads_why_and_what_to_do(self):
        editor = self.client_for("editor")
        html = self.assert_page(editor.get(reverse("scan_list")), 403,
                                "This page is for the role admin, which your account (eve_editor) does not have.",
                                "An admin can give you a role on the People page.", "Log out eve_editor")
        self.assertIn('href="/">Back to the start page</a>', html)
        self.assert_fragment(editor.get(reverse("scan_list"), **HTMX), 403, "is for the role admin")

    def test_a_missing_page_is_a_page_of_the_app_with_a_way_back(self):
        editor = self.client_for("editor")
        html = self.assert_page(editor.get("/claims/999999/", HTTP_REFERER="http://testserver/claims/?q=x"), 404,
                                "There is nothing at this address")
        self.assertIn('href="/claims/?q=x">Back to the page you came from</a>', html)
        foreign = self.assert_page(editor.get("/no/such/page/", HTTP_REFERER="https://elsewhere.example/"), 404)
        self.assertIn('href="/">Back to the start page</a>', foreign)  # never a link off the site
        self.assert_fragment(editor.get("/claims/999999/", **HTMX), 404, "There is nothing at this address")

    @override_settings(ROOT_URLCONF="tests.error_urls")
    def test_an_unexpected_error_is_a_sentence_without_the_trace(self):
        editor = self.client_for("editor")
        editor.raise_request_exception = False
        html = self.assert_page(editor.get("/fails/"), 500, "Something went wrong", "nothing more was done",
                                "Back to the start page")
        self.assertNotIn("secret-detail-42", html)
        self.assertNotIn("Traceback", html)
        self.assert_fragment(editor.get("/fails/", **HTMX), 500, "Something went wrong")

    @override_settings(ROOT_URLCONF="tests.error_urls")
    def test_a_database_or_redis_that_does_not_answer_is_a_503_in_words(self):
        editor = self.client_for("editor")
        editor.raise_request_exception = False
        for url, service in (("/database-gone/", "database"), ("/redis-gone/", "queue (Redis)")):
            response = editor.get(url)
            html = self.assert_page(response, 503, "Not available just now", f"{service} does not "
                                    "answer just now", "nothing was saved")
            self.assertEqual(response["Retry-After"], "60")
            self.assertNotIn("Traceback", html)
            self.assert_fragment(editor.get(url, **HTMX), 503, "Not available just now")

    def test_a_form_from_an_out_of_date_page_says_so_and_offers_to_reload_it(self):
        editor = self.client_for("editor", enforce_csrf_checks=True)
        page = f"http://testserver/claims/{self.claim.pk}/"
        url = reverse("claim_verified", args=[self.claim.pk])
        html = self.assert_page(editor.post(url, HTTP_REFERER=page), 403,
                                "This form came from a page that is out of date", "nothing was saved")
        self.assertNotIn("CSRF verification failed", html)
        self.assertNotIn("DEBUG=True", html)
        self.assertIn(f'href="/claims/{self.claim.pk}/">Reload the page</a>', html)
        self.assert_fragment(editor.post(url, HTTP_HX_CURRENT_URL=page, **HTMX), 403, "out of date")
        self.assertFalse(ClaimReview.objects.exists())

    def test_a_form_sent_after_the_session_ended_asks_to_log_in_again(self):
        anonymous = Client(enforce_csrf_checks=True)
        html = self.assert_page(anonymous.post(reverse("scan_list"), HTTP_REFERER="http://testserver/scans/"), 403,
                                "Your session had ended")
        self.assertIn('href="/login/?next=%2Fscans%2F">Log in</a>', html)


class ExpiredSessionHtmxTests(CastMixin, TestCase):
    def test_htmx_after_the_session_ended_goes_to_log_in_and_back_to_the_page(self):
        response = Client().post("/claims/5/verified/", HTTP_HX_CURRENT_URL="http://testserver/claims/5/?from=list",
                                 **HTMX)
        self.assertEqual(response.status_code, 200)
        self.assertEqual(response["HX-Redirect"], "/login/?next=%2Fclaims%2F5%2F%3Ffrom%3Dlist")
        self.assertNotIn("<form", response.content.decode())  # no login page to put in a card

    def test_the_way_back_never_leaves_the_site(self):
        response = Client().get("/scans/1/", HTTP_HX_CURRENT_URL="https://evil.example/phish", **HTMX)
        self.assertEqual(response["HX-Redirect"], "/login/?next=%2F")

    def test_a_plain_request_is_still_redirected_to_the_login_page(self):
        response = Client().get("/scans/1/")
        self.assertEqual(response.status_code, 302)
        self.assertEqual(response["Location"], "/login/?next=/scans/1/")
        self.assertNotIn("HX-Redirect", response)

    def test_after_logging_in_the_user_is_back_on_that_page(self):
        redirect_to = Client().get("/scans/1/", HTTP_HX_CURRENT_URL="http://testserver/claims/?q=bridge",
                                   **HTMX)["HX-Redirect"]
        client = Client()
        login = client.get(redirect_to)
        self.assertContains(login, "you come back to the page you were on")
        response = client.post(redirect_to, {"username": self.users["editor"].username, "password": PASSWORD,
                                             "next": login.context["next"]})
        self.assertRedirects(response, "/claims/?q=bridge", fetch_redirect_response=False)
