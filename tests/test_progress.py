"""The one progress reporter of long commands: periodic lines off a terminal."""
from __future__ import annotations

import io
from unittest import TestCase, mock

from verifier_core.progress import Progress, Snapshot, format_seconds


class ProgressTests(TestCase):
    def test_it_writes_periodic_lines_with_rate_and_time_left_when_not_a_terminal(self):
        out = io.StringIO()
        clock = iter([0.0, 5.0, 12.0, 12.0, 12.0, 20.0, 20.0])
        with mock.patch("verifier_core.progress.time.monotonic", lambda: next(clock)):
            progress = Progress(total=100, what="passages", stream=out, every=10)
            progress.advance(10)  # t=5: not yet time for a line
            progress.advance(50)  # t=12: a line
            progress.close()
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], "60/100 (60%) passages, 5.0/s, 8 s left")
        self.assertEqual(len(lines), 2)  # and the closing line
        self.assertTrue(lines[1].startswith("60/100 (60%) passages"))

    def test_it_reports_every_update_to_its_callback(self):
        seen: list[Snapshot] = []
        progress = Progress(total=3, stream=io.StringIO(), on_update=seen.append)
        for _ in range(3):
            progress.advance()
        self.assertEqual([s.done for s in seen], [1, 2, 3])
        self.assertTrue(all(s.total == 3 for s in seen))

    def test_a_total_unknown_at_the_start_can_be_set_later(self):
        out = io.StringIO()
        progress = Progress(stream=out, every=0)
        progress.advance(2)
        progress.set_total(4)
        progress.advance(2)
        self.assertIn("2 items", out.getvalue().splitlines()[0])
        self.assertIn("4/4 (100%)", out.getvalue().splitlines()[1])

    def test_seconds_read_as_minutes_and_hours(self):
        self.assertEqual(format_seconds(42), "42 s")
        self.assertEqual(format_seconds(125), "2 min 05 s")
        self.assertEqual(format_seconds(3 * 3600 + 60 * 7), "3 h 07 min")
