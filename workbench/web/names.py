"""Host names and origins as ``workbench serve`` compares them: one written form for each, parsed from the
headers a request carries (``Host``, ``Origin``) and the options that name them.

Pure functions of strings; imports only the standard library.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::"})
_SHORT_IPV4 = re.compile(r"(?:0x[0-9a-f]+|[0-9]+)(?:\.(?:0x[0-9a-f]+|[0-9]+)){0,3}")
"""An IPv4 address as the system also reads one: fewer parts, hexadecimal or octal ones (``127.1``)."""
_NAME = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")


def canonical_name(name: str) -> str:
    """A host name as compared: lower case, without one final dot; an address in its one written form (an IPv4
    address mapped into IPv6 as the IPv4 address)."""
    name = name.lower()
    if name.endswith(".") and not name.endswith(".."):
        name = name[:-1]
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return name
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.compressed


def is_loopback(name: str) -> bool:
    """Whether the host ``name`` is this machine's loopback: ``localhost``, or an address of 127.0.0.0/8 or ``::1``
    in any form the system reads (``127.1`` is 127.0.0.1 to it)."""
    name = canonical_name(name)
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    if not _SHORT_IPV4.fullmatch(name):  # (inet_aton takes what follows a space too)
        return False
    try:
        return ipaddress.IPv4Address(socket.inet_aton(name)).is_loopback
    except OSError:  # (no address: a name, which only "localhost" of the loopback's is)
        return False


def split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name (canonical) and port: ``[::1]:8000`` → ``("::1", 8000)``, ``localhost`` →
    ``("localhost", None)``; None when it names no host (an IPv6 address without brackets, a bad port, a name of
    other characters than a host name's)."""
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
        port_text = rest[1:] if rest else None
    else:
        name, colon, port_text = value.partition(":")
        if not colon:
            port_text = None
        elif ":" in port_text:  # an IPv6 address without its brackets
            return None
        if not _NAME.fullmatch(canonical_name(name)):
            return None
    if port_text is None:
        return canonical_name(name), None
    if not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5 and int(port_text) <= 65535):
        return None
    return canonical_name(name), int(port_text)


def default_port(scheme: str) -> int:
    """The port an address of ``scheme`` means when it names none (the server speaks plain http)."""
    return 443 if scheme == "https" else 80


def split_origin(origin: str) -> tuple[str, str, int] | None:
    """An ``Origin``'s scheme, host name (canonical) and port (the scheme's own when unsaid); None when it is no
    origin (``null``, a path, a user, a bad port)."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query or parts.fragment:
        return None
    if parts.username is not None or parts.password is not None:
        return None
    return parts.scheme, canonical_name(parts.hostname), port if port is not None else default_port(parts.scheme)


def format_origin(scheme: str, name: str, port: int) -> str:
    """An origin in the one form compared: ``http://[::1]:8000`` (the port always said)."""
    host = f"[{name}]" if ":" in name else name
    return f"{scheme}://{host}:{port}"


def machine_names(host: str) -> frozenset[str]:
    """The names ``--host`` stands for, besides the address each connection reaches: the name as given, and for
    an address of every network (``0.0.0.0``, ``::``) the machine's name. (No lookup is made: a machine with no
    resolver would wait on it.)"""
    names = {canonical_name(host)}
    if canonical_name(host) in WILDCARDS:
        names.add(canonical_name(socket.gethostname()))
    return frozenset(names)
