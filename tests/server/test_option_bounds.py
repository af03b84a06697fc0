"""Bounds on options and one-line refusals (issue 45, attack 8): `serve --port 99999` does not
quietly bind another port, `--workers 100000`, `--prolog-seconds -1` and `--grace nan` are refused,
`logic entails --workers 100000` is one line, Generate with temperature NaN is INVALID_ARGUMENT,
token and key files that are /dev/zero or a FIFO are one line at once (no growth, no hang), and
Ctrl-C ends a command with one line and status 130."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest

from ambit.server.__main__ import parse_args
from ambit.server.guard.limits import Limits
from ambit.server.service.errors import InvalidField
from ambit.server.service.generation import GenerateQuery, params
from tests.paths import REPO


@pytest.mark.parametrize("argv, words", [
    (["--port", "99999"], "argument --port: must be a port from 0 to 65535, not 99999"),
    (["--port", "-1"], "argument --port: must be a port"),
    (["--health-port", "70000"], "argument --health-port: must be a port"),
    (["--workers", "100000"], "argument --workers: must be from 1 to 1024"),
    (["--workers", "0"], "argument --workers: must be from 1"),
    (["--prolog-seconds", "-1"], "argument --prolog-seconds: must be a positive, finite number of seconds"),
    (["--prolog-seconds", "inf"], "argument --prolog-seconds: must be a positive"),
    (["--grace", "nan"], "argument --grace: must be a finite number ≥ 0 of seconds, not nan"),
    (["--prolog-workers", "100000"], "argument --prolog-workers: must be from 1 to 256"),
])
def test_serve_refuses_out_of_range_options_in_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as exit_:
        parse_args(["--no-model", *argv])
    assert exit_.value.code == 2
    assert words in capsys.readouterr().err.strip().splitlines()[-1]


def test_serve_keeps_its_defaults_and_accepts_port_zero():
    args = parse_args(["--no-model", "--port", "0", "--grace", "0"])
    assert args.port == 0 and args.grace == 0.0 and args.workers == 64


def test_logic_workers_are_bounded():
    p = subprocess.run([sys.executable, "-m", "ambit", "logic", "entails", "--jsonl", "--workers", "100000"],
                       cwd=REPO, input="", capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "--workers: must be at most 256" in p.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("value", [math.nan, math.inf, -0.5])
def test_generate_temperature_nan_is_invalid_argument(value):
    with pytest.raises(InvalidField) as err:
        params(GenerateQuery(messages=(("user", "hi"),), temperature=value), Limits(), has_template=False)
    assert err.value.field == "temperature" and err.value.reason == "OUT_OF_RANGE"


@pytest.mark.parametrize("option, where", [
    ("--auth-token-file", ["score", "--server", "127.0.0.1:1", "p", "c"]),
    ("--api-key-file", ["serve", "--model", "openai:m@http://127.0.0.1:1/v1"]),
])
@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_a_secret_file_that_is_not_regular_is_one_line_at_once(tmp_path, option, where, target):
    if target == "fifo":
        target = str(tmp_path / "fifo")
        os.mkfifo(target)
    p = subprocess.run([sys.executable, "-m", "ambit", *where, option, target], cwd=REPO, capture_output=True,
                       text=True, timeout=120, stdin=subprocess.DEVNULL)
    lines = p.stderr.strip().splitlines()
    assert p.returncode != 0 and "Traceback" not in p.stderr and "MemoryError" not in p.stderr, p.stderr
    assert any(option in line and target in line and "not a regular file" in line for line in lines), lines


def test_ctrl_c_is_one_line_and_status_130(monkeypatch, capsys):
    """A command interrupted while it works (KeyboardInterrupt anywhere in it): one line on stderr,
    status 130, no traceback."""
    from types import SimpleNamespace

    import ambit.cli as cli

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.importlib, "import_module", lambda name: SimpleNamespace(main=interrupted))
    assert cli.main(["logic", "equiv", "a", "b"]) == 130
    assert capsys.readouterr().err.strip().splitlines() == ["ambit logic: interrupted"]
