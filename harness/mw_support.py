"""Small helpers of the MediaWiki harness: errors, the availability check, ports.

No Django imports (see mediawiki.py).
"""
from __future__ import annotations

import ctypes
import functools
import os
import re
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import requests

MEDIAWIKI_DIR = Path(os.environ.get("SIDE_MEDIAWIKI_DIR", "/usr/share/mediawiki"))
APT_PACKAGES = ("mediawiki", "php-cli", "php-sqlite3", "php-mbstring", "php-xml", "php-intl")
APT_COMMAND = "sudo apt-get install -y --no-install-recommends " + " ".join(APT_PACKAGES)
# `php -m` module name -> the Debian package providing it.
PHP_MODULES = {"pdo_sqlite": "php-sqlite3", "mbstring": "php-mbstring",
               "dom": "php-xml", "intl": "php-intl"}
# MW_CONFIG_FILE from the environment is honoured from 1.38 on (Debian 12 ships 1.39).
MIN_VERSION = (1, 38)
USER_AGENT = "SideEditorHarness/1.0 (local test wiki)"
LOOPBACK = "127.0.0.1"


class MediaWikiError(RuntimeError):
    """The harness could not install, start or talk to its wiki."""


class MediaWikiUnavailable(MediaWikiError):
    """MediaWiki or PHP is not installed on this machine."""


@functools.lru_cache(maxsize=None)
def check_mediawiki(php: str = "php") -> str:
    """Return the php executable, or raise MediaWikiUnavailable naming what to install."""
    php_path = shutil.which(php)
    missing = [] if php_path else ["php-cli"]
    if not (MEDIAWIKI_DIR / "maintenance" / "install.php").is_file():
        missing.append("mediawiki")
    if php_path:
        listing = subprocess.run([php_path, "-m"], capture_output=True, text=True,
                                 timeout=60).stdout
        modules = {line.strip().lower() for line in listing.splitlines()}
        missing += sorted({pkg for mod, pkg in PHP_MODULES.items() if mod not in modules})
    if missing:
        raise MediaWikiUnavailable(
            f"MediaWiki harness needs {', '.join(missing)} (looked for php on PATH and "
            f"{MEDIAWIKI_DIR}). Install with bin/install-mediawiki or: {APT_COMMAND}")
    version = mediawiki_version()
    if version and version < MIN_VERSION:  # unknown: let install.php decide
        raise MediaWikiUnavailable(
            f"MediaWiki {'.'.join(map(str, version))} in {MEDIAWIKI_DIR} is too old: the "
            f"harness needs {'.'.join(map(str, MIN_VERSION))} or later (Debian 12 or later)")
    return php_path


def mediawiki_version() -> tuple[int, ...]:
    """The installed MediaWiki's version, read from includes/Defines.php; () if unknown."""
    try:
        defines = (MEDIAWIKI_DIR / "includes" / "Defines.php").read_text(errors="replace")
    except OSError:
        return ()
    match = re.search(r"define\(\s*'MW_VERSION',\s*'(\d+)\.(\d+)", defines)
    return tuple(int(part) for part in match.groups()) if match else ()


def free_port() -> int:
    """A port that was free on the loopback interface a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def die_with_parent() -> None:
    """Runs in the child before exec: SIGTERM it when the parent dies (Linux only).

    Test runners can end workers with os._exit, which skips atexit; this keeps
    `php -S` from outliving them."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def tail(path: Path, lines: int = 40, start: int = 0) -> str:
    """The last lines of a log file, from byte `start` on (this run's part)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            text = handle.read().decode(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # As php does, so that connections of a previous run in TIME_WAIT don't count.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((LOOPBACK, port))
        except OSError:
            return False
        return True


def loopback_session() -> requests.Session:
    """A requests session for the local wiki that never goes through a proxy."""
    session = requests.Session()
    session.trust_env = False  # HTTP(S)_PROXY from the environment must not see loopback traffic
    session.headers["User-Agent"] = USER_AGENT
    return session
