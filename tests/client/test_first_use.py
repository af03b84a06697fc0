"""What a new user meets first (issue 31): one default prompt for the client, the CLI and the RPC;
a Prolog budget on parse and explain; TLS and token options on every command; a wrong `--data`
is an error; errors that name the next step; a token that will not travel in plaintext."""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import subprocess
import sys

import pytest

from ambit import server
from ambit.client import Client
from ambit.client import credentials
from ambit.client.__main__ import build_parser, main
from ambit.client.explain_cli import build_parser as explain_parser
from ambit.client.eval.cli import build_parser as eval_parser
from ambit.client.testing import FakeAmbitServicer, FakeServer
from ambit.proto.v1 import ambit_pb2 as pb
from ambit.server.convert.core import parse_query
from ambit.server.service.prompting import default_prompt
from tests.paths import REPO
from tests.helpers.server import FakeBackend

UTTERANCE = "every boy saw a dog"
SECURITY_FLAGS = ("--tls-ca", "--tls-cert", "--tls-key", "--auth-token-file", "--insecure")


def _run(argv: list[str]) -> tuple[int, str, str]:
    """`ambit ARGV` in this process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


def _cli(*args: str, env: dict | None = None, timeout: float = 180) -> subprocess.CompletedProcess:
    """`ambit ARGS` in a fresh process (gRPC's logging is set before gRPC starts)."""
    base = {k: v for k, v in os.environ.items() if k != "GRPC_VERBOSITY"}
    return subprocess.run([sys.executable, "-m", "ambit", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout, env={**base, **(env or {})})


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ one default prompt

@pytest.fixture(scope="module")
def stand_in():
    """A real server on localhost whose model is a stand-in that records its prompts."""
    backend = FakeBackend()
    r = server.serve(backend=backend, port=0)
    r.wait_ready(30)
    yield r, backend
    r.stop(0)


def test_client_cli_and_rpc_share_the_default_prompt(stand_in):
    r, backend = stand_in
    expected = default_prompt(UTTERANCE, "fol")
    with Client(r.address) as c:
        assert c.parse_distribution(UTTERANCE).prompt == expected
        assert c.parse_explained(UTTERANCE).distribution.prompt == expected
    code, out, _ = _run(["parse", UTTERANCE, "--server", r.address, "--json"])
    assert code == 0 and json.loads(out)["prompt"] == expected == backend.decoded[-1][0]
    code, out, _ = _run(["parse", UTTERANCE, "--server", r.address, "--json", "--prompt", "Q: {utterance}"])
    assert code == 0 and json.loads(out)["prompt"] == f"Q: {UTTERANCE}"
    code, out, _ = _run(["parse", UTTERANCE, "--server", r.address, "--json", "--setting", "zeroshot",
                         "--type", "scope"])
    assert code == 0 and json.loads(out)["prompt"] not in (expected, UTTERANCE)


# ------------------------------------------------------------------ Prolog budget

def test_prolog_seconds_travels_with_parse_and_explain():
    seen: list = []
    fake = FakeServer(FakeAmbitServicer(fail=lambda method, req: seen.append((method, req)) and None))
    try:
        code, _, _ = _run(["parse", UTTERANCE, "--server", fake.address, "--prolog-seconds", "12.5"])
        assert code == 0 and seen[-1][1].time_limit_ms == 12500
        assert seen[-1][1].WhichOneof("prompt_source") is None  # nothing sent: the server's default applies
        code, _, err = _run(["explain", UTTERANCE, "--server", fake.address, "--prolog-seconds", "30"])
        assert code == 0, err
        assert seen[-1][1].time_limit_ms == 30000 and seen[-1][1].explain
    finally:
        fake.stop(0)
    assert parse_query(pb.ParseDistributionRequest(utterance="u", time_limit_ms=2500)).time_limit_s == 2.5


# ------------------------------------------------------------------ every command's options

def _subcommand_helps() -> dict[str, str]:
    """Every client command's --help text, by command."""
    helps: dict[str, str] = {}
    for name, p in build_parser()._subparsers._group_actions[0].choices.items():
        if name not in ("eval", "explain"):
            helps[name] = p.format_help()
    helps["explain"] = explain_parser().format_help()
    for name, p in eval_parser()._subparsers._group_actions[0].choices.items():
        if name != "compare":  # reads finished run folders only: it reaches no server
            helps[f"eval {name}"] = p.format_help()
    return helps


def test_every_subcommand_takes_the_tls_and_token_options():
    helps = _subcommand_helps()
    assert {"parse", "score", "equiv", "entails", "canon", "radd", "health", "info", "stats", "explain",
            "eval all", "eval radd"} <= set(helps)
    missing = {name: [f for f in SECURITY_FLAGS if f not in text] for name, text in helps.items()}
    assert not {k: v for k, v in missing.items() if v}, missing
    code, out, _ = _run(["explain", "--help"])  # what a user types
    assert code == 0 and all(f in out for f in SECURITY_FLAGS) and "--prolog-seconds" in out
    code, out, _ = _run(["parse", "--help"])
    assert code == 0 and "--prolog-seconds" in out


# ------------------------------------------------------------------ --data

@pytest.mark.parametrize("suite", ["radd", "amp-zeroshot", "amp-fewshot", "implicature", "all"])
def test_a_data_root_given_that_is_missing_or_lacks_the_suite_is_an_error(suite, tmp_path):
    out = tmp_path / "out"
    for data in (tmp_path / "no-such-folder", tmp_path):
        code, stdout, err = _run(["eval", suite, "--data", str(data), "--out", str(out), "--limit", "1"])
        assert code == 2, (suite, data, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: --data ") and str(data) in lines[0], err
        assert not (out / "results.jsonl").exists()


def test_generated_radd_instances_need_no_data_root(tmp_path):
    code, _, err = _run(["eval", "radd", "--data", str(tmp_path), "--source", "generated", "--limit", "1",
                         "--out", str(tmp_path / "out")])
    assert code == 0, err


# ------------------------------------------------------------------ errors with a next step

@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> dict[str, str]:
    trustme = pytest.importorskip("trustme")
    d = tmp_path_factory.mktemp("pki")
    ca, other = trustme.CA(), trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    files = {"ca": ca.cert_pem.bytes(), "other_ca": other.cert_pem.bytes(),
             "cert": b"".join(p.bytes() for p in cert.cert_chain_pems), "key": cert.private_key_pem.bytes()}
    for name, data in files.items():
        (d / f"{name}.pem").write_bytes(data)
    return {name: str(d / f"{name}.pem") for name in files}


@pytest.fixture(scope="module")
def tls_server(pki):
    from ambit.server.guard.security import ServerSecurity
    srv = server.serve(model="none", port=0, security=ServerSecurity(pki["cert"], pki["key"]))
    yield srv
    srv.stop(0)


def test_plaintext_client_against_tls_server_is_told_to_pass_tls_ca(tls_server):
    code, _, err = _run(["health", "--server", f"127.0.0.1:{tls_server.port}", "--timeout", "20"])
    assert code == 1 and "the server may need TLS: pass --tls-ca" in err, err


def test_untrusted_certificate_names_the_ca_and_grpc_stays_quiet(tls_server, pki):
    args = ["health", "--server", f"localhost:{tls_server.port}", "--tls-ca", pki["other_ca"]]
    r = _cli(*args)
    assert r.returncode == 1 and f"certificate not trusted by --tls-ca {pki['other_ca']}" in r.stderr, r.stderr
    assert "Handshake failed" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    debug = _cli(*args, "--log-level", "DEBUG")
    assert "Handshake failed" in debug.stderr, debug.stderr  # gRPC's own lines, when asked for


def test_nothing_listening_says_to_start_the_server():
    port = _free_port()
    code, _, err = _run(["info", "--server", f"127.0.0.1:{port}", "--timeout", "20"])
    assert code == 1
    assert f"nothing listens at 127.0.0.1:{port}: is the server running (ambit serve --port {port})?" in err


# ------------------------------------------------------------------ a token in plaintext (issue 26, item 8)

def test_token_is_not_sent_in_plaintext_to_a_remote_host(tmp_path, monkeypatch):
    token = tmp_path / "token.txt"
    token.write_text("tok-31-secret\n")
    code, _, err = _run(["health", "--server", "192.0.2.1:50051", "--auth-token-file", str(token)])
    assert code == 2 and "refusing to send the bearer token unencrypted to 192.0.2.1" in err
    assert "--insecure" in err and "tok-31-secret" not in err
    # loopback, or TLS, is fine without a word; --insecure sends it with one warning per process
    monkeypatch.setattr(credentials, "_warned", False)
    security = credentials.ClientSecurity(token="t")
    credentials.check_plaintext_token(["127.0.0.1", "localhost", "::1"], security)
    credentials.check_plaintext_token(["192.0.2.1"], credentials.ClientSecurity(tls_ca="ca.pem", token="t"))
    with pytest.raises(credentials.PlaintextToken):
        Client("192.0.2.1:50051", token="t")
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        for _ in range(3):
            Client("192.0.2.1:50051", token="t", insecure=True).close()
    lines = buf.getvalue().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: sending the bearer token unencrypted to 192.0.2.1")


def test_help_of_the_readme_commands_runs_in_a_fresh_process():
    r = _cli("explain", "--help", timeout=60)
    assert r.returncode == 0 and "--tls-ca" in r.stdout and r.stderr == ""


# ------------------------------------------------------------------ README's example with a model

@pytest.mark.slow
@pytest.mark.parametrize("prompt", [["--setting", "fewshot", "--type", "scope"], []])
def test_readme_explain_example_finishes_on_the_default_model(prompt):
    """README: `client explain "every boy saw a dog" --setting fewshot --type scope` (and with the
    default prompt), embedded server with the default model: readings with their mass, and a
    question or a note saying why there is none."""
    r = _cli("explain", UTTERANCE, *prompt, "--json", timeout=1800)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert out["model_id"] and out["readings"] and all(x["weight"] is not None for x in out["readings"])
    assert out["question"] is not None or out["note"]


def test_a_closed_connection_from_a_server_without_tls_is_not_blamed_on_tls():
    import threading

    from ambit.client.diagnose import hint
    listener = socket.create_server(("127.0.0.1", 0))
    addr = f"127.0.0.1:{listener.getsockname()[1]}"

    def close_each() -> None:
        for _ in range(2):
            conn, _ = listener.accept()
            conn.close()

    t = threading.Thread(target=close_each, daemon=True)
    t.start()
    raw = f"failed to connect to all addresses; last error: UNAVAILABLE: ipv4:{addr}: Socket closed"
    try:
        assert hint("UNAVAILABLE", raw, [addr], credentials.ClientSecurity()) is None
        assert hint("INVALID_ARGUMENT", raw, [addr], credentials.ClientSecurity()) is None
    finally:
        t.join(10)
        listener.close()
