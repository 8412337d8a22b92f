"""Side editor behind a real reverse proxy: nginx (Debian's package, run by the test) in front
of gunicorn, as in production. Every request reaches gunicorn from nginx's address; the scan
rate limit still counts each client apart (SIDE_TRUSTED_PROXIES: the address nginx appends to
X-Forwarded-For), a client cannot pass itself off as another by writing that header, and a
body of 20 MB is a 413 in words, with no trace in the server's log."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
import uuid

import requests
from django.test import TransactionTestCase
from requests.adapters import HTTPAdapter

from harness.mediawiki import shared_test_wiki
from harness.mw_support import free_port
from harness.nginx import Nginx, nginx_binary
from sideapp.scans.wikis import wiki_for
from tests.worker_support import ROOT, worker_env


class FromAddress(HTTPAdapter):
    """Connections from one loopback address (each client of the test is a machine apart)."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def client(address: str) -> requests.Session:
    session = requests.Session()
    session.trust_env = False
    session.mount("http://", FromAddress(address))
    return session


class BehindNginxTests(TransactionTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if nginx_binary() is None:
            raise AssertionError("nginx is not installed: run bin/bootstrap")
        cls.server = shared_test_wiki()
        cls.log = tempfile.TemporaryFile()
        port = free_port()
        env = worker_env(SIDE_TRUSTED_PROXIES="127.0.0.1", SIDE_API_SCAN_LIMIT="3", SIDE_API_SCAN_WINDOW="120",
                         SIDE_WIKI_API_URL=cls.server.api_url, SIDE_API_MAX_BODY=str(1024 * 1024))
        cls.gunicorn = subprocess.Popen([sys.executable, "-m", "gunicorn", "sideapp.wsgi", "-b", f"127.0.0.1:{port}",
                                         "-w", "2", "--log-level", "info"], env=env, cwd=ROOT,
                                        stdout=cls.log, stderr=subprocess.STDOUT)
        cls.nginx = Nginx(upstream=f"127.0.0.1:{port}")
        try:
            cls.nginx.start()
            cls._ready()
        except BaseException:
            cls._stop()
            raise

    @classmethod
    def _ready(cls, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if requests.get(cls.nginx.base_url + "/api/v1/scans/1", timeout=30).status_code not in (502, 504):
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        cls.log.seek(0)
        raise AssertionError(f"gunicorn did not answer behind nginx: {cls.log.read().decode(errors='replace')[-3000:]}")

    @classmethod
    def _stop(cls) -> None:
        cls.nginx.stop()
        cls.gunicorn.terminate()
        cls.gunicorn.wait(timeout=20)

    @classmethod
    def tearDownClass(cls):
        cls._stop()
        cls.log.close()
        super().tearDownClass()

    def setUp(self):
        self.wiki = wiki_for(api_url=self.server.api_url)
        self.title = f"Side proxy test {uuid.uuid4().hex[:8]}"
        self.server.edit(self.title, "The bridge opened in 1931.<ref>{{cite web |url=http://127.0.0.1:9/x |title=X}}</ref>")

    def ask(self, session: requests.Session, **headers) -> requests.Response:
        return session.post(self.nginx.base_url + "/api/v1/scan", json={"wiki_id": self.wiki.wikiid, "title": self.title},
                            headers=headers, timeout=30)

    def test_each_client_behind_the_proxy_has_its_own_limit(self):
        alice, bob = client("127.0.0.2"), client("127.0.0.3")
        answers = [self.ask(alice).status_code for _ in range(4)]
        self.assertEqual(answers, [202, 202, 202, 429])
        self.assertEqual(self.ask(bob).status_code, 202)
        spoofed = self.ask(alice, **{"X-Forwarded-For": "198.51.100.7"})
        self.assertEqual((spoofed.status_code, spoofed.json()["code"]), (429, "rate_limited"))

    def test_a_20_mb_body_is_a_413_sentence_without_a_trace_in_the_log(self):
        body = json.dumps({"wiki_id": self.wiki.wikiid, "title": "x" * (20 * 1024 * 1024)})
        answer = client("127.0.0.4").post(self.nginx.base_url + "/v1/models/editing-suggestions:predict", data=body,
                                          headers={"Content-Type": "application/json"}, timeout=60)
        self.assertEqual((answer.status_code, answer.json()["code"]), (413, "too_large"))
        self.log.seek(0)
        logged = self.log.read().decode(errors="replace")
        self.assertNotIn("Traceback", logged)
        self.assertNotIn("RequestDataTooBig", logged)
