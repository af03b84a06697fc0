"""Helpers for the server tests: a deterministic stand-in backend, a tiny real GPT-2 model
folder, and a `ambit serve` subprocess that reports its port."""

from __future__ import annotations

import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from ambit.server.model import Capability, DecodeStopped
from ambit.server.values import CandidateScore, Generation
from tests.paths import REPO

LISTENING = re.compile(r"ambit server listening on (\S+):(\d+)")


# --------------------------------------------------------------------------- fake backend


@dataclass
class FakeHypothesis:
    text: str
    logprob: float
    token_probs: list[float]
    tokens: list[str]
    min_prob: float
    finished: bool = True


FOL_BEAM = [
    ("exists x . forall y . man(x) AND saw(x, y)", -1.0),
    ("exists y . forall x . man(y) AND saw(y, x)", -1.5),  # alpha-variant of the first
    ("forall y . exists x . man(x) AND saw(x, y)", -2.0),
    ("exists x . man(x) AND", -3.0),  # does not parse
]


@dataclass
class FakeBackend:
    """A server.model.ModelBackend with no optional capabilities; scores are a pure function of
    the text.

    `delay` (seconds) is spent per batch call, `fail_marker` in a prompt raises, and
    `calls` records the size of every score_batch call (to see batching)."""

    delay: float = 0.0
    fail_marker: str = "<<crash>>"
    calls: list[int] = field(default_factory=list)
    decoded: list[tuple[str, str | None]] = field(default_factory=list)  # (prompt, grammar) per decode
    lock: threading.Lock = field(default_factory=threading.Lock)
    capabilities: frozenset[Capability] = frozenset()

    def info(self) -> dict:
        return {"model_id": "fake-model", "device": "cpu", "dtype": "float32", "vocab_size": 257}

    def close(self) -> None:
        """Nothing to free."""

    def _score(self, prompt: str, cand: str, end_marker: bool) -> CandidateScore:
        tokens = cand.split(" ")
        probs = [1.0 / (1.0 + (len(t) + len(prompt)) % 7) for t in tokens]
        logs = [math.log(p) for p in probs]
        return CandidateScore(
            text=cand, tokens=tokens, token_ids=[sum(map(ord, t)) % 257 for t in tokens], token_probs=probs,
            min_prob=min(probs), min_prob_renorm=min(probs), sum_logprob=sum(logs), mean_logprob=sum(logs) / len(logs),
            end_logprob=-0.5 if end_marker else None,
        )

    def score_batch(self, items, end_marker: bool = False):
        with self.lock:
            self.calls.append(len(items))
        if self.delay:
            time.sleep(self.delay)
        out = []
        for prompt, cands in items:
            if self.fail_marker in prompt:
                raise RuntimeError("simulated engine fault")
            out.append([self._score(prompt, c, end_marker) for c in cands])
        return out

    def generate(self, turns, params, should_stop):
        """The last turn's words, reversed, one "step" per word (should_stop checked between)."""
        words = turns[-1][1].split()[::-1][: params.max_new_tokens]
        for _ in words:
            if should_stop():
                raise DecodeStopped("stopped")
        return Generation(" ".join(words), turns[-1][1], False, len(turns[-1][1].split()), len(words),
                              "length" if len(words) == params.max_new_tokens else "stop", 0.0)

    def decode(self, prompt, fmt, params, grammar, should_stop):
        self.decoded.append((prompt, grammar))
        if self.fail_marker in prompt:
            raise RuntimeError("simulated engine fault")
        t_end = time.monotonic() + self.delay
        while time.monotonic() < t_end:
            if should_stop():
                raise DecodeStopped("stopped")
            time.sleep(0.005)
        hyps = []
        for text, lp in FOL_BEAM[: params.k]:
            if fmt == "lisp":
                from ambit import logic

                try:
                    text = logic.convert(text, "fol", "lisp")
                except logic.LFParseError:
                    text = "( exists x ( AND ( man x )"
            toks = text.split(" ")
            probs = [math.exp(lp / len(toks))] * len(toks)
            hyps.append(FakeHypothesis(text, lp, probs, toks, min(probs)))
        return hyps


# --------------------------------------------------------------------------- tiny real model


def tiny_gpt2_folder(dest: Path) -> Path:
    """The engine tests' tiny random GPT-2 (real GPT-2 vocabulary) saved as a transformers
    folder, so `ambit serve --model <folder>` loads it like any other model."""
    from tests.helpers.engine import tiny_gpt2

    dest = Path(dest)
    if not (dest / "config.json").exists():
        lm = tiny_gpt2(dest)
        lm.model.save_pretrained(str(dest))
        lm.tokenizer.save_pretrained(str(dest))
    return dest


# --------------------------------------------------------------------------- server process


class ServerProcess:
    """`ambit serve --port 0 ...` in a subprocess; `.address` once it is listening."""

    def __init__(self, *args: str, ready_timeout: float = 180.0, env: dict | None = None) -> None:
        cmd = [sys.executable, "-m", "ambit", "serve", "--port", "0", *args]
        self.proc = subprocess.Popen(
            cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        self.stderr_lines: list[str] = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.address = ""
        self.port = 0
        deadline = time.monotonic() + ready_timeout
        self.stdout_lines: list[str] = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"server exited early ({self.proc.poll()}):\n{self.log()}")
            self.stdout_lines.append(line)
            m = LISTENING.search(line)
            if m:
                self.address, self.port = f"{m.group(1)}:{m.group(2)}", int(m.group(2))
            if line.startswith("ambit server ready"):
                break
        else:
            self.kill()
            raise RuntimeError(f"server not ready in {ready_timeout} s:\n{self.log()}")
        threading.Thread(target=self._drain_stdout, daemon=True).start()

    def _drain_stderr(self) -> None:
        for line in self.proc.stderr:
            self.stderr_lines.append(line)

    def _drain_stdout(self) -> None:
        for line in self.proc.stdout:
            self.stdout_lines.append(line)

    def log(self) -> str:
        return "".join(self.stdout_lines) + "".join(self.stderr_lines)

    def channel(self) -> grpc.Channel:
        return grpc.insecure_channel(self.address)

    def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM; returns the exit code (raises if it does not exit within timeout)."""
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
