"""The three roles of Side editor, as Django groups, and the checks views use.

An admin can do everything; an editor browses and fixes claims; an annotator votes.
"""
from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

ADMIN = "admin"
EDITOR = "editor"
ANNOTATOR = "annotator"
ROLES = (ADMIN, EDITOR, ANNOTATOR)


def has_role(user, role: str) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    names = getattr(user, "_side_group_names", None)
    if names is None:  # once per request (RoleBackend reads them with the user): the nav asks about every role
        names = user._side_group_names = frozenset(g.name for g in user.groups.all())
    return role in names or ADMIN in names


def role_required(*roles: str):
    """Login, then any of `roles`; anonymous users go to the login page, others get 403."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not any(has_role(request.user, role) for role in roles):
                raise PermissionDenied(f"this page is for the role {' or '.join(roles)}, which your account "
                                       f"({request.user.get_username()}) does not have")
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
