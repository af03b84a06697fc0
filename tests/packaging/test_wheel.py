"""The package as users install it: `python -m build` makes an sdist and a wheel that `twine check`
accepts, named for the distribution `ambit-semantics` (the import name and the command stay
`ambit`); the wheel, installed with no extras into a fresh virtual environment, brings no torch and
exactly one top-level package (`ambit`), and its smoke test passes there (the `ambit` command, the
checker on the command line and from the docs' Python example). There every command either works
or says in one line, exit status 2, which extra to install. With `ambit-semantics[remote]` added, a
server fronting an OpenAI-compatible endpoint serves a call, still without torch; with
`ambit-semantics[all]`, `ambit eval ... --help` works.

Slow: it builds in an isolated environment and installs into fresh ones (pip's cache makes
later runs quicker).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from ambit import __version__
from tests.paths import REPO
from tests.helpers.standin import StandIn

pytestmark = pytest.mark.slow

CONSTRAINTS = REPO / ".ci" / "constraints.txt"
A = "exists x . forall y . saw(x, y)"
B = "forall y . exists x . saw(x, y)"
PROBLEM = """% a small problem: the premises entail the conjecture
fof(socrates, axiom, man(socrates)).
fof(mortal, axiom, ![X]: (man(X) => mortal(X))).
fof(goal, conjecture, mortal(socrates)).
"""


def _run(cmd: list[str], timeout: float = 900, **kw) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(REPO)], timeout=1800)
    return out


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    wheels = sorted(dist.glob("ambit_semantics-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def venv(tmp_path_factory, wheel: Path) -> Path:
    """A fresh virtual environment with the wheel installed, no extras: its bin folder."""
    where = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", str(where)])
    pip = [str(where / "bin" / "python"), "-m", "pip", "install", "-q", "-c", str(CONSTRAINTS)]
    _run([*pip, str(wheel)], timeout=1800)
    return where / "bin"


def _env(bin_dir: Path) -> dict[str, str]:
    """The environment of a user of that venv: its bin first, nothing of this checkout on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env


def _in_venv(bin_dir: Path, args: list[str], tmp: Path, **kw) -> subprocess.CompletedProcess:
    return _run([str(bin_dir / args[0]), *args[1:]], cwd=tmp, env=_env(bin_dir), **kw)


def test_sdist_and_wheel_pass_twine_check(dist: Path) -> None:
    files = sorted(dist.iterdir())
    assert any(f.name.endswith(".tar.gz") for f in files) and any(f.suffix == ".whl" for f in files), files
    p = _run([sys.executable, "-m", "twine", "check", "--strict", *map(str, files)])
    assert p.stdout.count("PASSED") == len(files), p.stdout


