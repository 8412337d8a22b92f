"""Browser tests: Playwright for Python driving Debian's chromium, headless.

The browser comes from the system package (`/usr/bin/chromium`, installed by bin/bootstrap);
Playwright never downloads one. Screenshots land in `var/screenshots/` (or $SIDE_SCREENSHOT_DIR)
as test artefacts.
"""
from __future__ import annotations

import os
import shutil
import unittest
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from tests.users import PASSWORD

CHROMIUM = os.environ.get("SIDE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-quic", "--no-first-run"]
# CI keeps them as artefacts from where SIDE_SCREENSHOT_DIR points.
SCREENSHOTS = Path(os.environ.get("SIDE_SCREENSHOT_DIR") or Path(settings.BASE_DIR) / "var" / "screenshots")


def browser_missing() -> str | None:
    if not shutil.which(CHROMIUM):
        return f"no chromium at {CHROMIUM} (bin/bootstrap installs it)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -r requirements.txt)"
    return None


class BrowserTestCase(StaticLiveServerTestCase):
    """A live server plus one headless chromium per class; `self.page` is fresh per test."""

    # Playwright's sync API runs an event loop in this thread; Django's ORM calls made by
    # the test itself are still synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    @classmethod
    def setUpClass(cls):
        reason = browser_missing()
        if reason and os.environ.get("SIDE_REQUIRE_BROWSER") == "1":
            raise RuntimeError(reason)
        if reason:
            raise unittest.SkipTest(reason)
        super().setUpClass()
        from playwright.sync_api import sync_playwright

        cls._playwright = sync_playwright().start()
        cls.browser = cls._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls._playwright.stop()
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        self.context = self.browser.new_context(viewport={"width": 1280, "height": 900},
                                                accept_downloads=True)
        self.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=self.live_server_url)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)

    def tearDown(self):
        self.context.close()
        super().tearDown()

    def url(self, path: str) -> str:
        return self.live_server_url + path

    def log_in(self, username: str, password: str = PASSWORD) -> None:
        self.page.goto(self.url("/login/"))
        self.page.fill("input[name=username]", username)
        self.page.fill("input[name=password]", password)
        with self.page.expect_navigation():
            self.page.keyboard.press("Enter")
        if "/login/" in self.page.url:
            raise AssertionError(f"{username} could not log in")

    def screenshot(self, name: str, folder: str = "") -> Path:
        where = SCREENSHOTS / folder
        where.mkdir(parents=True, exist_ok=True)
        path = where / f"{type(self).__name__}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path
