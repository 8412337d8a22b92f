"""How long a save may wait for its page's lock and hold it, derived from the web worker's
timeout (gunicorn's `timeout`, SIDE_WEB_TIMEOUT). Plain Python: gunicorn.conf.py and the
settings both read it.

gunicorn kills a worker whose request runs past `timeout`. A save waiting for the lock and
then holding it must end before that, or the editor reads a 502 while the page stays locked
for the lock's whole lifetime. So: wait at most a sixth of the timeout (10 s at most), hold
the lock at most what is left less a margin, and refuse to send the edit when less than one
wiki call's timeout of the lock is left (the edit would outlive its lock).
"""
from __future__ import annotations

from dataclasses import dataclass

WEB_TIMEOUT = 60  # seconds: gunicorn's `timeout` unless SIDE_WEB_TIMEOUT says otherwise


@dataclass(frozen=True)
class LockTiming:
    wait: float  # seconds a save waits for another save of the page to end
    lifetime: float  # seconds a save may hold the lock (it expires by itself after)
    wiki_timeout: float  # one wiki call's timeout: the edit is sent only with this much left


def lock_timing(web_timeout: float, wiki_timeout: float, *, strict: bool = True) -> LockTiming:
    """The lock's numbers for a web worker killed after `web_timeout` seconds; ValueError in
    words, when `strict`, where a save could not fit (the wiki's timeout too long for the
    worker's: gunicorn.conf.py stops the start; elsewhere the lock is still sized to the
    worker, and a save left too little of it is refused before anything is sent)."""
    wait = min(10.0, web_timeout / 6)
    margin = min(5.0, web_timeout / 6)
    lifetime = web_timeout - wait - margin
    if strict and lifetime < 2 * wiki_timeout:
        raise ValueError(
            f"a save could outlive its web worker: SIDE_WEB_TIMEOUT={web_timeout:g} s leaves {lifetime:g} s to hold a "
            f"page's lock, less than two wiki calls of SIDE_WIKI_TIMEOUT={wiki_timeout:g} s. Raise SIDE_WEB_TIMEOUT "
            f"to at least {3 * wiki_timeout:g} or lower SIDE_WIKI_TIMEOUT.")
    return LockTiming(wait=wait, lifetime=lifetime, wiki_timeout=wiki_timeout)
