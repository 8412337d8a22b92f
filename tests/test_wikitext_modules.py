"""The wikitext renderer's modules import in one direction: render -> tables, templates."""
from __future__ import annotations

import ast
import unittest
from pathlib import Path

WIKITEXT = Path(__file__).resolve().parents[1] / "verifier_core" / "wikitext"


def imported_modules(name: str) -> set[str]:
    tree = ast.parse((WIKITEXT / f"{name}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {a.name for a in node.names}
    return found


class ImportDirectionTests(unittest.TestCase):
    def test_tables_and_templates_render_through_the_context_not_by_importing_render(self):
        for name in ("tables", "templates", "context"):
            self.assertNotIn("render", imported_modules(name), name)
        self.assertTrue({"tables", "templates"} <= imported_modules("render"))
