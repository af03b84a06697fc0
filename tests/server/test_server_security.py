"""TLS, mTLS and bearer tokens on a real server on localhost (certificates made at test time
with `trustme`): the client verifies the server, mTLS refuses a client without a certificate,
a missing or wrong token is UNAUTHENTICATED before any handler runs, health stays open, tokens
rotate on reload, an exposed unprotected bind is refused, and no token reaches the log."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

trustme = pytest.importorskip("trustme")

from ambit.client import AmbitError, Client  # noqa: E402
from ambit.server import serve  # noqa: E402
from ambit.server.guard.auth import TokenFileError, TokenStore  # noqa: E402
from ambit._net import is_loopback  # noqa: E402
from ambit.server.guard.security import SecurityConfigError, ServerSecurity  # noqa: E402
from tests.paths import REPO  # noqa: E402

LF = "exists y . man(y)"
CANON = "exists x . man(x)"
TOKEN_A = "tok-A-9f3c1e77d2"
TOKEN_B = "tok-B-51aa0c8e4b"


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict[str, str]:
    """A CA, a server certificate for localhost/127.0.0.1, a client certificate, and a second,
    unrelated CA; every file written to a temp folder."""
    d = tmp_path_factory.mktemp("pki")
    ca, other = trustme.CA(), trustme.CA()
    server_cert = ca.issue_cert("localhost", "127.0.0.1")
    client_cert = ca.issue_cert("ambit.client.ambit.test")
    files = {
        "ca": ca.cert_pem.bytes(), "other_ca": other.cert_pem.bytes(),
        "cert": b"".join(p.bytes() for p in server_cert.cert_chain_pems),
        "key": server_cert.private_key_pem.bytes(),
        "client_cert": b"".join(p.bytes() for p in client_cert.cert_chain_pems),
        "client_key": client_cert.private_key_pem.bytes(),
    }
    out = {}
    for name, data in files.items():
        (d / f"{name}.pem").write_bytes(data)
        out[name] = str(d / f"{name}.pem")
    return out


def _tokens(tmp_path: Path, *tokens: str) -> str:
    path = tmp_path / "tokens"
    path.write_text("# accepted tokens\n" + "\n".join(tokens) + "\n\n", encoding="utf-8")
    return str(path)


def _code(fn) -> str:
    with pytest.raises(AmbitError) as err:
        fn()
    return err.value.code


def test_tls_client_verifies_the_server(pki):
    srv = serve(model="none", port=0, security=ServerSecurity(pki["cert"], pki["key"]))
    try:
        with Client(f"localhost:{srv.port}", timeout=10, tls_ca=pki["ca"]) as c:
            assert c.canonicalize(LF) == CANON and c.health() == "SERVING"
        with Client(f"localhost:{srv.port}", timeout=5, tls_ca=pki["other_ca"]) as c:
            assert _code(lambda: c.canonicalize(LF)) == "UNAVAILABLE"  # untrusted server certificate
        with Client(f"localhost:{srv.port}", timeout=5) as c:
            assert _code(lambda: c.canonicalize(LF)) == "UNAVAILABLE"  # plaintext to a TLS port
    finally:
        srv.stop(0)


def test_mtls_requires_a_client_certificate_from_the_ca(pki, tmp_path):
    other = trustme.CA().issue_cert("stranger.test")
    (tmp_path / "c.pem").write_bytes(b"".join(p.bytes() for p in other.cert_chain_pems))
    (tmp_path / "k.pem").write_bytes(other.private_key_pem.bytes())
    srv = serve(model="none", port=0, security=ServerSecurity(pki["cert"], pki["key"], pki["ca"]))
    try:
        with Client(f"localhost:{srv.port}", timeout=10, tls_ca=pki["ca"], tls_cert=pki["client_cert"],
                    tls_key=pki["client_key"]) as c:
            assert c.canonicalize(LF) == CANON
        with Client(f"localhost:{srv.port}", timeout=5, tls_ca=pki["ca"]) as c:
            assert _code(lambda: c.canonicalize(LF)) == "UNAVAILABLE"
        with Client(f"localhost:{srv.port}", timeout=5, tls_ca=pki["ca"], tls_cert=str(tmp_path / "c.pem"),
                    tls_key=str(tmp_path / "k.pem")) as c:
            assert _code(lambda: c.canonicalize(LF)) == "UNAVAILABLE"
    finally:
        srv.stop(0)


def test_token_auth_health_open_and_rotation(tmp_path, caplog):
    path = _tokens(tmp_path, TOKEN_A)
    srv = serve(model="none", port=0, security=ServerSecurity(auth_token_file=path))
    addr = f"127.0.0.1:{srv.port}"
    try:
        with caplog.at_level(logging.DEBUG):
            with Client(addr, timeout=10) as anon:
                assert anon.health() == "SERVING"  # probes need no token
                assert _code(lambda: anon.canonicalize(LF)) == "UNAUTHENTICATED"
                assert _code(lambda: anon.stats()) == "UNAUTHENTICATED"
            with Client(addr, timeout=10, token=TOKEN_B) as wrong:
                assert _code(lambda: wrong.canonicalize(LF)) == "UNAUTHENTICATED"
                assert _code(lambda: wrong.equivalent(LF, LF)) == "UNAUTHENTICATED"
            with Client(addr, timeout=10, token=TOKEN_A) as a:
                assert a.canonicalize(LF) == CANON
                assert a.equivalent(LF, CANON).verdict == "EQUIVALENT"
                # unauthenticated calls never reached a handler: only the authorised ones are counted
                assert a.stats().requests == {"Canonicalize": 1, "CheckEquivalence": 1}
            _tokens(tmp_path, TOKEN_B)
            srv.reload_tokens()
            with Client(addr, timeout=10, token=TOKEN_A) as a:
                assert _code(lambda: a.canonicalize(LF)) == "UNAUTHENTICATED"
            with Client(addr, timeout=10, token=TOKEN_B) as b:
                assert b.canonicalize(LF) == CANON
            (tmp_path / "tokens").write_text("\n", encoding="utf-8")
            srv.reload_tokens()  # an empty file is refused: the current tokens stay
            with Client(addr, timeout=10, token=TOKEN_B) as b:
                assert b.canonicalize(LF) == CANON
        text = caplog.text
        assert "unauthenticated call to /ambit.v1.AmbitService/Canonicalize refused" in text
        assert "token file reloaded: 1 token(s)" in text and "current tokens kept" in text
        assert TOKEN_A not in text and TOKEN_B not in text
    finally:
        srv.stop(0)


def test_token_from_environment(tmp_path, monkeypatch):
    srv = serve(model="none", port=0, security=ServerSecurity(auth_token_file=_tokens(tmp_path, TOKEN_A, TOKEN_B)))
    try:
        monkeypatch.setenv("AMBIT_TOKEN", TOKEN_B)
        with Client(f"127.0.0.1:{srv.port}", timeout=10) as c:
            assert c.canonicalize(LF) == CANON
    finally:
        srv.stop(0)


def test_token_store_checks_scheme_and_every_token(tmp_path):
    store = TokenStore(_tokens(tmp_path, TOKEN_A, TOKEN_B))
    assert len(store) == 2
    assert store.check(f"Bearer {TOKEN_A}") and store.check(f"bearer {TOKEN_B}")
    for bad in (None, "", TOKEN_A, f"Basic {TOKEN_A}", f"Bearer {TOKEN_A}x", "Bearer ", f"Bearer {TOKEN_A[:-1]}",
                "Bearer \udcff"):
        assert not store.check(bad), bad
    for text, what in (("", "holds no token"), ("# only a comment\n", "holds no token"), ("a b\n", "spaces")):
        (tmp_path / "t").write_text(text, encoding="utf-8")
        with pytest.raises(TokenFileError, match=what):
            TokenStore(tmp_path / "t")
    with pytest.raises(TokenFileError, match="cannot read token file"):
        TokenStore(tmp_path / "missing")


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.0.1", "localhost", "LocalHost", "::1", "[::1]",
                                  "[127.0.0.1]", "::ffff:127.0.0.1", "[::ffff:127.0.0.1]",
                                  "unix:/tmp/ambit.sock", "unix:///tmp/ambit.sock", "unix-abstract:ambit"])
def test_loopback_addresses(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]", "10.1.2.3", "::ffff:10.1.2.3", "fe80::1", "example.org",
                                  "localhost.example.org", "", "[]", "127.0.0.1.example.org", "dns:///localhost"])
def test_addresses_that_are_not_loopback(host):
    assert not is_loopback(host)


def test_one_is_loopback_for_the_server_the_web_port_and_the_client():
    """The bind rule of the gRPC server and of the web port, and the client's plaintext-token rule,
    ask the same function (a wildcard bind is exposed, a token may go to a local socket)."""
    from ambit.client import credentials
    from ambit.server.guard import security

    serve = pytest.importorskip("ambit.web.serve")

    assert security.is_loopback is serve.is_loopback is credentials.is_loopback is is_loopback


def test_exposed_bind_needs_tls_and_token():
    with pytest.raises(SecurityConfigError, match="--tls-cert FILE --tls-key FILE and --auth-token-file FILE"):
        ServerSecurity().validate("0.0.0.0")
    with pytest.raises(SecurityConfigError, match="add --auth-token-file FILE, or --insecure"):
        ServerSecurity("c.pem", "k.pem").validate("0.0.0.0")
    with pytest.raises(SecurityConfigError, match="add --tls-cert FILE --tls-key FILE, or --insecure"):
        ServerSecurity(auth_token_file="t").validate("::")
    with pytest.raises(SecurityConfigError, match="go together"):
        ServerSecurity(tls_cert="c.pem").validate("127.0.0.1")
    with pytest.raises(SecurityConfigError, match="needs --tls-cert"):
        ServerSecurity(tls_client_ca="ca.pem").validate("127.0.0.1")
    ServerSecurity(insecure=True).validate("0.0.0.0")
    ServerSecurity("c.pem", "k.pem", auth_token_file="t").validate("0.0.0.0")
    with pytest.raises(SecurityConfigError, match="refusing to serve 0.0.0.0"):
        serve(model="none", host="0.0.0.0", port=0)


def test_cli_refuses_exposed_bind_and_warns_once_with_insecure():
    r = subprocess.run([sys.executable, "-m", "ambit", "serve", "--host", "0.0.0.0", "--port", "0", "--no-model"],
                       cwd=REPO, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "refusing to serve 0.0.0.0" in r.stderr and "--auth-token-file FILE" in r.stderr
    assert "--insecure" in r.stderr


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "ambit", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=360, env={**os.environ, **(env or {})})


def test_server_process_tls_token_sighup_and_client_cli(pki, tmp_path):
    import signal
    import time

    from tests.helpers.server import ServerProcess

    tokens = _tokens(tmp_path, TOKEN_A)
    proc = ServerProcess("--no-model", "--host", "localhost", "--tls-cert", pki["cert"], "--tls-key", pki["key"],
                         "--auth-token-file", tokens, "--log-level", "DEBUG", ready_timeout=120)
    addr = f"localhost:{proc.port}"
    try:
        (tmp_path / "client-token").write_text(TOKEN_A + "\n", encoding="utf-8")
        ok = _cli("canon", LF, "--server", addr, "--tls-ca", pki["ca"], "--auth-token-file",
                  str(tmp_path / "client-token"), "--json")
        assert ok.returncode == 0, ok.stderr
        assert '"canonical": "exists x . man(x)"' in ok.stdout
        denied = _cli("canon", LF, "--server", addr, "--tls-ca", pki["ca"], env={"AMBIT_TOKEN": TOKEN_B})
        assert denied.returncode == 1 and "UNAUTHENTICATED" in denied.stderr
        health = _cli("health", "--server", addr, "--tls-ca", pki["ca"], env={"AMBIT_TOKEN": ""})
        assert health.returncode == 0 and "SERVING" in health.stdout
        _tokens(tmp_path, TOKEN_B)
        proc.proc.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 30
        while "token file reloaded" not in proc.log() and time.monotonic() < deadline:
            time.sleep(0.1)
        rotated = _cli("canon", LF, "--server", addr, "--tls-ca", pki["ca"], env={"AMBIT_TOKEN": TOKEN_B})
        assert rotated.returncode == 0, rotated.stderr
        stale = _cli("canon", LF, "--server", addr, "--tls-ca", pki["ca"], env={"AMBIT_TOKEN": TOKEN_A})
        assert stale.returncode == 1 and "UNAUTHENTICATED" in stale.stderr
        assert proc.terminate() == 0
    finally:
        proc.kill()
    log = proc.log()
    assert "unauthenticated call" in log and "token file reloaded: 1 token(s)" in log
    assert TOKEN_A not in log and TOKEN_B not in log


def test_insecure_exposed_server_warns_once(tmp_path):
    from tests.helpers.server import ServerProcess

    proc = ServerProcess("--no-model", "--host", "0.0.0.0", "--insecure", ready_timeout=120)
    try:
        assert proc.terminate() == 0
    finally:
        proc.kill()
    warnings = [line for line in proc.log().splitlines() if "--insecure" in line]
    assert len(warnings) == 1 and "WARNING" in warnings[0] and "0.0.0.0" in warnings[0]
