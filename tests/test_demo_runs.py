"""A later demo run serves the cited pages where the wiki's articles already cite them,
so its citations, revisions and claims stay those of the run before."""
import tempfile
from pathlib import Path

from django.test import SimpleTestCase

from sideapp.management.commands.demo import DEFAULT_SOURCES_PORT, _sources_port


class DemoSourcesPortTests(SimpleTestCase):
    def setUp(self):
        self.workdir = Path(tempfile.mkdtemp()) / "demo-wiki"

    def test_first_run_uses_the_default_port(self):
        self.assertEqual(_sources_port(self.workdir, None), DEFAULT_SOURCES_PORT)

    def test_a_later_run_keeps_the_port_of_the_run_before(self):
        _sources_port(self.workdir, 9123)
        self.assertEqual(_sources_port(self.workdir, None), 9123)

    def test_a_port_given_explicitly_wins_and_is_remembered(self):
        _sources_port(self.workdir, None)
        self.assertEqual(_sources_port(self.workdir, 9200), 9200)
        self.assertEqual(_sources_port(self.workdir, None), 9200)
