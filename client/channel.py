"""gRPC channel for ``--server host:port[,host:port...]``.

One address: a plain channel. Several: one channel whose target lists every address under
the ``ipv4:``/``ipv6:`` resolver (gRPC's own static address list), with the
``round_robin`` load-balancing policy, so successive calls go to successive servers
(gRPC naming doc: ``ipv4:address[:port][,address[:port],...]``).
"""

from __future__ import annotations

import ipaddress
import socket

import grpc

MAX_MESSAGE_BYTES = 64 * 1024 * 1024


def split_servers(spec: str | list[str] | tuple[str, ...]) -> list[str]:
    """``"a:1,b:2"`` or ``["a:1", "b:2"]`` → ``["a:1", "b:2"]`` (stripped, non-empty)."""
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    out = [p.strip() for p in parts if p and p.strip()]
    if not out:
        raise ValueError("no server address given")
    return out


def _host_port(addr: str) -> tuple[str, str]:
    if addr.startswith("["):  # [::1]:5000
        host, _, port = addr[1:].partition("]:")
        return host, port
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"server address {addr!r} is not host:port")
    return host, port


def _resolve(host: str) -> str:
    """An IP address for ``host`` (prefer IPv4, which is what localhost servers bind)."""
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    v4 = [i[4][0] for i in infos if i[0] == socket.AF_INET]
    return (v4 or [i[4][0] for i in infos])[0]


def target_for(servers: list[str]) -> tuple[str, list[tuple[str, object]]]:
    """The channel target and options for one or several servers."""
    options: list[tuple[str, object]] = [
        ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ]
    if len(servers) == 1:
        return servers[0], options
    resolved = []
    for addr in servers:
        host, port = _host_port(addr)
        resolved.append((_resolve(host), port))
    v6 = [":" in ip for ip, _ in resolved]
    if any(v6) and not all(v6):
        raise ValueError("cannot mix IPv4 and IPv6 servers in one --server list")
    if all(v6):
        target = "ipv6:" + ",".join(f"[{ip}]:{port}" for ip, port in resolved)
    else:
        target = "ipv4:" + ",".join(f"{ip}:{port}" for ip, port in resolved)
    options.append(("grpc.lb_policy_name", "round_robin"))
    return target, options


def make_channel(servers: str | list[str]) -> grpc.Channel:
    target, options = target_for(split_servers(servers))
    return grpc.insecure_channel(target, options=options)
