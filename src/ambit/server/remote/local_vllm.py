"""A vLLM server (its CPU build) on this machine serving the default model, for the remote
backend's slow tests and `benchmarks/remote_bench.py`; started with the settings measured to work
here (GUIDE §10: float32, eager, 1 GB KV cache, a scratch VLLM_CACHE_ROOT)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ambit._paths import CHECKOUT
from ambit.server.remote import validate as V
from ambit.server.remote.errors import RemoteError, RemoteUnavailable
from ambit.server.remote.http import Endpoint
from ambit.server.remote.spec import PREFIX, RemoteOptions, parse_spec

# the installer script is part of the checkout (deploy/), not of the wheel
SCRIPT = (CHECKOUT or Path.cwd()) / "deploy" / "vllm-cpu-env.sh"
SERVED_NAME = "smollm2"


class VllmUnavailable(RuntimeError):
    """vLLM could not be installed or started here; the message says why."""


def ensure_env(log=sys.stderr) -> Path:
    """The python of vLLM's own environment, installing it first when it is missing."""
    print(f"[vllm] checking vLLM's CPU environment ({SCRIPT}; a first install "
          "takes about 6 minutes)", file=log, flush=True)
    p = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True)
    if p.returncode != 0:
        tail = " | ".join((p.stderr or p.stdout).strip().splitlines()[-3:])
        raise VllmUnavailable(f"{SCRIPT.name} failed (exit {p.returncode}): {tail}")
    return Path(p.stdout.strip().splitlines()[-1])


def model_dir() -> Path:
    """The default model's converted transformers folder (made from the GGUF when missing)."""
    from ambit.server.lm.loading import converted_folder, default_gguf

    return converted_folder(default_gguf())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class VllmServer:
    process: subprocess.Popen
    port: int
    log_path: Path
    scratch: tempfile.TemporaryDirectory

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def spec(self) -> str:
        return f"openai:{SERVED_NAME}@{self.base_url}"

    def log_tail(self, lines: int = 5) -> str:
        try:
            return " | ".join(self.log_path.read_text(errors="replace").strip().splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        """SIGTERM the server's process group (it stops with its children in a few seconds)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.scratch.cleanup()


def serves(base_url: str, name: str) -> bool:
    """Whether `base_url` lists `name` under /models yet (asked by the backend's own `Endpoint`)."""
    ep = Endpoint(parse_spec(f"{PREFIX}{name}@{base_url}"),
                  RemoteOptions(cache_dir=None, retries=0, timeout_s=5.0, connect_timeout_s=5.0))
    try:
        return name in V.models(ep.get("/models", check=V.models, retries=0, quiet=True))
    except (RemoteError, RemoteUnavailable):
        return False
    finally:
        ep.close()


def start(python: Path, folder: Path, port: int | None = None, timeout_s: float = 900.0) -> VllmServer:
    """Start vLLM on `folder`; return once /v1/models answers (VllmUnavailable otherwise)."""
    port = port or free_port()
    scratch = tempfile.TemporaryDirectory(prefix="ambit-vllm-")
    log_path = Path(scratch.name) / "vllm.log"
    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_CACHE_ROOT": str(Path(scratch.name) / "cache")}
    cmd = [str(python), "-m", "vllm.entrypoints.openai.api_server", "--model", str(folder),
           "--served-model-name", SERVED_NAME, "--host", "127.0.0.1", "--port", str(port),
           "--max-model-len", "2048", "--dtype", "float32", "--enforce-eager"]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                cwd=scratch.name)
    server = VllmServer(proc, port, log_path, scratch)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = server.log_tail()
            server.stop()
            raise VllmUnavailable(f"vLLM exited with status {proc.returncode} while starting: {tail}")
        if serves(server.base_url, SERVED_NAME):
            return server
        time.sleep(2)
    tail = server.log_tail()
    server.stop()
    raise VllmUnavailable(f"vLLM did not answer /v1/models within {timeout_s:.0f} s: {tail}")