def test_wheel_holds_one_top_level_package_with_its_data(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"ambit"}, tops
    for needed in ("ambit/logic/engine/prolog/prove.pl", "ambit/logic/grammars/fol.lark", "ambit/proto/v1/ambit.proto",
                   "ambit/generators/radd/data/demo_facts.json", "ambit/py.typed",
                   "ambit/web/static/index.html", "ambit/web/static/app.js", "ambit/web/static/app.css"):
        assert needed in names, f"{needed} is not in the wheel"
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert "Name: ambit-semantics" in text.splitlines(), text[:300]  # ours on the index; `ambit` is another project
    requires = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Requires-Dist:")]
    assert not [r for r in requires if "==" in r.split(";")[0]], f"exact pins in the metadata: {requires}"
    core = sorted(re.split(r"[<>=!~; \[]", r)[0].lower() for r in requires if "extra ==" not in r)
    assert core == ["grpcio", "grpcio-status", "lark", "protobuf", "pyswip", "pyyaml"], core
    extras = {line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Provides-Extra:")}
    assert {"server", "local", "remote", "eval", "provers", "all"} <= extras, extras
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "ambit = ambit.cli:entry" in zipfile.ZipFile(wheel).read(entry).decode()


def test_core_install_has_no_torch_and_one_top_level_package(venv: Path, tmp_path: Path) -> None:
    code = ("import importlib.util, json, importlib.metadata as md; "
            "dist = md.distribution('ambit-semantics'); "
            "tops = sorted({f.parts[0] for f in dist.files if not f.parts[0].endswith('.dist-info') "
            "and f.parts[0] != '..'}); "
            "print(json.dumps({'tops': tops, 'heavy': [m for m in ('torch', 'transformers', 'matplotlib', "
            "'numpy', 'z3') if importlib.util.find_spec(m)], 'version': dist.version}))")
    out = json.loads(_in_venv(venv, ["python", "-c", code], tmp_path).stdout)
    assert out == {"tops": ["ambit"], "heavy": [], "version": __version__}, out


def test_smoke_ambit_command_in_the_core_install(venv: Path, tmp_path: Path) -> None:
    assert _in_venv(venv, ["ambit", "--version"], tmp_path).stdout.strip() == f"ambit {__version__}"
    p = _in_venv(venv, ["ambit", "logic", "equiv", A, B], tmp_path)
    assert p.stdout.splitlines()[0] == "NOT_EQUIVALENT", p.stdout
    p = _in_venv(venv, ["ambit", "logic", "equiv", A, "exists z . forall w . saw(z, w)"], tmp_path)
    assert p.stdout.splitlines()[0] == "EQUIVALENT", p.stdout
    (tmp_path / "socrates.p").write_text(PROBLEM, encoding="utf-8")
    p = _in_venv(venv, ["ambit", "logic", "entails", "--from", "tptp", "socrates.p"], tmp_path)
    assert p.stdout.splitlines()[0] == "TRUE", p.stdout
    # Z3 is an extra: its absence is one line at most, and never a traceback
    assert "Traceback" not in p.stderr and len([ln for ln in p.stderr.splitlines() if "z3" in ln.lower()]) <= 1, p.stderr
    for command in ("serve", "eval", "logic", "generate", "parse", "equiv"):
        p = subprocess.run([str(venv / "ambit"), command, "--help"], cwd=tmp_path, env=_env(venv), capture_output=True,
                           text=True, timeout=120)
        assert "Traceback" not in p.stderr, (command, p.stderr)
        if p.returncode != 0:  # a command whose extra is missing says which one to install
            assert re.search(r"pip install 'ambit-semantics\[\w+\]'", p.stderr), (command, p.stderr)


# Every command of the light install without its extra, as a new user types it: (command line, the
# extra its one line names). None: it works there (exit 0).
LIGHT_COMMANDS = [
    ("equiv 'exists x . man(x)' 'exists y . man(y)'", "server"),
    ("entails --premises premises.txt --conclusion 'mortal(socrates)'", "server"),
    ("canon 'exists x . man(x)'", "server"),
    ("parse 'a man saw Mary'", "server"),
    ("score 'Sentence: a man' ' exists x . man(x)'", "server"),
    ("radd 'a text'", "server"),
    ("health", "server"), ("info", "server"), ("stats", "server"),
    ("explain 'every boy saw a dog'", "server"),
    ("serve --port 0", "server"), ("serve --port 0 --no-model", "server"),
    ("eval all --out run-all", "eval"), ("eval folio --out run-folio", "eval"), ("eval compare a b", "eval"),
    ("generate implicature", "eval"),
    ("generate amp --type pp", None), ("generate folio --n 2", None),
    ("logic equiv 'exists x . man(x)' 'exists y . man(y)'", None),
    ("logic canon --from nltk --to folio < formula.txt", None),
    ("explain 'every boy saw a dog' --lf 'forall x . exists y . exists a . boy(x) AND dog(y) AND saw(a) AND "
     "agent(a, x) AND patient(a, y)' --lf 'exists y . forall x . exists a . boy(x) AND dog(y) AND saw(a) AND "
     "agent(a, x) AND patient(a, y)'", None),
]


@pytest.mark.parametrize(("command", "extra"), LIGHT_COMMANDS, ids=[c[:30] for c, _ in LIGHT_COMMANDS])
def test_every_command_in_the_core_install_works_or_names_its_extra(venv: Path, tmp_path: Path, command: str,
                                                                     extra: str | None) -> None:
    """One line, exit 2, the extra (by the distribution's name), before any server says "listening"."""
    (tmp_path / "premises.txt").write_text("all x (Man(x) -> Mortal(x))\nMan(socrates)\n", encoding="utf-8")
    (tmp_path / "formula.txt").write_text("all x.(dog(x) -> animal(x))\n", encoding="utf-8")
    p = subprocess.run(f"ambit {command}", shell=True, cwd=tmp_path, env=_env(venv), capture_output=True, text=True,
                       timeout=300, stdin=subprocess.DEVNULL)
    if extra is None:
        assert p.returncode == 0 and p.stdout.strip(), (command, p.returncode, p.stderr[-2000:])
        return
    assert p.returncode == 2, (command, p.returncode, p.stdout[-1000:], p.stderr[-2000:])
    [line] = p.stderr.strip().splitlines()
    assert line.startswith("error: this command needs ") and f"pip install 'ambit-semantics[{extra}]'" in line, line
    assert "listening" not in p.stdout, p.stdout
    assert not list(tmp_path.glob("run-*")), "a refused eval left its --out folder behind"


def test_docs_python_example_runs_in_the_core_install(venv: Path, tmp_path: Path) -> None:
    """The README's Python quick start (the block that imports ambit), as a user would paste it."""
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    example = next((b for b in blocks if "import ambit" in b), None)
    assert example is not None, "README.md has no Python example that imports ambit"
    (tmp_path / "example.py").write_text(example, encoding="utf-8")
    p = _in_venv(venv, ["python", "example.py"], tmp_path)
    assert p.stdout.strip(), "the example printed nothing"


def _start(cmd: list[str], env: dict, cwd: Path) -> tuple[subprocess.Popen, str]:
    """A server process and its address, once it says it is ready."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    address: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            lines.append(line)
            m = re.search(r"listening on (\S+)", line)
            if m:
                address.append(m.group(1))
            if "ready" in line:
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    ready.wait(300)
    if proc.poll() is not None or not address:
        proc.kill()
        pytest.fail("the server did not start:\n" + "".join(lines[-40:]))
    return proc, address[0]


def test_remote_server_runs_without_torch(venv: Path, wheel: Path, tmp_path: Path) -> None:
    pip = [str(venv / "python"), "-m", "pip", "install", "-q", "-c", str(CONSTRAINTS)]
    _run([*pip, f"{wheel}[remote]"], timeout=1800, env=_env(venv))
    standin = StandIn().start()
    proc = None
    try:
        proc, address = _start([str(venv / "ambit"), "serve", "--port", "0", "--model", f"openai:standin@{standin.url}",
                                "--remote-cache", "none"], _env(venv), tmp_path)
        p = _in_venv(venv, ["ambit", "score", "Sentence: a man saw Mary.\nLF:", " exists x . man(x)",
                            " forall x . man(x)", "--server", address, "--json"], tmp_path)
        scores = json.loads(p.stdout)["scores"]
        assert len(scores) == 2 and abs(sum(s["min_prob_renorm"] for s in scores) - 1) < 1e-6, scores
        p = _in_venv(venv, ["ambit", "parse", "a man saw Mary", "--prompt", "Sentence: {utterance}\nLF:", "-k", "2",
                            "--server", address, "--json"], tmp_path)  # decoding: the hypotheses' code path
        assert json.loads(p.stdout)["candidates"], p.stdout
        assert standin.posts > 0
        loaded = _in_venv(venv, ["python", "-c", "import importlib.util; print(bool(importlib.util.find_spec('torch')))"],
                          tmp_path)
        assert loaded.stdout.strip() == "False", "ambit-semantics[remote] installed torch"
        # the default model needs [local]: one line before "listening", and the alternative
        p = subprocess.run([str(venv / "ambit"), "serve", "--port", "0"], cwd=tmp_path, env=_env(venv),
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 2 and "listening" not in p.stdout, (p.stdout, p.stderr)
        assert p.stderr.strip() == ("error: this command needs 'torch', which is not installed: "
                                    "pip install 'ambit-semantics[local]'; or use --no-model (the logic RPCs alone)")
        p = subprocess.run([str(venv / "ambit"), "equiv", A, B], cwd=tmp_path, env=_env(venv), capture_output=True,
                           text=True, timeout=300)
        assert p.returncode == 2 and "ambit logic equiv" in p.stderr and "[local]" in p.stderr, p.stderr
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        standin.kill()


def test_all_extras_install_and_eval_help(venv: Path, wheel: Path, tmp_path: Path) -> None:
    pip = [str(venv / "python"), "-m", "pip", "install", "-q", "-c", str(CONSTRAINTS)]
    t0 = time.monotonic()
    _run([*pip, f"{wheel}[all]"], timeout=2400, env=_env(venv))
    print(f"ambit-semantics[all] installed in {time.monotonic() - t0:.0f} s")
    for suite in ("all", "amp-fewshot", "compare"):
        p = _in_venv(venv, ["ambit", "eval", suite, "--help"], tmp_path)
        assert "usage:" in p.stdout, (suite, p.stdout)
