"""A next step for a call that never reached the server ("nothing listens", "the server may need
TLS", "the certificate is not trusted"), read from gRPC's connection error, else from a TCP connect
(and a TLS handshake) to each address."""

from __future__ import annotations

import socket
import ssl

from ambit.client.credentials import ClientSecurity

# gRPC's words for a call that failed before any server answered it
_CONNECT_FAILURES = ("failed to connect", "Socket closed", "Connection refused", "connections to all backends failing",
                     "Tls handshake failed", "DNS resolution failed")


def hint(code: str, message: str, servers: list[str], security: ClientSecurity) -> str | None:
    """What to do about an UNAVAILABLE call that never reached a server, or None."""
    if code != "UNAVAILABLE" or not any(w in message for w in _CONNECT_FAILURES):
        return None
    if "CERTIFICATE_VERIFY_FAILED" in message:
        return (f"certificate not trusted by --tls-ca {security.tls_ca}" if security.tls_ca else
                "the server's certificate is not trusted: pass --tls-ca with the CA that signed it")
    if "WRONG_VERSION_NUMBER" in message:
        return "the server does not speak TLS: drop --tls-ca, or start it with --tls-cert/--tls-key"
    if "Peer name" in message or "hostname" in message.lower():
        return "the server's certificate is not valid for the host name dialled: dial a name the certificate holds"
    silent = [s for s in servers if not listens(s)]
    if silent and len(silent) == len(servers):
        ports = sorted({s.rpartition(":")[2] for s in silent})
        return (f"nothing listens at {', '.join(silent)}: is the server running "
                f"(ambit serve --port {ports[0]})?")
    if silent:
        return f"nothing listens at {', '.join(silent)}"
    if not security.tls and any(speaks_tls(s) for s in servers):
        return "the server may need TLS: pass --tls-ca"
    return None


def speaks_tls(addr: str, timeout: float = 2.0) -> bool:
    """Whether ``host:port`` completes a TLS handshake (certificate unchecked)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    ctx.set_alpn_protocols(["h2"])
    return _connects(addr, timeout, lambda sock, host: ctx.wrap_socket(sock, server_hostname=host))


def listens(addr: str, timeout: float = 1.0) -> bool:
    """Whether a TCP connection to ``host:port`` (``[v6]:port``) opens within ``timeout``."""
    return _connects(addr, timeout, None)


def _connects(addr: str, timeout: float, wrap) -> bool:
    """Whether a connection to ``addr`` opens (and ``wrap(sock, host)``, if given, succeeds)."""
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isdigit():
        return False
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as sock:
            if wrap is not None:
                wrap(sock, host.strip("[]")).close()
            return True
    except (OSError, ssl.SSLError):
        return False
