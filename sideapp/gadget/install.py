"""The three ways a wiki installs the gadget, as the exact text of the pages involved.

- `common.js`: one line in a user's own User:NAME/common.js loads the script from Side editor.
- `site`: a site gadget whose page loads the script from Side editor (updates reach readers
  without touching the wiki).
- `copy`: the script and stylesheet copied into the wiki's own pages (for wikis that load
  nothing from elsewhere; the copy is updated by hand).
"""
from __future__ import annotations

from sideapp.gadget.assets import gadget_assets

GADGET = "side-editor"
DEPENDENCIES = "mediawiki.api,mediawiki.util"
DESCRIPTION = ("Side editor: marks claims whose cited source does not seem to support them, "
               "with the evidence, and lets you fix them as your own edit")


def script_url(base: str) -> str:
    return f"{base.rstrip('/')}/gadget/side-editor.js?v={gadget_assets(base).version}"


def common_js_line(base: str) -> str:
    return f"mw.loader.load('{script_url(base)}');"


def definition_line(*, with_style: bool, default: bool = True) -> str:
    """The MediaWiki:Gadgets-definition line (Gadgets 1.39 syntax); `default`: on for
    everyone, logged in or not; desktop and mobile (Minerva)."""
    options = "|".join(["ResourceLoader", *(["default"] if default else []),
                        f"dependencies={DEPENDENCIES}", "targets=desktop,mobile"])
    pages = f"{GADGET}.js" + (f"|{GADGET}.css" if with_style else "")
    return f"* {GADGET}[{options}]|{pages}"


def gadget_pages(base: str, *, way: str, default: bool = True) -> dict[str, str]:
    """{wiki page title: text} that install the gadget as a site gadget (`way="site"`, the
    page loads the script from Side editor) or as a copy on the wiki (`way="copy"`)."""
    if way == "site":
        code, pages = common_js_line(base), {}
    elif way == "copy":
        assets = gadget_assets(base, load_style=False)
        code, pages = assets.script, {f"MediaWiki:Gadget-{GADGET}.css": assets.style}
    else:
        raise ValueError(f"way must be 'site' or 'copy', not {way!r}")
    return {
        "MediaWiki:Gadgets-definition": definition_line(with_style=way == "copy", default=default) + "\n",
        f"MediaWiki:Gadget-{GADGET}": DESCRIPTION,
        f"MediaWiki:Gadget-{GADGET}.js": code,
        **pages,
    }
