"""The gadget's script and stylesheet as served: the files under static/gadget/ with Side
editor's address and the version written in. The version is a hash of the files, so a
versioned URL (`?v=`) never changes its content and may be kept for a year."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings

SOURCE = Path(settings.BASE_DIR) / "static" / "gadget"
SCRIPT, PARTS, STYLE = "side-editor.js", "side-editor-card.js", "side-editor.css"


@dataclass(frozen=True)
class Assets:
    version: str
    script: str
    style: str


def gadget_assets(base: str, *, load_style: bool = True) -> Assets:
    """The served files for Side editor at `base` (no trailing slash). `load_style=False`
    for a copy kept on the wiki's own pages, whose stylesheet is on the wiki too."""
    files = tuple((SOURCE / name).stat().st_mtime_ns for name in (SCRIPT, PARTS, STYLE))
    return _build(base.rstrip("/"), load_style, files)


@lru_cache(maxsize=16)
def _build(base: str, load_style: bool, _stamps: tuple) -> Assets:
    script = (SOURCE / SCRIPT).read_text(encoding="utf-8")
    parts = (SOURCE / PARTS).read_text(encoding="utf-8")
    style = (SOURCE / STYLE).read_text(encoding="utf-8")
    version = hashlib.sha256((script + parts + style).encode("utf-8")).hexdigest()[:12]
    script = script.replace("\t// __SIDE_PARTS__\n", parts)
    # Inside JavaScript string literals: json.dumps escapes, the slicing drops its quotes.
    for name, value in (("BASE", base), ("VERSION", version), ("STYLE", "load" if load_style else "wiki")):
        script = script.replace(f"__SIDE_{name}__", json.dumps(value)[1:-1].replace("'", "\\'"))
    return Assets(version=version, script=script, style=style)
