"""A real MediaWiki for tests and the demo: Debian's package, SQLite, `php -S`.

Plain Python (no Django) so scripts can use it too::

    with MediaWikiServer(Path("var/wiki")) as wiki:
        revids = wiki.load_pages({"Foo": "Some text."})
        site = wiki.site(wiki.admin_user, wiki.admin_password)

Each instance installs its own wiki into `workdir` (install.php with SQLite, its
own LocalSettings.php found through MW_CONFIG_FILE), leaving /etc/mediawiki and
/usr/share/mediawiki untouched. A workdir that is already installed is reused
as is, so a warm start costs only the start of `php -S`.

`php -S` is deliberately run with one worker: requests are handled one after
the other, so the deferred updates and jobs of an edit (links, categories) are
finished before the next API request is answered, and SQLite never sees two
writers.
"""
from __future__ import annotations

import atexit
import json
import multiprocessing.util
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import mwclient
import requests

from harness.mw_api import WikiApiMixin
from harness.mw_settings import SERVER_ENV, SITE_NAME, render_local_settings
from harness.mw_support import (
    APT_COMMAND,
    LOOPBACK,
    MEDIAWIKI_DIR,
    MediaWikiError,
    MediaWikiUnavailable,
    check_mediawiki,
    die_with_parent,
    free_port,
    loopback_session,
    port_is_free,
    tail,
)

__all__ = ["APT_COMMAND", "MediaWikiError", "MediaWikiServer", "MediaWikiUnavailable",
           "check_mediawiki", "shared_test_wiki"]

DB_NAME = "sidewiki"
DB_FILES = (f"{DB_NAME}.sqlite", f"{DB_NAME}_jobqueue.sqlite", f"{DB_NAME}_l10n_cache.sqlite",
            "wikicache.sqlite")
DEFAULT_ADMIN_USER = "Admin"
DEFAULT_ADMIN_PASSWORD = "side-harness-admin"


