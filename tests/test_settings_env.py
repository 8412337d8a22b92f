"""Settings read from the environment are parsed strictly."""
from __future__ import annotations

import os
from unittest import mock

from django.test import SimpleTestCase

from sideapp.env import EnvError, env_bool, env_float, env_int, env_list


class EnvParsingTests(SimpleTestCase):
    def test_it_accepts_the_usual_spellings_of_booleans(self):
        for raw, expected in [("1", True), ("TRUE", True), ("yes", True), ("off", False), ("0", False), ("", False)]:
            with mock.patch.dict(os.environ, {"FLAG": raw}):
                self.assertIs(env_bool("FLAG"), expected, raw)

    def test_it_refuses_a_misspelt_boolean_instead_of_reading_it_as_false(self):
        with mock.patch.dict(os.environ, {"FLAG": "ture"}):
            with self.assertRaisesMessage(EnvError, "FLAG='ture' is not a boolean"):
                env_bool("FLAG")

    def test_it_uses_the_default_when_a_variable_is_unset(self):
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertTrue(env_bool("FLAG", True))
            self.assertEqual(env_int("N", 3), 3)
            self.assertEqual(env_float("X", 0.5), 0.5)
            self.assertEqual(env_list("L", "a, b"), ["a", "b"])

    def test_it_refuses_a_number_that_is_not_one(self):
        with mock.patch.dict(os.environ, {"N": "three"}):
            with self.assertRaises(EnvError):
                env_int("N", 1)
