"""How the server is protected: TLS (mTLS with a client CA), the token file, and the rule that a
non-loopback address needs both TLS and a token file unless `insecure` is set."""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from ambit._net import is_loopback
from ambit.server.guard.auth import TokenStore


class SecurityConfigError(ValueError):
    """The security options are inconsistent, or the files they name cannot be read."""


@dataclass(frozen=True)
class ServerSecurity:
    """PEM files for TLS (`tls_client_ca`: require and verify client certificates), the bearer
    token file, and `insecure`: allow a non-loopback address without TLS and a token."""

    tls_cert: str | None = None
    tls_key: str | None = None
    tls_client_ca: str | None = None
    auth_token_file: str | None = None
    insecure: bool = False

    @property
    def tls(self) -> bool:
        return self.tls_cert is not None

    def validate(self, host: str) -> None:
        """SecurityConfigError for half-given TLS options or an unprotected non-loopback `host`."""
        if (self.tls_cert is None) != (self.tls_key is None):
            raise SecurityConfigError("--tls-cert and --tls-key go together: give both")
        if self.tls_client_ca is not None and not self.tls:
            raise SecurityConfigError("--tls-client-ca needs --tls-cert and --tls-key")
        if not (is_loopback(host) or self.insecure):
            self._refuse_exposed(host)
        if host.count(":") > 1 and not host.startswith("["):
            raise SecurityConfigError(f"--host {host}: an IPv6 address goes in brackets: --host [{host}]")

    def _refuse_exposed(self, host: str) -> None:
        missing = [opt for opt, given in (("--tls-cert FILE --tls-key FILE", self.tls),
                                          ("--auth-token-file FILE", self.auth_token_file is not None))
                   if not given]
        if missing:
            raise SecurityConfigError(
                f"refusing to serve {host} (not a loopback address) without TLS and a token: add "
                f"{' and '.join(missing)}, or --insecure to serve it unprotected"
            )

    def exposed_unprotected(self, host: str) -> bool:
        """Whether `host` is reachable from other machines without TLS and a token."""
        return not is_loopback(host) and not (self.tls and self.auth_token_file is not None)

    def credentials(self) -> grpc.ServerCredentials | None:
        """Server TLS credentials, or None for plaintext."""
        if not self.tls:
            return None
        key, cert = _read(self.tls_key, "--tls-key"), _read(self.tls_cert, "--tls-cert")
        _check_pair(self.tls_cert, self.tls_key)
        if self.tls_client_ca is None:
            return grpc.ssl_server_credentials([(key, cert)])
        return grpc.ssl_server_credentials(
            [(key, cert)], root_certificates=_read(self.tls_client_ca, "--tls-client-ca"), require_client_auth=True
        )

    def token_store(self) -> TokenStore | None:
        return None if self.auth_token_file is None else TokenStore(self.auth_token_file)


def _read(path: str | None, option: str) -> bytes:
    assert path is not None
    from ambit import _files

    try:  # a regular file, no link followed, at most 1 MiB (a PEM bundle is some hundred KB)
        return _files.read_bytes(path, 2**20)
    except OSError as e:
        raise SecurityConfigError(f"{option} {e}") from None


def _check_pair(cert: str | None, key: str | None) -> None:
    """SecurityConfigError unless `key` is `cert`'s key (gRPC would fail at the first handshake)."""
    import ssl

    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(str(cert), str(key))
    except ssl.SSLError as e:
        reason = "the key does not match the certificate" if "KEY_VALUES_MISMATCH" in str(e) else e.reason or str(e)
        raise SecurityConfigError(f"--tls-cert {cert} / --tls-key {key}: {reason}") from None
