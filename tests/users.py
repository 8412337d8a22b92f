"""The named cast of test users: one per role, plus someone with no role."""
from __future__ import annotations

from django.contrib.auth.models import Group, User

PASSWORD = "a-test-password"


def make_user(name: str, role: str | None = None) -> User:
    user = User.objects.create_user(name, password=PASSWORD)
    if role:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


def cast() -> dict[str, User]:
    return {
        "admin": make_user("ada_admin", "admin"),
        "editor": make_user("eve_editor", "editor"),
        "annotator": make_user("ann_annotator", "annotator"),
        "nobody": make_user("nick_norole"),
    }


class CastMixin:
    """`self.users` (the cast, made per test) and `self.client_for(role)`: a client logged in
    as that role's user."""

    def setUp(self):
        super().setUp()
        self.users = cast()

    def client_for(self, role: str, **kwargs):
        from django.test import Client

        client = Client(**kwargs)
        assert client.login(username=self.users[role].username, password=PASSWORD), role
        return client
