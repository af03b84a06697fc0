"""Whether an address stays on this machine: the one `is_loopback`, below every layer so that the
bind rules (`server.guard.security`, `web.serve`) and the client (`client.credentials`) share it."""

from __future__ import annotations

import ipaddress

LOCAL_SCHEMES = ("unix:", "unix-abstract:")  # gRPC targets of a Unix socket: nothing leaves the machine


def is_loopback(host: str) -> bool:
    """`localhost`, 127.0.0.0/8 or ::1 (in brackets or IPv4-mapped too), or a gRPC Unix-socket
    target; not the wildcard addresses 0.0.0.0 and `::`."""
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
