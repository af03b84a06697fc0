"""`ambit eval folio` through the same client path as the other suites: against a running server
(`--server HOST:PORT`, with the real engine on a tiny random GPT-2), and against a model served
elsewhere (`--model openai:...`: a stand-in OpenAI-compatible endpoint, a real HTTP server in a
thread, that records the Authorization header of every request), where the key comes from
`--api-key-file` or $OPENAI_API_KEY and `--remote-cache none` writes nothing."""

from __future__ import annotations

import json
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

from ambit.client.eval import cli
from ambit.client.eval.folio import grammar as G
from ambit.generators.folio import stories
from ambit.server import serve
from tests.helpers.standin import StandIn, _Handler
from tests.helpers.results import finished_records

FORMULA = "all x (Dog(x) -> -Cat(x))"  # the stand-in's answer to every sentence (in the decode grammar)


def _root(tmp_path: Path, n: int) -> Path:
    root = tmp_path / "data"
    (root / "folio").mkdir(parents=True)
    with open(root / "folio" / "folio-gen.jsonl", "w", encoding="utf-8") as fh:
        for r in stories(n, seed=4):
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return root


def _records(out: Path) -> list[dict]:
    return finished_records(out)  # the eval may be writing its last line


def _args(root: Path, out: Path, *extra: str) -> list[str]:
    return ["folio", "--split", "gen", "--demo-split", "gen", "--shots", "1", "--data", str(root), "--out", str(out),
            "--max-tokens", "24", *extra]


def test_eval_folio_against_a_running_server(tmp_path):
    from ambit.server.engine_backend import EngineBackend
    from tests.helpers.engine import tiny_gpt2

    root = _root(tmp_path, 8)
    srv = serve(backend=EngineBackend(tiny_gpt2(tmp_path / "model")), port=0)
    try:
        out = tmp_path / "run"
        assert cli.main(_args(root, out, "--server", f"127.0.0.1:{srv.port}", "--limit", "2", "--workers", "2")) == 0
        recs = _records(out)
        assert len(recs) == 2 and all(r["model_id"] == "tiny-gpt2" for r in recs)
        for r in recs:
            (sample,) = r["samples"]
            assert len(sample["sentences"]) == len(r["sentences"])
            for x in sample["sentences"]:
                if x["finished"]:
                    assert x["in_grammar"] and x["text"] == G.to_folio(x["raw"])
        run = json.loads((out / "run.json").read_text())
        assert json.dumps(run).count("tiny-gpt2") >= 1  # the server's model is part of the run's key
        summary = json.loads((out / "summary.json").read_text())
        assert summary["mode"] == "translate" and summary["model"] == "tiny-gpt2"
    finally:
        srv.stop(0)


class RecordingStandIn(StandIn):
    """The stand-in endpoint, recording the Authorization header of every request it receives."""

    def __init__(self, **kw) -> None:
        super().__init__(answer=lambda prompt, j: FORMULA, **kw)
        self.authorization: list[str | None] = []

    def start(self) -> "RecordingStandIn":
        standin = self

        class Handler(_Handler):
            def _authorised(self) -> bool:
                with standin.lock:
                    standin.authorization.append(self.headers.get("Authorization"))
                return super()._authorised()

        handler = type("Handler", (Handler,), {"standin": self})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, name="standin", daemon=True).start()
        return self


def _files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


def test_remote_model_gets_the_key_and_remote_cache_none_writes_nothing(tmp_path, monkeypatch):
    root = _root(tmp_path, 6)
    cache_home = tmp_path / "ambit-cache"  # the default response cache lives under $AMBIT_CACHE
    monkeypatch.setenv("AMBIT_CACHE", str(cache_home))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    s = RecordingStandIn(key="sk-from-file").start()
    try:
        key = tmp_path / "key"
        key.write_text("sk-from-file\n")
        model = f"openai:{s.model}@{s.url}"
        out = tmp_path / "file-key"
        assert cli.main(_args(root, out, "--model", model, "--api-key-file", str(key), "--remote-cache", "none",
                              "--limit", "2", "--workers", "2")) == 0
        assert s.authorization and set(s.authorization) == {"Bearer sk-from-file"}
        assert s.posts > 1  # the probe, then one request per sentence
        assert _files(cache_home / "remote-responses") == []  # --remote-cache none: no response cached
        recs = _records(out)
        assert len(recs) == 2
        for r in recs:
            (sample,) = r["samples"]
            assert [x["raw"] for x in sample["sentences"]] == [FORMULA] * len(r["sentences"])
            assert all(x["text"] == "∀x (Dog(x) → ¬Cat(x))" and x["parses"] for x in sample["sentences"])
        remote = json.loads((out / "run.json").read_text())["remote"]
        assert remote["requests"] == sum(len(r["sentences"]) for r in recs) and remote["cache_hits"] == 0
        assert "sk-from-file" not in (out / "run.json").read_text()
    finally:
        s.kill()

    # the key from $OPENAI_API_KEY, and the default cache, which does write (so the check above can fail)
    s = RecordingStandIn(key="sk-from-env").start()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    try:
        assert cli.main(_args(root, tmp_path / "env-key", "--model", f"openai:{s.model}@{s.url}", "--limit", "1")) == 0
        assert s.authorization and set(s.authorization) == {"Bearer sk-from-env"}
        assert _files(cache_home / "remote-responses")
    finally:
        s.kill()
