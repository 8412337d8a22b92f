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
