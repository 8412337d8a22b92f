"""The gadget as Side editor serves it: one script and one stylesheet with this server's
address written in, versioned URLs kept a year, the wiki pages of each way to install it,
and the rules the script keeps on a wiki page (no eval, no HTML from data, ES5)."""
from __future__ import annotations

import gzip
import re

from django.test import SimpleTestCase, override_settings

from sideapp.gadget.assets import gadget_assets
from sideapp.gadget.install import common_js_line, definition_line, gadget_pages


class GadgetAssetTests(SimpleTestCase):
    def test_the_script_carries_this_servers_address_and_a_version_kept_a_year(self):
        plain = self.client.get("/gadget/side-editor.js")
        self.assertEqual(plain["Content-Type"], "text/javascript; charset=utf-8")
        script = plain.content.decode()
        self.assertIn("var BASE = 'http://testserver';", script)
        self.assertFalse("__SIDE_" in script)
        version = re.search(r"var VERSION = '([0-9a-f]{12})';", script).group(1)
        self.assertEqual(plain["Cache-Control"], "public, max-age=300")
        kept = self.client.get("/gadget/side-editor.js", {"v": version})
        self.assertEqual(kept["Cache-Control"], "public, max-age=31536000, immutable")
        self.assertEqual(kept["ETag"], f'"{version}"')
        style = self.client.get("/gadget/side-editor.css", {"v": version})
        self.assertEqual((style["Content-Type"], style["Cache-Control"]),
                         ("text/css; charset=utf-8", "public, max-age=31536000, immutable"))

    @override_settings(SIDE_PUBLIC_URL="https://side.example.org/")
    def test_the_public_address_from_the_settings_wins(self):
        self.assertIn("var BASE = 'https://side.example.org';", self.client.get("/gadget/side-editor.js").content.decode())

    def test_a_copy_for_the_wikis_own_pages_loads_no_stylesheet_from_elsewhere(self):
        served = gadget_assets("https://side.example.org", load_style=True).script
        copy = gadget_assets("https://side.example.org", load_style=False).script
        self.assertIn("var LOAD_STYLE = 'load' === 'load';", served)
        self.assertIn("var LOAD_STYLE = 'wiki' === 'load';", copy)

    def test_the_script_keeps_the_rules_of_a_wiki_page(self):
        script = gadget_assets("https://side.example.org").script
        for forbidden in ("eval(", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "new Function",
                          "=>", "`", "let ", "const "):
            self.assertFalse(forbidden in script, forbidden)
        self.assertEqual(script.count("fetch("), 1)  # one way out, to Side editor's own address
        self.assertLess(len(gzip.compress((script + gadget_assets("x").style).encode())), 30 * 1024)

    def test_each_way_to_install_is_the_exact_text_of_its_pages(self):
        base = "https://side.example.org"
        version = gadget_assets(base).version
        self.assertEqual(common_js_line(base), f"mw.loader.load('{base}/gadget/side-editor.js?v={version}');")
        self.assertEqual(definition_line(with_style=False),
                         "* side-editor[ResourceLoader|default|dependencies=mediawiki.api,mediawiki.util"
                         "|targets=desktop,mobile]|side-editor.js")
        site = gadget_pages(base, way="site")
        self.assertEqual(site["MediaWiki:Gadget-side-editor.js"], common_js_line(base))
        self.assertNotIn("MediaWiki:Gadget-side-editor.css", site)
        copy = gadget_pages(base, way="copy", default=False)
        self.assertIn("|side-editor.js|side-editor.css", copy["MediaWiki:Gadgets-definition"])
        self.assertNotIn("|default|", copy["MediaWiki:Gadgets-definition"])
        self.assertIn(".side-editor-marker", copy["MediaWiki:Gadget-side-editor.css"])

    def test_the_install_page_shows_the_lines_for_this_server(self):
        page = self.client.get("/gadget/")
        self.assertContains(page, "mw.loader.load(&#x27;http://testserver/gadget/side-editor.js?v=")
        self.assertContains(page, "MediaWiki:Gadgets-definition")
