"""gRPC channel for ``--server host:port[,host:port...]``: several addresses (or a ``dns:`` name)
share one ``round_robin`` channel; a call that fails UNAVAILABLE before any answer is retried on
the next server (every RPC is a pure computation, so a retry is safe)."""

from __future__ import annotations

import ipaddress
import json
import socket
from typing import Any, Callable

import grpc

from ambit.client.credentials import ClientSecurity, check_plaintext_token

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
RETRY_ATTEMPTS = 5
SERVICE_CONFIG = json.dumps({"methodConfig": [{
    "name": [{"service": "ambit.v1.AmbitService"}],
    "retryPolicy": {"maxAttempts": RETRY_ATTEMPTS, "initialBackoff": "0.2s", "maxBackoff": "2s",
                    "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]},
}]})


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


def _host_of(addr: str) -> str:
    """The host part of ``host:port``, ``[v6]:port``, or a target with a scheme (as given)."""
    if ":/" in addr or addr.startswith("unix:"):
        return addr.split("///", 1)[-1].rsplit(":", 1)[0] if addr.startswith("dns:") else addr
    try:
        return _host_port(addr)[0]
    except ValueError:
        return addr


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
        ("grpc.enable_retries", 1),
        ("grpc.service_config", SERVICE_CONFIG),
    ]
    if len(servers) == 1:
        if servers[0].startswith("dns:"):  # one name, many addresses (a headless Service)
            options.append(("grpc.lb_policy_name", "round_robin"))
        return servers[0], options
    resolved = [(_resolve(host), port) for host, port in map(_host_port, servers)]
    v6 = [":" in ip for ip, _ in resolved]
    if any(v6) and not all(v6):
        raise ValueError("cannot mix IPv4 and IPv6 servers in one --server list")
    scheme, shape = ("ipv6:", "[{}]:{}") if all(v6) else ("ipv4:", "{}:{}")  # gRPC's static lists
    target = scheme + ",".join(shape.format(ip, port) for ip, port in resolved)
    options.append(("grpc.lb_policy_name", "round_robin"))
    return target, options


def make_channel(servers: str | list[str], security: ClientSecurity = ClientSecurity()) -> grpc.Channel:
    """A channel to ``servers``: TLS when ``security`` has a CA or client certificate."""
    servers = split_servers(servers)
    check_plaintext_token([_host_of(s) for s in servers], security)
    target, options = target_for(servers)
    if security.tls:
        ca, key, cert = security.pem()
        if len(servers) > 1:
            options.append(("grpc.ssl_target_name_override", _host_port(servers[0])[0]))
        creds = grpc.ssl_channel_credentials(root_certificates=ca, private_key=key, certificate_chain=cert)
        channel = grpc.secure_channel(target, creds, options=options)
    else:
        channel = grpc.insecure_channel(target, options=options)
    if security.token:
        channel = grpc.intercept_channel(channel, BearerToken(security.token))
    return channel


class _Details(grpc.ClientCallDetails):
    def __init__(self, details: grpc.ClientCallDetails, metadata: list[tuple[str, str]]) -> None:
        self.method, self.timeout, self.credentials = details.method, details.timeout, details.credentials
        self.wait_for_ready, self.compression = details.wait_for_ready, details.compression
        self.metadata = metadata


class BearerToken(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Adds ``authorization: Bearer <token>`` to every unary and server-streaming call."""

    def __init__(self, token: str) -> None:
        self._header = ("authorization", f"Bearer {token}")

    def __repr__(self) -> str:
        return "BearerToken(***)"

    def _with_token(self, details: grpc.ClientCallDetails) -> grpc.ClientCallDetails:
        return _Details(details, [*(details.metadata or ()), self._header])

    def intercept_unary_unary(self, continuation: Callable, details: grpc.ClientCallDetails, request: Any) -> Any:
        return continuation(self._with_token(details), request)

    def intercept_unary_stream(self, continuation: Callable, details: grpc.ClientCallDetails, request: Any) -> Any:
        return continuation(self._with_token(details), request)


# grpc.health.v1 by hand, so the light install needs no grpcio-health-checking:
# HealthCheckRequest {string service = 1}, HealthCheckResponse {ServingStatus status = 1}
_SERVING_STATUS = ("UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN")


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def health_request(service: str) -> bytes:
    data = service.encode("utf-8")
    return b"\x0a" + _varint(len(data)) + data if data else b""


def health_status(data: bytes) -> str:
    """The status field of a HealthCheckResponse (0, UNKNOWN, when absent)."""
    status, i = 0, 0
    while i < len(data):
        key, i = _read_varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _read_varint(data, i)
            if field == 1:
                status = value
        elif wire == 2:
            size, i = _read_varint(data, i)
            i += size
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
        else:
            raise ValueError(f"malformed HealthCheckResponse (wire type {wire})")
    return _SERVING_STATUS[status] if status < len(_SERVING_STATUS) else str(status)


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if i >= len(data):
            raise ValueError("malformed HealthCheckResponse (truncated varint)")
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, i
        shift += 7
