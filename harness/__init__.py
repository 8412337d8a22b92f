"""Real services for tests and the demo, run locally: a MediaWiki (mediawiki.py),
the demo articles loader (demo.py) and the fixture sources web server (webserver.py).

Nothing here imports Django, so plain scripts can use it.
"""
from harness.mediawiki import (
    MediaWikiError,
    MediaWikiServer,
    MediaWikiUnavailable,
    shared_test_wiki,
)

__all__ = ["MediaWikiError", "MediaWikiServer", "MediaWikiUnavailable", "shared_test_wiki"]
