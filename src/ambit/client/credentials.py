"""What a client presents to a protected server: the CA that verifies the server (TLS), its own
certificate and key (mTLS), and a bearer token (from `--auth-token-file`, else `$AMBIT_TOKEN`),
never sent in plaintext to a non-loopback address unless `--insecure` (`check_plaintext_token`)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

from ambit import _files, _scrub
from ambit._net import is_loopback

TOKEN_ENV = "AMBIT_TOKEN"


@dataclass(frozen=True)
class ClientSecurity:
    """PEM file paths (`tls_ca` turns TLS on; `tls_cert` + `tls_key` add a client certificate), the
    bearer token (never shown by `repr`), and `insecure` (the token may go in plaintext)."""

    tls_ca: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    token: str | None = None
    insecure: bool = False

    def __repr__(self) -> str:
        token = "None" if self.token is None else "'***'"
        return (f"ClientSecurity(tls_ca={self.tls_ca!r}, tls_cert={self.tls_cert!r}, tls_key={self.tls_key!r}, "
                f"token={token}, insecure={self.insecure!r})")

    @property
    def tls(self) -> bool:
        return self.tls_ca is not None or self.tls_cert is not None

    def pem(self) -> tuple[bytes | None, bytes | None, bytes | None]:
        """(root CA, client key, client chain) as bytes; ValueError naming an unusable option."""
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("--tls-cert and --tls-key go together: give both")
        return _read(self.tls_ca, "--tls-ca"), _read(self.tls_key, "--tls-key"), _read(self.tls_cert, "--tls-cert")


def token_from(token_file: str | None) -> str | None:
    """The first token in `token_file`, else `$AMBIT_TOKEN`, else None."""
    if token_file is None:
        token = os.environ.get(TOKEN_ENV) or None
    else:
        try:  # a regular file of at most 64 KiB: /dev/zero or a FIFO is refused at once
            token = _files.read_secret(token_file, what="token")
        except OSError as e:
            raise ValueError(f"--auth-token-file {e}") from None
    _scrub.remember(token)
    return token


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The client's TLS and token options."""
    p.add_argument("--tls-ca", help="PEM CA bundle that verifies the server (turns TLS on)")
    p.add_argument("--tls-cert", help="PEM client certificate chain (mTLS, with --tls-key)")
    p.add_argument("--tls-key", help="PEM private key of --tls-cert")
    p.add_argument("--auth-token-file", help=f"bearer token file (first token used; default ${TOKEN_ENV})")
    p.add_argument("--insecure", action="store_true",
                   help="send the token over plaintext to a non-loopback address (warns once)")


def from_args(args: argparse.Namespace) -> ClientSecurity:
    return ClientSecurity(args.tls_ca, args.tls_cert, args.tls_key, token_from(args.auth_token_file), args.insecure)


class PlaintextToken(ValueError):
    """A token would travel unencrypted to an address other than loopback."""


_warned = False


def check_plaintext_token(hosts: list[str], security: ClientSecurity) -> None:
    """Refuse (PlaintextToken) a token without TLS to a non-loopback host unless `insecure`."""
    global _warned
    if not security.token or security.tls:
        return
    remote = [h for h in hosts if not is_loopback(h)]
    if not remote:
        return
    if not security.insecure:
        raise PlaintextToken(f"refusing to send the bearer token unencrypted to {', '.join(remote)}: "
                             "pass --tls-ca to use TLS, or --insecure to send it anyway")
    if not _warned:
        _warned = True
        print(f"warning: sending the bearer token unencrypted to {', '.join(remote)} (--insecure)",
              file=sys.stderr, flush=True)


PEM_LIMIT = 2**20  # bytes of a PEM file (a CA bundle is some hundred KB)


def _read(path: str | None, option: str) -> bytes | None:
    if path is None:
        return None
    try:
        return _files.read_bytes(path, PEM_LIMIT)
    except OSError as e:
        raise ValueError(f"{option} {e}") from None
