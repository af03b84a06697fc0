"""Whether an address stays on this machine: the one `is_loopback`, for the three rules that ask
it (the gRPC server's and the web port's bind rule, `server.guard.security` and `web.serve`: a
non-loopback address needs TLS and a token; the client's, `client.credentials`: no bearer token
sent unencrypted to another machine). Here, below every layer, so that each may import it."""

from __future__ import annotations

import ipaddress

LOCAL_SCHEMES = ("unix:", "unix-abstract:")  # gRPC targets of a Unix socket: nothing leaves the machine


def is_loopback(host: str) -> bool:
    """`localhost` (any case), 127.0.0.0/8 or ::1 (bare or in brackets, IPv4-mapped too), or a
    gRPC Unix-socket target (`unix:PATH`, `unix-abstract:NAME`). Anything else is not: the
    wildcard addresses 0.0.0.0 and `::`, a host name other than localhost, an empty string."""
    if host.startswith(LOCAL_SCHEMES):
        return True
    name = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if name.lower() == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback
