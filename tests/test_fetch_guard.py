"""The SSRF guard: nothing but public addresses unless allow-listed, on every hop.

"Refused without connecting" is checked on real servers: each test server counts its
requests, so a refused URL that points at one must leave its count at zero.
"""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from harness.webserver import SourceServer
from tests.test_fetch_source import FIXTURES, loopback_policy, quiet
from verifier_core.fetch import Allowlist, FetchResult, FetchStatus, fetch_source, refusal
from verifier_core.fetch.transport import open_pinned, parse_target


class AddressRulesTests(unittest.TestCase):
    def test_it_refuses_every_non_public_kind_of_address(self):
        cases = {
            "127.0.0.1": "loopback",
            "10.1.2.3": "private",
            "172.16.0.1": "private",
            "192.168.1.1": "private",
            "169.254.169.254": "link-local",
            "0.0.0.0": "unspecified",
            "224.0.0.1": "multicast",
            "100.64.0.1": "not globally routable",
            "240.0.0.1": "reserved",
            "::1": "loopback",
            "::": "unspecified",
            "fe80::1": "link-local",
            "fc00::1": "private",
            "ff02::1": "multicast",
        }
        for text, kind in cases.items():
            self.assertEqual(refusal(ipaddress.ip_address(text)), kind, text)

    def test_it_sees_through_ipv6_forms_of_ipv4_addresses(self):
        for text in ("::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::"):
            self.assertIn("embeds IPv4", refusal(ipaddress.ip_address(text)), text)

    def test_it_lets_public_addresses_through(self):
        for text in ("8.8.8.8", "151.101.1.69", "2606:4700:4700::1111"):
            self.assertIsNone(refusal(ipaddress.ip_address(text)), text)

    def test_the_allowlist_takes_hosts_addresses_and_networks(self):
        allow = Allowlist.parse(["Fixtures.Local", "127.0.0.1", "10.0.0.0/8", "[::1]", " "])
        self.assertTrue(allow.allows_host("fixtures.local"))
        self.assertTrue(allow.allows_address(ipaddress.ip_address("10.9.8.7")))
        self.assertTrue(allow.allows_address(ipaddress.ip_address("::1")))
        self.assertFalse(allow.allows_address(ipaddress.ip_address("127.0.0.2")))
        self.assertFalse(allow.allows_address(ipaddress.ip_address("::ffff:127.0.0.1")))


class GuardOnRealServersTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        # The allow-listed server, a loopback neighbour and an IPv6 loopback server:
        # the last two play internal services a citation must never reach.
        cls.server = SourceServer(FIXTURES)
        cls.neighbour = SourceServer(FIXTURES, host="127.0.0.2")
        cls.ipv6 = SourceServer(FIXTURES, host="::1")
        for server in (cls.server, cls.neighbour, cls.ipv6):
            server.start()
            cls.addClassCleanup(server.stop)

    def setUp(self) -> None:
        for server in (self.server, self.neighbour, self.ipv6):
            server.reset_counts()

    def assertBlockedUntouched(self, url: str, policy) -> FetchResult:
        started = time.monotonic()
        result = fetch_source(url, policy=policy)
        self.assertEqual(result.status, FetchStatus.BLOCKED, f"{url}: {result.reason}")
        self.assertTrue(result.reason)
        # A connection attempt to 10.x or 169.254.x would hang until the connect timeout.
        self.assertLess(time.monotonic() - started, 1.0, url)
        for server in (self.neighbour, self.ipv6):
            self.assertEqual(server.requests(), [], url)
        return result

    def test_it_refuses_internal_addresses_when_nothing_is_allow_listed(self):
        port = self.server.port
        policy = loopback_policy(allowlist=[])
        for url in (
            f"http://127.0.0.1:{port}/pages/article.html",
            "http://10.0.0.1/",
            "http://172.16.0.1/",
            "http://192.168.0.1/",
            "http://169.254.169.254/latest/meta-data/",
            f"http://[::1]:{self.ipv6.port}/pages/article.html",
            f"http://0.0.0.0:{port}/pages/article.html",
            f"http://[::ffff:127.0.0.1]:{port}/pages/article.html",
            f"http://localhost:{port}/pages/article.html",
            f"http://2130706433:{port}/pages/article.html",  # 127.0.0.1 as one decimal number
        ):
            self.assertBlockedUntouched(url, policy)
        self.assertEqual(self.server.requests(), [])

    def test_an_allow_listed_server_is_fetched(self):
        for allow, host in (
            (["127.0.0.1"], "127.0.0.1"),
            (["127.0.0.0/8"], "127.0.0.1"),
            (["localhost"], "localhost"),
        ):
            url = f"http://{host}:{self.server.port}/pages/article.html"
            result = fetch_source(url, policy=loopback_policy(allowlist=allow))
            self.assertEqual(result.status, FetchStatus.OK, f"{allow}: {result.reason}")

    def test_the_allowlist_of_one_address_does_not_open_its_neighbours(self):
        url = f"http://127.0.0.2:{self.neighbour.port}/pages/article.html"
        self.assertBlockedUntouched(url, loopback_policy(allowlist=["127.0.0.1"]))

    def test_a_redirect_from_an_allowed_server_to_an_internal_address_is_refused(self):
        policy = loopback_policy(allowlist=["127.0.0.1"])
        for target in (
            f"http://127.0.0.2:{self.neighbour.port}/pages/article.html",
            f"http://[::1]:{self.ipv6.port}/pages/article.html",
            "http://10.0.0.1/admin",
            "http://169.254.169.254/latest/meta-data/",
            f"http://[::ffff:127.0.0.2]:{self.neighbour.port}/",
            "file:///etc/passwd",
        ):
            result = self.assertBlockedUntouched(
                self.server.url("/redirect-to?url=" + target), policy
            )
            self.assertEqual(result.final_url, target)  # the refused hop is named
        self.assertEqual(self.server.hits("/redirect-to"), 6)  # the allowed first hop did run


class PinnedConnectionTests(unittest.TestCase):
    """The request goes to the vetted address, while Host and TLS name stay the URL's."""

    def test_it_connects_to_the_vetted_address_and_sends_the_url_host(self):
        with SourceServer(FIXTURES) as server:
            target = parse_target(f"http://pinned.invalid:{server.port}/pages/notes.txt")
            addresses = [ipaddress.ip_address("127.0.0.1")]  # no DNS lookup would find this name
            with open_pinned(
                target, addresses, loopback_policy(), time.monotonic() + 5
            ) as response:
                self.assertEqual(response.status, 200)
            self.assertEqual(server.requests()[0].host, f"pinned.invalid:{server.port}")

    @unittest.skipUnless(
        shutil.which("openssl"), "needs the openssl command to make a test certificate"
    )
    def test_tls_uses_the_host_name_for_sni_and_certificate_checks(self):
        with tempfile.TemporaryDirectory() as tmp:
            cert, key = _self_signed(Path(tmp), "pinned.invalid")
            with SourceServer(FIXTURES, tls=(cert, key)) as server:
                url = f"https://pinned.invalid:{server.port}/pages/notes.txt"
                target = parse_target(url)
                policy = loopback_policy(ca_bundle=str(cert))
                with open_pinned(
                    target, [ipaddress.ip_address("127.0.0.1")], policy, time.monotonic() + 5
                ) as resp:
                    self.assertEqual(resp.status, 200)
                self.assertEqual(server.sni_names, ["pinned.invalid"])
                # The same certificate does not vouch for the bare address.
                with quiet("urllib3.connection"):
                    result = fetch_source(server.url("/pages/notes.txt"), policy=policy)
                self.assertEqual(result.status, FetchStatus.CONNECTION_ERROR)
                self.assertIn("TLS", result.reason)


def _self_signed(folder: Path, name: str) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            f"/CN={name}",
            "-addext",
            f"subjectAltName=DNS:{name}",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key
