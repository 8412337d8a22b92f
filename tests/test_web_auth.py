"""The session's user is read with its role names (RoleBackend): one query, not two, on
every page, and the roles it reads are the ones the checks need."""
from __future__ import annotations

from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.users import PASSWORD, cast


class RoleBackendTests(TestCase):
    def setUp(self):
        self.users = cast()

    def client_for(self, role: str) -> Client:
        client = Client()
        self.assertTrue(client.login(username=self.users[role].username, password=PASSWORD))
        return client

    def test_a_page_reads_the_session_and_the_user_with_its_roles_in_two_queries(self):
        client = self.client_for("annotator")
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("annotation:guidelines"))
        self.assertEqual(response.status_code, 200)
        self.assertEqual(len(queries), 2, [q["sql"][:80] for q in queries])

    def test_a_user_with_several_roles_has_each_of_them(self):
        self.users["annotator"].groups.add(Group.objects.get(name="editor"))
        client = self.client_for("annotator")
        self.assertEqual(client.get(reverse("annotation:guidelines")).status_code, 200)
        self.assertEqual(client.get(reverse("claim_list")).status_code, 200)
        self.assertEqual(client.get(reverse("annotation:results")).status_code, 403)

    def test_a_user_without_a_role_is_refused_and_a_deactivated_one_is_logged_out(self):
        nobody = self.client_for("nobody")
        self.assertEqual(nobody.get(reverse("claim_list")).status_code, 403)
        editor = self.client_for("editor")
        self.users["editor"].is_active = False
        self.users["editor"].save()
        response = editor.get(reverse("claim_list"))
        self.assertEqual(response.status_code, 302)
        self.assertIn(reverse("login"), response["Location"])
