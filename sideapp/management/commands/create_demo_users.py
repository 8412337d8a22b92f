"""create_demo_users: the demo cast admin / editor / annotator, one per role."""
from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand

from sideapp.web.roles import ROLES
from sideapp.management.database import require_migrated_database


class Command(BaseCommand):
    help = "Create (or reset) the demo users admin, editor and annotator."

    def add_arguments(self, parser):
        parser.add_argument("--password", default="demo-password",
                            help="password for all three (default: demo-password)")

    def handle(self, *args, **opts):
        require_migrated_database()
        for role in ROLES:
            user, _ = User.objects.get_or_create(username=role)
            user.set_password(opts["password"])
            user.is_staff = user.is_superuser = role == "admin"
            user.save()
            user.groups.set([Group.objects.get_or_create(name=role)[0]])
            self.stdout.write(f"user {role!r} (role {role}) ready")