class MediaWikiServer(WikiApiMixin):
    """One MediaWiki instance in `workdir`, served by `php -S` on loopback."""

    def __init__(self, workdir: Path | str, port: int | None = None, *,
                 admin_user: str = DEFAULT_ADMIN_USER,
                 admin_password: str = DEFAULT_ADMIN_PASSWORD,
                 startup_timeout: float = 60.0, die_with_parent: bool = False):
        self.workdir = Path(workdir).resolve()
        self.requested_port = port
        self.port: int | None = port
        self.admin_user = admin_user
        self.admin_password = admin_password
        self.startup_timeout = startup_timeout
        self.die_with_parent = die_with_parent
        self._proc: subprocess.Popen | None = None
        self._owner_pid = os.getpid()
        self._log_handle = None
        self._log_start = 0
        self._admin_site: mwclient.Site | None = None

    # -- addresses -------------------------------------------------------
    @property
    def host(self) -> str:
        if self.port is None:
            raise MediaWikiError("the wiki has no port yet: call start() first")
        return f"{LOOPBACK}:{self.port}"

    @property
    def base_url(self) -> str:
        return f"http://{self.host}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api.php"

    @property
    def index_url(self) -> str:
        return f"{self.base_url}/index.php"

    @property
    def settings_path(self) -> Path:
        return self.workdir / "LocalSettings.php"

    @property
    def log_path(self) -> Path:
        return self.workdir / "logs" / "php-server.log"

    @property
    def is_installed(self) -> bool:
        # LocalSettings.php is written last, so it marks a complete install.
        return self.settings_path.is_file() and (self.workdir / f"{DB_NAME}.sqlite").is_file()

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # -- install ---------------------------------------------------------
    def install(self) -> bool:
        """Install the wiki into workdir unless done already; True when it installed."""
        check_mediawiki()
        if self.is_installed:
            self._sync_admin()
            self._refresh_settings()
            return False
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._clear_partial_install()
        passfile = self.workdir / ".admin-password"
        passfile.write_text(self.admin_password)
        try:
            self.run_maintenance(
                "install.php", "--dbtype", "sqlite", "--dbpath", str(self.workdir),
                "--dbname", DB_NAME, "--confpath", str(self.workdir), "--scriptpath", "",
                "--server", f"http://{LOOPBACK}", "--lang", "en", "--skins", "Vector",
                "--passfile", str(passfile), SITE_NAME, self.admin_user, timeout=600)
        finally:
            passfile.unlink(missing_ok=True)
        self.settings_path.rename(self.workdir / "InstallSettings.php")
        (self.workdir / "logs").mkdir(exist_ok=True)
        self._save_state()
        self._refresh_settings()
        return True

    def _refresh_settings(self) -> None:
        """A kept workdir whose LocalSettings.php is an older version's (e.g. without a newly
        loaded extension) gets this version's; lines added after ours are left alone, and
        install.php's own settings stay as they are."""
        text = render_local_settings()
        if not self.settings_path.is_file() or not self.settings_path.read_text().startswith(text):
            tmp = self.settings_path.with_suffix(".tmp")
            tmp.write_text(text)
            os.replace(tmp, self.settings_path)

    def _clear_partial_install(self) -> None:
        """Remove what an interrupted install left, so install.php starts clean."""
        # Only the files install.php writes: workdir may hold other things.
        for name in DB_FILES:
            (self.workdir / name).unlink(missing_ok=True)
        for name in ("InstallSettings.php", "harness.json", ".htaccess"):
            (self.workdir / name).unlink(missing_ok=True)
        shutil.rmtree(self.workdir / "locks", ignore_errors=True)

    def _state_path(self) -> Path:
        return self.workdir / "harness.json"

    def _save_state(self) -> None:
        state = {"admin_user": self.admin_user, "admin_password": self.admin_password}
        self._state_path().write_text(json.dumps(state, indent=2))

    def _sync_admin(self) -> None:
        """A reused workdir may have another admin: make the requested one work."""
        try:
            state = json.loads(self._state_path().read_text())
        except (OSError, ValueError):
            state = {}
        if state == {"admin_user": self.admin_user, "admin_password": self.admin_password}:
            return
        self.run_maintenance("createAndPromote.php", "--force", "--sysop", "--bureaucrat",
                             self.admin_user, self.admin_password)
        self._save_state()

    def _php_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["MW_CONFIG_FILE"] = str(self.settings_path)
        env[SERVER_ENV] = self.base_url if self.port else f"http://{LOOPBACK}"
        # One worker only (see the module docstring), whatever the caller's environment.
        env.pop("PHP_CLI_SERVER_WORKERS", None)
        return env

    def run_maintenance(self, script: str, *args: str, timeout: float = 120) -> str:
        """Run a maintenance/ script against this wiki; returns its output."""
        cmd = [check_mediawiki(), str(MEDIAWIKI_DIR / "maintenance" / script), *args]
        try:
            done = subprocess.run(cmd, cwd=MEDIAWIKI_DIR, env=self._php_env(),
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise MediaWikiError(f"{script} timed out after {timeout}s") from exc
        output = (done.stdout or "") + (done.stderr or "")
        if done.returncode != 0:
            tail = "\n".join(output.splitlines()[-30:])
            raise MediaWikiError(f"{script} failed (exit {done.returncode}):\n{tail}")
        return output

    # -- process ---------------------------------------------------------
    def start(self) -> str:
        """Install if needed, serve on loopback, wait for the API; returns api_url."""
        if self.running:
            return self.api_url
        php = check_mediawiki()
        self.install()
        if self.requested_port and not port_is_free(self.requested_port):
            raise MediaWikiError(f"port {self.requested_port} on {LOOPBACK} is already in use")
        attempts = 1 if self.requested_port else 3
        for attempt in range(attempts):
            self.port = self.requested_port or free_port()
            self._spawn(php)
            try:
                self._wait_ready()
                break
            except MediaWikiError as exc:
                self.stop()
                # Another process may grab a free port between probe and bind.
                if "Address already in use" not in str(exc) or attempt == attempts - 1:
                    raise
        atexit.register(self.stop)
        return self.api_url

    def _spawn(self, php: str) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log_handle = open(self.log_path, "ab")
        self._log_start = self._log_handle.tell()
        self._owner_pid = os.getpid()
        self._proc = subprocess.Popen(
            [php, "-S", self.host, "-t", str(MEDIAWIKI_DIR)],
            cwd=MEDIAWIKI_DIR, env=self._php_env(), stdin=subprocess.DEVNULL,
            stdout=self._log_handle, stderr=subprocess.STDOUT,
            start_new_session=True,  # own process group, killed as a whole on stop
            preexec_fn=die_with_parent if self.die_with_parent else None)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        last_error, server_errors = "no answer yet", 0
        with loopback_session() as session:
            while time.monotonic() < deadline:
                if self._proc.poll() is not None:
                    raise MediaWikiError(self._failure(
                        f"php -S exited with code {self._proc.returncode}"))
                timeout = min(5.0, max(0.5, deadline - time.monotonic()))
                ready, last_error, status = self._probe(session, timeout)
                if ready and self._proc.poll() is None:
                    return
                server_errors = server_errors + 1 if status >= 500 else 0
                # A broken configuration answers 500 every time: don't wait a minute for it.
                if server_errors >= 5:
                    raise MediaWikiError(self._failure(f"the API keeps failing ({last_error})"))
                time.sleep(0.1)
        raise MediaWikiError(self._failure(
            f"the API did not become ready within {self.startup_timeout}s ({last_error})"))

    def _probe(self, session: requests.Session, timeout: float) -> tuple[bool, str, int]:
        """One siteinfo request: (ready, what went wrong, HTTP status or 0)."""
        url = f"{self.api_url}?action=query&meta=siteinfo&format=json"
        try:
            reply = session.get(url, timeout=timeout)
        except requests.RequestException as exc:
            return False, str(exc), 0
        try:
            general = reply.json().get("query", {}).get("general", {})
        except ValueError:
            general = {}
        if reply.ok and general.get("sitename") == SITE_NAME:
            return True, "", reply.status_code
        return False, f"HTTP {reply.status_code}: {reply.text[:300]}", reply.status_code

    def _failure(self, what: str) -> str:
        logs = [f"--- {self.log_path} ---\n{tail(self.log_path, start=self._log_start)}"]
        for name in ("exception.log", "error.log", "fatal.log"):
            path = self.workdir / "logs" / name
            if path.is_file():
                logs.append(f"--- {path} ---\n{tail(path)}")
        return f"MediaWiki at {self.api_url}: {what}\n" + "\n".join(logs)

    def stop(self) -> None:
        """Kill the server's process group; safe to call twice or from atexit."""
        proc, self._proc = self._proc, None
        self._admin_site = None
        atexit.unregister(self.stop)
        # A forked child inherits this object but does not own the server.
        if proc is not None and os.getpid() == self._owner_pid and proc.poll() is None:
            self._signal_group(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._signal_group(proc, signal.SIGKILL)
                proc.wait(timeout=5)
        if self._log_handle is not None:
            self._log_handle.close()
            self._log_handle = None

    @staticmethod
    def _signal_group(proc: subprocess.Popen, sig: int) -> None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass

    def __enter__(self) -> "MediaWikiServer":
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()


TEST_WIKI_PREFIX = "side-test-wiki-"
OWNER_FILE = "owner.pid"
_shared: MediaWikiServer | None = None
_shared_lock = threading.Lock()


def shared_test_wiki() -> MediaWikiServer:
    """The test run's one wiki: started on first use, stopped (and removed) at exit.

    SIDE_TEST_WIKI_DIR names a workdir to keep between runs (a warm start);
    otherwise a fresh temp dir is used. Tests share it, so they use their own titles.
    Each process of a parallel test run gets its own.
    """
    global _shared
    with _shared_lock:
        if _shared is not None and (_shared.running or _shared._owner_pid != os.getpid()):
            return _shared
        keep = os.environ.get("SIDE_TEST_WIKI_DIR")
        if keep:
            workdir = Path(keep)
        else:
            _sweep_stale_test_wikis()
            workdir = Path(tempfile.mkdtemp(prefix=TEST_WIKI_PREFIX))
            (workdir / OWNER_FILE).write_text(str(os.getpid()))
        server = MediaWikiServer(workdir, die_with_parent=True)
        server.start()
        cleanup = (server, None if keep else workdir, os.getpid())
        atexit.register(_stop_shared, *cleanup)
        # Workers of a parallel test run leave through multiprocessing, not atexit.
        multiprocessing.util.Finalize(None, _stop_shared, args=cleanup, exitpriority=10)
        _shared = server
        return server


def _stop_shared(server: MediaWikiServer, remove: Path | None, owner_pid: int) -> None:
    if os.getpid() != owner_pid:
        return
    server.stop()
    if remove is not None:
        shutil.rmtree(remove, ignore_errors=True)


def _sweep_stale_test_wikis() -> None:
    """Remove temp wikis whose owning process is gone (a killed or os._exit-ed test run)."""
    for workdir in Path(tempfile.gettempdir()).glob(TEST_WIKI_PREFIX + "*"):
        try:
            owner = int((workdir / OWNER_FILE).read_text())
            os.kill(owner, 0)
        except ProcessLookupError:
            shutil.rmtree(workdir, ignore_errors=True)
        except (OSError, ValueError):
            continue  # not ours to judge: unreadable, foreign or half-created
