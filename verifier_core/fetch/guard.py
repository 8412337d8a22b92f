"""SSRF guard: decide which addresses a cited URL may be fetched from.

A citation is untrusted input: a wiki editor can cite http://169.254.169.254/ or a
name that resolves to the worker's own network. The guard resolves the host, refuses
every address that is not public unless the allow-list names the host or the
address's network, and hands back the vetted addresses so the caller connects to
exactly those (a second DNS lookup at connect time could answer differently).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Iterable, Union

from verifier_core.fetch.types import FetchFailure, FetchStatus

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]
IPNetwork = Union[ipaddress.IPv4Network, ipaddress.IPv6Network]

ALLOWED_SCHEMES = ("http", "https")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


@dataclass(frozen=True)
class Allowlist:
    hosts: frozenset[str]
    networks: tuple[IPNetwork, ...]

    @classmethod
    def parse(cls, entries: Iterable[str]) -> "Allowlist":
        """Entries that parse as an address or CIDR are networks; the rest host names."""
        hosts, networks = set(), []
        for raw in entries:
            entry = raw.strip().lower().strip("[]")
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                hosts.add(entry.rstrip("."))
        return cls(frozenset(hosts), tuple(networks))

    def allows_host(self, host: str) -> bool:
        return host.lower().rstrip(".") in self.hosts

    def allows_address(self, addr: IPAddress) -> bool:
        # Comparing across IP versions is simply False, so ::ffff:127.0.0.1 is not
        # let through by an entry for 127.0.0.1: the conservative reading.
        return any(addr in net for net in self.networks)


def _embedded_ipv4(addr: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address routes to (mapped, NAT64, 6to4), if any."""
    if not isinstance(addr, ipaddress.IPv6Address):
        return None
    if addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    if addr in _NAT64:
        return ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
    return addr.sixtofour


def refusal(addr: IPAddress) -> str | None:
    """Why `addr` must not be fetched from, or None when it is a public address."""
    inner = _embedded_ipv4(addr)
    if inner is not None:
        why = refusal(inner)
        return f"embeds IPv4 {inner}: {why}" if why else None
    # Most specific names first: 127.0.0.1 is also "private" in the ipaddress tables.
    checks = (
        ("unspecified", addr.is_unspecified),
        ("loopback", addr.is_loopback),
        ("link-local", addr.is_link_local),
        ("multicast", addr.is_multicast),
        ("reserved", addr.is_reserved),
        ("private", addr.is_private),
        ("not globally routable", not addr.is_global),
    )
    return next((name for name, hit in checks if hit), None)


def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address the host resolves to, in resolver order, without duplicates."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchFailure(FetchStatus.DNS_ERROR, f"cannot resolve host {host!r}: {exc}")
    seen: dict[IPAddress, None] = {}
    for _family, _type, _proto, _canon, sockaddr in infos:
        # Drop an IPv6 scope ("%eth0"): a scoped address is link-local anyway.
        seen.setdefault(ipaddress.ip_address(sockaddr[0].split("%", 1)[0]), None)
    if not seen:
        raise FetchFailure(FetchStatus.DNS_ERROR, f"host {host!r} has no addresses")
    return list(seen)


def vet(scheme: str, host: str, port: int, allowlist: Allowlist) -> list[IPAddress]:
    """Addresses the request may connect to; raises FetchFailure(BLOCKED or DNS_ERROR).

    All resolved addresses must pass, not just one: otherwise a name with one public
    and one private record could still reach the private one.
    """
    if scheme not in ALLOWED_SCHEMES:
        raise FetchFailure(
            FetchStatus.BLOCKED, f"scheme {scheme!r} is not fetched (only http, https)"
        )
    if not host:
        raise FetchFailure(FetchStatus.BLOCKED, "URL has no host")
    addresses = resolve(host, port)
    if allowlist.allows_host(host):
        return addresses
    for addr in addresses:
        why = None if allowlist.allows_address(addr) else refusal(addr)
        if why:
            raise FetchFailure(
                FetchStatus.BLOCKED,
                f"host {host!r} resolves to {addr}: {why}, and neither is on the allow-list",
            )
    return addresses
