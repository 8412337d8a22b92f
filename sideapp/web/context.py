"""Template context: which roles the user has, so pages show only what they may use."""
from __future__ import annotations

from sideapp.web import roles


def user_roles(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"role": {}}
    return {"role": {name: roles.has_role(user, name) for name in roles.ROLES}}
