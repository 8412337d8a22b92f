"""Times on the patrol pages read as people say them: "just now", never "0 minutes ago"."""
from datetime import timedelta

from django.test import SimpleTestCase
from django.utils import timezone

from sideapp.templatetags.side import ago


class AgoTests(SimpleTestCase):
    def test_under_a_minute_is_just_now(self):
        self.assertEqual(ago(timezone.now() - timedelta(seconds=20)), "just now")

    def test_older_moments_say_how_long_ago(self):
        self.assertEqual(ago(timezone.now() - timedelta(minutes=5, seconds=3)), "5\xa0minutes ago")

    def test_no_moment_says_nothing(self):
        self.assertEqual(ago(None), "")
