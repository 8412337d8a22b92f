"""Safe defaults: no built-in SECRET_KEY with DEBUG off, `check --deploy` clean in a
production-style environment, and a command on an unmigrated database says what to do."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
from django.conf import settings
from django.test import SimpleTestCase

ROOT = Path(settings.BASE_DIR)
PRODUCTION = {
    "DEBUG": "false", "SECRET_KEY": "p" + uuid.uuid4().hex * 2, "ALLOWED_HOSTS": "side.example.org",
    "SECURE_COOKIES": "true", "SECURE_SSL_REDIRECT": "true", "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true", "SECURE_HSTS_PRELOAD": "true",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # Browser tests relax Django's async guard in this process; a deployment never does.
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**base, **env})


class DeploySettingsTests(SimpleTestCase):
    def test_check_deploy_is_clean_for_a_production_environment(self):
        result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("no issues", result.stdout)

    def test_without_debug_the_app_refuses_to_start_without_a_secret_key(self):
        result = manage("check", **{**PRODUCTION, "SECRET_KEY": ""})
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("SECRET_KEY is not set", result.stderr)

    def test_a_command_on_an_unmigrated_database_says_to_migrate(self):
        name = f"side_unmigrated_{uuid.uuid4().hex[:8]}"
        base = settings.DATABASES["default"]
        admin = f"postgresql://{base['USER']}@{base['HOST']}:{base['PORT']}/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            url = admin.rsplit("/", 1)[0] + "/" + name
            result = manage("scan_article", "Some title", DATABASE_URL=url)
        finally:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE "{name}"')
        self.assertEqual(result.returncode, 1)
        self.assertIn("run python manage.py migrate", result.stderr)
        self.assertNotIn("Traceback", result.stderr)
