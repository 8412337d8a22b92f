"""The session's user read together with its role names: one query per request instead of
two (the user, then its groups), on every page, since every view checks a role."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.postgres.aggregates import ArrayAgg


class RoleBackend(ModelBackend):
    def get_user(self, user_id):
        user = (get_user_model()._default_manager
                .annotate(role_names=ArrayAgg("groups__name", distinct=True, default=[]))
                .filter(pk=user_id).first())
        if user is None or not self.user_can_authenticate(user):
            return None
        user._side_group_names = frozenset(name for name in user.role_names if name)  # read by has_role
        return user
