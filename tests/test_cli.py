"""The one command, `ambit` (and `python -m ambit`): its version, its help, every command's help
without torch, unknown commands, and the line that names the extra a missing dependency needs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ambit import __version__
from ambit.cli import CLIENT_COMMANDS, ROUTED

HEAVY = ("torch", "transformers", "matplotlib", "accelerate", "llguidance")

# Runs ambit's main in a fresh interpreter, with the modules named in argv[1] (comma-separated)
# made unimportable, and reports the exit status and the heavy modules that were loaded.
_RUN = """
import json, sys
blocked = [m for m in sys.argv[1].split(",") if m]
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
from ambit.cli import main
try:
    code = main(sys.argv[2:])
except SystemExit as e:
    code = e.code
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(%r))
print("\\n" + json.dumps({"code": code, "heavy": heavy}))
""" % (HEAVY,)


def _ambit(args: list[str], blocked: tuple[str, ...] = ()) -> tuple[dict, subprocess.CompletedProcess]:
    p = subprocess.run([sys.executable, "-c", _RUN, ",".join(blocked), *args], capture_output=True, text=True,
                       timeout=300)
    assert p.stdout.strip(), p.stderr[-2000:]
    return json.loads(p.stdout.strip().splitlines()[-1]), p


def test_version_from_the_console_script_and_python_m() -> None:
    script = Path(sys.executable).with_name("ambit")
    for cmd in ([str(script)] if script.exists() else shutil.which("ambit") and ["ambit"] or []), \
               [sys.executable, "-m", "ambit"]:
        if not cmd:
            pytest.fail("the `ambit` console script is not installed beside this interpreter")
        p = subprocess.run([*cmd, "--version"], capture_output=True, text=True, timeout=120)
        assert p.returncode == 0 and p.stdout.strip() == f"ambit {__version__}", (cmd, p.stdout, p.stderr)


def test_help_lists_every_command_and_no_arguments_is_a_usage_error() -> None:
    out, p = _ambit(["--help"])
    assert out["code"] == 0
    for name in (*ROUTED, *CLIENT_COMMANDS):
        assert f"  {name} " in p.stdout, name
    out, p = _ambit([])
    assert out["code"] == 2 and "usage: ambit" in p.stderr


@pytest.mark.parametrize("command", [*ROUTED, *CLIENT_COMMANDS, "eval all", "eval compare", "logic equiv",
                                     "logic entails", "generate amp"])
def test_every_help_loads_no_torch(command: str) -> None:
    out, p = _ambit([*command.split(), "--help"])
    assert out["code"] == 0, p.stderr[-2000:]
    assert len(p.stdout.strip().splitlines()) > 2, f"no help on stdout: {p.stdout[:500]!r}"
    assert not {"torch", "transformers"} & set(out["heavy"]), out


def test_logic_equiv_answers_without_torch_or_matplotlib() -> None:
    out, p = _ambit(["logic", "equiv", "exists x . forall y . saw(x, y)", "forall y . exists x . saw(x, y)"])
    assert out["code"] == 0 and p.stdout.splitlines()[0] == "NOT_EQUIVALENT", p.stdout
    assert out["heavy"] == [], out


def test_unknown_command_is_a_usage_error() -> None:
    out, p = _ambit(["frobnicate"])
    assert out["code"] == 2 and "unknown command 'frobnicate'" in p.stderr


@pytest.mark.parametrize(("args", "missing", "extra", "instead"), [
    (["eval", "all", "--help"], "matplotlib", "eval", ""),
    (["generate", "implicature", "--help"], "numpy", "eval", ""),
    (["serve", "--help"], "grpc_health", "server", "; or use `ambit logic ...` (local checks, no server)"),
])
def test_a_missing_extra_is_named_in_one_line(args: list[str], missing: str, extra: str, instead: str) -> None:
    out, p = _ambit(args, blocked=(missing,))
    assert out["code"] == 2, p.stdout + p.stderr
    assert p.stderr.strip() == (f"error: this command needs {missing!r}, which is not installed: "
                                f"pip install 'ambit-semantics[{extra}]'{instead}")


# (command line, the module made missing, the extra named, what the line offers instead)
NEEDS_A_MODEL = [
    (["equiv", "exists x . man(x)", "exists y . man(y)"], "torch", "local",
     "`ambit logic equiv` (a local check, no model) or --server HOST:PORT"),
    (["entails", "--premises", "-", "--conclusion", "man(a)"], "torch", "local", "`ambit logic entails`"),
    (["canon", "man(a)"], "transformers", "local", "`ambit logic canon`"),
    (["parse", "a man", "--model", "openai:m@http://127.0.0.1:9/v1"], "httpx", "remote", "--server HOST:PORT"),
    (["info"], "torch", "local", "--server HOST:PORT"),
    (["explain", "every boy saw a dog"], "torch", "local", "--lf LF --lf LF"),
    (["serve", "--port", "0"], "torch", "local", "--no-model"),
    (["serve", "--port", "0", "--model", "openai:m@http://127.0.0.1:9/v1"], "httpx", "remote", "--no-model"),
]


@pytest.mark.parametrize(("args", "missing", "extra", "instead"), NEEDS_A_MODEL,
                         ids=[" ".join(a[:1] + a[-2:]) for a, *_ in NEEDS_A_MODEL])
def test_a_command_checks_its_extras_before_it_starts(args, missing, extra, instead) -> None:
    """Before a model loads or a server says "listening": one line, the extra, the alternative."""
    out, p = _ambit(args, blocked=(missing,))
    assert out["code"] == 2, p.stdout + p.stderr
    [line] = p.stderr.strip().splitlines()
    assert line.startswith(f"error: this command needs {missing!r}, which is not installed: "
                           f"pip install 'ambit-semantics[{extra}]'; or use "), line
    assert instead in line, line
    assert "listening" not in p.stdout and "starting embedded server" not in p.stderr
    assert not {"torch", "transformers"} & set(out["heavy"]), out


def test_serve_without_the_server_extra_offers_the_local_checker() -> None:
    out, p = _ambit(["serve", "--port", "0", "--no-model"], blocked=("grpc_reflection",))
    assert out["code"] == 2 and "listening" not in p.stdout, p.stdout + p.stderr
    assert p.stderr.strip().startswith("error: this command needs 'grpc_reflection', which is not installed: "
                                       "pip install 'ambit-semantics[server]'"), p.stderr


_PIPE = """
import signal, sys
from ambit.cli import run_quietly_on_broken_pipe
def main():
    print("sigpipe", "ignored" if signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN else "default", flush=True)
    for i in range(200_000):
        print(i)
    return 0
run_quietly_on_broken_pipe(main)
"""


def test_a_closed_stdout_ends_quietly_and_sigpipe_stays_ignored():
    """`... | head` ends with 141 and nothing on stderr, while SIGPIPE stays ignored: with its
    default action a write to a closed socket (a model endpoint that died mid-request) would kill
    `ambit eval` or `ambit serve` instead of letting them retry."""
    p = subprocess.run(["bash", "-c", f"{sys.executable} -c '{_PIPE}' | head -1; echo ${{PIPESTATUS[0]}} >&2"],
                       capture_output=True, text=True, timeout=60)
    assert p.stdout == "sigpipe ignored\n"
    assert p.stderr.strip() == "141", p.stderr
